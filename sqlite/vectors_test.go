package sqlite

import (
	"context"
	"fmt"
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
	got := nearestSigns(signs, []byte("fffe"), 'f', signsOf([]float32{1, 1, 1}), 1, 2)
	if !slices.Equal(got, []int{0, 2}) {
		t.Errorf("nearestSigns = %v, want [0 2] (distance 0, then the first at distance 1; the episode left out)", got)
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
	for i, v := range vecs {
		flat = append(flat, v...)
		signs = appendSigns(signs, v)
		kinds[i] = 'f'
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
			approx[i] = float32NaN
		}
		for _, i := range nearestSigns(signs, kinds, 'f', signsOf(q), signWords(dim), prefilterMin) {
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
