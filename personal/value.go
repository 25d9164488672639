package personal

import (
	"strings"

	"github.com/factbase/factbase/when"
)

// markerAt returns the temporal marker that starts at token k, and the token after it.
func (p *parser) markerAt(k int) (*when.Marker, int) {
	if k >= len(p.t) {
		return nil, k
	}
	idx, ok := p.markerAtTok[p.t[k].start]
	if !ok {
		return nil, k
	}
	m := &p.markers[idx]
	e := k
	for e < len(p.t) && p.t[e].start < m.End {
		e++
	}
	return m, e
}

// markerIn returns the first marker whose start lies in tokens [i, j) and its token
// span.
func (p *parser) markerIn(i, j int) (*when.Marker, int, int) {
	for k := i; k < j && k < len(p.t); k++ {
		if m, e := p.markerAt(k); m != nil {
			return m, k, e
		}
	}
	return nil, -1, -1
}

// skipMarker steps over a temporal marker at e.
func (p *parser) skipMarker(e int) int {
	if m, me := p.markerAt(e); m != nil {
		return me
	}
	return e
}

// valueStop words end a value.
var valueStop = map[string]bool{
	"because": true, "since": true, "so": true, "which": true, "who": true, "when": true, "while": true,
	"although": true, "though": true, "if": true, "unless": true, "until": true, "but": true, "except": true,
	"whereas": true, "(": true, ";": true, ")": true, "-": true, ":": false, "whom": true, "that": false,
	"anymore": true, "nowadays": true, "these": false, "lately": true, "too": true, "btw": true,
	"sadly": true, "unfortunately": true, "apparently": true, "honestly": true, "obviously": true,
	"luckily": true, "fortunately": true, "thankfully": true, "lol": true, "haha": true,
	"especially": true, "mostly": true, "mainly": true, "particularly": true,
	"fyi": true, "tbh": true, "imo": true, "ngl": true, "lmao": true, "omg": true, "idk": true, "rn": true,
}

// valueEnd returns the end of a value starting at i: before a stop word, a clause
// boundary, a temporal marker (when cut), or one of the extra stops.
func (p *parser) valueEnd(i int, cutMarkers bool, extra ...string) int {
	k := i
	for k < len(p.t) {
		w := p.w(k)
		if valueStop[w] && k > i {
			return k
		}
		for _, x := range extra {
			if w == x && k > i {
				return k
			}
		}
		if k > i && p.trailingAdverbAt(k) {
			return k // "allergic to cats now", "fluent in Spanish these days"
		}
		if (w == "," || w == "and" || w == "or" || w == "&") && k > i {
			n := k + 1
			for p.w(n) == "and" || p.w(n) == "," || p.w(n) == "but" {
				n++
			}
			if p.startsClause(n) || p.clauseAt(n, len(p.t)) || p.startsPredicate(n) || p.verbBeforeObject(n) ||
				p.nounClauseAt(n) || p.gappedClauseAt(n) || p.w(n) == "so" || p.w(n) == "which" || p.w(n) == "who" {
				return k
			}
		}
		if cutMarkers && k > i {
			if m, _ := p.markerAt(k); m != nil {
				return k
			}
		}
		k++
	}
	return k
}

// nounClauseAt reports whether a short noun phrase at n is the subject of a verb
// of its own: "... and the count is high", "... and dogs make me sneeze". A list
// item never goes on with a copula or with a verb and an object pronoun.
func (p *parser) nounClauseAt(n int) bool {
	if n < len(p.t) && p.t[n].kind == kWord && objectDeterminers[p.w(n)] {
		n++
	}
	for m := n + 1; m <= n+3 && m < len(p.t); m++ {
		w := p.w(m)
		if p.t[m].kind != kWord || w == "and" || w == "or" {
			return false
		}
		if p.t[m].cap {
			continue // "Love Is Blind": a title, not a clause
		}
		if nounClauseVerbs[w] {
			return true
		}
		if pronounObjects[p.w(m+1)] && !objectPrepositions[w] {
			return true
		}
	}
	return false
}

