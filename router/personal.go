package router

import (
	"strings"
	"unicode"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/normalize"
)

// keyAt parses a key phrase after "my" at i (with modifiers); it returns the key, the
// index after the phrase and whether its last word carried a possessive ("name's").
func (c *cl) keyAt(i int) (key string, next int, poss bool) {
	for keyModifiers[c.w(i)] {
		i++
	}
	for n := 4; n >= 1; n-- {
		if i+n > len(c.t) {
			continue
		}
		plain := true
		for k := i; k < i+n; k++ {
			if c.t[k].kind != tWord || k < i+n-1 && c.t[k].poss {
				plain = false
			}
		}
		if !plain {
			continue
		}
		if key, ok := keyPhrases[c.words(i, i+n)]; ok {
			return key, i + n, c.t[i+n-1].poss
		}
	}
	return "", i, false
}

// keyStatement parses "my KEY (is|:) VALUE" from i.
func (c *cl) keyStatement(i int) (outcome, bool) {
	if c.w(i) != "my" || i+1 >= len(c.t) {
		return none, false
	}
	key, j, poss := c.keyAt(i + 1)
	if key == "" {
		return none, false
	}
	v := -1
	switch {
	case poss:
		v = j
	case c.w(j) == "is" || c.w(j) == ":" || c.w(j) == "=" || c.w(j) == "-":
		v = j + 1
	case c.at(j, "has", "changed", "to") > 0:
		v = j + 3
	case c.at(j, "changed", "to") > 0:
		v = j + 2
	case c.at(j, "has", "been") > 0:
		v = j + 2
	case c.w(j) == "was" || c.w(j) == "used" || c.w(j) == "will" || c.w(j) == "would":
		return none, true
	default:
		return none, false
	}
	for adverbs[c.w(v)] {
		v++
	}
	if c.w(v) == "not" || c.w(v) == "never" || c.w(v) == "no" && c.w(v+1) == "longer" {
		return none, true
	}
	return c.setFact(key, v, len(c.t))
}

// setFact validates tokens [i, j) as the value of key and states it; a clause with no
// value asks back, one with an invalid value is not a statement.
func (c *cl) setFact(key string, i, j int) (outcome, bool) {
	i, j, _ = c.trimValue(i, j)
	if i >= j {
		return c.ask(keyQuestions[key]), true
	}
	value := c.factValue(key, i, j)
	if value == "" {
		return none, true
	}
	return c.statement(Statement{Kind: Set, Key: key, Values: []string{value}}), true
}

// factValue checks and cleans the value of key in tokens [i, j); "" if it is not one.
func (c *cl) factValue(key string, i, j int) string {
	switch key {
	case factbase.KeyEmail, factbase.KeyWorkEmail:
		return c.email(i, j)
	case factbase.KeyPhone, factbase.KeyWorkPhone:
		return c.phone(i, j)
	case factbase.KeyName:
		return c.name(i, j)
	case factbase.KeyUserBirthday:
		return c.birthday(i, j)
	case factbase.KeyCity:
		return c.city(i, j)
	case factbase.KeyEmployer:
		return c.employer(i, j)
	case factbase.KeyRole:
		return c.role(i, j, false)
	}
	return ""
}

// email returns the first word of [i, j) shaped like an email address.
func (c *cl) email(i, j int) string {
	for k := i; k < j; k++ {
		w := c.t[k]
		if w.kind == tQuoted {
			w.w = unquote(c.text(k, k+1))
		} else {
			w.w = c.text(k, k+1)
		}
		s := strings.TrimPrefix(strings.Trim(w.w, "<>()[].,;:!?\"'"), "mailto:")
		at := strings.IndexByte(s, '@')
		if at > 0 && at < len(s)-1 && strings.Count(s, "@") == 1 && !strings.ContainsAny(s, " \t") {
			return s
		}
	}
	return ""
}

// phone returns [i, j) cut before the first word that is not part of a phone number,
// if it holds 5 to 20 digits.
func (c *cl) phone(i, j int) string {
	end := i
	for k := i; k < j; k++ {
		t := c.t[k]
		if t.kind == tWord && !isPhoneWord(t.w) {
			break
		}
		if t.kind == tPunct && !strings.Contains("+-().", t.w) {
			break
		}
		end = k + 1
	}
	s := strings.TrimRight(c.text(i, end), "-.(")
	digits := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			digits++
		}
	}
	if digits < 5 || digits > 20 {
		return ""
	}
	return s
}

