package text

import (
	"strings"
	"unicode/utf8"
)

// ClauseKind says what a clause is to its sentence.
type ClauseKind uint8

// The kinds of clause.
const (
	// Main is a sentence's own clause, or what is left of it.
	Main ClauseKind = iota
	// Coordinate is a clause joined by "and", "but" or "or" with a subject of its
	// own: "... and his wife lives in Rome", "... but she moved". It starts at the
	// conjunction.
	Coordinate
	// Appositive is a noun phrase between commas renaming the name before it, the
	// name's verb right after the second comma: "Ada, my eldest, lives in Rome" has
	// "my eldest" ("I like Rome, the sea, and pasta" has none). Head is the name.
	Appositive
	// Relative is a clause opened by who, whom, whose, which or where, up to the
	// next comma or the end of the sentence: "my sister, who lives in Rome". Head is
	// the token before it (or before its comma).
	Relative
	// Reported is what someone said: "Ada told me (that) she moved" has "she
	// moved". Head is the verb of saying; the clause it is in keeps the verb and
	// the "me" and "that".
	Reported
)

var clauseNames = [...]string{"main", "coordinate", "appositive", "relative", "reported"}

// String returns the kind's name: "main", "coordinate", ...
func (k ClauseKind) String() string {
	if int(k) < len(clauseNames) {
		return clauseNames[k]
	}
	return "clause?"
}

// Clause is a run of a sentence's tokens that says one thing. The clauses of a
// sentence are in order, do not overlap and cover it: an embedded clause (an
// appositive or relative) cuts the clause it sits in in two, and the second part is
// a clause of the host's kind with Cont set.
type Clause struct {
	Span
	Kind ClauseKind
	// Head is the index in Tokens of the token the clause hangs on (see the kinds),
	// or -1.
	Head int
	// Cont says the clause continues the clause before an embedded one.
	Cont bool
}

// List is a list of items in a clause: "Rita, Sam and Leo", "red wine, bread, or
// cheese". It has at least three items; the last follows "and" or "or". The first
// item is as long as the second (the words before it belong to the clause).
type List struct {
	Items []Span
	// Conj is the index in Tokens of the "and" or "or".
	Conj int
}

// titles and abbreviations are words whose dot does not end a sentence.
var titles = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "st": true, "jr": true,
	"sr": true, "mt": true, "vs": true, "etc": true, "e.g": true, "i.e": true, "approx": true,
	"no": true, "dept": true, "inc": true, "ltd": true, "co": true,
}

// SentenceRules say where a reader's sentences end. A line break always ends one.
type SentenceRules struct {
	// Ends are the punctuation runes besides the dot that end a sentence: Standard
	// "!?;…".
	Ends string
	// Runs are the punctuation runes a run of which right after a sentence's end
	// ("?!", "...") stays with that sentence: Standard ".!?…".
	Runs string
	// RunsCrossLines lets such a run go on past line breaks ("Hi.\n!" is one
	// sentence), for a reader that drops line breaks. Standard: false.
	RunsCrossLines bool
	// KeepDot reports whether the dot toks[i], which comes right after the token
	// before it (no space between), does not end its sentence: "Dr.", "J.". Standard
	// (nil): the token before is a title or a single capital letter.
	KeepDot func(i int) bool
	// KeepEnd reports whether the end toks[i] (one of Ends, or a dot KeepDot let
	// end) does not end its sentence after all: the episode reader ends a sentence
	// at a dot only before white space ("v2.3." ends at its last dot). Standard
	// (nil): every such end ends.
	KeepEnd func(i int) bool
}

// StandardSentences are the rules of a Parse's own sentences.
var StandardSentences = SentenceRules{Ends: "!?;…", Runs: ".!?…"}

