package search

import (
	"math"
	"slices"
	"testing"
)

// fusedHits returns episode hits with the given own scores (as RRFText, all other
// factors 1), ranked as given.
func fusedHits(ids []string, own []float64) []Hit {
	hs := make([]Hit, len(ids))
	for i, id := range ids {
		e := Explain{RRFText: own[i], Decay: 1, SubjectBoost: 1, ImportanceBoost: 1, PeriodBoost: 1, RareBoost: 1, SpeakerBoost: 1}
		e.Score = e.Recompute()
		hs[i] = Hit{ID: id, Kind: "episode", Score: e.Score, Explain: e}
	}
	return hs
}

func byID(hs []Hit) map[string]Hit {
	m := map[string]Hit{}
	for _, h := range hs {
		m[h.ID] = h
	}
	return m
}

func hitIDs(hs []Hit) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.ID
	}
	return out
}

func TestWithContextNeighboursInherit(t *testing.T) {
	// q asks, a answers; q matches the query, a does not (it is no hit at all).
	hits := fusedHits([]string{"q", "x"}, []float64{0.2, 0.1})
	turns := map[string]Turn{
		"q": {Kind: "episode", ID: "q", Prev: "p", Next: "a"},
		"a": {Kind: "episode", ID: "a", Prev: "q"},
		"p": {Kind: "episode", ID: "p", Next: "q"},
	}
	got := byID(WithContext(hits, turns, ContextOptions{Next: 0.5, Prev: 0.25, SpeakerBoost: -1}))
	if len(got) != 4 {
		t.Fatalf("got %d hits %v, want q, x and the neighbours a and p", len(got), got)
	}
	if c := got["a"].Explain.Context; math.Abs(c-0.1) > 1e-15 {
		t.Errorf("a (after q) inherits %v, want 0.5 * 0.2", c)
	}
	if c := got["p"].Explain.Context; math.Abs(c-0.05) > 1e-15 {
		t.Errorf("p (before q) inherits %v, want 0.25 * 0.2", c)
	}
	if got["q"].Explain.Context != 0 || got["x"].Score != 0.1 {
		t.Errorf("q %+v x %+v: want them unchanged (no turn passes context to them)", got["q"].Explain, got["x"])
	}
	for _, h := range got {
		if h.Score != h.Explain.Recompute() || h.Score != h.Explain.Score {
			t.Errorf("%s: score %v, explain %+v recomputes %v", h.ID, h.Score, h.Explain, h.Explain.Recompute())
		}
	}
}

func TestWithContextReach(t *testing.T) {
	// q is the only hit; the turns two and three places away inherit a fading share.
	hits := fusedHits([]string{"q"}, []float64{0.4})
	turns := map[string]Turn{"q": {Kind: "episode", ID: "q", Prev: "p1", Next: "n1",
		Before: []string{"p2", "p3"}, After: []string{"n2", "n3"}}}
	tests := []struct {
		name  string
		reach int
		want  map[string]float64 // context each turn inherits
	}{
		{"nearest only", 1, map[string]float64{"n1": 0.2, "p1": 0.1}},
		{"two each side", 2, map[string]float64{"n1": 0.2, "p1": 0.1, "n2": 0.1, "p2": 0.05}},
		{"three each side", 3, map[string]float64{"n1": 0.2, "p1": 0.1, "n2": 0.1, "p2": 0.05, "n3": 0.05, "p3": 0.025}},
		{"more than known", 5, map[string]float64{"n1": 0.2, "p1": 0.1, "n2": 0.1, "p2": 0.05, "n3": 0.05, "p3": 0.025}},
		{"none", -1, map[string]float64{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := WithContext(hits, turns, ContextOptions{Next: 0.5, Prev: 0.25, Fade: 0.5, SpeakerBoost: -1, Reach: tc.reach})
			if got, want := len(out), 1+len(tc.want); got != want {
				t.Fatalf("%d hits %v, want %d", got, hitIDs(out), want)
			}
			if out[0].ID != "q" {
				t.Errorf("first hit %s, want q: a neighbour ranks after the hit it inherits from", out[0].ID)
			}
			got := byID(out)
			for id, want := range tc.want {
				h := got[id]
				if math.Abs(h.Explain.Context-want) > 1e-15 || math.Abs(h.Score-want) > 1e-15 {
					t.Errorf("%s inherits %v (score %v), want %v", id, h.Explain.Context, h.Score, want)
				}
				if h.Explain.ContextShare != 1 {
					t.Errorf("%s: context share %v, want 1 (it was no hit of its own)", id, h.Explain.ContextShare)
				}
			}
		})
	}
}

func TestWithContextRanksByNewScore(t *testing.T) {
	hits := fusedHits([]string{"q", "b", "c"}, []float64{0.3, 0.12, 0.11})
	turns := map[string]Turn{"q": {Kind: "episode", ID: "q", Next: "c"}, "c": {Kind: "episode", ID: "c"}}
	got := WithContext(hits, turns, ContextOptions{Next: 0.5, Prev: -1, SpeakerBoost: -1})
	if want := []string{"q", "c", "b"}; !slices.Equal(hitIDs(got), want) {
		t.Errorf("order %v, want %v (c gains 0.15 from q)", hitIDs(got), want)
	}
	if hits[2].Explain.Context != 0 || hits[2].Score != 0.11 {
		t.Errorf("the input was modified: %+v", hits[2])
	}
}

