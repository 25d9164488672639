package search

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/factbase/factbase/bench/cputime"
)

var now = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

const day = 24 * time.Hour

func TestRRF(t *testing.T) {
	tests := []struct {
		name string
		rank int
		k    float64
		want float64
	}{
		{name: "first rank default k", rank: 1, k: 60, want: 1.0 / 61},
		{name: "tenth rank", rank: 10, k: 60, want: 1.0 / 70},
		{name: "k zero", rank: 4, k: 0, want: 0.25},
		{name: "absent", rank: 0, k: 60, want: 0},
		{name: "negative rank", rank: -3, k: 60, want: 0},
		{name: "negative k counts as zero", rank: 2, k: -100, want: 0.5},
		{name: "NaN k counts as zero", rank: 2, k: math.NaN(), want: 0.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := RRF(tc.rank, tc.k); got != tc.want {
				t.Errorf("RRF(%d, %v) = %v, want %v", tc.rank, tc.k, got, tc.want)
			}
		})
	}
}

func TestRRFDecreasesWithRank(t *testing.T) {
	for r := 1; r < 100; r++ {
		if a, b := RRF(r, 60), RRF(r+1, 60); !(a > b) {
			t.Fatalf("RRF(%d) = %v, RRF(%d) = %v, want strictly decreasing", r, a, r+1, b)
		}
	}
}

func TestDecay(t *testing.T) {
	tests := []struct {
		name     string
		age, hl  time.Duration
		floor    float64
		want     float64
		approxly bool
	}{
		{name: "now", age: 0, hl: 180 * day, floor: 0.5, want: 1},
		{name: "one half-life", age: 180 * day, hl: 180 * day, floor: 0, want: 0.5},
		{name: "two half-lives", age: 360 * day, hl: 180 * day, floor: 0, want: 0.25},
		{name: "half a half-life", age: 90 * day, hl: 180 * day, floor: 0, want: math.Sqrt(0.5), approxly: true},
		{name: "floor reached", age: 360 * day, hl: 180 * day, floor: 0.5, want: 0.5},
		{name: "floor not reached", age: 30 * day, hl: 180 * day, floor: 0.5, want: math.Exp2(-30.0 / 180), approxly: true},
		{name: "future time", age: -10 * day, hl: 180 * day, floor: 0.5, want: 1},
		{name: "decay off", age: 1000 * day, hl: 0, floor: 0.5, want: 1},
		{name: "negative half-life is off", age: 1000 * day, hl: -day, floor: 0, want: 1},
		{name: "floor above one clamps", age: 10 * day, hl: day, floor: 3, want: 1},
		{name: "negative floor is no floor", age: 360 * day, hl: 180 * day, floor: -1, want: 0.25},
		{name: "NaN floor is no floor", age: 360 * day, hl: 180 * day, floor: math.NaN(), want: 0.25},
		{name: "very old underflows to floor", age: 1 << 62, hl: time.Second, floor: 0.1, want: 0.1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Decay(tc.age, tc.hl, tc.floor)
			if tc.approxly && math.Abs(got-tc.want) > 1e-12 || !tc.approxly && got != tc.want {
				t.Errorf("Decay(%v, %v, %v) = %v, want %v", tc.age, tc.hl, tc.floor, got, tc.want)
			}
		})
	}
}

// ids returns the "kind:id" of each hit in order.
func ids(hs []Hit) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.Kind + ":" + h.ID
	}
	return out
}

func equal(a, b []string) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

