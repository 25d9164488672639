package router

// The user's moves, work, jobs, promotions, homes and introductions.

import (
	"strings"
	"unicode"

	"github.com/factbase/factbase"
)

// moved parses the place after "moved": "to Berlin", "back to Rome".
func (c *cl) moved(k int) (outcome, bool) {
	for c.w(k) == "back" || c.w(k) == "over" || c.w(k) == "out" || c.w(k) == "here" && c.w(k+1) == "to" {
		k++
	}
	if c.w(k) == "from" {
		// "I moved from Paris to Lyon last year"
		for m := k + 2; m < len(c.t) && m < k+7; m++ {
			if c.w(m) == "to" {
				return c.setFact(factbase.KeyCity, m+1, len(c.t))
			}
		}
	}
	if c.w(k) != "to" {
		return none, false
	}
	return c.setFact(factbase.KeyCity, k+1, len(c.t))
}

// work parses what follows "work" (or "working", "employed"): "at/for X [as a R]",
// "as a R [at/for X]", "by X".
func (c *cl) work(k int, employed bool) (outcome, bool) {
	// "I work nights at St. Luke's", "I work part-time for Oxfam", "I work in HR at
	// Unilever": when and in which department come before the employer.
	for {
		if n := c.oneOf(k, []string{"part", "-", "time"}, []string{"full", "-", "time"}, []string{"part", "time"}, []string{"full", "time"}); n > 0 {
			k = n
			continue
		}
		if !workShifts[c.w(k)] {
			break
		}
		k++
	}
	if c.w(k) == "in" {
		for m := k + 2; m <= k+4 && m < len(c.t); m++ {
			if c.t[m-1].kind != tWord {
				break
			}
			if c.w(m) == "at" || c.w(m) == "for" {
				k = m
				break
			}
		}
	}
	switch c.w(k) {
	case "at", "for", "with", "by":
		if c.w(k) == "with" && !employed {
			return none, false
		}
		end := len(c.t)
		var stmts []Statement
		if v := c.employer(k+1, end); v != "" {
			stmts = append(stmts, Statement{Kind: Set, Key: factbase.KeyEmployer, Values: []string{v}, Span: c.span})
		} else {
			if c.trimPunctEnd(k+1, end) == k+1 {
				return c.ask(keyQuestions[factbase.KeyEmployer]), true
			}
			return none, true
		}
		for m := k + 1; m < end; m++ {
			if c.w(m) == "as" {
				if v := c.role(m+1, end, false); v != "" {
					stmts = append(stmts, Statement{Kind: Set, Key: factbase.KeyRole, Values: []string{v}, Span: c.span})
				}
				break
			}
		}
		return outcome{route: RouteWrite, stmts: stmts}, true
	case "as":
		end := len(c.t)
		v := c.role(k+1, end, false)
		if v == "" {
			if c.trimPunctEnd(k+1, end) == k+1 || c.trimPunctEnd(k+1, end) == k+2 && (c.w(k+1) == "a" || c.w(k+1) == "an") {
				return c.ask(keyQuestions[factbase.KeyRole]), true
			}
			return none, true
		}
		stmts := []Statement{{Kind: Set, Key: factbase.KeyRole, Values: []string{v}, Span: c.span}}
		for m := k + 1; m < end; m++ {
			if c.w(m) == "at" || c.w(m) == "for" {
				if e := c.employer(m+1, end); e != "" {
					stmts = append(stmts, Statement{Kind: Set, Key: factbase.KeyEmployer, Values: []string{e}, Span: c.span})
				}
				break
			}
		}
		return outcome{route: RouteWrite, stmts: stmts}, true
	}
	return none, false
}

// workShifts say when or how one works, before where: "I work nights at ...".
var workShifts = map[string]bool{"nights": true, "days": true, "weekends": true, "evenings": true,
	"mornings": true, "shifts": true, "part-time": true, "full-time": true, "remotely": true,
	"freelance": true, "mostly": true}