// Sentences splits toks into sentences by r: spans in order covering every token.
// Its cost is linear in len(toks).
func Sentences(toks []Token, r SentenceRules) []Span {
	keepDot := r.KeepDot
	if keepDot == nil {
		keepDot = func(i int) bool {
			prev := toks[i-1]
			return prev.Kind == Word && (titles[prev.W] || len(prev.W) == 1 && prev.Cap)
		}
	}
	var out []Span
	start := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		end := false
		switch {
		case t.Kind == Newline:
			end = true
		case t.Kind == Punct && t.W == ".":
			end = i == 0 || toks[i-1].End != t.Start || !keepDot(i)
		case t.Kind == Punct:
			end = oneOf(t.W, r.Ends)
		}
		if end && r.KeepEnd != nil && t.Kind == Punct && r.KeepEnd(i) {
			end = false
		}
		if !end {
			continue
		}
		for j := i + 1; j < len(toks); j++ {
			if r.RunsCrossLines && toks[j].Kind == Newline {
				continue
			}
			if !oneOf(toks[j].W, r.Runs) {
				break
			}
			i = j
		}
		if i+1 > start {
			out = append(out, Span{start, i + 1})
		}
		start = i + 1
	}
	if start < len(toks) {
		out = append(out, Span{start, len(toks)})
	}
	return out
}

// oneOf reports whether w is one rune of set.
func oneOf(w, set string) bool {
	r, n := utf8.DecodeRuneInString(w)
	return n > 0 && n == len(w) && strings.ContainsRune(set, r)
}

var (
	conjunctions = map[string]bool{"and": true, "but": true, "or": true}
	// subjectPronouns open a coordinate clause on their own: "and she moved".
	subjectPronouns = map[string]bool{"i": true, "he": true, "she": true, "they": true, "we": true, "you": true}
	// determiners open a coordinate clause when a verb follows before a comma: "and
	// his wife lives in Rome", not "Ada and her husband".
	determiners = map[string]bool{"his": true, "her": true, "their": true, "my": true, "our": true, "its": true, "your": true}
	// finiteVerbs are the verbs that make a determiner's phrase a clause.
	finiteVerbs = map[string]bool{
		"is": true, "are": true, "was": true, "were": true, "has": true, "have": true, "had": true,
		"will": true, "would": true, "can": true, "does": true, "do": true, "did": true,
		"lives": true, "lived": true, "works": true, "worked": true, "likes": true, "liked": true,
		"loves": true, "loved": true, "moved": true, "goes": true, "went": true, "studies": true,
		"studied": true, "plays": true, "played": true, "got": true, "gets": true, "died": true,
		"hates": true, "hated": true, "speaks": true, "started": true, "turned": true,
	}
	relatives = map[string]bool{"who": true, "whom": true, "whose": true, "which": true, "where": true}
	// sayVerbs introduce reported speech.
	sayVerbs = map[string]bool{
		"told": true, "tells": true, "tell": true, "said": true, "says": true, "say": true,
		"mentioned": true, "mentions": true, "wrote": true, "texted": true, "emailed": true,
		"explained": true, "announced": true, "admitted": true,
	}
	objectPronouns = map[string]bool{"me": true, "us": true, "him": true, "her": true, "them": true, "you": true}
	// appositiveStarts open an appositive noun phrase.
	appositiveStarts = map[string]bool{
		"my": true, "our": true, "his": true, "her": true, "their": true, "the": true, "a": true, "an": true,
	}
)

// isPunct reports whether t is the punctuation w.
func isPunct(t Token, w string) bool { return t.Kind == Punct && t.W == w }

