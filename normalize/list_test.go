package normalize

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/factbase/factbase"
)

func TestParseList(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		// The brief's examples.
		{name: "oxford comma", in: "BTC, ETH, and XMR", want: []string{"BTC", "ETH", "XMR"}},
		{name: "no oxford comma", in: "BTC, ETH and XMR", want: []string{"BTC", "ETH", "XMR"}},
		{name: "two with and", in: "BTC and ETH", want: []string{"BTC", "ETH"}},
		{name: "ampersand", in: "BTC & ETH", want: []string{"BTC", "ETH"}},
		{name: "quoted titles", in: `"Lord of the Rings", "Dune" and Emma`, want: []string{"Lord of the Rings", "Dune", "Emma"}},
		{name: "semicolons", in: "A; B; C", want: []string{"A", "B", "C"}},
		{name: "slash not split", in: "A/B", want: []string{"A/B"}},
		{name: "or not split", in: "tea or coffee", want: []string{"tea or coffee"}},
		{name: "salt and pepper with commas", in: "salt and pepper, rice and beans", want: []string{"salt and pepper", "rice", "beans"}},
		{name: "salt and pepper alone", in: "Salt and pepper", want: []string{"Salt", "pepper"}},
		{name: "salt and pepper quoted", in: `"Salt and pepper"`, want: []string{"Salt and pepper"}},

		// Empty and degenerate input.
		{name: "empty", in: "", want: nil},
		{name: "space", in: "   ", want: nil},
		{name: "separators only", in: " , ; and & ,", want: nil},
		{name: "one item", in: "BTC", want: []string{"BTC"}},
		{name: "one item trailing dot", in: "BTC.", want: []string{"BTC"}},
		{name: "trailing comma", in: "A, B,", want: []string{"A", "B"}},
		{name: "leading comma", in: ", A", want: []string{"A"}},
		{name: "double comma", in: "A,,B", want: []string{"A", "B"}},
		{name: "dangling and", in: "A and", want: []string{"A"}},
		{name: "leading and", in: "and A", want: []string{"A"}},
		{name: "only punctuation item", in: "A, ..., B", want: []string{"A", "B"}},

		// Connectors are whole words.
		{name: "AND upper case", in: "A AND B", want: []string{"A", "B"}},
		{name: "And title case", in: "A And B", want: []string{"A", "B"}},
		{name: "and inside words", in: "Anderson, band and android", want: []string{"Anderson", "band", "android"}},
		{name: "ampersand inside words", in: "AT&T & R&B", want: []string{"AT&T", "R&B"}},
		{name: "ampersand no space after", in: "A &B", want: []string{"A &B"}},
		{name: "and before comma", in: "A and, B", want: []string{"A", "B"}},
		{name: "and after comma no space", in: "A,and B", want: []string{"A", "B"}},
		{name: "and and", in: "A and and B", want: []string{"A", "B"}},
		{name: "many ands", in: "A and B and C & D", want: []string{"A", "B", "C", "D"}},
		{name: "and with tab and newline", in: "A\tand\nB", want: []string{"A", "B"}},
		{name: "and with no-break space", in: "A\u00a0and\u00a0B", want: []string{"A", "B"}},
		{name: "newline is not a separator", in: "A\nB", want: []string{"A\nB"}},

		// Chunks.
		{name: "and only in last chunk", in: "rock and roll, jazz", want: []string{"rock and roll", "jazz"}},
		{name: "and in middle chunk", in: "A, B and C, D", want: []string{"A", "B and C", "D"}},
		{name: "comma and inside earlier chunk", in: "A, and B, C", want: []string{"A", "B", "C"}},
		{name: "semicolon then and", in: "A; B and C", want: []string{"A", "B", "C"}},
		{name: "mixed separators", in: "A, B; C, and D", want: []string{"A", "B", "C", "D"}},
		{name: "earlier chunk trims and keeps inner", in: "and salt and pepper, C", want: []string{"salt and pepper", "C"}},

		// Quotes.
		{name: "quoted comma", in: `"Crosby, Stills and Nash", Queen`, want: []string{"Crosby, Stills and Nash", "Queen"}},
		{name: "smart double quotes", in: "“Tom and Jerry”, Dune", want: []string{"Tom and Jerry", "Dune"}},
		{name: "low double quotes", in: "„A, B“ and C", want: []string{"A, B", "C"}},
		{name: "full width double quotes", in: "\uff02A, B\uff02 & C", want: []string{"A, B", "C"}},
		{name: "single quotes wrap", in: "'Dune, Part Two', Emma", want: []string{"Dune, Part Two", "Emma"}},
		{name: "smart single quotes", in: "‘Dune, Part Two’ & Emma", want: []string{"Dune, Part Two", "Emma"}},
		{name: "apostrophe inside word", in: "rock n' roll, Guns n’ Roses", want: []string{"rock n' roll", "Guns n’ Roses"}},
		{name: "leading apostrophe not a quote", in: "'90s rock, jazz", want: []string{"'90s rock", "jazz"}},
		{name: "leading apostrophe then quoted", in: "'90s rock, 'Dune'", want: []string{"'90s rock", "Dune"}},
		{name: "unclosed double quote literal", in: `"Dune, Emma`, want: []string{`"Dune`, "Emma"}},
		{name: "unclosed then quoted", in: `"Dune, "Emma"`, want: []string{`"Dune`, "Emma"}},
		{name: "quote not at item start", in: `Tom "and" Jerry`, want: []string{`Tom "and" Jerry`}},
		{name: "quote then text is not a close", in: `"A" B, C`, want: []string{`"A" B`, "C"}},
		{name: "quoted keeps punctuation", in: `"Help!", Abbey Road.`, want: []string{"Help!", "Abbey Road"}},
		{name: "punctuation after quote", in: `"Dune". "Emma"!`, want: []string{`"Dune". "Emma"`}},
		{name: "punctuation after quote then comma", in: `"Dune"!, "Emma".`, want: []string{"Dune", "Emma"}},
		{name: "quoted with inner space trimmed", in: `"  Dune  " and Emma`, want: []string{"Dune", "Emma"}},
		{name: "empty quotes dropped", in: `"", A`, want: []string{"A"}},
		{name: "quoted and", in: `"and", A`, want: []string{"and", "A"}},
		{name: "quoted semicolon", in: `"A; B"; C`, want: []string{"A; B", "C"}},
		{name: "mixed families do not close", in: `"A, B', C`, want: []string{`"A`, "B'", "C"}},
		{name: "quoted in earlier chunk with and", in: `"A" and B, C`, want: []string{`"A" and B`, "C"}},

		// Trimming and duplicates.
		{name: "trim each item", in: "  BTC. ,  ETH!!  ", want: []string{"BTC", "ETH"}},
		{name: "dedup keeps first spelling", in: "BTC, btc, Eth, ETH.", want: []string{"BTC", "Eth"}},
		{name: "dedup across quotes", in: `Dune, "dune", ＤＵＮＥ`, want: []string{"Dune"}},
		{name: "dedup with unicode folding", in: "Straße and STRASSE", want: []string{"Straße"}},
		{name: "order kept", in: "C, A, B", want: []string{"C", "A", "B"}},
		{name: "interior spaces kept as written", in: "New  York, Paris", want: []string{"New  York", "Paris"}},
		{name: "invalid utf8 replaced", in: "a\xff, b", want: []string{"a\ufffd", "b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ParseList(tc.in); !slices.Equal(got, tc.want) {
				t.Errorf("ParseList(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestParseListChecked(t *testing.T) {
	got, err := ParseListChecked("A, B")
	if err != nil {
		t.Fatalf("ParseListChecked(small) error = %v", err)
	}
	if want := []string{"A", "B"}; !slices.Equal(got, want) {
		t.Errorf("ParseListChecked(%q) = %q, want %q", "A, B", got, want)
	}

	atLimit := strings.Repeat("a", MaxInput)
	if _, err := ParseListChecked(atLimit); err != nil {
		t.Errorf("ParseListChecked(%d bytes) error = %v, want nil", MaxInput, err)
	}
	over := atLimit + "b"
	got, err = ParseListChecked(over)
	if got != nil {
		t.Errorf("ParseListChecked(%d bytes) = %d items, want nil", len(over), len(got))
	}
	if code := factbase.ErrorCode(err); code != factbase.EINVALID {
		t.Errorf("ParseListChecked(%d bytes) error code = %q (%v), want %q", len(over), code, err, factbase.EINVALID)
	}
}

// TestParseListLinear guards against quadratic behaviour on inputs built to provoke it:
// many quotes that never close, many openings sharing one far close, many connectors.
// It counts nothing in time; it asserts the results, and each input is large enough that
// a quadratic parse would make the test suite visibly slow.
func TestParseListLinear(t *testing.T) {
	const n = 20000
	tests := []struct {
		name  string
		in    string
		count int
	}{
		{name: "unclosed single quotes", in: strings.Repeat("'a, ", n), count: 1},
		{name: "unclosed double quotes", in: strings.Repeat(`"a, `, n) + `"`, count: 2},
		{name: "distinct items", in: numbered(n, ", "), count: n},
		{name: "connectors", in: numbered(n, " and "), count: n},
		{name: "quoted items", in: numbered(n, `", "`), count: n},
		{name: "closes without opens", in: strings.Repeat(`a", `, n), count: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := len(ParseList(tc.in)); got != tc.count {
				t.Errorf("len(ParseList(%s)) = %d, want %d", tc.name, got, tc.count)
			}
		})
	}
}

// numbered returns "x0" sep "x1" sep ... with n items.
func numbered(n int, sep string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(sep)
		}
		fmt.Fprintf(&b, "x%d", i)
	}
	return b.String()
}