// iAmA parses "I'm a R [at/for E]" from the article at k.
func (c *cl) iAmA(k int) (outcome, bool) {
	end := len(c.t)
	at := -1
	for m := k + 1; m < end; m++ {
		if c.w(m) == "at" || c.w(m) == "for" || c.w(m) == "with" {
			at = m
			break
		}
	}
	byTrade := false
	if n := end; n-k > 3 && (c.at(n-2, "by", "profession") > 0 || c.at(n-2, "by", "trade") > 0) {
		byTrade, end = true, n-2
	}
	strict := at < 0 && !byTrade
	if at >= 0 {
		e := c.employer(at+1, end)
		if e == "" {
			return none, false
		}
		r := c.role(k, at, false)
		if r == "" {
			return none, false
		}
		if last := r[strings.LastIndexByte(r, ' ')+1:]; studentWords[strings.ToLower(last)] {
			// "a PhD student at Edinburgh": a school, not an employer.
			return c.statement(Statement{Kind: Set, Key: factbase.KeyRole, Values: []string{r}}), true
		}
		return outcome{route: RouteWrite, stmts: []Statement{
			{Kind: Set, Key: factbase.KeyRole, Values: []string{r}, Span: c.span},
			{Kind: Set, Key: factbase.KeyEmployer, Values: []string{e}, Span: c.span},
		}}, true
	}
	r := c.role(k, end, strict)
	if r == "" {
		return none, false
	}
	return c.statement(Statement{Kind: Set, Key: factbase.KeyRole, Values: []string{r}}), true
}

// gotJob parses "(got|have|started) a/the/my (new) job at X".
func (c *cl) gotJob(k int) (outcome, bool) {
	if c.w(k) == "a" || c.w(k) == "an" || c.w(k) == "the" || c.w(k) == "my" {
		k++ // "I got the job at Spotify", "I started my new job at Arup"
	}
	for c.w(k) == "new" || c.w(k) == "full-time" || c.w(k) == "part-time" {
		k++
	}
	if c.w(k) != "job" && c.w(k) != "position" && c.w(k) != "role" {
		return none, false
	}
	k++
	if c.w(k) == "as" {
		return c.work(k, false)
	}
	if c.w(k) != "at" && c.w(k) != "with" {
		return none, false
	}
	v := c.employer(k+1, len(c.t))
	if v == "" {
		return none, true
	}
	return c.statement(Statement{Kind: Set, Key: factbase.KeyEmployer, Values: []string{v}}), true
}

// callMe parses "call me N", "you can call me N", "people call me N".
func (c *cl) callMe() (outcome, bool) {
	n := c.oneOf(0, []string{"call", "me"}, []string{"you", "can", "call", "me"},
		[]string{"you", "may", "call", "me"}, []string{"you", "should", "call", "me"},
		[]string{"people", "call", "me"}, []string{"everyone", "calls", "me"},
		[]string{"everybody", "calls", "me"}, []string{"friends", "call", "me"},
		[]string{"they", "call", "me"})
	if n < 0 {
		return c.reachMe()
	}
	if c.w(n) == "at" || c.w(n) == "on" {
		// "call me at 555 0100"
		if v := c.phone(n+1, c.trimPunctEnd(n+1, len(c.t))); v != "" {
			return c.statement(Statement{Kind: Set, Key: factbase.KeyPhone, Values: []string{v}}), true
		}
		return none, true
	}
	if c.w(n) == "by" {
		return none, true
	}
	v := c.name(c.trimValueStart(n), len(c.t))
	if v == "" {
		return none, true
	}
	return c.statement(Statement{Kind: Set, Key: factbase.KeyName, Values: []string{v}}), true
}

func (c *cl) trimValueStart(i int) int {
	i, _, _ = c.trimValue(i, len(c.t))
	return i
}