func TestFuse(t *testing.T) {
	fresh := now
	noDecay := Options{HalfLife: -1}
	tests := []struct {
		name      string
		text, vec []Candidate
		o         Options
		want      []string
	}{
		{name: "empty", want: []string{}},
		{name: "text only keeps rank order",
			text: []Candidate{{ID: "b", Kind: "fact", BM25Rank: 1, Time: fresh}, {ID: "a", Kind: "fact", BM25Rank: 2, Time: fresh}},
			o:    noDecay, want: []string{"fact:b", "fact:a"}},
		{name: "rank defaults to position",
			text: []Candidate{{ID: "x", Kind: "fact"}, {ID: "y", Kind: "fact"}, {ID: "z", Kind: "fact"}},
			o:    noDecay, want: []string{"fact:x", "fact:y", "fact:z"}},
		{name: "vector only",
			vec: []Candidate{{ID: "v1", Kind: "episode", VecRank: 1, Similarity: 0.9}, {ID: "v2", Kind: "episode", VecRank: 2, Similarity: 0.8}},
			o:   noDecay, want: []string{"episode:v1", "episode:v2"}},
		{name: "both lists beat one list",
			text: []Candidate{{ID: "t", Kind: "fact", BM25Rank: 1}, {ID: "both", Kind: "fact", BM25Rank: 2}},
			vec:  []Candidate{{ID: "v", Kind: "fact", VecRank: 1}, {ID: "both", Kind: "fact", VecRank: 2}},
			o:    noDecay, want: []string{"fact:both", "fact:t", "fact:v"}},
		{name: "same id different kind stays apart",
			text: []Candidate{{ID: "1", Kind: "fact", BM25Rank: 1}},
			vec:  []Candidate{{ID: "1", Kind: "episode", VecRank: 1}},
			o:    noDecay, want: []string{"episode:1", "fact:1"}},
		{name: "vector weight zero ignores vector ranks",
			text: []Candidate{{ID: "t", Kind: "fact", BM25Rank: 2}},
			vec:  []Candidate{{ID: "v", Kind: "fact", VecRank: 1}},
			o:    Options{HalfLife: -1, WText: 1}, want: []string{"fact:t", "fact:v"}},
		{name: "recency decay reorders",
			text: []Candidate{{ID: "old", Kind: "fact", BM25Rank: 1, Time: now.Add(-720 * day)}, {ID: "new", Kind: "fact", BM25Rank: 2, Time: now}},
			want: []string{"fact:new", "fact:old"}},
		{name: "subject boost reorders",
			text: []Candidate{{ID: "user", Kind: "fact", BM25Rank: 1, Subject: "user"}, {ID: "mom", Kind: "fact", BM25Rank: 2, Subject: "entity:mom"}},
			o:    Options{HalfLife: -1, BoostSubjects: []string{"entity:mom"}}, want: []string{"fact:mom", "fact:user"}},
		{name: "importance boost reorders",
			text: []Candidate{{ID: "dull", Kind: "episode", BM25Rank: 1, Importance: 0}, {ID: "key", Kind: "episode", BM25Rank: 2, Importance: 1}},
			o:    Options{HalfLife: -1, ImportanceWeight: 0.5}, want: []string{"episode:key", "episode:dull"}},
		{name: "threshold drops low scores",
			text: []Candidate{{ID: "a", Kind: "fact", BM25Rank: 1}, {ID: "b", Kind: "fact", BM25Rank: 50}},
			o:    Options{HalfLife: -1, Threshold: 1.0 / 100}, want: []string{"fact:a"}},
		{name: "min similarity drops weak vector-only hits",
			text: []Candidate{{ID: "t", Kind: "fact", BM25Rank: 1}},
			vec: []Candidate{{ID: "t", Kind: "fact", VecRank: 3, Similarity: 0.1}, {ID: "strong", Kind: "fact", VecRank: 1, Similarity: 0.8},
				{ID: "weak", Kind: "fact", VecRank: 2, Similarity: 0.2}, {ID: "nan", Kind: "fact", VecRank: 4, Similarity: math.NaN()}},
			o: Options{HalfLife: -1, MinSimilarity: 0.5}, want: []string{"fact:t", "fact:strong"}},
		{name: "limit",
			text: []Candidate{{ID: "a", Kind: "fact"}, {ID: "b", Kind: "fact"}, {ID: "c", Kind: "fact"}},
			o:    Options{HalfLife: -1, Limit: 2}, want: []string{"fact:a", "fact:b"}},
		{name: "ties go to the newer time",
			text: []Candidate{{ID: "a", Kind: "fact", BM25Rank: 1, Time: now.Add(-2 * day)}},
			vec:  []Candidate{{ID: "b", Kind: "fact", VecRank: 1, Time: now.Add(-day)}},
			o:    noDecay, want: []string{"fact:b", "fact:a"}},
		{name: "ties then go to the smaller id",
			text: []Candidate{{ID: "b", Kind: "fact", BM25Rank: 1, Time: now}},
			vec:  []Candidate{{ID: "a", Kind: "fact", VecRank: 1, Time: now}},
			o:    noDecay, want: []string{"fact:a", "fact:b"}},
		{name: "duplicate in one list keeps the better rank",
			text: []Candidate{{ID: "a", Kind: "fact", BM25Rank: 5}, {ID: "b", Kind: "fact", BM25Rank: 3}, {ID: "a", Kind: "fact", BM25Rank: 1}},
			o:    noDecay, want: []string{"fact:a", "fact:b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Fuse(tc.text, tc.vec, now, tc.o)
			if !equal(ids(got), tc.want) {
				t.Errorf("Fuse = %v, want %v", ids(got), tc.want)
			}
			for _, h := range got {
				if h.Score != h.Explain.Score {
					t.Errorf("hit %s: Score %v, Explain.Score %v", h.ID, h.Score, h.Explain.Score)
				}
			}
		})
	}
}

