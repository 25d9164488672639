package vecindex

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/factbase/factbase/search"
)

// With Options.Quantize a copy keeps no float32s. Each vector v is stored relative
// to a center c (the mean of the copy's first centerSample vectors; the sentence
// embeddings of one user share a large common component, 0.48 of the norm for
// GloVe, and what tells them apart is the rest): r = v - c, coded as
//   - its sign bits (bit j set when r[j] > 0), one bit a dimension, for the
//     prefilter (prefilter.go), apart: the prefilter reads them all in order;
//   - a record of a scale s = max|r[j]| / 127, an int8 code round(r[j]/s) a
//     dimension, and a 4-bit residual round((r[j] - s·code[j]) / (s/16)) a
//     dimension, two a byte: one place in memory, as the prefilter's survivors are
//     read scattered (a cache and TLB miss each, some 200 ns here).
//
// q·v = q·c + s·(q·code) + (s/16)·(q·residual) to about 1e-4 (TestQuantError): 179
// bytes a vector of 100 dimensions with its seq and kind, against 409 for float32s.
// The int8 code alone ("coarse", error about 4e-4) ranks the candidates; the residual
// refines the best of them ("fine"). Scores are therefore not exact dot products,
// but rank as they do: of the exact 10 nearest of 1,000,000 GloVe sentence vectors
// of bench search's data, the 10 best coarse scores held 98.75%, the 10 best fine
// scores of the 32 best coarse ones 99.8% (the rest are near ties).

// centerSample is how many vectors a copy's center is the mean of.
const centerSample = 1024

// fineSteps is how many residual steps one code step holds.
const fineSteps = 16

// codeBytes is what the codes of one vector of dim take: its record and its sign
// bits.
func codeBytes(dim int) int64 { return int64(recordWidth(dim)) + 8*int64(signWords(dim)) }

// recordWidth is how many bytes hold a record of a vector of dim: its scale, int8
// code and 4-bit residual.
func recordWidth(dim int) int { return 4 + dim + fineWidth(dim) }

// fineWidth is how many bytes hold the 4-bit residuals of a vector of dim.
func fineWidth(dim int) int { return (dim + 1) / 2 }

// signWords is how many 64-bit words hold the sign bits of a vector of dim.
func signWords(dim int) int { return (dim + 63) / 64 }

// settle fixes the copy's center, if it has none, as the mean of the vectors read
// so far, and codes them. The caller holds s.mu.
func (s *set) settle() {
	if len(s.pending) == 0 {
		return
	}
	if s.center == nil {
		n := len(s.pending) / s.dim
		sum := make([]float64, s.dim)
		for i := range n {
			for j, x := range s.pending[i*s.dim : (i+1)*s.dim] {
				sum[j] += float64(x)
			}
		}
		s.center = make([]float32, s.dim)
		for j := range sum {
			s.center[j] = float32(sum[j] / float64(n))
		}
	}
	for i := 0; i < len(s.pending); i += s.dim {
		s.encode(s.pending[i : i+s.dim])
	}
	s.pending = nil
}

// encode appends the codes of v (see above). The caller holds s.mu.
func (s *set) encode(v []float32) {
	dim := s.dim
	if cap(s.resid) < dim {
		s.resid = make([]float32, dim)
	}
	r, c := s.resid[:dim], s.center[:dim]
	var m float32
	for j, x := range v[:dim] {
		y := x - c[j]
		r[j] = y
		m = max(m, abs32(y))
	}
	s.signs = appendSigns(s.signs, r)
	width := recordWidth(dim)
	at := len(s.records)
	s.records = slices.Grow(s.records, width)[:at+width]
	rec := s.records[at : at+width]
	clear(rec)
	if m == 0 {
		return
	}
	scale := m / 127
	binary.LittleEndian.PutUint32(rec, math.Float32bits(scale))
	code, fine := rec[4:4+dim], rec[4+dim:]
	inv, invStep := 127/m, 127*fineSteps/m
	for j, x := range r {
		k := max(-127, min(127, round(x*inv)))
		code[j] = byte(int8(k))
		f := max(-8, min(7, round((x-scale*float32(k))*invStep)))
		fine[j/2] |= byte(f&0xf) << (4 * (j % 2))
	}
}

// quantQuery is a query prepared for the codes of one copy.
type quantQuery struct {
	vec     []float32
	base    float32 // q·c
	weights signWeights
}

func (s *set) quantQuery(q []float32) quantQuery {
	d := make([]float32, len(q))
	for j := range q {
		d[j] = q[j] - s.center[j]
	}
	return quantQuery{vec: q, base: search.Dot(q, s.center), weights: newSignWeights(d)}
}

// record returns the record of entry i.
func (s *set) record(i int) []byte {
	w := recordWidth(s.dim)
	return s.records[i*w : (i+1)*w : (i+1)*w]
}

