// Package search holds the pure math of Factbase's hybrid search: it fuses the
// candidates a store found by full text (BM25) and by vector similarity into one
// ranking, with reciprocal rank fusion, recency decay, a subject boost and an
// importance boost, and it splits user questions into search terms (Terms) that any
// store's full-text index can take; each store turns them into its own query syntax.
// It does no I/O; the stores fetch the candidates and call Fuse.
//
// # Scoring
//
// For a candidate at rank r_t in the text list and r_v in the vector list (either may
// be absent):
//
//	RRFText = WText / (K + r_t)                     0 when absent from the text list
//	RRFVec  = WVec  / (K + r_v)                     0 when absent from the vector list
//	Decay   = max(Floor, 0.5^(age / HalfLife))      1 for future or unknown times
//	Own     = (RRFText + RRFVec) * Decay * SubjectBoost * ImportanceBoost * PeriodBoost * RareBoost
//	ImportanceBoost = 1 + ImportanceWeight * Importance
//	PeriodBoost     = Options.PeriodBoost for a Time in [PeriodFrom, PeriodTo), else 1
//	RareBoost       = 1 + (Options.RareBoost - 1) * Rare
//	Score   = (Own + Context) * SpeakerBoost
//
// Context and SpeakerBoost come from WithContext (conversation turns: a turn inherits
// a share of its neighbours' Own scores, and a turn said by someone the query names is
// boosted); Fuse leaves them at 0 and 1. Every Hit carries these terms in its
// Explain, and Score is computed from them by exactly that expression
// (Explain.Recompute), so a score can always be explained; TextShare, VecShare and
// ContextShare say how much of it each signal gave.
//
// # Decisive evidence
//
// Reciprocal ranks count every list alike, so an item found first by full text
// through a word few items hold (a name, an identifier, an invented word) loses to
// items that both lists rank a little lower, when the vector list knows nothing of
// that word: the embedder's vocabulary lacks it. Two terms let the caller say so:
// WVec, the vector list's weight, is the share of the query the embedder saw (a
// caller computes it from the words' rarity), and RareBoost multiplies the score of
// an item by how many of the query's rare words it holds (Candidate.Rare).
package search

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// Defaults applied by Fuse to zero Options fields.
const (
	DefaultK            = 60.0
	DefaultHalfLife     = 180 * 24 * time.Hour
	DefaultFloor        = 0.5
	DefaultSubjectBoost = 1.5
	DefaultPeriodBoost  = 2.0
)

// Candidate is one item a store found, by full text, by vector, or both.
type Candidate struct {
	ID         string
	Kind       string    // "fact" or "episode"
	BM25Rank   int       // 1-based rank in the full-text list, 0 = absent
	BM25       float64   // the store's BM25 score, reported in Explain only
	VecRank    int       // 1-based rank in the vector list, 0 = absent
	Similarity float64   // cosine similarity, -1..1
	Time       time.Time // recorded (facts) or created (episodes); zero = unknown
	Subject    string    // "user", "entity:<id>", ...
	Importance float64   // episodes: importance 0..1; facts: confidence 0..1
	// Rare is the share (0..1) of the query's rare words the item holds: words few
	// of the user's items hold, whose full-text match is decisive (see RareBoost).
	Rare float64
}