// TestFuseExplainReproducesScore recomputes every score from the Explain fields and
// from first principles (the ranks, the options and the candidate).
func TestFuseExplainReproducesScore(t *testing.T) {
	o := Options{K: 10, WText: 2, WVec: 0.5, HalfLife: 30 * day, Floor: 0.25, SubjectBoost: 3,
		BoostSubjects: []string{"entity:ann"}, ImportanceWeight: 0.8}
	text := []Candidate{
		{ID: "f1", Kind: "fact", BM25Rank: 1, BM25: -7.5, Time: now.Add(-10 * day), Subject: "user", Importance: 0.9},
		{ID: "e1", Kind: "episode", BM25Rank: 2, BM25: -3.1, Time: now.Add(-400 * day), Subject: "entity:ann", Importance: 0.4},
		{ID: "f2", Kind: "fact", BM25Rank: 3, BM25: -1, Time: now.Add(5 * day), Subject: "entity:ann", Importance: 2},
	}
	vec := []Candidate{
		{ID: "e1", Kind: "episode", VecRank: 1, Similarity: 0.83},
		{ID: "f3", Kind: "fact", VecRank: 2, Similarity: 0.61, Subject: "user", Importance: -1},
	}
	hits := Fuse(text, vec, now, o)
	if len(hits) != 4 {
		t.Fatalf("Fuse: %d hits, want 4", len(hits))
	}
	byID := map[string]Candidate{}
	for _, c := range append(append([]Candidate{}, text...), vec...) {
		if _, ok := byID[c.ID]; !ok {
			byID[c.ID] = c
		}
	}
	for _, h := range hits {
		e := h.Explain
		if got := e.Recompute(); got != h.Score {
			t.Errorf("%s: Recompute() = %v, want Score %v", h.ID, got, h.Score)
		}
		if got := (e.RRFText + e.RRFVec) * e.Decay * e.SubjectBoost * e.ImportanceBoost; got != h.Score {
			t.Errorf("%s: formula over Explain = %v, want Score %v", h.ID, got, h.Score)
		}
		// From first principles.
		c := byID[h.ID]
		wantText := 0.0
		if e.BM25Rank > 0 {
			wantText = 2 / (10 + float64(e.BM25Rank))
		}
		wantVec := 0.0
		if e.VecRank > 0 {
			wantVec = 0.5 / (10 + float64(e.VecRank))
		}
		age := now.Sub(c.Time)
		if c.Time.IsZero() {
			age = 0 // unknown time: no decay, age 0
		}
		wantDecay := 1.0
		if age > 0 {
			wantDecay = math.Max(0.25, math.Pow(0.5, age.Hours()/(30*24)))
		}
		wantBoost := 1.0
		if c.Subject == "entity:ann" {
			wantBoost = 3
		}
		wantImp := math.Min(math.Max(c.Importance, 0), 1)
		if e.RRFText != wantText || e.RRFVec != wantVec || e.SubjectBoost != wantBoost || e.Importance != wantImp ||
			e.ImportanceBoost != 1+0.8*wantImp || math.Abs(e.Decay-wantDecay) > 1e-12 ||
			math.Abs(e.AgeDays-age.Hours()/24) > 1e-9 {
			t.Errorf("%s: Explain = %+v, want RRFText %v RRFVec %v Decay %v Boost %v Importance %v",
				h.ID, e, wantText, wantVec, wantDecay, wantBoost, wantImp)
		}
	}
	// The merged candidate carries both lists' evidence.
	for _, h := range hits {
		if h.ID == "e1" && (h.Explain.BM25Rank != 2 || h.Explain.BM25 != -3.1 || h.Explain.VecRank != 1 || h.Explain.Similarity != 0.83) {
			t.Errorf("e1: Explain = %+v, want BM25Rank 2, BM25 -3.1, VecRank 1, Similarity 0.83", h.Explain)
		}
	}
}

