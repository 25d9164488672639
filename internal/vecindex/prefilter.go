package vecindex

import "math/bits"

// The prefilter (rank.go) narrows a quantized copy by its sign bits: the sign bits
// of r = v - c say which way each vector leans from the center in each dimension,
// and a dimension where the query leans far the same way adds much to q·r, one where
// it barely leans adds little. So each entry's agreement with the query is the sum,
// over the dimensions where their signs agree, of the query's magnitude |q - c|
// there quantized to 0..7; the entries that agree best are kept. On bench search's
// data this holds the exact 10 nearest among five times fewer entries than the
// unweighed Hamming distance did, for three popcounts a word instead of one.

// weightPlanes is how many bits a query magnitude is quantized to.
const weightPlanes = 3

// signWeights is the query side of the prefilter: the sign bits of q - c, and its
// quantized magnitudes as weightPlanes bit planes (bit b of dimension j's level is
// bit j%64 of planes[(j/64)*weightPlanes + b]).
type signWeights struct {
	signs  []uint64
	planes []uint64
}

// newSignWeights prepares d = q - c for nearestSigns.
func newSignWeights(d []float32) signWeights {
	words := signWords(len(d))
	w := signWeights{signs: appendSigns(nil, d), planes: make([]uint64, words*weightPlanes)}
	var most float32
	for _, x := range d {
		most = max(most, abs32(x))
	}
	if most == 0 {
		return w
	}
	top := float32(1<<weightPlanes - 1)
	for j, x := range d {
		level := round(abs32(x) / most * top)
		for b := range weightPlanes {
			if level>>b&1 == 1 {
				w.planes[(j/64)*weightPlanes+b] |= 1 << (j % 64)
			}
		}
	}
	return w
}

// agreement is the weighed agreement of the sign bits x of one entry with q's.
func (q signWeights) agreement(x []uint64) int {
	a := 0
	for w, qw := range q.signs {
		same := ^(x[w] ^ qw)
		p := q.planes[w*weightPlanes : (w+1)*weightPlanes : (w+1)*weightPlanes]
		a += bits.OnesCount64(same&p[0]) + bits.OnesCount64(same&p[1])<<1 + bits.OnesCount64(same&p[2])<<2
	}
	return a
}

// keep appends to out the entries of kind want whose agreement with q is at least
// cut, ascending, and returns it.
func (q signWeights) keep(signs []uint64, kinds []byte, want byte, cut int, out []int32) []int32 {
	words := len(q.signs)
	if words != 2 {
		for i, kind := range kinds {
			if kind == want && q.agreement(signs[i*words:]) >= cut {
				out = append(out, int32(i))
			}
		}
		return out
	}
	// Most embedders' dimensions (65 to 128: GloVe's 100), in registers.
	q0, q1 := q.signs[0], q.signs[1]
	p := q.planes[:2*weightPlanes]
	p00, p01, p02, p10, p11, p12 := p[0], p[1], p[2], p[3], p[4], p[5]
	signs = signs[:2*len(kinds)]
	for i, kind := range kinds {
		x := signs[2*i : 2*i+2 : 2*i+2]
		s0, s1 := ^(x[0] ^ q0), ^(x[1] ^ q1)
		a := bits.OnesCount64(s0&p00) + bits.OnesCount64(s1&p10) +
			(bits.OnesCount64(s0&p01)+bits.OnesCount64(s1&p11))<<1 +
			(bits.OnesCount64(s0&p02)+bits.OnesCount64(s1&p12))<<2
		if a >= cut && kind == want {
			out = append(out, int32(i))
		}
	}
	return out
}

// prefilterSample is about how many entries at most nearestSigns samples to choose
// its cut-off, and prefilterSlack how many more than k the sample's cut-off is to
// keep.
// Where it keeps 7,071 of 1,000,000, the sample's cut-off keeps fewer than k about
// once in a thousand searches (the sample holds 232 above k's cut-off on average,
// and must hold 278), at the cost of two more passes.
const (
	prefilterSample = 32768
	prefilterSlack  = 1.2
)

// nearestSigns returns the indexes, ascending, of at least k of the n entries of
// kind want (all of them, if k >= n) whose sign bits agree best with q's: every
// entry at or above a cut-off. The cut-off is chosen on a sample of the entries, to
// keep about prefilterSlack·k; should it keep fewer than k, the exact cut-off is
// counted. It costs one pass over the sign bits.
func nearestSigns(signs []uint64, kinds []byte, want byte, n int, q signWeights, k int) []int32 {
	if k >= n {
		k = n
	}
	words := len(q.signs)
	most := (1<<weightPlanes - 1) * 64 * words
	counts := make([]int, most+1)
	// The sample: evenly spaced entries, at most an eighth of them (its agreements
	// cost twice as much each as the pass's).
	stride := max(8, len(kinds)/prefilterSample)
	sampled := 0
	for i := 0; i < len(kinds); i += stride {
		if kinds[i] == want {
			counts[q.agreement(signs[i*words:])]++
			sampled++
		}
	}
	cut := 0
	if sampled > 0 && k < n {
		keep := float64(sampled) * prefilterSlack * float64(k) / float64(n)
		above := 0
		for cut = most; cut > 0 && float64(above+counts[cut]) < keep; cut-- {
			above += counts[cut]
		}
	}
	out := q.keep(signs, kinds, want, cut, make([]int32, 0, k+k/2))
	if len(out) >= k {
		return out
	}
	// Too few: the exact cut-off, from the histogram of every entry.
	clear(counts)
	for i, kind := range kinds {
		if kind == want {
			counts[q.agreement(signs[i*words:])]++
		}
	}
	exact, above := most, 0
	for ; exact > 0 && above+counts[exact] < k; exact-- {
		above += counts[exact]
	}
	atCut := k - above
	out = out[:0]
	for i, kind := range kinds {
		if kind != want {
			continue
		}
		switch a := q.agreement(signs[i*words:]); {
		case a > exact:
			out = append(out, int32(i))
		case a == exact && atCut > 0:
			out = append(out, int32(i))
			atCut--
		}
	}
	return out
}
