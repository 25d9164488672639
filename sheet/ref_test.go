package sheet

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

// refAssemble is a slow, straightforward reading of the requirements, written without
// looking at the shortcuts Assemble takes (heaps, prefix bookkeeping, a merge): score
// every fact reference by reference, sort everything, and walk the sorted list once per
// step. Explanations other than Weight, ReferenceScore and Included are not built.
func refAssemble(cands []Candidate, now time.Time, cfg Config) Sheet {
	type scored struct {
		c     Candidate
		score float64
		ref   float64
		last  time.Time
	}
	sh := Sheet{Counts: map[factbase.Category]int{}}
	for _, cat := range factbase.Categories {
		sh.Counts[cat] = 0
	}
	known := map[factbase.Category]bool{}
	for _, cat := range factbase.Categories {
		known[cat] = true
	}
	var all []*scored
	for _, c := range cands {
		if !c.Current {
			sh.Skipped.NotCurrent++
			continue
		}
		if cfg.Privacy && c.Sensitivity == factbase.High {
			sh.Skipped.Private++
			continue
		}
		if !known[c.Category] {
			sh.Skipped.UnknownCategory++
			continue
		}
		refs := c.References
		if len(refs) == 0 {
			refs = []time.Time{c.RecordedAt}
		}
		s := &scored{c: c, last: refs[0]}
		for _, t := range refs {
			age := now.Sub(t)
			if age < 0 {
				age = 0
			}
			pts := cfg.Buckets[len(cfg.Buckets)-1].Points
			for _, b := range cfg.Buckets[:len(cfg.Buckets)-1] {
				if age < b.Below {
					pts = b.Points
					break
				}
			}
			s.ref += pts
			if t.After(s.last) {
				s.last = t
			}
		}
		s.score = cfg.Weights[c.Category] * s.ref
		all = append(all, s)
	}
	better := func(a, b *scored) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		if !a.last.Equal(b.last) {
			return a.last.After(b.last)
		}
		return a.c.FactID < b.c.FactID
	}
	sort.Slice(all, func(i, j int) bool { return better(all[i], all[j]) })

	// Dedup: the first of each normalised text in rank order is the best.
	text := func(c Candidate) string {
		if strings.TrimSpace(c.Text) != "" {
			return c.Text
		}
		if c.Key == "" || c.Value == "" {
			return c.Key + c.Value
		}
		return c.Key + ": " + c.Value
	}
	// The size best of each category, duplicates included: their drops are logged.
	contender := map[*scored]bool{}
	seen := map[factbase.Category]int{}
	for _, s := range all {
		if seen[s.c.Category] < cfg.Size {
			contender[s] = true
		}
		seen[s.c.Category]++
	}
	type dropped struct {
		s, w   *scored
		reason string
	}
	var drops []dropped
	first := map[string]*scored{}
	var kept []*scored
	for _, s := range all {
		key := strings.Join(strings.Fields(strings.ToLower(text(s.c))), " ")
		w, dup := first[key]
		if key == "" || !dup {
			first[key] = s
			kept = append(kept, s)
			continue
		}
		reason := ReasonGreaterID
		if w.score != s.score {
			reason = ReasonLowerScore
		} else if !w.last.Equal(s.last) {
			reason = ReasonOlderReference
		}
		drops = append(drops, dropped{s, w, reason})
	}

	why := make([]string, len(kept))
	count := map[factbase.Category]int{}
	total := 0
	take := func(i int, w string) {
		why[i] = w
		count[kept[i].c.Category]++
		total++
	}
	// (a) each category's best Min.
	for i, s := range kept {
		if count[s.c.Category] < cfg.Min[s.c.Category] {
			take(i, IncludedMinimum)
		}
	}
	// (b) best remaining under the caps, until full.
	for i, s := range kept {
		if total < cfg.Size && why[i] == "" && count[s.c.Category] < cfg.Max[s.c.Category] {
			take(i, IncludedWithinCap)
		}
	}
	// (c) best remaining, until full.
	for i := range kept {
		if total < cfg.Size && why[i] == "" {
			take(i, IncludedFill)
		}
	}
	for _, cat := range factbase.Categories {
		for i, s := range kept {
			if why[i] == "" || s.c.Category != cat {
				continue
			}
			sh.Entries = append(sh.Entries, Entry{
				FactID: s.c.FactID, Category: cat, Text: text(s.c), Score: s.score, LastReference: s.last,
				Explain: Explain{Weight: cfg.Weights[cat], ReferenceScore: s.ref, Included: why[i]},
			})
		}
		sh.Counts[cat] = count[cat]
	}
	sh.Count = len(sh.Entries)
	// Log the drops whose kept fact is on the sheet, or which were contenders.
	on := map[*scored]bool{}
	for i, s := range kept {
		if why[i] != "" {
			on[s] = true
		}
	}
	for _, d := range drops {
		if on[d.w] || contender[d.s] {
			sh.Dedup = append(sh.Dedup, Dedup{Dropped: d.s.c.FactID, Kept: d.w.c.FactID, Reason: d.reason})
		}
	}
	sort.Slice(sh.Dedup, func(i, j int) bool {
		a, b := sh.Dedup[i], sh.Dedup[j]
		if a.Kept != b.Kept {
			return a.Kept < b.Kept
		}
		return a.Dropped < b.Dropped
	})
	// At most MaxDedupPerKept records per kept fact, the first by dropped id.
	var capped []Dedup
	per := map[string]int{}
	for _, d := range sh.Dedup {
		if per[d.Kept]++; per[d.Kept] <= MaxDedupPerKept {
			capped = append(capped, d)
		}
	}
	sh.Dedup = capped
	return sh
}

