package normalize

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestValue(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{name: "empty", in: "", want: ""},
		{name: "only space", in: " \t\n ", want: ""},
		{name: "only punctuation", in: ".,!?;:", want: ""},
		{name: "brief trailing dot", in: "  BTC. ", want: "btc"},
		{name: "brief full width", in: "Ｂｔｃ", want: "btc"},
		{name: "brief smart apostrophe", in: "rock  n’ roll!!", want: "rock n' roll"},
		{name: "plain lower", in: "btc", want: "btc"},
		{name: "ascii upper", in: "HELLO World", want: "hello world"},
		{name: "interior punctuation kept", in: "e.g. this, that", want: "e.g. this, that"},
		{name: "leading punctuation kept", in: "...and then", want: "...and then"},
		{name: "trailing punctuation mix", in: "what?!.", want: "what"},
		{name: "space before punctuation", in: "btc . ! ;", want: "btc"},
		{name: "tabs and newlines", in: "a\t\tb\nc\r\nd", want: "a b c d"},
		{name: "vertical tab and form feed", in: "\va\fb\v", want: "a b"},
		{name: "no-break space", in: "a\u00a0\u00a0b\u00a0", want: "a b"},
		{name: "ideographic space", in: "a\u3000b", want: "a b"},
		{name: "em space and next line", in: "a\u2003\u0085b", want: "a b"},
		{name: "left single quote", in: "\u2018x\u2019", want: "'x'"},
		{name: "low single quote", in: "\u201ax\u201b", want: "'x'"},
		{name: "prime", in: "5\u2032", want: "5'"},
		{name: "double quotes", in: "\u201cx\u201d", want: "\"x\""},
		{name: "low double quotes", in: "\u201ex\u201f", want: "\"x\""},
		{name: "double prime", in: "12\u2033", want: "12\""},
		{name: "triple prime decomposes", in: "1\u2034", want: "1'''"},
		{name: "full width apostrophe", in: "n\uff07t", want: "n't"},
		{name: "ellipsis stripped", in: "wait\u2026", want: "wait"},
		{name: "ligature", in: "\ufb01sh", want: "fish"},
		{name: "sharp s full folding", in: "Straße", want: "strasse"},
		{name: "sharp s upper", in: "STRASSE", want: "strasse"},
		{name: "capital sharp s", in: "STRA\u1e9eE", want: "strasse"},
		{name: "greek sigmas", in: "ΣΑΣ σας", want: "σασ σασ"},
		{name: "composed and decomposed", in: "Cafe\u0301", want: "café"},
		{name: "composed", in: "CAFÉ", want: "café"},
		{name: "dotted capital I is locale independent", in: "İ", want: "i\u0307"},
		{name: "circled letter", in: "\u24b7tc", want: "btc"},
		{name: "superscript two", in: "x\u00b2", want: "x2"},
		{name: "invalid utf8", in: "a\xffb", want: "a\ufffdb"},
		{name: "invalid utf8 upper", in: "\xc3\x28ABC", want: "\ufffd(abc"},
		{name: "truncated rune", in: "caf\xc3", want: "caf\ufffd"},
		{name: "emoji kept", in: "🚀 Rocket!", want: "🚀 rocket"},
		{name: "control byte dropped", in: "a\x00b", want: "ab"},
		{name: "small full stop", in: "btc\ufe52", want: "btc"},
		{name: "full width exclamation", in: "btc\uff01", want: "btc"},
		{name: "diaeresis alone", in: "\u00a8", want: "\u0308"},
		{name: "cherokee capital stays", in: "\u13aa", want: "\u13aa"},
		{name: "cherokee small to capital", in: "\uab7a", want: "\u13aa"},
		{name: "cherokee small ye", in: "\u13f8", want: "\u13f0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Value(tc.in); got != tc.want {
				t.Errorf("Value(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestValueEqual(t *testing.T) {
	pairs := [][2]string{
		{"Straße", "STRASSE"},
		{"BTC", "btc."},
		{"Ｂｔｃ", "BTC"},
		{"rock n’ roll", "ROCK N' ROLL!"},
		{"“Dune”", "\"dune\""},
		{"a  b", "a\u00a0b"},
		{"café", "CAFE\u0301"},
	}
	for _, p := range pairs {
		if a, b := Value(p[0]), Value(p[1]); a != b {
			t.Errorf("Value(%q) = %q and Value(%q) = %q, want equal", p[0], a, p[1], b)
		}
	}
	unequal := [][2]string{
		{"btc", "bt c"},
		{"c#", "c"},
		{"a.b", "ab"},
		{"'x'", "x"},
	}
	for _, p := range unequal {
		if a, b := Value(p[0]), Value(p[1]); a == b {
			t.Errorf("Value(%q) = Value(%q) = %q, want different", p[0], p[1], a)
		}
	}
}

// TestValueASCIIFastPath checks that the all-ASCII shortcut agrees with the general path
// for every ASCII byte it takes (printable and white space) in every position that
// matters, and that it does not take control characters, which Clean removes with the
// escape sequences they start.
func TestValueASCIIFastPath(t *testing.T) {
	for c := 0; c < utf8.RuneSelf; c++ {
		for _, s := range []string{
			string(rune(c)),
			"A" + string(rune(c)) + "b",
			" x " + string(rune(c)),
			string(rune(c)) + " Y.",
			"Q" + string(rune(c)) + string(rune(c)),
		} {
			control := c < 0x20 && !asciiSpace(byte(c)) || c == 0x7f
			if isPlainASCII(s) == control {
				t.Errorf("isPlainASCII(%q) = %v", s, !control)
			}
			if control {
				continue
			}
			if got, want := asciiValue(s), unicodeValue(s); got != want {
				t.Errorf("asciiValue(%q) = %q, want %q", s, got, want)
			}
		}
	}
}

// TestValueEveryRune runs every code point, alone and after a letter, through Value
// twice. It found that x/text's Fold is not idempotent for Cherokee.
func TestValueEveryRune(t *testing.T) {
	if testing.Short() {
		t.Skip("1.1 million code points")
	}
	bad := 0
	for r := rune(0); r <= unicode.MaxRune && bad < 10; r++ {
		for _, s := range []string{string(r), "A" + string(r)} {
			v := Value(s)
			if vv := Value(v); vv != v {
				t.Errorf("Value(%q) = %q, but Value(%q) = %q", s, v, v, vv)
				bad++
			}
		}
	}
}

func TestTrimTrailing(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"a", "a"},
		{"a.", "a"},
		{"a . , ! ? ; :", "a"},
		{"a\u00a0.", "a"},
		{" .", ""},
		{"a-", "a-"},
	}
	for _, tc := range tests {
		if got := trimTrailing(tc.in); got != tc.want {
			t.Errorf("trimTrailing(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzValue(f *testing.F) {
	for _, s := range []string{
		"", "  BTC. ", "Ｂｔｃ", "rock  n’ roll!!", "Straße", "\u00a8", "a\xffb", "İ",
		"ΣΑΣ", "\u2034", "x \u0301.", "\ufb01", "\u1e9e", "ǅ", "\u0345", "a\u00a0\u0308",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := Value(s)
		if vv := Value(v); vv != v {
			t.Errorf("Value(Value(%q)) = %q, want %q", s, vv, v)
		}
		if !utf8.ValidString(v) {
			t.Errorf("Value(%q) = %q, not valid UTF-8", s, v)
		}
		if strings.TrimFunc(v, unicode.IsSpace) != v {
			t.Errorf("Value(%q) = %q has surrounding white space", s, v)
		}
		if v != "" && strings.ContainsRune(trailing, rune(v[len(v)-1])) {
			t.Errorf("Value(%q) = %q ends in a stripped character", s, v)
		}
		if isPlainASCII(s) {
			if u := unicodeValue(s); u != v {
				t.Errorf("Value(%q) = %q by the ASCII path, %q by the general path", s, v, u)
			}
		}
		if strings.Contains(v, "  ") {
			t.Errorf("Value(%q) = %q has a double space", s, v)
		}
	})
}

var sink string

func BenchmarkValue(b *testing.B) {
	inputs := []struct{ name, s string }{
		{"ascii", "  Bitcoin Cash.  "},
		{"unicode", "Ｒｏｃｋ  n’ Roll — Straße!!"},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.s)))
			b.ReportAllocs()
			for b.Loop() {
				sink = Value(in.s)
			}
		})
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"Quito, Ecuador!", "quito|ecuador"},
		{"  Straße  Nº 5 ", "strasse|no|5"},
		{"rock n’ roll", "rock|n|roll"},
		{"...", ""},
		{"", ""},
	}
	for _, tc := range tests {
		if got := strings.Join(Words(tc.in), "|"); got != tc.want {
			t.Errorf("Words(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