// Options tunes Fuse. The zero value is usable: each zero field takes the default its
// comment names.
type Options struct {
	// K is the RRF constant; 0 (or negative) means DefaultK, 60.
	K float64
	// WText and WVec weight the two lists. When both are 0 both default to 1; otherwise
	// each is used as given (0 ignores that list's ranks); negative, NaN and infinite
	// weights count as 0.
	WText, WVec float64
	// HalfLife is the recency half-life: 0 means DefaultHalfLife (180 days); a negative
	// value turns decay off.
	HalfLife time.Duration
	// Floor is the least decay factor, so that old items are damped but not buried: 0
	// means DefaultFloor (0.5); a negative value means no floor; above 1 counts as 1.
	Floor float64
	// SubjectBoost multiplies the score of candidates whose Subject is in
	// BoostSubjects (exact match); 0 (or negative) means DefaultSubjectBoost (1.5).
	SubjectBoost  float64
	BoostSubjects []string
	// ImportanceWeight scales the importance boost 1 + ImportanceWeight*Importance;
	// 0 (the default) turns it off, negative counts as 0.
	ImportanceWeight float64
	// PeriodFrom (inclusive) and PeriodTo (exclusive) are a period the query names
	// ("on 13 October 2023"): candidates whose Time falls in it are multiplied by
	// PeriodBoost, 0 (or negative) meaning DefaultPeriodBoost (2). Zero times: no period.
	PeriodFrom, PeriodTo time.Time
	PeriodBoost          float64
	// RareBoost multiplies the score of a candidate holding every rare word of the
	// query (Candidate.Rare 1), and a share of it one holding some: 1 + (RareBoost -
	// 1) * Rare. 1 or less (the default, 0) turns it off.
	RareBoost float64
	// Threshold is the least final score a hit may have; 0 keeps every hit.
	Threshold float64
	// MinSimilarity drops candidates found only by vector whose similarity is below
	// it; 0 (or negative) keeps them all. Candidates also found by text are kept.
	MinSimilarity float64
	// Limit is the most hits returned; 0 (or negative) returns all.
	Limit int
}

// Explain is how a hit's score was made. ImportanceBoost is an addition to the fields
// the stores asked for: with it, Score is reproducible from Explain alone.
type Explain struct {
	BM25Rank        int     // rank in the text list, 0 = absent
	BM25            float64 // the store's BM25 score
	VecRank         int     // rank in the vector list, 0 = absent
	Similarity      float64 // cosine similarity
	RRFText         float64 // WText / (K + BM25Rank), 0 when absent
	RRFVec          float64 // WVec / (K + VecRank), 0 when absent
	Decay           float64 // recency factor in [Floor, 1]
	AgeDays         float64 // age at query time in days; negative for future times
	SubjectBoost    float64 // the multiplier applied: 1 or Options.SubjectBoost
	Importance      float64 // the candidate's importance, clamped to [0, 1]
	ImportanceBoost float64 // the multiplier applied: 1 + ImportanceWeight*Importance
	PeriodBoost     float64 // the multiplier applied: 1 or Options.PeriodBoost
	Rare            float64 // the candidate's share of the query's rare words
	RareBoost       float64 // the multiplier applied: 1 + (Options.RareBoost - 1) * Rare
	Context         float64 // score inherited from neighbouring turns (WithContext), else 0
	SpeakerBoost    float64 // 1, or the boost of a turn said by someone the query names
	Score           float64 // (Own() + Context) * SpeakerBoost
	// TextShare, VecShare and ContextShare are the shares of Score that full text
	// (RRFText), the vector list (RRFVec) and the neighbouring turns (Context) gave,
	// each with the multipliers applied to it; they add up to 1 (all 0 when Score is).
	TextShare, VecShare, ContextShare float64
}

// Own is the score a hit has by itself, before context and the speaker boost:
// (RRFText + RRFVec) * Decay * SubjectBoost * ImportanceBoost * PeriodBoost * RareBoost.
func (e Explain) Own() float64 {
	return (e.RRFText + e.RRFVec) * e.Decay * e.SubjectBoost * e.ImportanceBoost * e.PeriodBoost * e.RareBoost
}

// boosts is the product of the multipliers of the own score.
func (e Explain) boosts() float64 {
	return e.Decay * e.SubjectBoost * e.ImportanceBoost * e.PeriodBoost * e.RareBoost
}

// Recompute returns the score the Explain's terms give; it equals Score exactly.
func (e Explain) Recompute() float64 {
	return (e.Own() + e.Context) * e.SpeakerBoost
}

// settle sets Score from the terms, and the signals' shares of it.
func (e *Explain) settle() {
	e.Score = e.Recompute()
	e.TextShare, e.VecShare, e.ContextShare = 0, 0, 0
	if e.Score > 0 {
		m := e.boosts() * e.SpeakerBoost / e.Score
		e.TextShare, e.VecShare = e.RRFText*m, e.RRFVec*m
		e.ContextShare = e.Context * e.SpeakerBoost / e.Score
	}
}

// Hit is one fused result.
type Hit struct {
	ID, Kind string
	Score    float64
	Explain  Explain
}