func TestFuseDefaults(t *testing.T) {
	c := []Candidate{{ID: "a", Kind: "fact", BM25Rank: 1, Time: now.Add(-DefaultHalfLife), Subject: "s"}}
	h := Fuse(c, nil, now, Options{BoostSubjects: []string{"s"}})
	if len(h) != 1 {
		t.Fatalf("Fuse: %d hits, want 1", len(h))
	}
	e := h[0].Explain
	if e.RRFText != 1.0/61 || e.Decay != 0.5 || e.SubjectBoost != DefaultSubjectBoost || e.ImportanceBoost != 1 {
		t.Errorf("Fuse with zero options: Explain = %+v, want RRFText 1/61, Decay 0.5, SubjectBoost 1.5, ImportanceBoost 1", e)
	}
	// The default floor holds very old items at 0.5.
	old := []Candidate{{ID: "a", Kind: "fact", Time: now.Add(-10 * DefaultHalfLife)}}
	if got := Fuse(old, nil, now, Options{})[0].Explain.Decay; got != DefaultFloor {
		t.Errorf("Fuse(very old).Decay = %v, want %v", got, DefaultFloor)
	}
	// A zero time is unknown: no decay, age 0.
	unknown := []Candidate{{ID: "a", Kind: "fact"}}
	if e := Fuse(unknown, nil, now, Options{})[0].Explain; e.Decay != 1 || e.AgeDays != 0 {
		t.Errorf("Fuse(zero time): Decay %v AgeDays %v, want 1 and 0", e.Decay, e.AgeDays)
	}
	// A future time is not boosted above 1 and reports a negative age.
	future := []Candidate{{ID: "a", Kind: "fact", Time: now.Add(2 * day)}}
	if e := Fuse(future, nil, now, Options{})[0].Explain; e.Decay != 1 || e.AgeDays != -2 {
		t.Errorf("Fuse(future): Decay %v AgeDays %v, want 1 and -2", e.Decay, e.AgeDays)
	}
	// Bad numbers fall back to defaults instead of producing NaN scores.
	bad := Options{K: math.NaN(), WText: math.Inf(1), WVec: -1, Floor: math.NaN(), SubjectBoost: math.NaN(),
		ImportanceWeight: math.NaN(), Threshold: math.NaN(), MinSimilarity: math.NaN()}
	for _, h := range Fuse(c, c, now, bad) {
		if math.IsNaN(h.Score) || h.Score <= 0 {
			t.Errorf("Fuse(bad options) score = %v, want a positive number", h.Score)
		}
	}
}

