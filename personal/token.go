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

// tokenize cuts a message into tokens.
func tokenize(msg string) []token { return tokensOf(text.All(msg, frontEnd), len(msg)/4+1) }

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

// sentences splits tokens at sentence ends (. ! ? ; and line breaks), keeping the
// terminators with their sentence. A dot after a title ("Dr.") or a single capital
// letter (an initial) does not end a sentence.
func sentences(msg string, toks []token) [][]token {
	var out [][]token
	start := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		end := false
		if t.kind == kPunct {
			switch t.w {
			case "!", "?", ";":
				end = true
			case ".":
				end = true
				if i > 0 && toks[i-1].kind == kWord && toks[i-1].end == t.start &&
					(titles[toks[i-1].w] || abbreviations[toks[i-1].w] || len(toks[i-1].w) == 1 && toks[i-1].cap) {
					end = false
				}
			}
		}
		if !end && i+1 < len(toks) && toks[i+1].start > t.end && strings.ContainsRune(msg[t.end:toks[i+1].start], '\n') {
			end = true
		}
		if !end {
			continue
		}
		for i+1 < len(toks) && toks[i+1].kind == kPunct && strings.Contains(".!?", toks[i+1].w) {
			i++ // "?!" and "..." stay with the sentence they end
		}
		out = append(out, toks[start:i+1])
		start = i + 1
	}
	if start < len(toks) {
		out = append(out, toks[start:])
	}
	return out
}
