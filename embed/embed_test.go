package embed

import (
	"math"
	"slices"
	"strings"
	"testing"
	"unicode"
)

func TestCosine(t *testing.T) {
	tests := []struct {
		name string
		a, b []float32
		want float32
	}{
		{name: "same", a: []float32{1, 2, 3}, b: []float32{1, 2, 3}, want: 1},
		{name: "scaled", a: []float32{1, 2, 3}, b: []float32{2, 4, 6}, want: 1},
		{name: "opposite", a: []float32{1, 0}, b: []float32{-3, 0}, want: -1},
		{name: "orthogonal", a: []float32{1, 0}, b: []float32{0, 5}, want: 0},
		{name: "45 degrees", a: []float32{1, 0}, b: []float32{1, 1}, want: float32(math.Sqrt2 / 2)},
		{name: "zero vector", a: []float32{0, 0}, b: []float32{1, 1}, want: 0},
		{name: "both zero", a: []float32{0, 0}, b: []float32{0, 0}, want: 0},
		{name: "different lengths", a: []float32{1, 0}, b: []float32{1, 0, 0}, want: 0},
		{name: "empty", a: nil, b: nil, want: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Cosine(tc.a, tc.b); math.Abs(float64(got-tc.want)) > 1e-6 {
				t.Errorf("Cosine(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		name   string
		in     []float32
		want   []float32
		wantOK bool
	}{
		{name: "3-4-5", in: []float32{3, 4}, want: []float32{0.6, 0.8}, wantOK: true},
		{name: "zero", in: []float32{0, 0}, want: []float32{0, 0}, wantOK: false},
		{name: "infinite", in: []float32{float32(math.Inf(1)), 1}, want: []float32{0, 0}, wantOK: false},
		{name: "nan", in: []float32{float32(math.NaN()), 1}, want: []float32{0, 0}, wantOK: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := slices.Clone(tc.in)
			ok := Normalize(v)
			if ok != tc.wantOK {
				t.Errorf("Normalize(%v) = %v, want %v", tc.in, ok, tc.wantOK)
			}
			for i := range v {
				if math.Abs(float64(v[i]-tc.want[i])) > 1e-6 {
					t.Errorf("Normalize(%v) gives %v, want %v", tc.in, v, tc.want)
					break
				}
			}
		})
	}
}

func TestTokens(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{name: "empty", text: "", want: nil},
		{name: "punctuation only", text: " ?!, -- ", want: nil},
		{name: "sentence", text: "What does Martin eat?", want: []string{"what", "does", "martin", "eat"}},
		{name: "doc example", text: "Martin's e-mail: Foo@Bar.com!", want: []string{"martin's", "e", "mail", "foo", "bar", "com"}},
		{name: "digits", text: "Room 101, 2024-05-01", want: []string{"room", "101", "2024", "05", "01"}},
		{name: "typographic apostrophe", text: "Don’t", want: []string{"don't"}},
		{name: "quotes trimmed", text: "'hello' ''", want: []string{"hello"}},
		{name: "accents kept", text: "Café ÉCOLE naïve", want: []string{"café", "école", "naïve"}},
		{name: "other scripts", text: "Москва 東京", want: []string{"москва", "東京"}},
		{name: "combining mark", text: "cafe\u0301", want: []string{"cafe\u0301"}},
		{name: "underscores split", text: "snake_case", want: []string{"snake", "case"}},
		{name: "invalid utf-8", text: "a\xffb", want: []string{"a", "b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Tokens(tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("Tokens(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

func TestStopWordsAreTokens(t *testing.T) {
	// A stop word that Tokens can never produce would be dead weight in the list.
	for w := range stopWords {
		if got := Tokens(w); len(got) != 1 || got[0] != w {
			// Clitics such as "'s" lose their leading apostrophe in Tokens but are
			// still looked up in that form when a word is split.
			if strings.HasPrefix(w, "'") || strings.HasPrefix(w, "n'") {
				continue
			}
			t.Errorf("Tokens(%q) = %q, want the stop word itself", w, got)
		}
	}
}

func FuzzTokens(f *testing.F) {
	for _, s := range []string{"What does Martin eat?", "Martin's e-mail: Foo@Bar.com!", "Don’t ''x''", "Москва 東京", "a\xffb", "İstanbul"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, tok := range Tokens(text) {
			if tok == "" {
				t.Fatalf("Tokens(%q) has an empty token", text)
			}
			if tok[0] == '\'' || tok[len(tok)-1] == '\'' {
				t.Errorf("Tokens(%q) has %q, with an apostrophe at an end", text, tok)
			}
			for _, r := range tok {
				if !(r == '\'' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)) {
					t.Errorf("Tokens(%q) has %q, with %q", text, tok, r)
				}
			}
			if again := Tokens(tok); len(again) != 1 || again[0] != tok {
				t.Errorf("Tokens(%q) = %q: token %q is not stable", text, again, tok)
			}
		}
	})
}