// reachMe parses "(you can) reach / contact / email / text me at X": an email address
// or a phone number.
func (c *cl) reachMe() (outcome, bool) {
	n := c.oneOf(0, []string{"you", "can", "reach", "me", "at"}, []string{"you", "can", "contact", "me", "at"},
		[]string{"you", "can", "email", "me", "at"}, []string{"you", "can", "text", "me", "at"},
		[]string{"reach", "me", "at"}, []string{"contact", "me", "at"}, []string{"email", "me", "at"},
		[]string{"text", "me", "at"}, []string{"i", "can", "be", "reached", "at"},
		[]string{"you", "can", "reach", "me", "on"}, []string{"reach", "me", "on"}, []string{"text", "me", "on"},
		[]string{"call", "me", "on"}, []string{"call", "me", "at"}, []string{"you", "can", "call", "me", "on"},
		[]string{"you", "can", "call", "me", "at"}, []string{"i", "am", "on", "whatsapp", "at"},
		[]string{"i", "am", "on", "whatsapp", "on"}, []string{"i", "can", "be", "reached", "on"})
	if n < 0 {
		return none, false
	}
	end := c.trimPunctEnd(n, len(c.t))
	if v := c.email(n, end); v != "" {
		return c.statement(Statement{Kind: Set, Key: factbase.KeyEmail, Values: []string{v}}), true
	}
	if v := c.phone(n, end); v != "" {
		return c.statement(Statement{Kind: Set, Key: factbase.KeyPhone, Values: []string{v}}), true
	}
	return none, true
}

// introduction returns the name in "I'm Ada Lovelace" from the token after "am": one
// to three capitalised words ending the clause, none of them a known adjective or
// demonym. After a greeting one word suffices; without one, the first word must not be
// a common word either.
func (c *cl) introduction(j, end int) string {
	if j >= end || end-j > 3 {
		return ""
	}
	for k := j; k < end; k++ {
		t := c.t[k]
		first := []rune(c.text(k, k+1))
		if t.kind != tWord || len(first) == 0 || !unicode.IsUpper(first[0]) || demonyms[t.w] || nameStops[t.w] || selfWords[t.w] {
			return ""
		}
	}
	return c.name(j, end)
}

// promoted parses "promoted to R (at E)" from k (after "got", "was", "have been"):
// the new role, and the employer when named.
func (c *cl) promoted(k int) (outcome, bool) {
	if c.w(k) == "just" || c.w(k) == "finally" || c.w(k) == "recently" || c.w(k) == "officially" {
		k++
	}
	if c.w(k) != "promoted" || c.w(k+1) != "to" {
		return none, false
	}
	end := len(c.t)
	r := c.role(k+2, end, false)
	if r == "" {
		return none, true
	}
	stmts := []Statement{{Kind: Set, Key: factbase.KeyRole, Values: []string{r}, Span: c.span}}
	for m := k + 2; m < end; m++ {
		if c.w(m) == "at" {
			if e := c.employer(m+1, end); e != "" && !c.possessed(m+1) {
				stmts = append(stmts, Statement{Kind: Set, Key: factbase.KeyEmployer, Values: []string{e}, Span: c.span})
			}
			break
		}
	}
	return outcome{route: RouteWrite, stmts: stmts}, true
}

// possessed reports whether the phrase at k opens with a possessive determiner
// ("her law firm"), which names no employer.
func (c *cl) possessed(k int) bool {
	return determiners[c.w(k)] && c.w(k) != "the"
}

