package vecindex

import (
	"cmp"
	"math"
	"slices"

	"github.com/factbase/factbase/search"
)

// A quantized copy with more than quantExact vectors of the kind asked is narrowed
// first by how well the vectors' sign bits agree with the query's, weighed by the
// query's magnitudes (nearestSigns: a pass over 16 bytes a vector at 100
// dimensions, several times cheaper than an int8 score, whose codes lie scattered in
// memory), to prefilterSize(n, limit) of them, which are scored by their int8 codes;
// the best of those are refined by their residuals and offered. If the caller asks
// for more, the rest are scored too.
//
// The prefilter keeps prefilterScale·sqrt(n·limit) vectors, at least quantExact:
// the share it must keep to hold the nearest shrinks as n grows. On bench search's
// GloVe sentence vectors (seed 1, 200 questions), the 5,000 of 1,000,000 it keeps
// first hold 99.95% of the exact 10 nearest and 99.1% of the exact 50 nearest, and
// 10,000 hold 100% and 99.8%; of 100,000, 1,000 hold 99.8% and 96.9%, 2,000 99.95% and
// 99.2%. (Unweighed Hamming distance needed about five times as many: 50,000 of
// 1,000,000 held 99.95% and 99.6%.) So 7,071 of 1,000,000 for the 50 candidates a
// search asks, and 2,236 of 100,000. The int8 scores of the survivors cost more than
// the prefilter's pass, as their codes lie scattered in memory: some 300 ns each,
// a cache and a TLB miss, against 5 ns a vector for the prefilter's pass in order.
const (
	quantExact     = 2048
	prefilterScale = 1.0
	// refineMargin is how many more than a batch are refined, so that a vector
	// that the int8 scores put just below the batch can still enter it.
	refineMargin = 32
)

// prefilterSize is how many of n vectors the sign-bit prefilter keeps for a search
// of limit hits.
func prefilterSize(n, limit int) int {
	return max(quantExact, int(prefilterScale*math.Sqrt(float64(n)*float64(max(limit, 1)))))
}

// nan marks an entry that is not offered: of another kind, not scored yet, or
// offered already.
var nan = float32(math.NaN())

// rank scores the entries of q.Kind and passes them to accept in batches, best
// first, as Search describes. The caller holds s.mu, read-locked at least.
func (s *set) rank(q Query, accept func([]Hit) (bool, error)) error {
	want, ok := s.kindCode(q.Kind, false)
	if !ok || s.kindCounts[want] == 0 {
		return nil
	}
	if s.quantized {
		return s.rankCodes(q, want, accept)
	}
	dim := s.dim
	scores := make([]float32, len(s.seqs))
	for i, k := range s.kinds {
		if k == want {
			scores[i] = search.Dot(q.Vector, s.vecs[i*dim:(i+1)*dim])
		} else {
			scores[i] = nan
		}
	}
	for window := max(2*q.Limit, 64); ; window *= 4 {
		batch := search.TopK(scores, window)
		if len(batch) == 0 {
			return nil
		}
		hits := make([]Hit, len(batch))
		for i, b := range batch {
			hits[i] = Hit{Seq: s.seqs[b], Score: scores[b]}
			scores[b] = nan // offered: never again
		}
		if done, err := accept(hits); done || err != nil {
			return err
		}
	}
}

// refined is an entry scored by its residual too, not yet offered.
type refined struct {
	i     int32
	score float32
}

// rankCodes is rank over a quantized copy: the entries of kind want (all, or those
// the prefilter keeps) are scored by their int8 codes; each batch refines the best
// unrefined ones, a batch and refineMargin more, and offers the best refined.
func (s *set) rankCodes(q Query, want byte, accept func([]Hit) (bool, error)) error {
	n := s.kindCounts[want]
	qq := s.quantQuery(q.Vector)
	var pool []int32 // the entries scored
	narrowed := false
	if k := prefilterSize(n, q.Limit); n > quantExact && k < n/2 {
		pool = nearestSigns(s.signs, s.kinds, want, n, qq.weights, k)
		narrowed = true
	} else {
		pool = s.ofKind(want, nil)
	}
	scores := make([]float32, len(pool))
	s.coarseAll(qq, pool, scores)
	var ready []refined // refined, best first
	for window := max(2*q.Limit, 64); ; window *= 4 {
		best := search.TopK(scores, window+refineMargin)
		for _, b := range best {
			i := pool[b]
			ready = append(ready, refined{i: i, score: s.refine(qq, int(i), scores[b])})
			scores[b] = nan
		}
		exhausted := len(best) < window+refineMargin
		if exhausted && narrowed {
			// The caller wants more than the prefilter kept: score the others.
			rest := s.ofKind(want, pool)
			pool, narrowed = rest, false
			scores = make([]float32, len(rest))
			s.coarseAll(qq, rest, scores)
			exhausted = len(rest) == 0
		}
		slices.SortStableFunc(ready, func(a, b refined) int {
			if c := cmp.Compare(b.score, a.score); c != 0 {
				return c
			}
			return cmp.Compare(a.i, b.i)
		})
		m := min(window, len(ready))
		if exhausted {
			m = len(ready)
		}
		if m == 0 {
			return nil
		}
		hits := make([]Hit, m)
		for j, r := range ready[:m] {
			hits[j] = Hit{Seq: s.seqs[r.i], Score: r.score}
		}
		ready = slices.Delete(ready, 0, m)
		if done, err := accept(hits); done || err != nil || exhausted && len(ready) == 0 {
			return err
		}
	}
}

// ofKind returns the entries of kind want, but those in skip (ascending).
func (s *set) ofKind(want byte, skip []int32) []int32 {
	out := make([]int32, 0, s.kindCounts[want]-len(skip))
	for i, k := range s.kinds {
		if k != want {
			continue
		}
		if len(skip) > 0 && skip[0] == int32(i) {
			skip = skip[1:]
			continue
		}
		out = append(out, int32(i))
	}
	return out
}
