package text

import (
	"strings"
	"testing"
)

// benchMessage returns about n bytes of ordinary sentences of the kind Say reads.
func benchMessage(n int) string {
	const s = "My sister Ada, my eldest, lives in Rome and her husband works at Acme since 3/4/2021. " +
		"She told me that they're moving to Paris on June 15th at 15:30! Email ada.k@example.com or see https://example.com/ada. " +
		"My kids are Rita, Sam and Leo; Leo's favorite song is \"Is This Love\".\n"
	return strings.Repeat(s, n/len(s)+1)[:n]
}

// BenchmarkNew reads a message whole: the Standard tokens, sentences, clauses and
// lists, and the views of the router, personal facts and dates.
func BenchmarkNew(b *testing.B) {
	views := []Options{
		{WordSymbols: "@_&+%$€£", Marks: true, Joiners: ".'’-/‐", Quotes: true, SkipFlags: true, PluralPossessive: true},
		{Joiners: "'’-.", DigitDots: true, Emails: true, PluralPossessive: true, Expand: true},
		{NonASCII: true, Joiners: "'-:/.", DigitDots: true},
	}
	for _, size := range []struct {
		name string
		n    int
	}{{"1KB", 1 << 10}, {"16KB", 16 << 10}} {
		msg := benchMessage(size.n)
		b.Run(size.name, func(b *testing.B) {
			b.SetBytes(int64(len(msg)))
			b.ReportAllocs()
			for b.Loop() {
				p := New(msg)
				p.Clauses()
				for _, o := range views {
					p.View(o)
				}
			}
		})
	}
}