// clauses cuts the sentence s of toks into clauses.
func clauses(toks []Token, s Span) []Clause {
	var out []Clause
	cur := Clause{Span: Span{s.From, s.From}, Kind: Main, Head: -1}
	// cut ends the current clause before token i and starts one of kind k there.
	cut := func(i int, k ClauseKind, head int, cont bool) {
		if i > cur.From {
			cur.To = i
			out = append(out, cur)
		}
		cur = Clause{Span: Span{i, i}, Kind: k, Head: head, Cont: cont}
	}
	// host is the clause an open embedded clause interrupted; embedEnd is where the
	// embedded clause ends (-1: none open).
	var host Clause
	embedEnd := -1
	for i := s.From; i < s.To; i++ {
		if i == embedEnd {
			cut(i, host.Kind, host.Head, true)
			embedEnd = -1
		}
		t := toks[i]
		if t.Kind != Word {
			continue
		}
		w := t.W
		switch {
		case embedEnd < 0 && conjunctions[w] && i > cur.From && i+1 < s.To && opensClause(toks, i+1, s.To):
			cut(i, Coordinate, -1, false)
		case embedEnd < 0 && sayVerbs[w] && i > s.From:
			k := i + 1
			if k < s.To && objectPronouns[toks[k].W] {
				k++
			}
			if k < s.To && toks[k].W == "that" {
				k++
			}
			if k < s.To && (toks[k].Kind == Word || toks[k].Kind == Quoted) {
				cut(k, Reported, i, false)
				i = k
			}
		case embedEnd < 0 && relatives[w] && i > s.From:
			head := i - 1
			if isPunct(toks[head], ",") && head > s.From {
				head--
			}
			if toks[head].Kind != Word || relatives[toks[head].W] {
				continue
			}
			end := nextComma(toks, i+1, s.To)
			host = cur
			cut(i, Relative, head, false)
			if end < s.To {
				embedEnd = end
			}
		case embedEnd < 0 && appositiveStarts[w] && i >= s.From+2 && isPunct(toks[i-1], ",") &&
			toks[i-2].Cap && toks[i-2].Kind == Word:
			end := nextComma(toks, i+1, s.To)
			if end+1 >= s.To || end-i > 6 || hasVerb(toks, i, end) || !finiteVerbs[toks[end+1].W] {
				continue
			}
			host = cur
			cut(i, Appositive, i-2, false)
			embedEnd = end
		}
	}
	if s.To > cur.From {
		cur.To = s.To
		out = append(out, cur)
	}
	return out
}

// opensClause reports whether the words from i on open a clause with a subject of
// their own: a subject pronoun, or a possessive determiner whose phrase is followed
// by a verb before the next comma.
func opensClause(toks []Token, i, end int) bool {
	w := toks[i].W
	if subjectPronouns[w] && !(w == "you" && i+1 < end && toks[i+1].Kind != Word) {
		return true
	}
	if !determiners[w] {
		return false
	}
	return hasVerb(toks, i+1, min(end, nextComma(toks, i+1, end), i+6))
}

// hasVerb reports whether a finite verb is among toks[from:to].
func hasVerb(toks []Token, from, to int) bool {
	for k := from; k < to; k++ {
		if finiteVerbs[toks[k].W] {
			return true
		}
	}
	return false
}

// nextComma returns the index of the first comma in toks[from:to], or to.
func nextComma(toks []Token, from, to int) int {
	for k := from; k < to; k++ {
		if isPunct(toks[k], ",") {
			return k
		}
	}
	return to
}

// maxItem is the most tokens a list item has.
const maxItem = 4

// lists finds the lists in the clause span s.
func lists(toks []Token, s Span) []List {
	var out []List
	for a := s.From + 1; a < s.To; a++ {
		if toks[a].Kind != Word || toks[a].W != "and" && toks[a].W != "or" {
			continue
		}
		// The last item: after the conjunction, up to punctuation.
		e := a + 1
		for e < s.To && e-a-1 < maxItem && toks[e].Kind != Punct && toks[e].Kind != Newline {
			e++
		}
		if e == a+1 || e < s.To && toks[e].Kind != Punct && toks[e].Kind != Newline {
			continue
		}
		items := []Span{{a + 1, e}}
		// The items before it, back over commas.
		end := a
		if end > s.From && isPunct(toks[end-1], ",") {
			end-- // an Oxford comma
		}
		for {
			b := end
			for b > s.From && end-b < maxItem && toks[b-1].Kind != Punct {
				b--
			}
			if b == end {
				break
			}
			if b > s.From && isPunct(toks[b-1], ",") {
				items = append(items, Span{b, end})
				end = b - 1
				continue
			}
			// The first item, not preceded by a comma: as long as the second.
			n := 1
			if len(items) > 0 {
				n = items[len(items)-1].Len()
			}
			items = append(items, Span{max(b, end-n), end})
			break
		}
		if len(items) < 3 {
			continue
		}
		for l, r := 0, len(items)-1; l < r; l, r = l+1, r-1 {
			items[l], items[r] = items[r], items[l]
		}
		out = append(out, List{Items: items, Conj: a})
	}
	return out
}
