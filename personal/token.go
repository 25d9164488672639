package personal

import (
	"iter"
	"slices"
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
			out = append(out, withoutAsides(toks[at[s.From]:at[s.To]], &apps))
		}
	}
	return out
}

// asides returns the byte spans, each with its two commas, of the embedded clauses
// the front end finds in tp that personal skips, in order: appositives opening with
// an article ("Tom, a retired pilot, lives in Lyon" has ", a retired pilot,") and
// relative clauses opening with "whose" ("Ana, whose husband is a chef, lives in
// Quito"). An appositive opening with "my" names a relation, which the mention
// reader takes ("Martin, my accountant, ..."), and it reads "who" clauses itself.
func asides(tp *text.Parse, in []text.Token) [][2]int {
	// Most messages have no comma before an article or "whose", and need no clauses.
	found := false
	for i := 1; i < len(in) && !found; i++ {
		found = in[i-1].W == "," && (isArticle(in[i].W) || in[i].W == "whose")
	}
	if !found {
		return nil
	}
	var out [][2]int
	std := tp.Tokens()
	for _, c := range tp.Clauses() {
		if c.From == 0 || c.To >= len(std) || std[c.From-1].W != "," || std[c.To].W != "," {
			continue
		}
		if w := std[c.From].W; c.Kind == text.Appositive && isArticle(w) || c.Kind == text.Relative && w == "whose" {
			out = append(out, [2]int{std[c.From-1].Start, std[c.To].End})
		}
	}
	return out
}

func isArticle(w string) bool { return w == "a" || w == "an" || w == "the" }

// withoutAsides returns sentence s less the asides among apps (in order; those
// before s's end are taken from apps), so that the name before one reads on into its
// verb: "Tom, a retired pilot, lives in Lyon" is read as "Tom lives in Lyon".
func withoutAsides(s []token, apps *[][2]int) []token {
	end := s[len(s)-1].end
	var cut [][2]int
	for len(*apps) > 0 && (*apps)[0][1] <= end {
		if (*apps)[0][0] >= s[0].start {
			cut = append(cut, (*apps)[0])
		}
		*apps = (*apps)[1:]
	}
	if len(cut) == 0 {
		return s
	}
	out := make([]token, 0, len(s))
	for _, t := range s {
		for len(cut) > 0 && t.start >= cut[0][1] {
			cut = cut[1:]
		}
		if len(cut) == 0 || t.end <= cut[0][0] || t.start >= cut[0][1] {
			out = append(out, t)
		}
	}
	return out
}
