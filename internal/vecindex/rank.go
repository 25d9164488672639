package vecindex

import (
	"math"
	"math/bits"

	"github.com/factbase/factbase/search"
)

// With Options.Prefilter, above exactBelow vectors of a kind rank first narrows them
// by the Hamming distance of their sign bits to the query's (binary quantisation,
// about twenty times cheaper than as many dot products) and computes exact
// similarities for the prefilter's best only; if the caller then asks for more, the
// rest are scored exactly too. The prefilter keeps prefilterMin vectors or
// prefilterEach per hit asked, whichever is more; TestSignPrefilterRecall measures
// what it misses.
const (
	exactBelow    = 20000
	prefilterMin  = 2000
	prefilterEach = 40
)

// nan marks an entry that is not offered: of another kind, not scored yet, or
// offered already.
var nan = float32(math.NaN())

// rank scores the entries of q.Kind and passes them to accept in batches, best
// first, as Search describes. The caller holds s.mu, read-locked at least.
func (s *set) rank(q Query, accept func([]Hit) (bool, error)) error {
	want, ok := s.kindCode(q.Kind, false)
	if !ok {
		return nil
	}
	dim := s.dim
	n := 0
	for _, k := range s.kinds {
		if k == want {
			n++
		}
	}
	scores := make([]float32, len(s.seqs))
	for i := range scores {
		scores[i] = nan
	}
	scored := make([]bool, len(s.seqs)) // scores[i] computed (and maybe offered since)
	score := func(i int) {
		scores[i], scored[i] = search.Dot(q.Vector, s.vecs[i*dim:(i+1)*dim]), true
	}
	scoreAll := func() {
		for i, k := range s.kinds {
			if k == want && !scored[i] {
				score(i)
			}
		}
	}
	approx := s.signed && n > exactBelow
	if approx {
		for _, i := range nearestSigns(s.signs, s.kinds, want, signsOf(q.Vector), signWords(dim), max(prefilterMin, prefilterEach*q.Limit)) {
			score(i)
		}
	} else {
		scoreAll()
	}
	window := max(2*q.Limit, 64)
	for {
		batch := search.TopK(scores, window)
		if len(batch) == 0 {
			if !approx {
				return nil
			}
			approx = false
			scoreAll()
			continue
		}
		hits := make([]Hit, len(batch))
		for i, b := range batch {
			hits[i] = Hit{Seq: s.seqs[b], Score: scores[b]}
			scores[b] = nan // offered: never again
		}
		if done, err := accept(hits); done || err != nil {
			return err
		}
		window *= 4
	}
}

// signWords is how many 64-bit words hold the sign bits of a vector of dim.
func signWords(dim int) int { return (dim + 63) / 64 }

// appendSigns appends v's sign bits (bit set for a positive component).
func appendSigns(dst []uint64, v []float32) []uint64 {
	for w := 0; w < signWords(len(v)); w++ {
		var word uint64
		for b := 0; b < 64 && w*64+b < len(v); b++ {
			if v[w*64+b] > 0 {
				word |= 1 << b
			}
		}
		dst = append(dst, word)
	}
	return dst
}

func signsOf(v []float32) []uint64 { return appendSigns(nil, v) }

// nearestSigns returns the indexes of at least k entries of kind want (all there
// are, if fewer) whose sign bits are nearest to q's by Hamming distance: every entry
// at a distance below the cut-off and as many at it as make k. A bucket count keeps
// it linear.
func nearestSigns(signs []uint64, kinds []byte, want byte, q []uint64, words, k int) []int {
	dist := make([]uint16, len(kinds))
	counts := make([]int, 64*words+1)
	for i, kind := range kinds {
		if kind != want {
			continue
		}
		d := 0
		for w, qw := range q {
			d += bits.OnesCount64(signs[i*words+w] ^ qw)
		}
		dist[i] = uint16(d)
		counts[d]++
	}
	cut, total := 0, 0
	for cut < len(counts) && total+counts[cut] < k {
		total += counts[cut]
		cut++
	}
	out := make([]int, 0, k)
	atCut := k - total
	for i, kind := range kinds {
		if kind != want {
			continue
		}
		switch d := int(dist[i]); {
		case d < cut:
			out = append(out, i)
		case d == cut && atCut > 0:
			out = append(out, i)
			atCut--
		}
	}
	return out
}