// gappedClauseAt reports whether a person named by a possessive and a relation
// noun starts at n: after a comma or "and" such a person opens a clause of its own,
// often with its verb left out ("allergic to shellfish, my husband to nuts").
func (p *parser) gappedClauseAt(n int) bool {
	if !possessives[p.w(n)] {
		return false
	}
	for m := n + 1; m <= n+3 && m < len(p.t); m++ {
		if _, ok := relations[p.w(m)]; ok {
			return true
		}
		if k := m + 1; k < len(p.t) {
			if _, ok := relations[p.w(m)+" "+p.w(k)]; ok {
				return true
			}
		}
		if p.t[m].kind != kWord {
			return false
		}
	}
	return false
}

// nounClauseVerbs are finite verbs that make a noun phrase before them a subject.
var nounClauseVerbs = map[string]bool{"is": true, "are": true, "was": true, "were": true, "isn't": true,
	"aren't": true, "wasn't": true, "weren't": true}

// pronounObjects are object pronouns: a word before one is a verb ("make me").
var pronounObjects = map[string]bool{"me": true, "us": true, "him": true, "them": true}

// trailingAdverbAt reports whether a time adverb that ends the clause starts at k:
// "now", "these days", "right now", "at the moment", "again", "currently", in lower
// case ("Apocalypse Now" is a title) and before the clause's end.
func (p *parser) trailingAdverbAt(k int) bool {
	n := 0
	switch {
	case p.at(k, "these", "days") > 0, p.at(k, "right", "now") > 0:
		n = 2
	case p.at(k, "at", "the", "moment") > 0:
		n = 3
	case p.w(k) == "now" || p.w(k) == "again" || p.w(k) == "currently" || p.w(k) == "rn":
		n = 1
	default:
		return false
	}
	if p.t[k].cap {
		return false
	}
	e := k + n
	return e >= len(p.t) || p.t[e].kind == kPunct || p.w(e) == "and" || p.w(e) == "but" || p.w(e) == "too"
}

// objectPrepositions take an object pronoun without a verb: "cats like him".
var objectPrepositions = map[string]bool{"to": true, "of": true, "for": true, "with": true, "from": true,
	"by": true, "at": true, "on": true, "in": true, "about": true, "like": true, "than": true}

// objectDeterminers begin the object of a verb: "carry an EpiPen", "walk the dog".
var objectDeterminers = map[string]bool{"a": true, "an": true, "the": true, "my": true, "his": true, "her": true,
	"their": true, "our": true, "your": true}

// verbBeforeObject reports whether a lower-case word at n is followed by a
// determiner: a verb and its object ("peanuts and carry an EpiPen"), since an item
// of a list of nouns does not go on with "a" or "the" after its first word.
func (p *parser) verbBeforeObject(n int) bool {
	if n+1 >= len(p.t) || p.t[n].cap || p.t[n].kind != kWord {
		return false
	}
	w := p.w(n)
	if objectDeterminers[w] || w == "half" || w == "such" || w == "quite" || w == "all" || w == "both" || w == "of" {
		return false
	}
	return objectDeterminers[p.w(n+1)]
}

// listValues splits the value tokens [i, j) into items at commas, "and", "or", "&"
// and "as well as".
func (p *parser) listValues(i, j int) []string {
	var out []string
	start := i
	flush := func(e int) {
		for start < e && (p.w(start) == "and" || p.w(start) == "or" || p.w(start) == "," || p.w(start) == "&" || p.w(start) == "also") {
			start++
		}
		if start < e {
			out = append(out, p.span(start, e))
		}
	}
	for k := i; k < j; k++ {
		if w := p.w(k); (w == "," || w == "and" || w == "or" || w == "but") && p.clauseAt(k+1, j) {
			// "I love hiking and my email is ...": the list ends where a new clause
			// starts; that clause is not a liked thing.
			flush(k)
			return out
		}
		switch w := p.w(k); {
		case w == "," || w == "&" || w == "/":
			flush(k)
			start = k + 1
		case w == "and" || w == "or" || w == "plus":
			// keep "salt and pepper"-like pairs only when nothing else splits the list
			flush(k)
			start = k + 1
		case w == "as" && p.w(k+1) == "well" && p.w(k+2) == "as":
			flush(k)
			start = k + 3
			k += 2
		}
	}
	flush(j)
	return out
}