func FuzzParseList(f *testing.F) {
	for _, s := range []string{
		"BTC, ETH, and XMR", "BTC, ETH and XMR", "BTC & ETH", `"Lord of the Rings", "Dune" and Emma`,
		"A; B; C", "salt and pepper, rice and beans", "'90s rock, 'Dune'", `"Dune, "Emma"`,
		"‘Dune, Part Two’ & Emma", "a\xff, b", `"Help!", x`, "and", " , & ,", `"""`, "'''",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		items := ParseList(s)
		valid := strings.ToValidUTF8(s, "\uFFFD")
		seen := make(map[string]string)
		pos := 0
		for _, item := range items {
			if item == "" {
				t.Fatalf("ParseList(%q) = %q has an empty item", s, items)
			}
			if strings.TrimFunc(item, unicode.IsSpace) != item {
				t.Errorf("ParseList(%q) item %q has surrounding white space", s, item)
			}
			v := Value(item)
			if v == "" {
				t.Errorf("ParseList(%q) item %q has an empty Value", s, item)
			}
			if prev, ok := seen[v]; ok {
				t.Errorf("ParseList(%q) items %q and %q have the same Value %q", s, prev, item, v)
			}
			seen[v] = item
			// Items are pieces of the input, in order and not overlapping: each is found
			// after the end of the one before.
			i := strings.Index(valid[pos:], item)
			if i < 0 {
				t.Fatalf("ParseList(%q) = %q: item %q is not in the input after byte %d", s, items, item, pos)
			}
			pos += i + len(item)
		}
		// The result is stable: parsing the items again, each quoted so that nothing in
		// it splits, gives the same items when no item contains a double quote.
		if slices.ContainsFunc(items, func(it string) bool { return strings.ContainsFunc(it, isDoubleQuote) }) {
			return
		}
		var b strings.Builder
		for i, item := range items {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(`"` + item + `"`)
		}
		if again := ParseList(b.String()); !slices.Equal(again, items) {
			t.Errorf("ParseList(%q) = %q, but ParseList(%q) = %q", s, items, b.String(), again)
		}
	})
}