func TestFuseDoesNotModifyInput(t *testing.T) {
	text := []Candidate{{ID: "a", Kind: "fact"}, {ID: "a", Kind: "fact", BM25Rank: 9, Subject: "x"}}
	vec := []Candidate{{ID: "a", Kind: "fact", Time: now}}
	Fuse(text, vec, now, Options{})
	if text[0].Subject != "" || text[0].BM25Rank != 0 || !text[0].Time.IsZero() {
		t.Errorf("Fuse modified its input: %+v", text[0])
	}
}

// BenchmarkFuse2x1000 fuses 1000 text and 1000 vector candidates, 500 of them in both.
func BenchmarkFuse2x1000(b *testing.B) {
	text := make([]Candidate, 1000)
	vec := make([]Candidate, 1000)
	for i := range 1000 {
		// Half the ids appear in both lists, as in a typical hybrid query.
		text[i] = Candidate{ID: fmt.Sprintf("f%04d", i), Kind: "fact", BM25Rank: i + 1, BM25: -float64(i),
			Time: now.Add(-time.Duration(i) * time.Hour), Subject: "user", Importance: 0.7}
		vec[i] = Candidate{ID: fmt.Sprintf("f%04d", i+500), Kind: "fact", VecRank: i + 1, Similarity: 1 - float64(i)/1000,
			Time: now.Add(-time.Duration(i) * time.Hour), Subject: "entity:x"}
	}
	o := Options{BoostSubjects: []string{"entity:x"}, ImportanceWeight: 0.5, Limit: 20}
	b.ReportAllocs()
	start := cputime.Used()
	for b.Loop() {
		Fuse(text, vec, now, o)
	}
	if end := cputime.Used(); start >= 0 && end >= 0 {
		b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
	}
}

// TestFuseProperties checks invariants over random inputs: one hit per (Kind, ID),
// scores non-increasing, every score reproducible, limit and threshold respected.
func TestFuseProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	kinds := []string{"fact", "episode"}
	for round := range 200 {
		gen := func(n int, text bool) []Candidate {
			cs := make([]Candidate, n)
			for i := range cs {
				c := Candidate{ID: fmt.Sprint(rng.IntN(30)), Kind: kinds[rng.IntN(2)],
					Time: now.Add(time.Duration(rng.IntN(2000)-100) * day), Subject: fmt.Sprint("s", rng.IntN(3)),
					Importance: rng.Float64()*1.4 - 0.2, Similarity: rng.Float64()*2 - 1}
				if rng.IntN(3) > 0 {
					if text {
						c.BM25Rank = rng.IntN(40)
					} else {
						c.VecRank = rng.IntN(40)
					}
				}
				cs[i] = c
			}
			return cs
		}
		o := Options{Limit: rng.IntN(10), Threshold: rng.Float64() * 0.01, MinSimilarity: rng.Float64() - 0.2,
			BoostSubjects: []string{"s1"}, ImportanceWeight: rng.Float64()}
		hits := Fuse(gen(rng.IntN(25), true), gen(rng.IntN(25), false), now, o)
		if o.Limit > 0 && len(hits) > o.Limit {
			t.Fatalf("round %d: %d hits, limit %d", round, len(hits), o.Limit)
		}
		seen := map[string]bool{}
		for i, h := range hits {
			k := h.Kind + ":" + h.ID
			if seen[k] {
				t.Fatalf("round %d: %s twice", round, k)
			}
			seen[k] = true
			if i > 0 && hits[i-1].Score < h.Score {
				t.Fatalf("round %d: hit %d score %v above hit %d score %v", round, i, h.Score, i-1, hits[i-1].Score)
			}
			if h.Score < o.Threshold || h.Explain.Recompute() != h.Score || h.Explain.Score != h.Score {
				t.Fatalf("round %d: hit %s score %v, threshold %v, explain %+v", round, k, h.Score, o.Threshold, h.Explain)
			}
			if h.Explain.BM25Rank == 0 && o.MinSimilarity > 0 && h.Explain.Similarity < o.MinSimilarity {
				t.Fatalf("round %d: vector-only hit %s with similarity %v below %v", round, k, h.Explain.Similarity, o.MinSimilarity)
			}
		}
	}
}