func isPhoneWord(w string) bool {
	if w == "ext" || w == "x" || w == "extension" {
		return true
	}
	for _, r := range w {
		if !(r >= '0' && r <= '9' || strings.ContainsRune("+-().x", r)) {
			return false
		}
	}
	return true
}

// name returns the name in [i, j): up to the first comma, "and", "but" or "from", of
// one to five name-like words.
func (c *cl) name(i, j int) string {
	if j-i == 1 && c.t[i].kind == tQuoted {
		return unquote(c.text(i, j))
	}
	end := i
	for k := i; k < j; k++ {
		t := c.t[k]
		if t.kind == tPunct && t.w != "." && t.w != "'" || t.kind == tQuoted {
			break
		}
		if t.kind == tWord && (t.w == "and" || t.w == "but" || t.w == "from" || t.w == "btw" || t.w == "though" || t.w == "please" || t.w == "thanks") {
			break
		}
		end = k + 1
	}
	end = c.trimPunctEnd(i, end)
	n := 0
	for k := i; k < end; k++ {
		if c.t[k].kind == tWord {
			n++
			for _, r := range c.t[k].w {
				if !unicode.IsLetter(r) && !unicode.IsMark(r) && r != '\'' && r != '-' && r != '.' {
					return ""
				}
			}
		}
	}
	if n == 0 || n > 5 || nameStops[c.w(i)] || verbs[c.w(i)] || pronouns[c.w(i)] {
		return ""
	}
	return c.text(i, end)
}

// birthday returns the date in [i, j) if it holds a digit or a month name.
func (c *cl) birthday(i, j int) string {
	if c.w(i) == "on" {
		i++
	}
	end := i
	dated := false
	for k := i; k < j; k++ {
		w := c.w(k)
		if w == "and" || w == "but" || w == "so" || w == "which" || w == "btw" {
			break
		}
		if months[w] || c.t[k].kind == tNum || ordinalValue(w) > 0 || strings.ContainsAny(w, "0123456789") {
			dated = true
		}
		end = k + 1
	}
	if !dated || end-i > 8 {
		return ""
	}
	return c.text(i, c.trimPunctEnd(i, end))
}

// timeTail reports whether tokens from k start a time phrase that ends a place or
// employer: "for 5 years", "last year", "a few months ago", "in 2019".
func (c *cl) timeTail(k int) bool {
	w, next := c.w(k), c.w(k+1)
	switch w {
	case "for", "over", "about":
		return next == "a" || next == "an" || next == "about" || next == "almost" || next == "nearly" ||
			next == "over" || next == "the" || next == "many" || next == "several" || next == "some" ||
			next == "years" || next == "months" || next == "weeks" || next == "ages" || next == "now" ||
			c.t[min(k+1, len(c.t)-1)].kind == tNum || cardinals[next] > 0
	case "last", "this", "next":
		return next == "year" || next == "month" || next == "week" || next == "summer" ||
			next == "winter" || next == "spring" || next == "fall" || next == "autumn"
	case "in":
		return len(next) == 4 && normalize.IsDigits(next) || months[next]
	case "a", "two", "three", "few", "couple", "several", "some":
		for m := k + 1; m < k+5 && m < len(c.t); m++ {
			if c.w(m) == "ago" {
				return true
			}
		}
	case "right":
		return next == "now"
	case "at":
		return next == "the" && c.w(k+2) == "moment"
	case "these":
		return next == "days"
	}
	if k+1 < len(c.t) && c.t[k].kind == tNum && (c.w(k+2) == "ago" || c.w(k+1) == "ago") {
		return true
	}
	return false
}