// subjectPronouns start a clause of their own.
var subjectPronouns = map[string]bool{"i": true, "he": true, "she": true, "we": true, "they": true, "it's": true, "i'm": true}

// copulas and common verbs that make a possessive phrase a clause ("my email is").
var clauseVerbs = map[string]bool{"is": true, "are": true, "was": true, "were": true, "has": true, "have": true,
	"lives": true, "works": true, "loves": true, "likes": true, "hates": true}

// clauseAt reports whether tokens [k, j) start a clause: a subject pronoun, or a
// possessive phrase whose verb follows within a few words ("my email is ...").
func (p *parser) clauseAt(k, j int) bool {
	if k >= j {
		return false
	}
	if subjectPronouns[p.w(k)] {
		return true
	}
	if (p.w(k) == "it" || p.w(k) == "that" || p.w(k) == "this" || p.w(k) == "there") && clauseVerbs[p.w(k+1)] {
		return true // "..., it's my favorite language"
	}
	if p.w(k) == "it" && k+1 < j && p.t[k+1].kind == kWord && strings.HasSuffix(p.w(k+1), "s") && !possessives[p.w(k+1)] {
		return true // "..., it wrecks my stomach"
	}
	if !possessives[p.w(k)] {
		return false
	}
	for n := k + 1; n < j && n <= k+4; n++ {
		if clauseVerbs[p.w(n)] {
			return true
		}
	}
	return false
}

// clauseWords open a clause, not a thing one likes.
var clauseWords = map[string]bool{"when": true, "if": true, "that": true, "how": true, "what": true,
	"because": true, "whenever": true, "where": true, "why": true, "who": true}

// possessives are possessive determiners.
var possessives = map[string]bool{"my": true, "our": true, "your": true, "his": true, "her": true, "their": true}

// objectPronouns are objects that name nothing on their own.
var objectPronouns = map[string]bool{"it": true, "that": true, "this": true, "you": true, "him": true,
	"her": true, "them": true, "me": true, "us": true, "those": true, "these": true, "everything": true,
	"everyone": true, "anything": true, "nothing": true, "something": true, "one": true, "lots": false}

// afterTail steps over harmless tails ("now", "too", "since birth", "for years").
func (p *parser) afterTail(e int) int {
	for {
		switch {
		case p.w(e) == "now" || p.w(e) == "too" || p.w(e) == "as" && p.w(e+1) == "well":
			if p.w(e) == "as" {
				e++
			}
			e++
		case p.w(e) == "for" && (p.w(e+1) == "years" || p.w(e+1) == "ages" || p.w(e+1) == "life" || p.w(e+1) == "a" || isNumber(p.w(e+1))):
			e = p.valueEnd(e+1, false)
		case p.w(e) == "since" && (p.w(e+1) == "birth" || p.w(e+1) == "childhood" || isNumber(p.w(e+1)) || p.w(e+1) == "last"):
			e = p.valueEnd(e+1, false)
		default:
			return e
		}
	}
}

func isNumber(w string) bool {
	_, ok := ageNumber(w)
	return ok
}

// phraseIn matches one to three words at i with f, the longest first, and returns
// f's value and the index after the words; ("", i) when none match.
func (p *parser) phraseIn(i int, f func(string) (string, bool)) (string, int) {
	for n := 3; n >= 1; n-- {
		if i+n > len(p.t) {
			continue
		}
		var ws []string
		for k := i; k < i+n; k++ {
			ws = append(ws, p.w(k))
		}
		if v, ok := f(strings.Join(ws, " ")); ok {
			return v, i + n
		}
	}
	return "", i
}
