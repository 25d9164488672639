// Package embed turns texts into vectors for semantic search.
//
// Every embedder satisfies factbase.Embedder and names the model id and dimension of
// the vectors it makes, so that stored vectors can record them and be re-embedded when
// the model changes. Two implementations:
//
//   - GloVe, the built-in offline default: GloVe 6B 100d word vectors (PDDL) compiled
//     into the binary as an int8 asset, combined into sentence vectors by a
//     SIF-weighted mean. It needs no network and no configuration.
//   - Hash, deterministic feature hashing, for tests.
//
// The client of OpenAI-compatible /v1/embeddings endpoints is llm.Embedder: it shares
// the model client's transport. It normalises with Normalize.
//
// All vectors are L2-normalised, so the cosine of two vectors is their dot product. A
// text with nothing to embed (no known words) gives the zero vector, whose cosine with
// anything is 0.
package embed

import "math"

// Cosine returns the cosine similarity of a and b, in [-1, 1]. It is 0 when either is
// the zero vector or when their lengths differ.
func Cosine(a, b []float32) float32 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float32
	for i, x := range a {
		y := b[i]
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	c := dot / float32(math.Sqrt(float64(na))*math.Sqrt(float64(nb)))
	return max(-1, min(1, c))
}

// Normalize scales v in place to unit length and reports whether it could: a zero or
// non-finite vector is left as the zero vector.
func Normalize(v []float32) bool {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 || math.IsInf(n, 0) || math.IsNaN(n) {
		clear(v)
		return false
	}
	s := float32(1 / math.Sqrt(n))
	for i := range v {
		v[i] *= s
	}
	return true
}
