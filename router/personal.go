package router

import (
	"maps"
	"strconv"
	"strings"
	"unicode"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/normalize"
	"github.com/factbase/factbase/text"
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
	case factbase.KeyCity, factbase.KeyOrigin:
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
	// An extension word needs its number after it: "555-0100 ext." keeps the number.
	for end > i && (c.t[end-1].kind == tPunct || isExtensionWord(c.t[end-1].w)) {
		end--
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

func isExtensionWord(w string) bool { return w == "ext" || w == "x" || w == "extension" }

func isPhoneWord(w string) bool {
	if isExtensionWord(w) {
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
	month, day, numeric := false, false, false
	for k := i; k < j; k++ {
		w := c.w(k)
		if w == "and" || w == "but" || w == "so" || w == "which" || w == "btw" {
			break
		}
		switch {
		case months[w]:
			month = true
		case strings.ContainsAny(w, "/-.") && strings.ContainsAny(w, "0123456789"):
			numeric = true // "12/03", "1990-05-03"
		case ordinalValue(w) > 0 && ordinalValue(w) <= 31:
			day = true
		case c.t[k].kind == tNum || strings.ContainsAny(w, "0123456789"):
			if n, err := strconv.Atoi(strings.TrimRight(w, "stndrh")); err == nil && n >= 1 && n <= 31 {
				day = true
			}
		}
		end = k + 1
	}
	// A birthday is a day of the year: "March" or "1990" alone is not one.
	if !(month && day || numeric) || end-i > 8 {
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
				nw == "the" && c.lowerAfterUpper(i, k+1) ||
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
	// "Kreuzberg in Berlin", "Cambridge in England": the first place is the one named.
	a, b := c.phrase(i, j, map[string]bool{"and": c.clauseAfterAnd(i, j), "for": true, "to": true, "in": true}, placeStops)
	if a >= b || c.t[a].kind == tNum || c.w(a) == "the" && placeStopsAfterThe[c.w(a+1)] {
		return ""
	}
	for k := a + 1; k < b; k++ {
		if r := []rune(c.text(k, k+1)); copulaWords[c.w(k)] && len(r) > 0 && unicode.IsLower(r[0]) {
			// "Living in Tokyo is expensive": the place is inside a subject, and
			// a lower-case "is" is never part of a place's name.
			return ""
		}
	}
	if c.w(a) != "the" {
		b = c.placeEnd(a, b)
	}
	if c.w(a) == "the" {
		// "the Leith area of Edinburgh", "the north of Lyon": the place is after
		// "of", and a lower-case place after it is no name at all.
		for k := a + 1; k < b; k++ {
			if c.w(k) == "of" {
				if r := []rune(c.text(k+1, k+2)); k+1 < b && len(r) > 0 && unicode.IsUpper(r[0]) {
					return c.text(k+1, b)
				}
				return ""
			}
		}
	}
	return c.text(a, b)
}

// placeEnd cuts a capitalised place in [a, b) before its first lower-case word that
// is not a connector of names ("Rio de Janeiro", "Newcastle upon Tyne"): "Austin
// most of the year", "Queens, right by the airport" and "Leeds permanently" name
// Austin, Queens and Leeds. A place written in lower case is left as it is.
func (c *cl) placeEnd(a, b int) int {
	if r := []rune(c.text(a, a+1)); len(r) == 0 || !unicode.IsUpper(r[0]) {
		return b
	}
	for k := a + 1; k < b; k++ {
		r := []rune(c.text(k, k+1))
		if c.t[k].kind != tWord || len(r) == 0 || !unicode.IsLower(r[0]) || placeConnectors[c.w(k)] {
			continue
		}
		b = k
		for b > a+1 && (placeConnectors[c.w(b-1)] || c.t[b-1].kind == tPunct) {
			b--
		}
		return b
	}
	return b
}

// placeConnectors join the words of a place's name: text's, and "the", which the
// router's cut of a capitalised place reads inside it as well.
var placeConnectors = func() map[string]bool {
	m := maps.Clone(text.PlaceConnectors)
	m["the"] = true
	return m
}()

// copulaWords are finite forms of "be".
var copulaWords = map[string]bool{"is": true, "are": true, "was": true, "were": true, "isn't": true,
	"aren't": true, "wasn't": true, "weren't": true}

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
	if w := c.w(i); w == "a" || w == "an" || w == "this" {
		// "a bookshop called Pages", "a little startup named Loop"
		for m := i + 1; m < j && m <= i+5; m++ {
			if c.t[m].kind != tWord {
				break
			}
			if c.w(m) == "called" || c.w(m) == "named" {
				if r := []rune(c.text(m+1, m+2)); len(r) > 0 && unicode.IsUpper(r[0]) {
					return c.employer(m+1, j)
				}
				break
			}
		}
	}
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
	return trimAgePrefix(c.text(a, b))
}

// trimAgePrefix drops an age said before a role: "34-year-old engineer" is an
// engineer (the age is a fact of its own).
func trimAgePrefix(role string) string {
	digits := strings.IndexFunc(role, func(r rune) bool { return r < '0' || r > '9' })
	if digits <= 0 {
		return role
	}
	rest := strings.ToLower(role[digits:])
	for _, p := range []string{"-year-old ", " year old ", "-years-old ", " years old ", "-yr-old ", " yo "} {
		if strings.HasPrefix(rest, p) && len(role) > digits+len(p) {
			return strings.TrimSpace(role[digits+len(p):])
		}
	}
	return role
}