// phrase returns tokens [i, j) cut at cutWords, time phrases and extra (the words
// that end this kind of value), or "" when it is empty, too long or opens with a word
// that cannot start it.
func (c *cl) phrase(i, j int, extra map[string]bool, stops map[string]bool) (int, int) {
	end := i
	for k := i; k < j; k++ {
		t := c.t[k]
		if k > i && (t.kind == tWord && (cutWords[t.w] || extra[t.w]) || c.timeTail(k)) {
			break
		}
		if t.kind == tPunct && (t.w == "," || t.w == ";" || t.w == "(") && k > i {
			// "Paris, France" keeps its comma; ", and I love it" ends the value.
			if nw := c.w(k + 1); nw == "and" || nw == "but" || nw == "which" || nw == "where" || nw == "since" || pronouns[nw] || t.w != "," {
				break
			}
		}
		end = k + 1
	}
	end = c.trimPunctEnd(i, end)
	if i >= end || end-i > 8 || stops[c.w(i)] || pronouns[c.w(i)] || verbs[c.w(i)] {
		return i, i
	}
	return i, end
}

// city returns the place in [i, j).
func (c *cl) city(i, j int) string {
	if c.w(i) == "in" || c.w(i) == "at" {
		i++
	}
	a, b := c.phrase(i, j, map[string]bool{"and": c.clauseAfterAnd(i, j)}, placeStops)
	if a >= b || c.t[a].kind == tNum || c.w(a) == "the" && placeStopsAfterThe[c.w(a+1)] {
		return ""
	}
	return c.text(a, b)
}

// clauseAfterAnd reports whether an "and" in [i, j) is followed by a pronoun or verb,
// so that it ends the value rather than joining names ("Trinidad and Tobago").
func (c *cl) clauseAfterAnd(i, j int) bool {
	for k := i; k+1 < j; k++ {
		if c.w(k) == "and" {
			n := c.w(k + 1)
			return pronouns[n] || verbs[n] || n == "my"
		}
	}
	return false
}

// employer returns the employer in [i, j), cut before " as a ..." and " in <place>".
func (c *cl) employer(i, j int) string {
	a, b := c.phrase(i, j, map[string]bool{"as": true, "in": true, "and": c.clauseAfterAnd(i, j)}, employerStops)
	if a >= b || c.t[a].kind == tNum || c.w(a) == "the" && (c.w(a+1) == "moment" || c.w(a+1) == "weekend" || c.w(a+1) == "same") {
		return ""
	}
	return c.text(a, b)
}

// role returns the role in [i, j) without its article, cut before " at/for <employer>".
// strict requires its last word to be a known occupation.
func (c *cl) role(i, j int, strict bool) string {
	if c.w(i) == "a" || c.w(i) == "an" || c.w(i) == "the" {
		i++
	}
	a, b := c.phrase(i, j, map[string]bool{"at": true, "for": true, "in": true, "and": true, "by": true, "on": true}, roleStops)
	if a >= b || c.t[a].kind == tNum || strict && !occupations[c.w(b-1)] {
		return ""
	}
	for k := a; k < b; k++ {
		if c.t[k].kind == tQuoted || pronouns[c.w(k)] || c.w(k) == "not" {
			return ""
		}
	}
	return c.text(a, b)
}

// iStatement parses a clause whose subject is "I", from the token after "I" at j.
func (c *cl) iStatement(j int) (outcome, bool) {
	o, ok := c.iStatementAt(j)
	o.subjectI = true
	return o, ok
}