// compareSheets reports how got differs from want, the reference; Explain is compared on
// Weight, ReferenceScore and Included only.
func compareSheets(t *testing.T, got, want Sheet) {
	t.Helper()
	if got.Count != want.Count || len(got.Entries) != len(want.Entries) {
		t.Fatalf("Count = %d (%d entries), want %d", got.Count, len(got.Entries), want.Count)
	}
	for i := range got.Entries {
		g, w := got.Entries[i], want.Entries[i]
		gx := Explain{Weight: g.Explain.Weight, ReferenceScore: g.Explain.ReferenceScore, Included: g.Explain.Included}
		g.Explain = gx
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("entry %d = %+v, want %+v", i, g, w)
		}
	}
	if !reflect.DeepEqual(got.Counts, want.Counts) {
		t.Errorf("Counts = %v, want %v", got.Counts, want.Counts)
	}
	if got.Skipped != want.Skipped {
		t.Errorf("Skipped = %+v, want %+v", got.Skipped, want.Skipped)
	}
	if len(got.Dedup) != len(want.Dedup) || len(want.Dedup) > 0 && !reflect.DeepEqual(got.Dedup, want.Dedup) {
		t.Errorf("Dedup = %+v, want %+v", got.Dedup, want.Dedup)
	}
}

// randomConfig returns a valid configuration. Weights and points are multiples of 0.5,
// so sums are exact in any order and the reference's arrival-order sum equals
// Assemble's per-bucket sum.
func randomConfig(r *rand.Rand) Config {
	cfg := Config{
		Weights: map[factbase.Category]float64{},
		Min:     map[factbase.Category]int{},
		Max:     map[factbase.Category]int{},
		Size:    1 + r.IntN(60),
		Privacy: r.IntN(2) == 0,
	}
	left := cfg.Size
	for _, cat := range factbase.Categories {
		cfg.Weights[cat] = float64(r.IntN(8)) / 2
		cfg.Max[cat] = r.IntN(cfg.Size + 5)
		cfg.Min[cat] = min(r.IntN(cfg.Max[cat]+1), left)
		left -= cfg.Min[cat]
	}
	n := 1 + r.IntN(6)
	below := time.Duration(0)
	for i := range n {
		b := Bucket{Label: fmt.Sprintf("b%d", i), Points: float64(r.IntN(21)) / 2}
		if i < n-1 {
			below += time.Duration(1+r.IntN(5)) * time.Hour
			b.Below = below
		}
		cfg.Buckets = append(cfg.Buckets, b)
	}
	return cfg
}

// randomCandidates returns n candidates with ages on whole hours (so many fall on bucket
// bounds and scores tie), texts from a small pool (so many are duplicates) and unique
// ids in random order.
func randomCandidates(r *rand.Rand, n int) []Candidate {
	texts := []string{"likes tea", "Likes  TEA", " likes tea ", "works at ACME", "works at acme", "", "  ", "has a dog"}
	cats := []factbase.Category{factbase.Core, factbase.Technical, factbase.Project, factbase.Transient}
	sens := []factbase.Sensitivity{"", factbase.Low, factbase.MediumSens, factbase.High}
	ids := r.Perm(n)
	out := make([]Candidate, n)
	for i := range out {
		c := Candidate{
			FactID:      fmt.Sprintf("f%05d", ids[i]),
			Category:    cats[r.IntN(len(cats))],
			Sensitivity: sens[r.IntN(len(sens))],
			Current:     r.IntN(10) > 0,
			RecordedAt:  now.Add(-time.Duration(r.IntN(30)-2) * time.Hour),
		}
		if r.IntN(30) == 0 {
			c.Category = "misc"
		}
		switch k := r.IntN(4); k {
		case 0:
			c.Text = texts[r.IntN(len(texts))]
		case 1:
			c.Key, c.Value = "pet", []string{"dog", "cat", ""}[r.IntN(3)]
		default:
			c.Text = fmt.Sprintf("fact %d", r.IntN(4*n+1))
		}
		for range r.IntN(4) {
			c.References = append(c.References, now.Add(-time.Duration(r.IntN(30)-2)*time.Hour))
		}
		out[i] = c
	}
	return out
}

func TestAssembleMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	forRandomSheets(t, r, 1000, func(t *testing.T, cands []Candidate, cfg Config) {
		got := mustAssemble(t, cands, cfg)
		compareSheets(t, got, refAssemble(cands, now, cfg))

		// The order of the candidates does not matter.
		shuffled := append([]Candidate(nil), cands...)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		again := mustAssemble(t, shuffled, cfg)
		if !reflect.DeepEqual(again, got) {
			t.Errorf("Assemble(shuffled) differs from Assemble")
		}
	})
}

// forRandomSheets runs check as n subtests, each on a random configuration and up to
// 200 random candidates drawn from r.
func forRandomSheets(t *testing.T, r *rand.Rand, n int, check func(t *testing.T, cands []Candidate, cfg Config)) {
	for iter := range n {
		cfg := randomConfig(r)
		cands := randomCandidates(r, r.IntN(200))
		t.Run(fmt.Sprint(iter), func(t *testing.T) { check(t, cands, cfg) })
	}
}

// FuzzAssembleMatchesReference explores more random distributions and configurations
// than the fixed-seed property test.
func FuzzAssembleMatchesReference(f *testing.F) {
	f.Add(uint64(1), uint64(2), uint8(50))
	f.Add(uint64(0), uint64(0), uint8(0))
	f.Fuzz(func(t *testing.T, s1, s2 uint64, n uint8) {
		r := rand.New(rand.NewPCG(s1, s2))
		cfg := randomConfig(r)
		cands := randomCandidates(r, int(n))
		got := mustAssemble(t, cands, cfg)
		compareSheets(t, got, refAssemble(cands, now, cfg))
	})
}
