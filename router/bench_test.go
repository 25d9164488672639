package router

import (
	"strings"
	"testing"

	"github.com/factbase/factbase"
)

// BenchmarkParse1MB measures refusing a 1 MB message: Parse must answer EINVALID
// without reading it.
func BenchmarkParse1MB(b *testing.B) {
	msg := strings.Repeat("My favorite color is blue. ", (1<<20)/27+1)
	b.SetBytes(int64(len(msg)))
	for i := 0; i < b.N; i++ {
		if _, err := Parse(msg); factbase.ErrorCode(err) != factbase.EINVALID {
			b.Fatalf("Parse(1 MB) error = %v, want EINVALID", err)
		}
	}
}

// manyStatements returns a message of about n bytes made of varied statements, reads
// and chatter, a realistic worst case for the router.
func manyStatements(n int) string {
	parts := []string{
		"My favorite color is blue.",
		"My favorite vacation destinations are Paris, Tokyo, and Rome.",
		"Heat is my second favorite movie!",
		"My top 3 books are Dune, Emma and Ulysses.",
		"Add \"Hey Jude\" and Yesterday to my favorite songs, thanks.",
		"What's my #2 favorite movie?",
		"I live in Berlin and work at Google as an engineer.",
		"My sister's favorite movie is Up.",
		"The weather is nice today, isn't it?",
		"Remove Heat from my favorite movies; my email is bob@example.com.",
	}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(parts[i%len(parts)])
	}
	return b.String()[:n]
}

// BenchmarkParse reports ns/op for 1, 4 and 16 KB messages of many statements; cost
// per byte stays flat when the cost is linear.
func BenchmarkParse(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"1KB", 1 << 10}, {"4KB", 4 << 10}, {"16KB", 16 << 10}} {
		msg := manyStatements(size.n)
		b.Run(size.name, func(b *testing.B) {
			b.SetBytes(int64(len(msg)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r, err := Parse(msg)
				if err != nil || len(r.Statements) == 0 {
					b.Fatalf("Parse = %d statements, %v", len(r.Statements), err)
				}
			}
		})
	}
}

// BenchmarkParseAdversarial parses 16 KB messages built to defeat the clause
// splitter and the list parser: one long list, and connectors everywhere.
func BenchmarkParseAdversarial(b *testing.B) {
	for _, tc := range []struct{ name, unit string }{
		{"list", "a, "},
		{"and", "x and my "},
		{"copulas", "x is my is "},
		{"quotes", "\" ' "},
		{"adverbs", "is really "},
	} {
		msg := "My favorite letters are " + strings.Repeat(tc.unit, (MaxMessage-30)/len(tc.unit))
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(msg)))
			for i := 0; i < b.N; i++ {
				if _, err := Parse(msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