func (c *cl) iStatementAt(j int) (outcome, bool) {
	skipAdv := func(k int) int {
		for adverbs[c.w(k)] || workAdverbs[c.w(k)] {
			k++
		}
		return k
	}
	j = skipAdv(j)
	w := c.w(j)
	// Auxiliaries: "I'm living", "I've been working", "I have moved".
	switch w {
	case "am":
		j = skipAdv(j + 1)
		switch c.w(j) {
		case "living", "residing", "staying":
			if c.w(j+1) == "in" {
				return c.setFact(factbase.KeyCity, j+2, len(c.t))
			}
			return none, false
		case "based", "located":
			if n := c.oneOf(j+1, []string{"in"}, []string{"out", "of"}, []string{"at"}); n > 0 {
				return c.setFact(factbase.KeyCity, n, len(c.t))
			}
			return none, false
		case "working":
			return c.work(skipAdv(j+1), true)
		case "employed":
			return c.work(j+1, true)
		case "called", "named":
			return c.setFact(factbase.KeyName, j+1, len(c.t))
		case "a", "an":
			return c.iAmA(j)
		case "moving", "going", "not", "no", "never":
			return none, true
		}
		// "Hi, I'm Sam.", "I'm Ada Lovelace": capitalised name-like words and nothing
		// else ("I'm Tired" and "I'm French" are not names).
		if v := c.introduction(j); v != "" {
			return c.statement(Statement{Kind: Set, Key: factbase.KeyName, Values: []string{v}}), true
		}
		return none, false
	case "have":
		k := skipAdv(j + 1)
		switch c.w(k) {
		case "been":
			k = skipAdv(k + 1)
			switch c.w(k) {
			case "living", "residing":
				if c.w(k+1) == "in" {
					return c.setFact(factbase.KeyCity, k+2, len(c.t))
				}
			case "working":
				return c.work(k+1, false)
			}
			return none, false
		case "moved", "relocated":
			return c.moved(k + 1)
		case "lived":
			if c.w(k+1) == "in" && c.hasTimeTail(k+2) {
				return c.setFact(factbase.KeyCity, k+2, len(c.t))
			}
			return none, false
		case "a", "an":
			return c.gotJob(k)
		}
		return none, false
	case "live", "reside":
		if c.w(j+1) == "in" {
			return c.setFact(factbase.KeyCity, j+2, len(c.t))
		}
		return none, false
	case "moved", "relocated":
		return c.moved(j + 1)
	case "call":
		// "I call Lisbon home"
		if n := len(c.t); n-j >= 3 && c.w(n-1) == "home" {
			return c.setFact(factbase.KeyCity, j+1, n-1)
		}
		return none, false
	case "work":
		return c.work(skipAdv(j+1), false)
	case "go":
		if c.w(j+1) == "by" {
			return c.setFact(factbase.KeyName, j+2, len(c.t))
		}
		return none, false
	case "was":
		if c.w(j+1) == "born" {
			k := j + 2
			if c.w(k) == "in" {
				// "born in May 1990" is a date; "born in Paris" is not.
				k++
			}
			if v := c.birthday(k, len(c.t)); v != "" {
				return c.statement(Statement{Kind: Set, Key: factbase.KeyUserBirthday, Values: []string{v}}), true
			}
		}
		return none, true
	case "joined", "started":
		k := j + 1
		if c.w(k) == "working" {
			k++
		}
		if c.w(k) == "at" || c.w(k) == "with" || c.w(k) == "for" {
			k++
		}
		if v := c.employer(k, len(c.t)); v != "" {
			return c.statement(Statement{Kind: Set, Key: factbase.KeyEmployer, Values: []string{v}}), true
		}
		return c.gotJob(k)
	case "got", "landed", "took", "accepted":
		return c.gotJob(j + 1)
	case "do", "did", "used", "lived", "worked", "never", "no":
		return none, true
	}
	return none, false
}

// hasTimeTail reports whether a time phrase follows somewhere in [k, end).
func (c *cl) hasTimeTail(k int) bool {
	for ; k < len(c.t); k++ {
		if c.timeTail(k) {
			return true
		}
	}
	return false
}

// moved parses the place after "moved": "to Berlin", "back to Rome".
func (c *cl) moved(k int) (outcome, bool) {
	for c.w(k) == "back" || c.w(k) == "over" || c.w(k) == "out" || c.w(k) == "here" && c.w(k+1) == "to" {
		k++
	}
	if c.w(k) != "to" {
		return none, false
	}
	return c.setFact(factbase.KeyCity, k+1, len(c.t))
}

// work parses what follows "work" (or "working", "employed"): "at/for X [as a R]",
// "as a R [at/for X]", "by X".
func (c *cl) work(k int, employed bool) (outcome, bool) {
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

// gotJob parses "(got|have|started) a (new) job at X".
func (c *cl) gotJob(k int) (outcome, bool) {
	if c.w(k) == "a" || c.w(k) == "an" {
		k++
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
		[]string{"text", "me", "at"}, []string{"i", "can", "be", "reached", "at"})
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
func (c *cl) introduction(j int) string {
	end := c.trimPunctEnd(j, len(c.t))
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