// coarse is the score of entry i by its int8 code.
func (s *set) coarse(q quantQuery, i int) float32 {
	rec := s.record(i)
	scale := math.Float32frombits(binary.LittleEndian.Uint32(rec))
	return q.base + scale*dotInt8(q.vec, rec[4:4+s.dim])
}

// coarseAll writes to out the coarse score of each entry of idx. It scores four
// entries at a time, their products interleaved: the records lie scattered in
// memory, and a cache miss of each of the four is then waited for together rather
// than one after the other (twice as fast on 1,000,000 vectors,
// BenchmarkRankCodes).
func (s *set) coarseAll(q quantQuery, idx []int32, out []float32) {
	w, dim := recordWidth(s.dim), s.dim
	j := 0
	for ; j+4 <= len(idx); j += 4 {
		r0 := s.records[int(idx[j])*w : int(idx[j])*w+w]
		r1 := s.records[int(idx[j+1])*w : int(idx[j+1])*w+w]
		r2 := s.records[int(idx[j+2])*w : int(idx[j+2])*w+w]
		r3 := s.records[int(idx[j+3])*w : int(idx[j+3])*w+w]
		c0, c1, c2, c3 := r0[4:4+dim], r1[4:4+dim], r2[4:4+dim], r3[4:4+dim]
		var d0, d1, d2, d3 float32
		for k, x := range q.vec[:dim] {
			d0 += x * float32(int8(c0[k]))
			d1 += x * float32(int8(c1[k]))
			d2 += x * float32(int8(c2[k]))
			d3 += x * float32(int8(c3[k]))
		}
		out[j] = q.base + math.Float32frombits(binary.LittleEndian.Uint32(r0))*d0
		out[j+1] = q.base + math.Float32frombits(binary.LittleEndian.Uint32(r1))*d1
		out[j+2] = q.base + math.Float32frombits(binary.LittleEndian.Uint32(r2))*d2
		out[j+3] = q.base + math.Float32frombits(binary.LittleEndian.Uint32(r3))*d3
	}
	for ; j < len(idx); j++ {
		out[j] = s.coarse(q, int(idx[j]))
	}
}

// refine is the score of entry i by its int8 code and residual, given its coarse
// score.
func (s *set) refine(q quantQuery, i int, coarse float32) float32 {
	rec := s.record(i)
	scale := math.Float32frombits(binary.LittleEndian.Uint32(rec))
	return coarse + scale/fineSteps*dotInt4(q.vec, rec[4+s.dim:])
}

// dotInt8 is the dot product of q and c, bytes read as int8s.
func dotInt8(q []float32, c []byte) float32 {
	var s0, s1, s2, s3 float32
	c = c[:len(q)]
	for len(q) >= 4 && len(c) >= 4 {
		s0 += q[0] * float32(int8(c[0]))
		s1 += q[1] * float32(int8(c[1]))
		s2 += q[2] * float32(int8(c[2]))
		s3 += q[3] * float32(int8(c[3]))
		q, c = q[4:], c[4:]
	}
	for j, x := range q {
		s0 += x * float32(int8(c[j]))
	}
	return s0 + s1 + s2 + s3
}

// dotInt4 is the dot product of q and the 4-bit values packed in f, two a byte, low
// nibble first.
func dotInt4(q []float32, f []byte) float32 {
	var s0, s1 float32
	f = f[:fineWidth(len(q))]
	for len(q) >= 2 && len(f) >= 1 {
		b := f[0]
		s0 += q[0] * float32(int8(b<<4)>>4)
		s1 += q[1] * float32(int8(b)>>4)
		q, f = q[2:], f[1:]
	}
	if len(q) == 1 {
		s0 += q[0] * float32(int8(f[0]<<4)>>4)
	}
	return s0 + s1
}

// appendSigns appends v's sign bits (bit set for a positive component).
func appendSigns(dst []uint64, v []float32) []uint64 {
	for len(v) > 0 {
		part := v[:min(64, len(v))]
		var word uint64
		for b, x := range part {
			// Without a branch, whose outcome is a coin's toss: the sign bit of -x is
			// set for x > 0 and for x = 0 (-0); the latter is taken out.
			u := math.Float32bits(x)
			pos := uint64(math.Float32bits(-x) >> 31)
			if u == 0 {
				pos = 0
			}
			word |= pos << b
		}
		dst = append(dst, word)
		v = v[len(part):]
	}
	return dst
}

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// round rounds x to the nearest integer, halves away from zero.
func round(x float32) int32 {
	// ±0.5 with x's sign, without a branch (see appendSigns).
	half := math.Float32frombits(0x3f000000 | math.Float32bits(x)&(1<<31))
	return int32(x + half)
}
