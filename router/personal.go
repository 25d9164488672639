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
	if dwellings[c.w(i+1)] && c.w(i+2) == "in" {
		// "My apartment in Montreal is tiny": where the user lives.
		for m := i + 3; m < len(c.t) && m < i+8; m++ {
			if c.w(m) == "is" || c.w(m) == "has" {
				if v := c.city(i+3, m); v != "" {
					return c.statement(Statement{Kind: Set, Key: factbase.KeyCity, Values: []string{v}}), true
				}
				return none, false
			}
		}
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
	if c.w(i) == "on" || c.w(i) == "in" {
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
		if k > i && c.at(k, "to", "be") > 0 {
			break // "NYC, Manhattan to be exact"
		}
		if t.kind == tPunct && (t.w == "," || t.w == ";" || t.w == "(") && k > i {
			// "Paris, France" keeps its comma; ", and I love it" ends the value.
			// ", in Park Slope" and ", not Porto" end it too.
			if nw := c.w(k + 1); nw == "and" || nw == "but" || nw == "which" || nw == "where" || nw == "since" ||
				nw == "not" || placePreps[nw] || pronouns[nw] || t.w != "," ||
				strings.HasSuffix(nw, "ing") && c.lowerAfterUpper(i, k+1) {
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
	a, b := c.phrase(i, j, map[string]bool{"and": c.clauseAfterAnd(i, j), "for": true, "to": true}, placeStops)
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
			return pronouns[n] || verbs[n] || moreVerbs[n] || andVerbs[n] || n == "my" || c.lowerAfterUpper(i, k+1)
		}
	}
	return false
}

// lowerAfterUpper reports whether token k is written in lower case while the value
// starting at i is capitalised: "Oakland and commute to ..." ends at "and", where
// "Trinidad and Tobago" does not.
func (c *cl) lowerAfterUpper(i, k int) bool {
	first, next := []rune(c.text(i, i+1)), []rune(c.text(k, k+1))
	return len(first) > 0 && len(next) > 0 && unicode.IsUpper(first[0]) && unicode.IsLower(next[0])
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
	for k := a + 1; k < b; k++ {
		// "an engineer working at Google": the participle starts a phrase of its own.
		if occupations[c.w(k-1)] && strings.HasSuffix(c.w(k), "ing") {
			b = k
			break
		}
	}
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
		case "the":
			return c.iAmThe(j)
		case "at":
			return c.atWork(j + 1)
		case "turning":
			return c.iStatementAt(j) // "I'm turning 30 on June 2"
		case "retired":
			if c.trimPunctEnd(j+1, len(c.t)) == j+1 || c.w(j+1) == "now" || c.w(j+1) == "from" {
				return c.statement(Statement{Kind: Set, Key: factbase.KeyRole, Values: []string{"retired"}}), true
			}
			return none, false
		case "moving", "going", "not", "no", "never":
			return none, true
		}
		// "Hi, I'm Sam.", "I'm Ada Lovelace": capitalised name-like words and nothing
		// else ("I'm Tired" and "I'm French" are not names).
		if _, e, _ := c.trimValue(j, len(c.t)); c.introduction(j, e) != "" {
			// "I'm Sam, by the way"
			return c.statement(Statement{Kind: Set, Key: factbase.KeyName, Values: []string{c.introduction(j, e)}}), true
		}
		if v := c.introduction(j, c.trimPunctEnd(j, len(c.t))); v != "" {
			return c.statement(Statement{Kind: Set, Key: factbase.KeyName, Values: []string{v}}), true
		}
		return c.introAppositives(j)
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
			case "at":
				return c.beenAt(k + 1)
			}
			if o, ok := c.promoted(k); ok {
				return o, true
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
	case "live", "reside", "living", "residing":
		// "living" with the subject of the clause before: "I'm Brazilian, living in
		// Lisbon".
		if c.w(j+1) == "in" && (j > 0 || w == "live" || w == "reside" || c.impliedI) {
			return c.setFact(factbase.KeyCity, j+2, len(c.t))
		}
		return none, false
	case "based":
		if n := c.oneOf(j+1, []string{"in"}, []string{"out", "of"}); n > 0 && j == 0 && c.impliedI {
			return c.setFact(factbase.KeyCity, n, len(c.t))
		}
		return none, false
	case "working":
		// "..., working at SAP" with the subject of the clause before.
		if j == 0 && c.impliedI {
			return c.work(j+1, true)
		}
		return none, false
	case "bought", "rent", "rented", "own":
		// "We finally bought a house in Leeds"
		return c.dwelling(j + 1)
	case "been":
		// "Been at Microsoft for six years now."
		return c.beenAt(j + 1)
	case "retired":
		return c.statement(Statement{Kind: Set, Key: factbase.KeyRole, Values: []string{"retired"}}), true
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
		if o, ok := c.promoted(j + 1); ok {
			return o, true
		}
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
	case "prefer", "like", "want":
		// "I prefer to be called Sam"
		if n := c.oneOf(j+1, []string{"to", "be", "called"}, []string{"being", "called"}, []string{"to", "go", "by"}); n > 0 {
			return c.setFact(factbase.KeyName, n, len(c.t))
		}
		return none, false
	case "turn", "turning":
		// "I turn 30 on June 2": the date is the birthday.
		if c.t[min(j+1, len(c.t)-1)].kind == tNum && c.w(j+2) == "on" {
			if v := c.birthday(j+2, len(c.t)); v != "" {
				return c.statement(Statement{Kind: Set, Key: factbase.KeyUserBirthday, Values: []string{v}}), true
			}
		}
		return none, false
	case "joined", "started":
		k := j + 1
		if c.w(k) == "working" {
			k++
		}
		if c.w(k) == "at" || c.w(k) == "with" || c.w(k) == "for" {
			k++
		} else if w == "started" {
			// "I started learning ASL", "I started a new job at ...": not an employer.
			return c.gotJob(k)
		}
		if v := c.employer(k, len(c.t)); v != "" {
			return c.statement(Statement{Kind: Set, Key: factbase.KeyEmployer, Values: []string{v}}), true
		}
		return c.gotJob(k)
	case "got", "landed", "took", "accepted":
		if o, ok := c.promoted(j + 1); ok {
			return o, true
		}
		return c.gotJob(j + 1)
	case "lived":
		// "I lived in Oslo for ten years before moving to Stockholm."
		for k := j + 1; k < len(c.t); k++ {
			if n := c.oneOf(k, []string{"before", "moving", "to"}, []string{"then", "moved", "to"},
				[]string{"before", "i", "moved", "to"}, []string{"until", "i", "moved", "to"}); n > 0 {
				return c.setFact(factbase.KeyCity, n, len(c.t))
			}
		}
		return none, true
	case "do", "did", "used", "worked", "never", "no":
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
