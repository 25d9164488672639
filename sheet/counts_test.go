package sheet

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

// counted returns c with its references replaced by counts, as a store computes them:
// for each cut-off, the references strictly after it, then BucketCounts.
func counted(c Candidate, now time.Time, bs []Bucket) Candidate {
	cuts := Cutoffs(now, bs)
	newer := make([]int, len(cuts))
	var last time.Time
	for _, t := range c.References {
		for i, cut := range cuts {
			if t.After(cut) {
				newer[i]++
			}
		}
		if t.After(last) {
			last = t
		}
	}
	c.Counts = BucketCounts(newer, len(c.References))
	c.Last = last
	c.References = nil
	return c
}

func TestCutoffs(t *testing.T) {
	tests := []struct {
		name string
		bs   []Bucket
		want []time.Time
	}{
		{name: "empty table", bs: nil, want: nil},
		{name: "one bucket", bs: []Bucket{{Label: "all", Points: 1}}, want: []time.Time{}},
		{name: "default table", bs: DefaultBuckets(), want: []time.Time{
			now.Add(-time.Hour), now.Add(-6 * time.Hour), now.Add(-day), now.Add(-3 * day),
			now.Add(-7 * day), now.Add(-14 * day), now.Add(-30 * day)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Cutoffs(now, tc.bs); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Cutoffs = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestBucketCounts(t *testing.T) {
	tests := []struct {
		name  string
		newer []int
		total int
		want  []int
	}{
		{name: "no cut-offs", newer: nil, total: 3, want: []int{3}},
		{name: "none", newer: []int{0, 0, 0}, total: 0, want: []int{0, 0, 0, 0}},
		{name: "spread", newer: []int{1, 3, 3}, total: 7, want: []int{1, 2, 0, 4}},
		{name: "all newest", newer: []int{5, 5}, total: 5, want: []int{5, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := BucketCounts(append([]int(nil), tc.newer...), tc.total); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("BucketCounts(%v, %d) = %v, want %v", tc.newer, tc.total, got, tc.want)
			}
		})
	}
}

func TestScoreCounts(t *testing.T) {
	cfg := DefaultConfig()
	rec := now.Add(-2 * day)
	last := now.Add(-30 * time.Minute)
	tests := []struct {
		name     string
		counts   []int
		score    float64
		refs     int
		implicit bool
		last     time.Time
	}{
		// Core weight 10: 2 × 10 (<1h) + 1 × 4 (<3d) = 24 points.
		{name: "counted", counts: []int{2, 0, 0, 1, 0, 0, 0, 0}, score: 240, refs: 3, last: last},
		// All zero: one implicit reference at the recorded time, 2 days old: 4 points.
		{name: "all zero", counts: make([]int, 8), score: 40, refs: 1, implicit: true, last: rec},
		// Negative counts count as 0.
		{name: "negative", counts: []int{-3, 0, 0, 0, 0, 0, 0, 1}, score: 5, refs: 1, last: last},
		{name: "only negative", counts: []int{-3, 0, 0, 0, 0, 0, 0, 0}, score: 40, refs: 1, implicit: true, last: rec},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Candidate{FactID: "f", Category: factbase.Core, Current: true, Text: "x", RecordedAt: rec,
				Counts: tc.counts, Last: last,
				References: []time.Time{now, now, now}} // ignored when Counts is set
			got, ex := Score(c, now, cfg)
			if got != tc.score || ex.References != tc.refs || ex.Implicit != tc.implicit {
				t.Errorf("Score = %v (references %d, implicit %v), want %v (%d, %v)", got, ex.References, ex.Implicit, tc.score, tc.refs, tc.implicit)
			}
			sh, err := Assemble([]Candidate{c}, now, cfg)
			if err != nil {
				t.Fatalf("Assemble: %v", err)
			}
			if len(sh.Entries) != 1 || !sh.Entries[0].LastReference.Equal(tc.last) || sh.Entries[0].Score != tc.score {
				t.Errorf("Assemble entries = %+v, want one scoring %v with last reference %v", sh.Entries, tc.score, tc.last)
			}
		})
	}
}

// TestAssembleCountsMatchesReferences: counting references per bucket (as a store does
// in SQL) gives the same sheet, explanations included, as passing the references.
func TestAssembleCountsMatchesReferences(t *testing.T) {
	forRandomSheets(t, rand.New(rand.NewPCG(3, 4)), 500, func(t *testing.T, cands []Candidate, cfg Config) {
		want := mustAssemble(t, cands, cfg)
		cc := make([]Candidate, len(cands))
		for i, c := range cands {
			cc[i] = counted(c, now, cfg.Buckets)
		}
		got := mustAssemble(t, cc, cfg)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Assemble(counted) differs from Assemble(references):\n got %+v\nwant %+v", got, want)
		}
	})
}

// BenchmarkAssembleCounted100kFacts is BenchmarkAssemble100kFacts1MRefs with the
// references counted per bucket beforehand, as a store passes them.
func BenchmarkAssembleCounted100kFacts(b *testing.B) {
	cands := benchCandidates(rand.New(rand.NewPCG(1, 1)), 100_000, 10)
	cfg := DefaultConfig()
	for i, c := range cands {
		cands[i] = counted(c, now, cfg.Buckets)
	}
	b.ReportAllocs()
	for b.Loop() {
		s, err := Assemble(cands, now, cfg)
		if err != nil || s.Count != 100 {
			b.Fatalf("Assemble: count %d, error %v", s.Count, err)
		}
	}
}
