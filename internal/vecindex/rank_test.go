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
	if got, want := appendSigns(nil, v), []uint64{1 | 1<<63, 1 << 5}; !slices.Equal(got, want) {
		t.Errorf("appendSigns = %b, want %b", got, want)
	}
	w := newSignWeights([]float32{0.7, -0.1, 0, -0.35})
	if got, want := w.planes, []uint64{0b0011, 0b0001, 0b1001}; !slices.Equal(got, want) {
		t.Errorf("weight planes of (0.7, -0.1, 0, -0.35) = %b, want %b (levels 7, 1, 0, 4)", got, want)
	}
	for _, tc := range []struct {
		entry []float32
		want  int
	}{
		{[]float32{1, -1, -1, -1}, 12}, // every sign the query's: 7 + 1 + 0 + 4
		{[]float32{1, 1, 1, 1}, 7},     // the first dimension only
		{[]float32{-1, -1, -1, -1}, 5}, // all but the first
		{[]float32{-1, 1, 1, 1}, 0},    // opposite (the query's 0 weighs nothing)
	} {
		if got := w.agreement(appendSigns(nil, tc.entry)); got != tc.want {
			t.Errorf("agreement of %v with (0.7, -0.1, 0, -0.35) = %d, want %d", tc.entry, got, tc.want)
		}
	}
}

// TestNearestSigns checks what nearestSigns keeps over random entries of two kinds,
// for the two-word loop (100 dimensions) and the general one (30): ascending
// indexes of the kind asked, at least k of them, none left out that agrees better
// than one kept, and not many more than k; and the exact count when the sample
// misleads.
func TestNearestSigns(t *testing.T) {
	for _, dim := range []int{30, 100} {
		r := rand.New(rand.NewPCG(uint64(dim), 5))
		const n = 20000
		var signs []uint64
		kinds := make([]byte, n)
		ofKind := 0
		for i := range n {
			signs = appendSigns(signs, randVec(r, dim))
			if i%5 == 0 {
				kinds[i] = 1
			} else {
				ofKind++
			}
		}
		q := newSignWeights(randVec(r, dim))
		words := signWords(dim)
		for _, k := range []int{1, 100, 5000, n} {
			got := nearestSigns(signs, kinds, 0, ofKind, q, k)
			if !slices.IsSorted(got) || len(got) < min(k, ofKind) || k >= 100 && len(got) > 2*k {
				t.Errorf("dim %d, k %d: %d entries kept (sorted %v); want at least %d, at most twice that", dim, k, len(got), slices.IsSorted(got), min(k, ofKind))
			}
			least := math.MaxInt
			for _, i := range got {
				if kinds[i] != 0 {
					t.Fatalf("dim %d, k %d: kept entry %d of another kind", dim, k, i)
				}
				least = min(least, q.agreement(signs[int(i)*words:]))
			}
			for i := range n {
				if kinds[i] == 0 && !slices.Contains(got, int32(i)) && q.agreement(signs[i*words:]) > least {
					t.Errorf("dim %d, k %d: entry %d agrees better than one kept", dim, k, i)
					break
				}
			}
		}
	}
	// The sample (every other entry here) agrees fully, the others not at all: its
	// cut-off keeps half the entries, fewer than asked, and the exact one is counted.
	const n = 4 * prefilterSample
	var signs []uint64
	for i := range n {
		v := []float32{1, 1}
		if i%2 == 1 {
			v = []float32{-1, -1}
		}
		signs = appendSigns(signs, v)
	}
	got := nearestSigns(signs, make([]byte, n), 0, n, newSignWeights([]float32{1, 1}), n/2+1000)
	var odd []int32
	for _, i := range got {
		if i%2 == 1 {
			odd = append(odd, i)
		}
	}
	if len(got) != n/2+1000 || len(odd) != 1000 || odd[len(odd)-1] != 1999 {
		t.Errorf("misled by the sample: kept %d entries, %d of those that disagree; want %d: the %d that agree and the first 1,000 of the others",
			len(got), len(odd), n/2+1000, n/2)
	}
}

