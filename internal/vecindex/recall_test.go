package vecindex_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/bench"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/internal/vecindex"
	"github.com/factbase/factbase/search"
)

// sliceSource serves vectors as one user's episodes, vector i at seq i+1.
type sliceSource struct {
	vecs  [][]float32
	model string
}

func (s sliceSource) Deletes(context.Context) (int64, error) { return 0, nil }

func (s sliceSource) Load(_ context.Context, after int64, add vecindex.AddFunc) (int64, error) {
	for i := int(after); i < len(s.vecs); i++ {
		add(int64(i+1), factbase.KindEpisode, s.model, s.vecs[i])
	}
	return int64(len(s.vecs)), nil
}

// BenchmarkQuantizedRecall ranks factbase bench search's memories (seed 1, GloVe)
// in a quantized Index, as a store's vector candidates, and reports how many of the
// exact nearest its first hits hold: recall@10 of a search for 10, recall@50 of a
// search for 50 (the candidates a search asks), over 200 questions. The time per
// op is one search for 50.
func BenchmarkQuantizedRecall(b *testing.B) {
	g, err := embed.NewGloVe()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			src := sliceSource{model: g.Model()}
			for i := 0; i < n; i += 1000 {
				var texts []string
				for j := i; j < min(n, i+1000); j++ {
					texts = append(texts, bench.GenMemory(1, n, j).Text)
				}
				vs, err := g.Embed(ctx, texts)
				if err != nil {
					b.Fatal(err)
				}
				src.vecs = append(src.vecs, vs...)
			}
			const questions = 200
			var queries [][]float32
			var exact [][]int64 // the 50 nearest of each question, best first
			scores := make([]float32, n)
			for j := range questions {
				vs, err := g.Embed(ctx, []string{bench.GenQuestion(1, n, j).Text})
				if err != nil {
					b.Fatal(err)
				}
				q := vs[0]
				queries = append(queries, q)
				for i, v := range src.vecs {
					scores[i] = search.Dot(q, v)
				}
				var best []int64
				for _, i := range search.TopK(scores, 50) {
					best = append(best, int64(i+1))
				}
				exact = append(exact, best)
			}
			x := vecindex.New(vecindex.Options{Quantize: true})
			first := func(q []float32, limit int) []vecindex.Hit {
				var got []vecindex.Hit
				err := x.Search(ctx, src, vecindex.Query{User: "u", Model: g.Model(), Kind: factbase.KindEpisode, Vector: q, Limit: limit},
					func(hits []vecindex.Hit) (bool, error) {
						got = hits[:min(limit, len(hits))]
						return true, nil
					})
				if err != nil {
					b.Fatal(err)
				}
				return got
			}
			recall := func(limit int) float64 {
				found := 0
				for j, q := range queries {
					got := vecindex.Seqs(first(q, limit))
					for _, seq := range exact[j][:limit] {
						if slices.Contains(got, seq) {
							found++
						}
					}
				}
				return float64(found) / float64(limit*len(queries))
			}
			r10, r50 := recall(10), recall(50)
			j := 0
			for b.Loop() {
				first(queries[j%len(queries)], 50)
				j++
			}
			bytes, vectors := x.Bytes()
			b.ReportMetric(r10, "recall@10")
			b.ReportMetric(r50, "recall@50")
			b.ReportMetric(float64(bytes)/float64(vectors), "bytes/vector")
		})
	}
}
