package vecindex

import (
	"cmp"
	"context"
	"slices"

	"github.com/factbase/factbase/search"
)

// streamRank ranks the vectors of a user too big to copy: each batch is one read of
// every vector through src, keeping only the best not offered yet, so a search holds
// the batch and the seqs it has offered, never the vectors. Batches grow as in rank
// (max(2*q.Limit, 64), then four times the one before), so a caller that keeps few
// hits pays one read.
func streamRank(ctx context.Context, src Source, q Query, accept func([]Hit) (bool, error)) error {
	offered := map[int64]bool{}
	for window := max(2*q.Limit, 64); ; window *= 4 {
		best, err := streamBest(ctx, src, q, window, offered)
		if err != nil || len(best) == 0 {
			return err
		}
		for _, h := range best {
			offered[h.Seq] = true
		}
		if done, err := accept(best); done || err != nil || len(best) < window {
			return err
		}
	}
}

// streamBest reads src once and returns its k best vectors of q's model, kind and
// dimension not in skip, best first, ties by seq (the order of loading in a copy).
func streamBest(ctx context.Context, src Source, q Query, k int, skip map[int64]bool) ([]Hit, error) {
	better := func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Seq, b.Seq)
	}
	best := make([]Hit, 0, 2*k)
	trim := func() {
		slices.SortFunc(best, better)
		best = best[:min(len(best), k)]
	}
	_, err := src.Load(ctx, 0, func(seq int64, kind, model string, vec []float32) {
		if kind != q.Kind || model != q.Model || len(vec) != len(q.Vector) || skip[seq] {
			return
		}
		best = append(best, Hit{Seq: seq, Score: search.Dot(q.Vector, vec)})
		if len(best) == cap(best) {
			trim()
		}
	})
	if err != nil {
		return nil, err
	}
	trim()
	return best, nil
}
