package router

// Statements whose subject is the user: "I ...", "I'm ...", "we ...", and the
// bare basics ("Ann, 34, from Leeds").

import (
	"unicode"

	"github.com/factbase/factbase"
)

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
		case "worked":
			// "I've worked at Deloitte for six years": still there
			if c.hasTimeTail(k+1) || c.hasSince(k+1) {
				return c.work(k+1, false)
			}
			return none, false
		case "lived":
			if c.w(k+1) == "in" && (c.hasTimeTail(k+2) || c.hasSince(k+2)) {
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
			if n := c.dwellingIn(j + 2); n > 0 {
				return c.setFact(factbase.KeyCity, n, len(c.t))
			}
			return c.setFact(factbase.KeyCity, j+2, len(c.t))
		}
		if w == "live" || w == "reside" {
			if n := c.liveWhere(j + 1); n > 0 {
				return c.setFact(factbase.KeyCity, n, len(c.t))
			}
		}
		return none, false
	case "based":
		if n := c.oneOf(j+1, []string{"in"}, []string{"out", "of"}); n > 0 && j == 0 && c.impliedI {
			return c.setFact(factbase.KeyCity, n, len(c.t))
		}
		return none, false
	case "working":
		// "..., working at SAP" with the subject of the clause before; "Currently
		// working at Airbnb" as a profile's note.
		if (j == 0 || j == 1 && adverbs[c.w(0)]) && c.impliedI {
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
	case "changed", "updated", "switched":
		// "I changed my email to lu@example.org"
		if c.w(j+1) == "my" {
			if key, n, _ := c.keyAt(j + 2); contactKeys[key] && c.w(n) == "to" {
				return c.setFact(key, n+1, len(c.t))
			}
		}
		return none, false
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

// contactKeys are the keys of the user's contact details.
var contactKeys = map[string]bool{factbase.KeyEmail: true, factbase.KeyWorkEmail: true, factbase.KeyPhone: true,
	factbase.KeyWorkPhone: true}

// liveWhere finds the place after "I live" at k when it is not "in" right away:
// "near Utrecht", "just outside Boston", "on the outskirts of Madrid", "downtown in
// Chicago", "alone in a small flat in Lisbon", "with my parents in Lima". It
// returns the index of the place, or -1.
func (c *cl) liveWhere(k int) int {
	for c.w(k) == "alone" || c.w(k) == "just" || c.w(k) == "right" || c.w(k) == "downtown" || c.w(k) == "together" {
		k++
	}
	capital := func(n int) int {
		// "near the beach", "outside the city": no place named
		if r := []rune(c.text(n, n+1)); len(r) > 0 && unicode.IsUpper(r[0]) {
			return n
		}
		return -1
	}
	switch {
	case c.w(k) == "near" || c.w(k) == "outside":
		return capital(k + 1)
	case c.at(k, "on", "the", "outskirts", "of") > 0:
		return capital(k + 4)
	case c.w(k) == "with":
		// "with my parents in Lima", "with my wife and two kids in Leeds"
		for m := k + 1; m < len(c.t) && m <= k+7; m++ {
			if c.t[m].kind == tPunct {
				return -1
			}
			if c.w(m) == "in" {
				if n := c.dwellingIn(m + 1); n > 0 {
					return n
				}
				return m + 1
			}
		}
	case c.w(k) == "in":
		if n := c.dwellingIn(k + 1); n > 0 {
			return n
		}
		return capital(k + 1) // "downtown in Chicago"
	}
	return -1
}

// dwellingIn reads "a small flat in X" or "a small town called X" at k and returns
// the index of X, or -1.
func (c *cl) dwellingIn(k int) int {
	if c.w(k) != "a" && c.w(k) != "an" {
		return -1
	}
	k++
	for c.w(k) == "small" || c.w(k) == "little" || c.w(k) == "big" || c.w(k) == "tiny" || c.w(k) == "new" || c.w(k) == "old" {
		k++
	}
	w := c.w(k)
	switch {
	case dwellings[w] && c.w(k+1) == "in":
		return k + 2
	case (w == "town" || w == "village" || w == "city") && (c.w(k+1) == "called" || c.w(k+1) == "named"):
		return k + 2
	}
	return -1
}

// hasSince reports whether "since" follows at or after k: "I've lived in Cardiff
// since 2015" still lives there.
func (c *cl) hasSince(k int) bool {
	for ; k < len(c.t); k++ {
		if c.w(k) == "since" {
			return true
		}
	}
	return false
}