// beenAt parses "(I've) been at X for six years" from the token after "at": X is
// the employer when a duration follows and X is capitalised.
func (c *cl) beenAt(k int) (outcome, bool) {
	if c.w(k-1) != "at" {
		if c.w(k) != "at" {
			return none, false
		}
		k++
	}
	end := len(c.t)
	first := []rune(c.text(k, k+1))
	if len(first) == 0 || !unicode.IsUpper(first[0]) {
		return none, false
	}
	for m := k + 1; m < end; m++ {
		if c.w(m) == "for" || c.w(m) == "since" {
			// A job's span: "for six years", "for over a decade", "since 2019";
			// "for three days" is a visit.
			long := c.w(m) == "since" && (len(c.w(m+1)) == 4 && c.t[min(m+1, end-1)].kind == tNum || months[c.w(m+1)])
			for n := m + 1; n < end && n <= m+4; n++ {
				long = long || c.w(n) == "years" || c.w(n) == "year" || c.w(n) == "months" || c.w(n) == "decade" || c.w(n) == "decades"
			}
			if !long {
				return none, false
			}
			v := c.employer(k, m)
			if v == "" {
				return none, false
			}
			return c.statement(Statement{Kind: Set, Key: factbase.KeyEmployer, Values: []string{v}}), true
		}
	}
	return none, false
}

// dwelling parses "a house / flat / apartment in X" from k, after "bought", "rent",
// "own": X is the home city.
func (c *cl) dwelling(k int) (outcome, bool) {
	if c.w(k) == "a" || c.w(k) == "an" || c.w(k) == "our" || c.w(k) == "my" {
		k++
	}
	for c.w(k) == "new" || c.w(k) == "first" || c.w(k) == "small" || c.w(k) == "little" || c.w(k) == "big" {
		k++
	}
	if !dwellings[c.w(k)] || c.w(k+1) != "in" {
		return none, false
	}
	for m := k + 2; m < len(c.t); m++ {
		if w := c.w(m); w == "every" || w == "each" || w == "during" || w == "for" && c.timeTail(m) {
			return none, true // "We rent a place in Valencia every August": a holiday, not a home
		}
	}
	v := c.city(k+2, len(c.t))
	if v == "" {
		return none, false
	}
	return c.statement(Statement{Kind: Set, Key: factbase.KeyCity, Values: []string{v}}), true
}

// dwellings are homes: "a house in Leeds", "my apartment in Montreal".
var dwellings = map[string]bool{
	"house": true, "flat": true, "apartment": true, "home": true, "condo": true,
	"place": true, "studio": true, "townhouse": true, "cottage": true,
}

// placePreps after a comma start a second place phrase: "Brooklyn, in Park Slope".
var placePreps = map[string]bool{
	"in": true, "near": true, "outside": true, "close": true, "on": true, "by": true,
	"just": true,
}

// studentWords end the role of someone who studies where they are "at".
var studentWords = map[string]bool{
	"student": true, "pupil": true, "undergrad": true, "undergraduate": true,
	"postdoc": false, "freshman": true, "sophomore": true,
}

// iAmThe parses "I'm the R at/of E" from "the" at k: "I'm the CTO of a small startup
// called Loomly", "I'm the head of marketing at Acme". With "of", the role must end
// in a known occupation and the employer must be named (capitalised, or after
// "called"): "I'm the president of the chess club" states no job.
func (c *cl) iAmThe(k int) (outcome, bool) {
	end := len(c.t)
	for m := k + 1; m < end; m++ {
		if c.w(m) == "at" || c.w(m) == "for" || c.w(m) == "with" {
			return c.iAmA(k)
		}
	}
	of := -1
	for m := k + 1; m < end && m < k+5; m++ {
		if c.w(m) == "of" {
			of = m
			break
		}
	}
	if of < 0 {
		return none, false
	}
	r := c.role(k, of, true)
	if r == "" {
		return none, false
	}
	e := ""
	for m := of + 1; m < end; m++ {
		if c.w(m) == "called" || c.w(m) == "named" {
			e = c.employer(m+1, end)
			break
		}
	}
	if first := []rune(c.text(of+1, of+2)); e == "" && len(first) > 0 && unicode.IsUpper(first[0]) {
		e = c.employer(of+1, end)
	}
	if e == "" {
		return none, false
	}
	return outcome{route: RouteWrite, stmts: []Statement{
		{Kind: Set, Key: factbase.KeyRole, Values: []string{r}, Span: c.span},
		{Kind: Set, Key: factbase.KeyEmployer, Values: []string{e}, Span: c.span},
	}}, true
}