func isDoubleQuote(r rune) bool { return quoteOf(r) == doubleQuote }

var sinkList []string

func BenchmarkParseList(b *testing.B) {
	inputs := []struct{ name, s string }{
		{"short", "BTC, ETH, and XMR"},
		{"1MB_items", mb(numbered(1<<17, ", "))},
		{"1MB_quoted", mb(strings.Repeat(`"Lord of the Rings, extended", Dune and Emma; `, 1<<15))},
		{"1MB_unicode", mb(strings.Repeat("Ｒｏｃｋ n’ Roll, Straße & ", 1<<15))},
		{"1MB_random_quotes", mb(randomList(1 << 20))},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.s)))
			b.ReportAllocs()
			for b.Loop() {
				sinkList = ParseList(in.s)
			}
		})
	}
}

// randomList returns n runes drawn, with a fixed seed, from the characters that drive
// the parser's decisions, to show that no mix of quotes and separators is slow.
func randomList(n int) string {
	const alphabet = "'\"“”‘’ ,;&.!anda"
	runes := []rune(alphabet)
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for range n {
		b.WriteRune(runes[rng.IntN(len(runes))])
	}
	return b.String()
}

// mb cuts or repeats s to exactly 1 MiB.
func mb(s string) string {
	const size = 1 << 20
	for len(s) < size {
		s += s
	}
	return strings.ToValidUTF8(s[:size], "")
}
