package text

import (
	"slices"
	"testing"
	"unicode"
	"unicode/utf8"
)

// runePieces cuts msg into pieces of one rune (or invalid byte) each, as a scanner
// reading rune by rune sees it: joined by the same joiner, they must give the tokens
// the pieces of runs give.
func runePieces(msg string) []piece {
	var out []piece
	for i := 0; i < len(msg); {
		r, size := utf8.DecodeRuneInString(msg[i:])
		k := pRune
		switch {
		case isBlank(msg[i]):
			k = pBlank
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			k = pCore
		}
		out = append(out, piece{start: i, end: i + size, kind: k, r: r})
		i += size
	}
	return out
}

// testViews are the Options the extractors read with, and a few more.
var testViews = []Options{
	Standard,
	{},
	{Joiners: "'’-.", DigitDots: true, Emails: true, PluralPossessive: true, Expand: true},
	{WordSymbols: "@_&+%$€£", Marks: true, Joiners: ".'’-/‐", Quotes: true, SkipFlags: true, PluralPossessive: true},
	{NonASCII: true, Joiners: "'-:/.", DigitDots: true},
	{NonASCII: true, Marks: true, WordSymbols: "#", Joiners: ".", URLs: true, Emails: true, SkipFlags: true},
	{WordSymbols: "_", NonSpacingMarks: true, Joiners: "-", JoinerRuns: true},
	{Fields: true},
}

// checkViews fails unless every view of msg, alone and in a Parse, is the view
// joined from pieces of one rune each.
func checkViews(t *testing.T, msg string) {
	t.Helper()
	p := New(msg)
	ps := runePieces(msg)
	for _, o := range testViews {
		want := viewOf(msg, ps, o)
		for name, got := range map[string][]Token{"Tokenize": Tokenize(msg, o), "View": p.View(o)} {
			if !slices.Equal(got, want) {
				t.Fatalf("%s(%q, %+v) = %v, rune by rune %v", name, msg, o, got, want)
			}
		}
	}
}

func TestViewsAsRunes(t *testing.T) {
	for _, msg := range []string{
		"", " \t\n", "My sister Ada, my eldest, isn't 40 and her husband works at Acme.",
		"mail jamal.k@fastmail.com or see https://go.dev/doc. www.x.org!", `"Is This Love" --json --user=ada x`,
		"Rita, Sam and Leo\n'parents' \xff\xfe", "“quoted” ‘single’ don’t café\u0301 naïve",
		"at 15:30 on 3/4, 3.5 v2.3 node.js ac/dc $5 50% bob_x+y@a.b.c 🙂\u00a0x\u2003y\u0085z\ufffd",
		"Ahmad's parents' cars\u200b Ångström ٣٤ 東京", "--", "-- x", "a--b x-_y z- -w c\u0301-\u0301d a-\xff-b --", "'a'b' \"\" '' “ ”",
	} {
		checkViews(t, msg)
	}
}
