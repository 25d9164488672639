package personal

import (
	"iter"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/factbase/factbase/text"
)

// kind is a token's kind.
type kind uint8

const (
	kWord  kind = iota // letters, digits, hyphens inside
	kEmail             // user@host.tld
	kPunct             // one punctuation character
)

// token is one word or punctuation mark of a message. w is the lower-case word with
// contractions expanded; a contraction becomes two tokens sharing the span ("isn't":
// "is" and "not"). Values are always cut from the message by span, never rebuilt
// from w, so they keep their spelling.
type token struct {
	w          string
	kind       kind
	start, end int
	cap        bool // the word starts with an upper-case letter
	poss       bool // the word carried a possessive "'s" or "s'" ("Leo's")
}

// frontEnd are the options personal reads a message with: words joined by
// apostrophes and hyphens, dots between digits and inside emails, emails,
// possessives and contractions expanded.
var frontEnd = text.Options{Joiners: "'’-.", DigitDots: true, Emails: true, PluralPossessive: true, Expand: true}

// readable returns tp, or when its message is longer than MaxMessage or not valid
// UTF-8, the parse of its first MaxMessage bytes with each invalid byte read as
// U+FFFD.
func readable(tp *text.Parse) *text.Parse {
	msg := tp.Msg
	if len(msg) <= MaxMessage && utf8.ValidString(msg) {
		return tp
	}
	if len(msg) > MaxMessage {
		msg = msg[:MaxMessage]
	}
	return text.New(strings.ToValidUTF8(msg, "\uFFFD"))
}

// viewOf returns personal's tokens of tp.
func viewOf(tp *text.Parse) []token {
	in := tp.View(frontEnd)
	return tokensOf(slices.Values(in), len(in))
}

// tokensOf converts the front end's tokens (about n of them): line breaks are dropped (sentences finds
// them in the message) and typographic quotes and dashes made ASCII.
func tokensOf(in iter.Seq[text.Token], n int) []token {
	out := make([]token, 0, n)
	for t := range in {
		k := kWord
		w := t.W
		switch t.Kind {
		case text.Newline:
			continue
		case text.Email:
			k = kEmail
		case text.Punct, text.Symbol, text.Quoted, text.URL:
			k = kPunct
			switch w {
			case "’", "‘":
				w = "'"
			case "“", "”":
				w = "\""
			case "–", "—":
				w = "-"
			}
		}
		out = append(out, token{w: w, kind: k, start: t.Start, end: t.End, cap: t.Cap, poss: t.Poss})
	}
	return out
}

// sentences splits toks, personal's tokens of tp (as viewOf makes them, words maybe
// swapped), into the sentences the front end finds in tp's view: ends at . ! ? ; and
// line breaks, runs of . ! ? kept with the sentence they end (across line breaks,
// which toks do not hold), and a dot after a title, an abbreviation ("St.") or a
// single capital letter (an initial) no end.
func sentences(tp *text.Parse, toks []token) [][]token {
	in := tp.View(frontEnd)
	// at[i] is the index in toks of view token i, or of the token after a line break.
	at := make([]int, len(in)+1)
	n := 0
	for i, t := range in {
		at[i] = n
		if t.Kind != text.Newline {
			n++
		}
	}
	at[len(in)] = n
	rules := text.SentenceRules{Ends: "!?;", Runs: ".!?", RunsCrossLines: true, KeepDot: func(i int) bool {
		if in[i-1].Kind == text.Newline {
			return false
		}
		prev := toks[at[i-1]]
		return prev.kind == kWord && (titles[prev.w] || abbreviations[prev.w] || len(prev.w) == 1 && prev.cap)
	}}
	var out [][]token
	apps := asides(tp, in)
	for _, s := range text.Sentences(in, rules) {
		if at[s.From] < at[s.To] {
			// What an aside says is read first, so that the sentence's own
			// subject is the last one named: "Ana, whose daughter is a chef, lives
			// in Quito. She ..." goes on about Ana.
			main, said := withoutAsides(toks[at[s.From]:at[s.To]], &apps)
			for _, a := range said {
				if len(a) > 0 {
					out = append(out, a)
				}
			}
			out = append(out, main)
		}
	}
	return out
}