func TestWithContextSpeakerBoost(t *testing.T) {
	hits := fusedHits([]string{"other", "named"}, []float64{0.2, 0.15})
	turns := map[string]Turn{
		"other": {Kind: "episode", ID: "other"},
		"named": {Kind: "episode", ID: "named", Named: true},
	}
	got := WithContext(hits, turns, ContextOptions{SpeakerBoost: 2})
	if hitIDs(got)[0] != "named" || got[0].Score != 0.3 || got[0].Explain.SpeakerBoost != 2 {
		t.Errorf("got %+v, want the turn whose speaker is named first with score 2 * 0.15", got)
	}
	if got[1].Explain.SpeakerBoost != 1 {
		t.Errorf("unnamed turn speaker boost %v, want 1", got[1].Explain.SpeakerBoost)
	}
	// The boost multiplies inherited context too.
	hits = fusedHits([]string{"q"}, []float64{0.2})
	turns = map[string]Turn{"q": {Kind: "episode", ID: "q", Next: "a"}, "a": {Kind: "episode", ID: "a", Named: true}}
	a := byID(WithContext(hits, turns, ContextOptions{Next: 0.5, SpeakerBoost: 2}))["a"]
	if math.Abs(a.Score-0.2) > 1e-15 {
		t.Errorf("a score %v, want (0 + 0.5*0.2) * 2", a.Score)
	}
}

func TestWithContextOnlyBestSpread(t *testing.T) {
	hits := fusedHits([]string{"h1", "h2", "h3"}, []float64{0.3, 0.2, 0.1})
	turns := map[string]Turn{}
	for _, h := range hits {
		turns[h.ID] = Turn{Kind: "episode", ID: h.ID, Next: h.ID + "-next"}
	}
	got := byID(WithContext(hits, turns, ContextOptions{Spread: 2}))
	if _, ok := got["h3-next"]; ok {
		t.Errorf("h3 is third with a spread of 2 but passed context on: %v", hitIDs(WithContext(hits, turns, ContextOptions{Spread: 2})))
	}
	if got["h1-next"].Explain.Context == 0 || got["h2-next"].Explain.Context == 0 {
		t.Errorf("the two best hits did not pass context on: %+v", got)
	}
	// Negative shares and spread turn context off.
	off := WithContext(hits, turns, ContextOptions{Next: -1, Prev: -1, Spread: -1, SpeakerBoost: -1})
	if len(off) != 3 {
		t.Errorf("context off still added neighbours: %v", hitIDs(off))
	}
}

func TestWithContextIgnoresOtherKinds(t *testing.T) {
	hits := fusedHits([]string{"f"}, []float64{0.3})
	hits[0].Kind = "fact"
	turns := map[string]Turn{"f": {Kind: "episode", ID: "f", Next: "n", Named: true}}
	got := WithContext(hits, turns, ContextOptions{})
	if len(got) != 1 || got[0].Score != 0.3 {
		t.Errorf("a fact with the id of a turn was treated as the turn: %+v", got)
	}
}

func TestContextOptionsDefaults(t *testing.T) {
	r := ContextOptions{}.Resolved()
	if r.Next != DefaultContextNext || r.Prev != DefaultContextPrev || r.SpeakerBoost != DefaultSpeakerBoost || r.Spread != DefaultContextSpread ||
		r.Reach != DefaultContextReach || r.Fade != DefaultContextFade {
		t.Errorf("zero options resolve to %+v", r)
	}
	r = ContextOptions{Next: math.NaN(), Prev: math.Inf(1), SpeakerBoost: 0.5, Spread: -3, Reach: -1, Fade: math.NaN()}.Resolved()
	if r.Next != 0 || r.Prev != 0 || r.SpeakerBoost != 1 || r.Spread != 0 || r.Reach != 0 || r.Fade != 0 {
		t.Errorf("bad options resolve to %+v, want everything off", r)
	}
}

func TestFusePeriodBoost(t *testing.T) {
	in := Candidate{ID: "in", Kind: "episode", BM25Rank: 2, Time: now.AddDate(0, 0, -10)}
	out := Candidate{ID: "out", Kind: "episode", BM25Rank: 1, Time: now.AddDate(0, 0, -40)}
	unknown := Candidate{ID: "unknown", Kind: "episode", BM25Rank: 3}
	o := Options{K: 5, HalfLife: -1, PeriodFrom: now.AddDate(0, 0, -11), PeriodTo: now.AddDate(0, 0, -9)}
	hs := Fuse([]Candidate{out, in, unknown}, nil, now, o)
	got := map[string]Hit{}
	for _, h := range hs {
		got[h.ID] = h
	}
	if got["in"].Explain.PeriodBoost != DefaultPeriodBoost || got["out"].Explain.PeriodBoost != 1 || got["unknown"].Explain.PeriodBoost != 1 {
		t.Errorf("period boosts in %v out %v unknown %v, want %v, 1, 1", got["in"].Explain.PeriodBoost, got["out"].Explain.PeriodBoost,
			got["unknown"].Explain.PeriodBoost, DefaultPeriodBoost)
	}
	if hs[0].ID != "in" || hs[0].Score != 2*RRF(2, 5) || hs[0].Score != hs[0].Explain.Recompute() {
		t.Errorf("first hit %+v, want the one in the period, its score doubled", hs[0])
	}
	// No period: no boost.
	for _, h := range Fuse([]Candidate{out, in}, nil, now, Options{K: 5, HalfLife: -1}) {
		if h.Explain.PeriodBoost != 1 {
			t.Errorf("%s: period boost %v without a period", h.ID, h.Explain.PeriodBoost)
		}
	}
}