// TestFuseRareBoost: an item found first by full text through a rare word, and not
// by vector, loses to an item both lists rank near the top, unless the rare word's
// boost applies; an item holding half of the rare words gets half of the boost; a
// boost of 1 or less, or not finite, is none.
func TestFuseRareBoost(t *testing.T) {
	text := []Candidate{{ID: "rare", Kind: "episode", Rare: 1}, {ID: "both", Kind: "episode"}, {ID: "half", Kind: "episode", Rare: 0.5}}
	vec := []Candidate{{ID: "both", Kind: "episode", Similarity: 0.6}}
	for _, tc := range []struct {
		name  string
		boost float64
		first string
		rb    map[string]float64
	}{
		{"no boost", 0, "both", map[string]float64{"rare": 1, "half": 1}},
		{"boost 1", 1, "both", map[string]float64{"rare": 1, "half": 1}},
		{"NaN", math.NaN(), "both", map[string]float64{"rare": 1, "half": 1}},
		{"boost 2", 2, "rare", map[string]float64{"rare": 2, "half": 1.5, "both": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hits := Fuse(text, vec, now, Options{K: 5, RareBoost: tc.boost})
			if hits[0].ID != tc.first {
				t.Errorf("first = %s, want %s", hits[0].ID, tc.first)
			}
			for _, h := range hits {
				if want, ok := tc.rb[h.ID]; ok && h.Explain.RareBoost != want {
					t.Errorf("%s: rare boost %v, want %v", h.ID, h.Explain.RareBoost, want)
				}
				if h.Explain.Recompute() != h.Score {
					t.Errorf("%s: score %v, explain recomputes %v", h.ID, h.Score, h.Explain.Recompute())
				}
			}
		})
	}
}

// TestExplainShares: each hit's shares of its score, by signal, add up to 1 and are
// the signals' parts, after Fuse and after WithContext.
func TestExplainShares(t *testing.T) {
	text := []Candidate{{ID: "a", Kind: "episode", Rare: 1}, {ID: "b", Kind: "episode"}}
	vec := []Candidate{{ID: "b", Kind: "episode"}, {ID: "c", Kind: "episode"}}
	hits := Fuse(text, vec, now, Options{K: 5, WText: 1, WVec: 0.5, RareBoost: 2, ImportanceWeight: 0.2})
	hits = WithContext(hits, map[string]Turn{"a": {Kind: "episode", ID: "a", Next: "c", Named: true}, "c": {Kind: "episode", ID: "c"}}, ContextOptions{})
	for _, h := range hits {
		e := h.Explain
		if sum := e.TextShare + e.VecShare + e.ContextShare; math.Abs(sum-1) > 1e-12 {
			t.Errorf("%s: shares %v + %v + %v = %v, want 1", h.ID, e.TextShare, e.VecShare, e.ContextShare, sum)
		}
		m := e.Decay * e.SubjectBoost * e.ImportanceBoost * e.PeriodBoost * e.RareBoost * e.SpeakerBoost
		for _, p := range [][2]float64{{e.TextShare, e.RRFText * m}, {e.VecShare, e.RRFVec * m}, {e.ContextShare, e.Context * e.SpeakerBoost}} {
			if math.Abs(p[0]*h.Score-p[1]) > 1e-12 {
				t.Errorf("%s: share %v of score %v, want %v", h.ID, p[0], h.Score, p[1])
			}
		}
	}
	byID := map[string]Explain{}
	for _, h := range hits {
		byID[h.ID] = h.Explain
	}
	if a, b, c := byID["a"], byID["b"], byID["c"]; a.VecShare != 0 || a.TextShare != 1 || !(b.VecShare > 0 && b.TextShare > 0) || !(c.ContextShare > 0 && c.VecShare > 0) {
		t.Errorf("a %+v\nb %+v\nc %+v", a, b, c)
	}
}
