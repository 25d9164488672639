package sqlite

import (
	"slices"
	"strings"
	"testing"

	"github.com/factbase/factbase/search"
)

func TestFTSQuery(t *testing.T) {
	tests := []struct {
		name  string
		terms []string
		want  string
	}{
		{name: "nil", terms: nil, want: ""},
		{name: "empty terms", terms: []string{"", "  ", "\x00"}, want: ""},
		{name: "one", terms: []string{"coffee"}, want: `"coffee"`},
		{name: "several", terms: []string{"coffee", "tea"}, want: `"coffee" OR "tea"`},
		{name: "quote injection", terms: []string{`foo" OR bar`}, want: `"foo"" OR bar"`},
		{name: "only quotes dropped", terms: []string{`"`, `""`}, want: ""},
		{name: "near group", terms: []string{"NEAR(", "a b)"}, want: `"NEAR(" OR "a b)"`},
		{name: "prefix star", terms: []string{"*", "foo*"}, want: `"foo*"`},
		{name: "negation and column filter", terms: []string{"-x", "body:foo", "{a b}:c"}, want: `"-x" OR "body:foo" OR "{a b}:c"`},
		{name: "caret and plus", terms: []string{"^start", "a + b"}, want: `"^start" OR "a + b"`},
		{name: "control characters become spaces", terms: []string{"a\x00b", "\tc\n"}, want: `"a b" OR "c"`},
		{name: "invalid utf8 replaced", terms: []string{"caf\xe9"}, want: "\"caf\uFFFD\""},
		{name: "repeats dropped", terms: []string{"x", "y", "x"}, want: `"x" OR "y"`},
		{name: "unicode kept", terms: []string{"東京", "zürich"}, want: `"東京" OR "zürich"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ftsQuery(tc.terms); got != tc.want {
				t.Errorf("ftsQuery(%q) = %s, want %s", tc.terms, got, tc.want)
			}
		})
	}
}

// parseFTSQuery splits an ftsQuery result back into its unescaped terms, reporting
// whether it has exactly the shape `"t1" OR "t2" ...` with inner quotes doubled.
func parseFTSQuery(q string) ([]string, bool) {
	if q == "" {
		return nil, true
	}
	var terms []string
	i := 0
	for {
		if i >= len(q) || q[i] != '"' {
			return nil, false
		}
		i++
		var b strings.Builder
		for {
			if i >= len(q) {
				return nil, false // unterminated string
			}
			if q[i] == '"' {
				if i+1 < len(q) && q[i+1] == '"' {
					b.WriteByte('"')
					i += 2
					continue
				}
				i++
				break
			}
			b.WriteByte(q[i])
			i++
		}
		terms = append(terms, b.String())
		if i == len(q) {
			return terms, true
		}
		if !strings.HasPrefix(q[i:], " OR ") {
			return nil, false
		}
		i += len(" OR ")
	}
}

func TestParseFTSQueryRejects(t *testing.T) {
	for _, q := range []string{`foo`, `"foo`, `"a" "b"`, `"a" OR b`, `"a" AND "b"`, `"a""`} {
		if _, ok := parseFTSQuery(q); ok {
			t.Errorf("parseFTSQuery(%q) ok, want rejected", q)
		}
	}
}

func FuzzFTSQuery(f *testing.F) {
	for _, s := range []string{`foo" OR bar`, "NEAR(a b)", "*", "-x", "col:y", "\x00\"\"\xff", "a\nb"} {
		f.Add(s, "second")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		in := []string{a, b, a}
		q := ftsQuery(in)
		got, ok := parseFTSQuery(q)
		if !ok {
			t.Fatalf("ftsQuery(%q) = %s: not quoted terms joined by OR", in, q)
		}
		var want []string
		for _, s := range in {
			if c := cleanTerm(s); c != "" && !slices.Contains(want, c) {
				want = append(want, c)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("ftsQuery(%q) = %s, parsed %q, want %q", in, q, got, want)
		}
		if strings.ContainsRune(q, 0) {
			t.Fatalf("ftsQuery(%q) contains NUL", in)
		}
	})
}

// FuzzFTSQueryOfTerms: the terms of any question (search.Terms) come back unchanged
// from the MATCH expression built of them.
func FuzzFTSQueryOfTerms(f *testing.F) {
	for _, s := range []string{"What's my favorite café?", "don't can't O'Brien", `foo" OR NEAR(* -x:y`, "東京\xff\u0301x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		terms := search.Terms(s)
		got, ok := parseFTSQuery(ftsQuery(terms))
		if !ok || !slices.Equal(got, terms) {
			t.Fatalf("ftsQuery(Terms(%q)) parsed to %q (ok %v), want %q", s, got, ok, terms)
		}
	})
}