// RRF returns the reciprocal-rank-fusion contribution 1/(k+rank) of a 1-based rank;
// rank < 1 (absent) gives 0. A negative or NaN k counts as 0.
func RRF(rank int, k float64) float64 {
	if rank < 1 {
		return 0
	}
	if !(k >= 0) {
		k = 0
	}
	return 1 / (k + float64(rank))
}

// Decay returns the recency factor of an item of the given age: 0.5^(age/halfLife),
// never below floor (clamped to [0, 1]). Ages of zero or less (future times) and
// half-lives of zero or less give 1.
func Decay(age, halfLife time.Duration, floor float64) float64 {
	if halfLife <= 0 || age <= 0 {
		return 1
	}
	switch {
	case !(floor >= 0):
		floor = 0
	case floor > 1:
		floor = 1
	}
	d := math.Exp2(-float64(age) / float64(halfLife))
	if d < floor {
		return floor
	}
	return d
}

// resolved is Options with its defaults applied.
type resolved struct {
	k, wText, wVec, floor, boost, impWeight, threshold, minSim float64
	periodBoost, rareBoost                                     float64
	periodFrom, periodTo                                       time.Time
	halfLife                                                   time.Duration
	boostSet                                                   map[string]bool
	limit                                                      int
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func (o Options) resolve() resolved {
	r := resolved{k: o.K, wText: o.WText, wVec: o.WVec, floor: o.Floor, boost: o.SubjectBoost,
		impWeight: o.ImportanceWeight, threshold: o.Threshold, minSim: o.MinSimilarity,
		halfLife: o.HalfLife, limit: o.Limit, periodBoost: o.PeriodBoost, periodFrom: o.PeriodFrom, periodTo: o.PeriodTo}
	if !finite(r.periodBoost) || r.periodBoost <= 0 {
		r.periodBoost = DefaultPeriodBoost
	}
	if r.rareBoost = o.RareBoost; !finite(r.rareBoost) || r.rareBoost < 1 {
		r.rareBoost = 1
	}
	if !finite(r.k) || r.k <= 0 {
		r.k = DefaultK
	}
	if !finite(r.wText) || r.wText < 0 {
		r.wText = 0
	}
	if !finite(r.wVec) || r.wVec < 0 {
		r.wVec = 0
	}
	if r.wText == 0 && r.wVec == 0 {
		r.wText, r.wVec = 1, 1
	}
	switch {
	case r.halfLife == 0:
		r.halfLife = DefaultHalfLife
	case r.halfLife < 0:
		r.halfLife = 0 // Decay treats it as off
	}
	switch {
	case math.IsNaN(r.floor) || r.floor == 0:
		r.floor = DefaultFloor
	case r.floor < 0:
		r.floor = 0
	case r.floor > 1:
		r.floor = 1
	}
	if !finite(r.boost) || r.boost <= 0 {
		r.boost = DefaultSubjectBoost
	}
	if !finite(r.impWeight) || r.impWeight < 0 {
		r.impWeight = 0
	}
	if !finite(r.threshold) {
		r.threshold = 0
	}
	if !finite(r.minSim) {
		r.minSim = 0
	}
	if len(o.BoostSubjects) > 0 {
		r.boostSet = make(map[string]bool, len(o.BoostSubjects))
		for _, s := range o.BoostSubjects {
			r.boostSet[s] = true
		}
	}
	return r
}

// inPeriod reports whether t is known and in the period, when there is one.
func (r resolved) inPeriod(t time.Time) bool {
	if t.IsZero() || r.periodFrom.IsZero() && r.periodTo.IsZero() {
		return false
	}
	return !t.Before(r.periodFrom) && (r.periodTo.IsZero() || t.Before(r.periodTo))
}

// fused is one candidate after merging both lists.
type fused struct {
	c                 Candidate
	textRank, vecRank int
	bm25, sim         float64
}

type candKey struct{ kind, id string }

// Fuse merges the text and vector candidate lists by (Kind, ID) and ranks them by
// score, highest first; ties go to the newer Time, then to the smaller ID, then to the
// smaller Kind. A candidate's rank in a list is its BM25Rank (text) or VecRank
// (vector) if positive, else its 1-based position in that list; a list's other rank
// fields are ignored. When a candidate appears twice in one list the better rank
// counts. Time, Subject and Importance come from the first occurrence (text list
// first), with zero fields filled from later ones. now is the query time for decay.
func Fuse(text, vec []Candidate, now time.Time, o Options) []Hit {
	r := o.resolve()
	idx := make(map[candKey]int, len(text)+len(vec))
	all := make([]fused, 0, len(text)+len(vec))
	merge := func(c Candidate, pos int, isText bool) {
		rank := c.VecRank
		if isText {
			rank = c.BM25Rank
		}
		if rank <= 0 {
			rank = pos + 1
		}
		k := candKey{c.Kind, c.ID}
		i, ok := idx[k]
		if !ok {
			i = len(all)
			idx[k] = i
			all = append(all, fused{c: c})
		}
		f := &all[i]
		if ok {
			if f.c.Time.IsZero() {
				f.c.Time = c.Time
			}
			if f.c.Subject == "" {
				f.c.Subject = c.Subject
			}
			if f.c.Importance == 0 {
				f.c.Importance = c.Importance
			}
			f.c.Rare = max(f.c.Rare, c.Rare)
		}
		if isText && (f.textRank == 0 || rank < f.textRank) {
			f.textRank, f.bm25 = rank, c.BM25
		}
		if !isText && (f.vecRank == 0 || rank < f.vecRank) {
			f.vecRank, f.sim = rank, c.Similarity
		}
	}
	for i, c := range text {
		merge(c, i, true)
	}
	for i, c := range vec {
		merge(c, i, false)
	}

	type scored struct {
		hit  Hit
		time time.Time
	}
	out := make([]scored, 0, len(all))
	for _, f := range all {
		if f.textRank == 0 && r.minSim > 0 && !(f.sim >= r.minSim) {
			continue
		}
		e := Explain{BM25Rank: f.textRank, BM25: f.bm25, VecRank: f.vecRank, Similarity: f.sim,
			Decay: 1, SubjectBoost: 1, SpeakerBoost: 1, PeriodBoost: 1, RareBoost: 1}
		if f.textRank > 0 {
			e.RRFText = r.wText * RRF(f.textRank, r.k)
		}
		if f.vecRank > 0 {
			e.RRFVec = r.wVec * RRF(f.vecRank, r.k)
		}
		if !f.c.Time.IsZero() {
			age := now.Sub(f.c.Time)
			e.AgeDays = age.Hours() / 24
			e.Decay = Decay(age, r.halfLife, r.floor)
		}
		if r.boostSet[f.c.Subject] {
			e.SubjectBoost = r.boost
		}
		if r.inPeriod(f.c.Time) {
			e.PeriodBoost = r.periodBoost
		}
		e.Importance = clamp01(f.c.Importance)
		e.ImportanceBoost = 1 + r.impWeight*e.Importance
		e.Rare = clamp01(f.c.Rare)
		e.RareBoost = 1 + (r.rareBoost-1)*e.Rare
		e.settle()
		if e.Score < r.threshold {
			continue
		}
		out = append(out, scored{Hit{ID: f.c.ID, Kind: f.c.Kind, Score: e.Score, Explain: e}, f.c.Time})
	}
	// Sort small keys, not the large hits; the full comparison runs only on equal scores.
	type key struct {
		score float64
		i     int
	}
	keys := make([]key, len(out))
	for i := range out {
		keys[i] = key{out[i].hit.Score, i}
	}
	slices.SortFunc(keys, func(a, b key) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		x, y := &out[a.i], &out[b.i]
		return cmp.Or(y.time.Compare(x.time), cmp.Compare(x.hit.ID, y.hit.ID), cmp.Compare(x.hit.Kind, y.hit.Kind))
	})
	if r.limit > 0 && len(keys) > r.limit {
		keys = keys[:r.limit]
	}
	hits := make([]Hit, len(keys))
	for i, k := range keys {
		hits[i] = out[k.i].hit
	}
	return hits
}

// clamp01 clamps f to [0, 1]; NaN gives 0.
func clamp01(f float64) float64 {
	switch {
	case !(f > 0):
		return 0
	case f > 1:
		return 1
	}
	return f
}