// atWork parses "I'm at Datadog now" from k: the employer, when X is capitalised, a
// time adverb ("now", "these days") follows it, and the sentence speaks of jobs
// ("I quit Oracle last week, I'm at Datadog now") or the adverb is "these days" or
// "nowadays", which a visit does not take.
func (c *cl) atWork(k int) (outcome, bool) {
	end := c.trimPunctEnd(k, len(c.t))
	first := []rune(c.text(k, k+1))
	if k >= end || len(first) == 0 || !unicode.IsUpper(first[0]) {
		return none, false
	}
	m := k + 1
	for m < end && c.w(m) != "now" && c.w(m) != "nowadays" && !(c.w(m) == "these" && c.w(m+1) == "days") {
		m++
	}
	if m == end || m-k > 4 || c.w(m) == "now" && !c.p.jobCue {
		return none, false
	}
	if n := m + 1 + btoi(c.w(m) == "these"); c.trimPunctEnd(n, end) > n {
		return none, false
	}
	v := c.employer(k, m)
	if v == "" {
		return none, false
	}
	return c.statement(Statement{Kind: Set, Key: factbase.KeyEmployer, Values: []string{v}}), true
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// introAppositives parses "I'm Sofia, 27, a vet from Madrid" from the token after
// "am": a name set off by a comma, followed only by an age and "a/an <occupation>"
// (cut before "from", "in", "at"). It gives the name and the role.
func (c *cl) introAppositives(j int) (outcome, bool) {
	end := c.trimPunctEnd(j, len(c.t))
	comma := -1
	for m := j + 1; m < end && m <= j+3; m++ {
		if c.w(m) == "," {
			comma = m
			break
		}
	}
	if comma < 0 {
		return none, false
	}
	name := c.introduction(j, comma)
	if name == "" {
		return none, false
	}
	stmts := []Statement{{Kind: Set, Key: factbase.KeyName, Values: []string{name}, Span: c.span}}
	for a := comma + 1; a < end; {
		b := a
		for b < end && c.w(b) != "," {
			b++
		}
		switch {
		case b-a == 1 && c.t[a].kind == tNum:
		case c.w(a) == "a" || c.w(a) == "an":
			stop := a + 1
			for stop < b && c.w(stop) != "from" && c.w(stop) != "in" && c.w(stop) != "at" && c.w(stop) != "living" {
				stop++
			}
			r := c.role(a, stop, true)
			if r == "" {
				return none, false
			}
			stmts = append(stmts, Statement{Kind: Set, Key: factbase.KeyRole, Values: []string{r}, Span: c.span})
		default:
			return none, false
		}
		a = b + 1
	}
	return outcome{route: RouteWrite, stmts: stmts}, true
}

// weStatement parses a clause whose subject is "we", for the home the user shares:
// "We moved to Bergen last year", "We live in Leeds", "We finally bought a house in
// Leeds", "We're based in Oslo". Other facts about "we" are not the user's alone.
func (c *cl) weStatement() (outcome, bool) {
	j := 1
	for adverbs[c.w(j)] {
		j++
	}
	switch c.w(j) {
	case "live", "reside":
		if c.w(j+1) == "in" {
			return c.setFact(factbase.KeyCity, j+2, len(c.t))
		}
	case "moved", "relocated":
		return c.moved(j + 1)
	case "bought", "rent", "rented", "own":
		return c.dwelling(j + 1)
	case "have", "are":
		k := j + 1
		for adverbs[c.w(k)] {
			k++
		}
		switch c.w(k) {
		case "moved", "relocated":
			if c.w(j) == "have" {
				return c.moved(k + 1)
			}
		case "living", "based":
			if c.w(j) == "are" && c.w(k+1) == "in" {
				return c.setFact(factbase.KeyCity, k+2, len(c.t))
			}
		case "bought":
			return c.dwelling(k + 1)
		}
	case "was", "were", "used", "lived", "never", "do", "did":
		return none, true
	}
	return none, false
}

// andVerbs after "and" start a second clause rather than join two names: "Oakland
// and commute to San Francisco".
var andVerbs = map[string]bool{
	"commute": true, "travel": true, "drive": true, "study": true, "teach": true,
	"walk": true, "bike": true, "cycle": true, "rent": true, "share": true, "fly": true,
	"run": true, "spend": true, "visit": true, "take": true, "love": true, "hate": true,
	"enjoy": true, "miss": true, "moved": true, "grew": true, "raise": true,
}

// basics parses the user's basics said without "I" or "my" first: "Here's my email:
// ...", "Name's Sam", "Home is Lisbon", "Lisbon is home now", "March 3 is my
// birthday", and the subjectless notes of a profile ("Based in Berlin", "Currently
// living in Lisbon").
func (c *cl) basics() (outcome, bool) {
	end := c.trimPunctEnd(0, len(c.t))
	switch {
	case c.at(0, "here", "is", "my") > 0:
		return c.keyStatement(2)
	case c.w(0) == "name" && c.t[0].poss, c.w(0) == "the" && c.w(1) == "name" && c.t[1].poss:
		n := 1
		if c.w(0) == "the" {
			n = 2
		}
		if v := c.name(n, end); v != "" {
			return c.statement(Statement{Kind: Set, Key: factbase.KeyName, Values: []string{v}}), true
		}
		return none, true
	case c.at(0, "home", "is") > 0 || c.at(0, "home", "for", "me", "is") > 0:
		n := c.oneOf(0, []string{"home", "is"}, []string{"home", "for", "me", "is"})
		return c.setFact(factbase.KeyCity, n, end)
	case c.w(0) == "living" || c.w(0) == "based" || c.w(0) == "residing" || adverbs[c.w(0)] && (c.w(1) == "living" || c.w(1) == "based" || c.w(1) == "moved"),
		(c.w(0) == "working" || adverbs[c.w(0)] && c.w(1) == "working") && c.p.ref == "" && len(c.p.stmts) == 0 && c.w(0) != "still",
		(c.w(0) == "moved" || c.w(0) == "relocated") && c.w(1) == "to":
		if c.p.ref == "" && len(c.p.stmts) == 0 || c.impliedI {
			saved := c.impliedI
			c.impliedI = true
			o, ok := c.iStatement(0)
			c.impliedI = saved
			return o, ok
		}
	}
	// "Lisbon is home (now)", "March 3 is my birthday"
	for k := 1; k < end && k < 10; k++ {
		if c.w(k) != "is" {
			continue
		}
		rest := c.trimFillersEnd(k+1, end)
		switch {
		case rest == k+2 && c.w(k+1) == "home":
			if v := c.city(0, k); v != "" {
				return c.statement(Statement{Kind: Set, Key: factbase.KeyCity, Values: []string{v}}), true
			}
		case c.w(k+1) == "my":
			if key, n, _ := c.keyAt(k + 2); key == factbase.KeyUserBirthday && n == rest {
				if v := c.birthday(0, k); v != "" {
					return c.statement(Statement{Kind: Set, Key: key, Values: []string{v}}), true
				}
				return none, true
			}
		}
		return none, false
	}
	return none, false
}

// trimFillersEnd drops trailing time adverbs and fillers from tokens [i, j): "home
// now", "home these days".
func (c *cl) trimFillersEnd(i, j int) int {
	for j > i {
		switch {
		case c.w(j-1) == "now" || c.w(j-1) == "nowadays" || c.w(j-1) == "currently":
			j--
		case j-2 >= i && c.at(j-2, "these", "days") > 0:
			j -= 2
		default:
			return j
		}
	}
	return j
}
