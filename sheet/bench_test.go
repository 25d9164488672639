package sheet

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

// benchCandidates returns n current facts spread evenly over the categories with, on
// average, refs references each (0 to 2×refs, uniform), at ages uniform over 60 days
// (so every decay bucket is used, references unsorted). About 1% of the texts repeat an
// earlier one in another case, so deduplication has work to do.
func benchCandidates(r *rand.Rand, n, refs int) []Candidate {
	const span = int64(60 * 24 * time.Hour)
	out := make([]Candidate, n)
	for i := range out {
		c := Candidate{
			FactID:     fmt.Sprintf("0190%08x-0000-7000-8000-000000000000", i),
			Category:   factbase.Categories[i%len(factbase.Categories)],
			Text:       fmt.Sprintf("the user mentioned item %d while talking about topic %d", i, r.IntN(1000)),
			Current:    true,
			RecordedAt: now.Add(-time.Duration(r.Int64N(span))),
		}
		if i > 0 && r.IntN(100) == 0 {
			c.Text = strings.ToUpper(out[r.IntN(i)].Text)
		}
		k := r.IntN(2*refs + 1)
		c.References = make([]time.Time, k)
		for j := range c.References {
			c.References[j] = now.Add(-time.Duration(r.Int64N(span)))
		}
		out[i] = c
	}
	return out
}

func benchmarkAssemble(b *testing.B, n, refs int) {
	cands := benchCandidates(rand.New(rand.NewPCG(1, 1)), n, refs)
	total := 0
	for _, c := range cands {
		total += len(c.References)
	}
	cfg := DefaultConfig()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s, err := Assemble(cands, now, cfg)
		if err != nil || s.Count != 100 {
			b.Fatalf("Assemble: count %d, error %v", s.Count, err)
		}
	}
	b.ReportMetric(float64(total), "refs")
}

// BenchmarkAssemble100kFacts1MRefs is the requirement's workload: 100,000 facts with
// about 1,000,000 references.
func BenchmarkAssemble100kFacts1MRefs(b *testing.B) { benchmarkAssemble(b, 100_000, 10) }

// BenchmarkAssemble shows growth with the number of facts at 10 references per fact.
func BenchmarkAssemble(b *testing.B) {
	for _, n := range []int{10_000, 50_000, 100_000} {
		b.Run(fmt.Sprintf("facts=%dk", n/1000), func(b *testing.B) { benchmarkAssemble(b, n, 10) })
	}
}

func BenchmarkScore(b *testing.B) {
	c := benchCandidates(rand.New(rand.NewPCG(2, 2)), 1, 10)[0]
	cfg := DefaultConfig()
	for b.Loop() {
		Score(c, now, cfg)
	}
}

func BenchmarkRender(b *testing.B) {
	s, err := Assemble(benchCandidates(rand.New(rand.NewPCG(3, 3)), 1000, 10), now, DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Render(s, RenderOptions{MaxTokens: 500})
	}
}