func TestPrefilterSize(t *testing.T) {
	for _, tc := range []struct{ n, limit, want int }{
		{1000, 10, quantExact},
		{100_000, 10, quantExact},
		{100_000, 50, 2_236},
		{1_000_000, 10, 3_162},
		{1_000_000, 50, 7_071},
		{10_000_000, 50, 22_360},
	} {
		if got := prefilterSize(tc.n, tc.limit); got != tc.want {
			t.Errorf("prefilterSize(%d, %d) = %d, want %d", tc.n, tc.limit, got, tc.want)
		}
	}
}

// TestQuantError codes random unit vectors and checks every score against the exact
// dot product: within codeTolerance, and ten times closer on average.
// Odd dimensions fill half a residual byte; a vector equal to the center codes as
// zeros.
func TestQuantError(t *testing.T) {
	for _, dim := range []int{1, 8, 31, 100, 101} {
		t.Run(fmt.Sprint(dim), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(dim), 3))
			s := &set{dim: dim, quantized: true}
			s.kindCode("fact", true)
			var vecs [][]float32
			for i := range 3000 {
				v := randVec(r, dim)
				if i == centerSample+5 {
					v = slices.Clone(s.center) // coded with scale 0
				}
				vecs = append(vecs, v)
				s.add(int64(i+1), 0, v)
			}
			s.settle()
			if len(s.records) != recordWidth(dim)*len(vecs) || len(s.signs) != signWords(dim)*len(vecs) {
				t.Fatalf("coded %d record bytes and %d sign words for %d vectors", len(s.records), len(s.signs), len(vecs))
			}
			tol := codeTolerance(dim)
			var sum, most float64
			for range 20 {
				q := randVec(r, dim)
				qq := s.quantQuery(q)
				for i, v := range vecs {
					got := s.refine(qq, i, s.coarse(qq, i))
					d := math.Abs(float64(got - search.Dot(q, v)))
					sum += d
					most = max(most, d)
				}
			}
			mean := sum / float64(20*len(vecs))
			if most > float64(tol) || mean > float64(tol)/10 {
				t.Errorf("score error: most %.2g, mean %.2g; want at most %.2g and %.2g", most, mean, tol, tol/10)
			}
		})
	}
}

