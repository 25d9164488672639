package vecindex

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/search"
)

func TestSigns(t *testing.T) {
	v := make([]float32, 70)
	v[0], v[63], v[64], v[69] = 1, 0.5, -1, 2
	if got, want := signsOf(v), []uint64{1 | 1<<63, 1 << 5}; !slices.Equal(got, want) {
		t.Errorf("signsOf = %b, want %b", got, want)
	}
	signs := slices.Concat(signsOf([]float32{1, 1, 1}), signsOf([]float32{-1, -1, -1}), signsOf([]float32{1, -1, 1}), signsOf([]float32{1, 1, -1}))
	got := nearestSigns(signs, []byte{0, 0, 0, 1}, 0, signsOf([]float32{1, 1, 1}), 1, 2)
	if !slices.Equal(got, []int{0, 2}) {
		t.Errorf("nearestSigns = %v, want [0 2] (distance 0, then the first at distance 1; the other kind left out)", got)
	}
}

// TestPrefilterTopK ranks more vectors than exactBelow with the prefilter, ten of
// them near the query (its signs, its direction within a few degrees), and expects
// the exact top ten of a brute-force ranking first, then every other vector once,
// each with its exact score.
func TestPrefilterTopK(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	const dim, n = 32, exactBelow + 5000
	q := randVec(r, dim)
	src := &memSource{}
	for i := range n {
		v := randVec(r, dim)
		if i%(n/10) == 0 {
			var norm float64
			for j := range v {
				v[j] = q[j] * (0.8 + 0.4*r.Float32())
				norm += float64(v[j]) * float64(v[j])
			}
			for j := range v {
				v[j] /= float32(math.Sqrt(norm))
			}
		}
		src.put("fact", "m", v)
	}
	src.put("episode", "m", q) // another kind, left out
	x := New(Options{Prefilter: true})
	query := Query{User: "u", Model: "m", Kind: "fact", Vector: q, Limit: 10}
	want := bruteForce(src, query)
	var first []Hit
	err := x.Search(context.Background(), src, query, func(hits []Hit) (bool, error) {
		first = hits
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(first[:10], want[:10]) {
		t.Errorf("top 10 = %v, want %v", first[:10], want[:10])
	}
	got := all(t, x, src, query)
	if slices.Equal(got, want) {
		t.Errorf("every vector came in exact order: the prefilter did not narrow the first batches")
	}
	bySeq := func(a, b Hit) int { return cmp.Compare(a.Seq, b.Seq) }
	slices.SortFunc(got, bySeq)
	slices.SortFunc(want, bySeq)
	if !slices.Equal(got, want) {
		t.Errorf("Search offered %d hits, want each of the %d facts once with its exact score", len(got), len(want))
	}
}

// TestSignPrefilterRecall measures how much of the exact top 10 the sign-bit
// prefilter keeps, on GloVe vectors of 100,000 varied sentences.
func TestSignPrefilterRecall(t *testing.T) {
	if testing.Short() {
		t.Skip("embeds 100,000 sentences")
	}
	g, err := embed.NewGloVe()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 8))
	words := []string{"coffee", "jazz", "chess", "tennis", "museum", "garden", "curry", "novel", "guitar", "sushi",
		"hiking", "yoga", "violin", "pottery", "laptop", "budget", "dentist", "flight", "hotel", "conference",
		"doctor", "allergy", "peanuts", "vegetarian", "birthday", "wedding", "school", "office", "salary", "car"}
	names := []string{"Martin", "Sarah", "Dana", "Eli", "Priya", "Tom", "Anna", "Mei", "Omar", "Grace"}
	sentence := func() string {
		return fmt.Sprintf("%s talked about %s and %s near the %s", names[r.IntN(len(names))],
			words[r.IntN(len(words))], words[r.IntN(len(words))], words[r.IntN(len(words))])
	}
	texts := make([]string, 100000)
	for i := range texts {
		texts[i] = sentence()
	}
	vecs, err := g.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	dim := len(vecs[0])
	var flat []float32
	var signs []uint64
	kinds := make([]byte, len(vecs))
	for _, v := range vecs {
		flat = append(flat, v...)
		signs = appendSigns(signs, v)
	}
	total, found := 0, 0
	for range 100 {
		qv, _ := g.Embed(context.Background(), []string{sentence()})
		q := qv[0]
		exact := make([]float32, len(vecs))
		for i := range vecs {
			exact[i] = search.Dot(q, flat[i*dim:(i+1)*dim])
		}
		approx := make([]float32, len(vecs))
		for i := range approx {
			approx[i] = nan
		}
		for _, i := range nearestSigns(signs, kinds, 0, signsOf(q), signWords(dim), prefilterMin) {
			approx[i] = exact[i]
		}
		want, got := search.TopK(exact, 10), search.TopK(approx, 10)
		for _, i := range want {
			total++
			if slices.Contains(got, i) || approx[got[len(got)-1]] == exact[i] {
				found++
			}
		}
	}
	recall := float64(found) / float64(total)
	t.Logf("sign prefilter (%d of %d) keeps %.3f of the exact top 10", prefilterMin, len(vecs), recall)
	if recall < 0.9 {
		t.Errorf("prefilter recall@10 = %.3f, want at least 0.9", recall)
	}
}