// asides returns, in order, the embedded clauses between commas the front end finds
// in tp that personal reads apart: appositives opening with an article ("Tom, a
// retired pilot, lives in Lyon") and relative clauses opening with "whose" ("Ana,
// whose husband is a chef, lives in Quito"). An appositive opening with "my" names a
// relation, which the mention reader takes ("Martin, my accountant, ..."), and it
// reads "who" clauses itself.
func asides(tp *text.Parse, in []text.Token) []aside {
	// Most messages have no comma before an article or "whose", and need no clauses.
	found := false
	for i := 1; i < len(in) && !found; i++ {
		found = in[i-1].W == "," && (isArticle(in[i].W) || in[i].W == "whose")
	}
	if !found {
		return nil
	}
	var out []aside
	std := tp.Tokens()
	for _, c := range tp.Clauses() {
		if c.From == 0 || c.To >= len(std) || std[c.From-1].W != "," || std[c.To].W != "," || c.Head < 0 {
			continue
		}
		a := aside{start: std[c.From-1].Start, end: std[c.To].End, head: std[c.Head].Start, from: std[c.From].Start}
		switch w := std[c.From].W; {
		case c.Kind == text.Appositive && isArticle(w):
		case c.Kind == text.Relative && w == "whose" && c.From+1 < c.To:
			a.from, a.whose = std[c.From+1].Start, true
		default:
			continue
		}
		out = append(out, a)
	}
	return out
}

// aside is an embedded clause personal reads apart: [start, end) with its commas,
// the name it hangs on at head, and what it says from from on.
type aside struct {
	start, end, head, from int
	whose                  bool // "whose husband is a chef": the head's husband
}

func isArticle(w string) bool { return w == "a" || w == "an" || w == "the" }

// withoutAsides returns sentence s less the asides among apps (in order; those
// before s's end are taken from apps), so that the name before one reads on into its
// verb ("Tom, a retired pilot, lives in Lyon" is read as "Tom lives in Lyon"), and
// what each of them says (see asideSentence).
func withoutAsides(s []token, apps *[]aside) ([]token, [][]token) {
	end := s[len(s)-1].end
	var cut []aside
	for len(*apps) > 0 && (*apps)[0].end <= end {
		if (*apps)[0].start >= s[0].start {
			cut = append(cut, (*apps)[0])
		}
		*apps = (*apps)[1:]
	}
	if len(cut) == 0 {
		return s, nil
	}
	var said [][]token
	for _, a := range cut {
		said = append(said, asideSentence(s, a))
	}
	out := make([]token, 0, len(s))
	for _, t := range s {
		for len(cut) > 0 && t.start >= cut[0].end {
			cut = cut[1:]
		}
		if len(cut) == 0 || t.end <= cut[0].start || t.start >= cut[0].end {
			out = append(out, t)
		}
	}
	return out, said
}

// asideSentence returns what aside a of sentence s says, as a sentence of its own:
// "Tom, a retired pilot," is "Tom is a retired pilot", "Ana, whose husband is a
// chef," is "Ana's husband is a chef". The name keeps its span; the "is" added has
// the span of the comma.
func asideSentence(s []token, a aside) []token {
	h := sort.Search(len(s), func(i int) bool { return s[i].start >= a.head })
	if h == len(s) || s[h].start != a.head || s[h].kind != kWord {
		return nil
	}
	head := s[h]
	head.poss = head.poss || a.whose
	out := []token{head}
	if !a.whose {
		out = append(out, token{w: "is", kind: kWord, start: a.start, end: a.start + 1})
	}
	for i := sort.Search(len(s), func(i int) bool { return s[i].start >= a.from }); i < len(s) && s[i].end < a.end; i++ {
		out = append(out, s[i])
	}
	return out
}