// TestPrefilterTopK ranks a quantized copy large enough for the prefilter, ten of
// its vectors near the query (its signs, its direction within a few degrees), and
// expects those ten first, then every other vector once, scored within the codes'
// tolerance; later batches hold vectors the prefilter left out, better than some
// it kept.
func TestPrefilterTopK(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	const dim, n = 32, 25000
	q := randVec(r, dim)
	src := &memSource{}
	var near []int64
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
			near = append(near, int64(i+1))
		}
		src.put("fact", "m", v)
	}
	src.put("episode", "m", q) // another kind, left out
	x := New(Options{Quantize: true})
	query := Query{User: "u", Model: "m", Kind: "fact", Vector: q, Limit: 10}
	var first []Hit
	err := x.Search(context.Background(), src, query, func(hits []Hit) (bool, error) {
		first = hits
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got := Seqs(first[:10])
	slices.Sort(got)
	if !slices.Equal(got, near) {
		t.Errorf("top 10 = %v, want %v", got, near)
	}
	hits := all(t, x, src, query)
	if slices.IsSortedFunc(hits, func(a, b Hit) int { return cmp.Compare(b.Score, a.Score) }) {
		t.Errorf("every vector came in order: the prefilter did not narrow the first batches")
	}
	want := bruteForce(src, query)
	slices.SortStableFunc(hits, func(a, b Hit) int { return cmp.Compare(b.Score, a.Score) })
	if diff := rankingDiff(hits, want, true, dim); diff != "" {
		t.Errorf("Search %s", diff)
	}
}

// TestQuantizedRecall measures how much of the exact 10 and 50 nearest a quantized
// copy's first hits hold, on GloVe vectors of 30,000 varied sentences (enough for the
// prefilter to narrow), with a floor.
func TestQuantizedRecall(t *testing.T) {
	if testing.Short() {
		t.Skip("embeds 30,000 sentences")
	}
	g, err := embed.NewGloVe()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 8))
	words := []string{"coffee", "jazz", "chess", "tennis", "museum", "garden", "curry", "novel", "guitar", "sushi",
		"hiking", "yoga", "violin", "pottery", "laptop", "budget", "dentist", "flight", "hotel", "conference",
		"doctor", "allergy", "peanuts", "vegetarian", "birthday", "wedding", "school", "office", "salary", "car",
		"bicycle", "invoice", "passport", "kitten", "printer", "wine", "concert", "mortgage", "boots", "kettle"}
	names := []string{"Martin", "Sarah", "Dana", "Eli", "Priya", "Tom", "Anna", "Mei", "Omar", "Grace"}
	places := []string{"Lisbon", "Berlin", "Kyoto", "Austin", "Oslo", "Lagos", "Lima", "Porto", "Seoul", "Denver"}
	sentence := func() string {
		return fmt.Sprintf("%s talked about the %s and %s in %s near the %s", names[r.IntN(len(names))],
			words[r.IntN(len(words))], words[r.IntN(len(words))], places[r.IntN(len(places))], words[r.IntN(len(words))])
	}
	texts := make([]string, 30000)
	for i := range texts {
		texts[i] = sentence()
	}
	vecs, err := g.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	src := &memSource{}
	for _, v := range vecs {
		src.put("episode", "glove", v)
	}
	x := New(Options{Quantize: true})
	for _, limit := range []int{10, 50} {
		found, total := 0, 0
		for range 100 {
			qv, err := g.Embed(context.Background(), []string{sentence()})
			if err != nil {
				t.Fatal(err)
			}
			q := Query{User: "u", Model: "glove", Kind: "episode", Vector: qv[0], Limit: limit}
			var got []Hit
			err = x.Search(context.Background(), src, q, func(hits []Hit) (bool, error) {
				got = hits[:limit]
				return true, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			want := bruteForce(src, q)
			last := want[limit-1].Score
			for _, w := range want[:limit] {
				total++
				// A vector tied with the last one kept is as good a hit as it.
				if slices.ContainsFunc(got, func(h Hit) bool { return h.Seq == w.Seq }) || w.Score == last {
					found++
				}
			}
		}
		recall := float64(found) / float64(total)
		t.Logf("quantized copy of %d vectors: recall@%d %.4f", len(vecs), limit, recall)
		if recall < 0.98 {
			t.Errorf("recall@%d = %.4f, want at least 0.98", limit, recall)
		}
	}
}

// BenchmarkRankCodes ranks a quantized copy of 1,000,000 random vectors of 100
// dimensions for the 50 best, as a search's vector candidates: the prefilter's pass,
// the int8 scores of its survivors, the refinement of the best.
func BenchmarkRankCodes(b *testing.B) {
	const n, dim = 1_000_000, 100
	r := rand.New(rand.NewPCG(1, 2))
	s := &set{dim: dim, quantized: true}
	s.kindCode("episode", true)
	s.reserve(n)
	v := make([]float32, dim)
	for i := range n {
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		s.add(int64(i+1), 0, v)
	}
	s.settle()
	queries := make([][]float32, 64)
	for i := range queries {
		queries[i] = randVec(r, dim)
	}
	b.Run("prefilter", func(b *testing.B) {
		i := 0
		for b.Loop() {
			qq := s.quantQuery(queries[i%len(queries)])
			nearestSigns(s.signs, s.kinds, 0, n, qq.weights, prefilterSize(n, 50))
			i++
		}
	})
	b.Run("rank", func(b *testing.B) {
		i := 0
		for b.Loop() {
			q := Query{Kind: "episode", Vector: queries[i%len(queries)], Limit: 50}
			err := s.rank(q, func([]Hit) (bool, error) { return true, nil })
			if err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}
