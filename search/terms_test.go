package search

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{name: "empty", in: "", want: nil},
		{name: "only stop words", in: "What is it? Who did that, and when?", want: nil},
		{name: "question words dropped", in: "What's my favorite color?", want: []string{"favorite", "color"}},
		{name: "which who where how", in: "which restaurant where Paris how much", want: []string{"restaurant", "paris"}},
		{name: "lowercase and dedup", in: "Coffee coffee COFFEE tea", want: []string{"coffee", "tea"}},
		{name: "punctuation splits", in: "email/phone;address,zip-code (home)", want: []string{"email", "phone", "address", "zip", "code", "home"}},
		{name: "numbers kept and split on dots", in: "NEXUS v2.3.1 scored 94.2%", want: []string{"nexus", "v2", "3", "1", "scored", "94", "2"}},
		{name: "possessive", in: "Anna's birthday", want: []string{"anna", "birthday"}},
		{name: "contractions", in: "they're we've I'll she'd I'm", want: nil},
		{name: "negations", in: "doesn't isn't can't won't shouldn't", want: nil},
		{name: "needn't keeps need", in: "needn't worry", want: []string{"need", "worry"}},
		{name: "curly apostrophe", in: "What’s Bob’s job", want: []string{"bob", "job"}},
		{name: "non-contraction apostrophe splits", in: "O'Brien rock'n'roll", want: []string{"o", "brien", "rock", "n", "roll"}},
		{name: "leading and trailing apostrophes", in: "'quoted' students' grades", want: []string{"quoted", "students", "grades"}},
		{name: "unicode letters", in: "Café naïve Zürich straße", want: []string{"café", "naïve", "zürich", "straße"}},
		{name: "combining marks stay in the word", in: "cafe\u0301 menu", want: []string{"cafe\u0301", "menu"}},
		{name: "cjk run is one term", in: "東京タワーに行った", want: []string{"東京タワーに行った"}},
		{name: "cyrillic and greek", in: "Москва Αθήνα", want: []string{"москва", "αθήνα"}},
		{name: "fts syntax is not a term", in: `foo" OR bar NEAR(x, y) * -z col:w ^q`, want: []string{"foo", "bar", "near", "x", "y", "z", "col", "w", "q"}},
		{name: "emoji and symbols split", in: "pizza🍕tacos + $5", want: []string{"pizza", "tacos", "5"}},
		{name: "invalid utf8 splits", in: "ab\xffcd", want: []string{"ab", "cd"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Terms(tc.in); !slices.Equal(got, tc.want) {
				t.Errorf("Terms(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestTermsLimit(t *testing.T) {
	var b strings.Builder
	for i := range 200 {
		b.WriteString("w")
		b.WriteString(strings.Repeat("x", i%7+1))
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString(string(rune('a' + i/26)))
		b.WriteString(" ")
	}
	if got := Terms(b.String()); len(got) != MaxTerms {
		t.Errorf("Terms(200 distinct words) returned %d terms, want %d", len(got), MaxTerms)
	}
}

func TestStopWords(t *testing.T) {
	for _, w := range []string{"what", "which", "who", "when", "where", "how", "did", "does", "do", "is", "are",
		"was", "were", "the", "a", "an", "of", "to", "in", "s", "t"} {
		if !IsStopWord(w) {
			t.Errorf("IsStopWord(%q) = false, want true", w)
		}
	}
	for _, w := range []string{"like", "favorite", "name", "remember", "birthday", "coffee"} {
		if IsStopWord(w) {
			t.Errorf("IsStopWord(%q) = true, want false", w)
		}
	}
	if n := len(stopWords); n < 140 || n > 200 {
		t.Errorf("len(stopWords) = %d, want about 150", n)
	}
	for w := range stopWords {
		if w != strings.ToLower(w) || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
			t.Errorf("stop word %q is not a lower-case word", w)
		}
	}
}

func FuzzTerms(f *testing.F) {
	for _, s := range []string{"What's my favorite café?", "don't can't O'Brien", `foo" OR NEAR(* -x:y`, "東京\xff\u0301x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		terms := Terms(s)
		if len(terms) > MaxTerms {
			t.Fatalf("Terms(%q): %d terms, more than %d", s, len(terms), MaxTerms)
		}
		seen := map[string]bool{}
		for _, w := range terms {
			if w == "" || stopWords[w] || seen[w] {
				t.Fatalf("Terms(%q) = %q: empty, stop word or repeat %q", s, terms, w)
			}
			seen[w] = true
			for i, r := range w {
				if !(isTermRune(r) || i > 0 && isMark(r)) {
					t.Fatalf("Terms(%q) = %q: term %q has rune %q", s, terms, w, r)
				}
			}
		}
	})
}
