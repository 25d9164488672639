package search

import (
	"cmp"
	"math"
	"slices"
)

// Conversation context: episodes that are turns of a conversation (each said by a
// speaker) are not independent. The answer to a question is usually the turn after
// the one that asked it, and a question about what someone said or did is usually
// answered by a turn that person said. WithContext applies both to fused hits.

// Default context parameters, chosen on the LoCoMo development split by
// leave-one-conversation-out cross-validation (docs/benchmarks.md, "Retrieval:
// LoCoMo"; TestLoCoMoRecall in memory/search_bench_test.go).
const (
	DefaultContextNext   = 0.5  // share of a turn's own score the turn after it inherits
	DefaultContextPrev   = 0.25 // share the turn before it inherits
	DefaultSpeakerBoost  = 2.0  // multiplier of a turn said by someone the query names
	DefaultContextSpread = 40   // how many of the best hits pass context on
	DefaultContextReach  = 2    // how many turns on each side inherit
	DefaultContextFade   = 0.5  // each turn further away inherits this much of the nearer one's share
)

// Turn describes an episode hit (or a neighbour of one) as a turn of a conversation.
type Turn struct {
	// Kind and ID identify the item, as in Hit.
	Kind, ID string
	// Named is whether the query names the turn's speaker.
	Named bool
	// Prev and Next are the IDs (same Kind) of the turns just before and just after
	// it in its conversation; "" when there is none.
	Prev, Next string
	// Before and After are the turns further away, nearest first: Before[0] is the
	// turn before Prev, After[0] the turn after Next. Only ContextOptions.Reach - 1
	// of each are used.
	Before, After []string
}

// ContextOptions tunes WithContext. Zero fields take the defaults; a negative share
// or spread turns that part off, a speaker boost of 1 or less turns the boost off.
type ContextOptions struct {
	Next, Prev   float64
	SpeakerBoost float64
	// Spread is how many of the best hits (by their own score) pass context to
	// their neighbours.
	Spread int
	// Reach is how many turns on each side of a hit inherit from it (default
	// DefaultContextReach). The turn d places away inherits Fade^(d-1) of the
	// nearest one's share (Fade default DefaultContextFade; negative: 0).
	Reach int
	Fade  float64
}

// Resolved returns o with its defaults applied: what WithContext uses.
func (o ContextOptions) Resolved() ContextOptions {
	share := func(v, def float64) float64 {
		switch {
		case v == 0:
			return def
		case !(v > 0) || math.IsInf(v, 0):
			return 0
		}
		return v
	}
	o.Next, o.Prev = share(o.Next, DefaultContextNext), share(o.Prev, DefaultContextPrev)
	switch {
	case o.SpeakerBoost == 0:
		o.SpeakerBoost = DefaultSpeakerBoost
	case !(o.SpeakerBoost > 1) || math.IsInf(o.SpeakerBoost, 0):
		o.SpeakerBoost = 1
	}
	switch {
	case o.Reach == 0:
		o.Reach = DefaultContextReach
	case o.Reach < 0:
		o.Reach = 0
	}
	switch {
	case o.Fade == 0:
		o.Fade = DefaultContextFade
	case !(o.Fade > 0) || math.IsInf(o.Fade, 0):
		o.Fade = 0
	}
	switch {
	case o.Spread == 0:
		o.Spread = DefaultContextSpread
	case o.Spread < 0:
		o.Spread = 0
	}
	return o
}

// WithContext applies conversation context to hits, which must be ranked best first
// with Context 0 and SpeakerBoost 1 (as Fuse returns them). turns describes the hits
// that are turns and their neighbours, keyed by ID (hits of another Kind than a
// turn's are left alone). Each of the o.Spread best hits that is a turn gives
// o.Next of its own score to the turn after it and o.Prev to the turn before it
// (Explain.Context), and o.Fade^(d-1) of that to the turn d places away, up to
// o.Reach places on each side; a neighbour that was not a hit becomes one, with no score of
// its own. Then every turn whose speaker the query names has its score multiplied by
// o.SpeakerBoost. The result is ranked by the new scores, best first; equal scores
// keep the order of hits, new hits after them. hits is not modified.
func WithContext(hits []Hit, turns map[string]Turn, o ContextOptions) []Hit {
	o = o.Resolved()
	out := slices.Clone(hits)
	idx := make(map[candKey]int, len(out))
	for i, h := range out {
		idx[candKey{h.Kind, h.ID}] = i
	}
	give := func(kind, id string, share float64) {
		if id == "" || share == 0 {
			return
		}
		k := candKey{kind, id}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, Hit{ID: id, Kind: kind, Explain: Explain{Decay: 1, SubjectBoost: 1, ImportanceBoost: 1, PeriodBoost: 1, RareBoost: 1, SpeakerBoost: 1}})
		}
		out[i].Explain.Context += share
	}
	// The best hits by own score pass context on; hits is ranked by score, which for
	// Fuse's output is the own score.
	for i := 0; i < len(hits) && i < o.Spread; i++ {
		h := hits[i]
		t, ok := turns[h.ID]
		if !ok || t.Kind != h.Kind {
			continue
		}
		if o.Reach == 0 {
			continue
		}
		own := h.Explain.Own()
		give(h.Kind, t.Next, o.Next*own)
		give(h.Kind, t.Prev, o.Prev*own)
		fade := 1.0
		for d := 0; d+1 < o.Reach; d++ {
			fade *= o.Fade
			if d < len(t.After) {
				give(h.Kind, t.After[d], o.Next*fade*own)
			}
			if d < len(t.Before) {
				give(h.Kind, t.Before[d], o.Prev*fade*own)
			}
		}
	}
	for i := range out {
		e := &out[i].Explain
		if t, ok := turns[out[i].ID]; ok && t.Kind == out[i].Kind && t.Named {
			e.SpeakerBoost = o.SpeakerBoost
		}
		e.settle()
		out[i].Score = e.Score
	}
	slices.SortStableFunc(out, func(a, b Hit) int { return cmp.Compare(b.Score, a.Score) })
	return out
}
