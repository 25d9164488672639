package embed

import (
	"context"
	"hash/fnv"
	"strconv"

	"github.com/factbase/factbase"
)

// Hash is a deterministic embedder for tests: feature hashing of a text's tokens and of
// their character trigrams. It needs no model, gives the same vector for the same text
// on every platform and in every version of this model id, and makes texts that share
// words or word fragments similar. It knows nothing of meaning. It is safe for
// concurrent use.
//
// Each token (as Tokens splits them, stop words included) adds 1, and each trigram of
// the token padded as "^token$" adds 0.5, to the coordinate FNV-1a(feature) mod dim,
// with the sign given by bit 63 of the same hash; the sum is L2-normalised. Token and
// trigram features are hashed in separate namespaces, so the token "abc" and the
// trigram "abc" differ.
type Hash struct {
	dim int
}

var _ factbase.Embedder = (*Hash)(nil)

// NewHash returns a Hash embedder making vectors of length dim; a dim below 1 means 256.
func NewHash(dim int) *Hash {
	if dim < 1 {
		dim = 256
	}
	return &Hash{dim: dim}
}

// Model returns "hash-<dim>-v1".
func (h *Hash) Model() string { return "hash-" + strconv.Itoa(h.dim) + "-v1" }

// Dim returns the vector length given to NewHash.
func (h *Hash) Dim() int { return h.dim }

// Embed returns one L2-normalised vector per text; a text without tokens gives the zero
// vector. It fails only when ctx is done before it finishes.
func (h *Hash) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var buf, gram []byte
	var starts []int
	for i, text := range texts {
		if err := ctx.Err(); err != nil {
			return nil, ctxError(err)
		}
		v := make([]float32, h.dim)
		eachToken(text, &buf, func(tok []byte) {
			h.add(v, 't', tok, 1)
			// Trigrams of runes, not bytes: starts holds each rune's offset.
			gram = append(append(append(gram[:0], '^'), tok...), '$')
			starts = starts[:0]
			for k := range string(gram) {
				starts = append(starts, k)
			}
			starts = append(starts, len(gram))
			for k := 0; k+3 < len(starts); k++ {
				h.add(v, 'g', gram[starts[k]:starts[k+3]], 0.5)
			}
		})
		Normalize(v)
		out[i] = v
	}
	return out, nil
}

// add adds w, signed by the feature's hash, to the coordinate the hash selects.
func (h *Hash) add(v []float32, ns byte, feature []byte, w float32) {
	f := fnv.New64a()
	f.Write([]byte{ns})
	f.Write(feature)
	x := f.Sum64()
	if x>>63 == 1 {
		w = -w
	}
	v[x%uint64(h.dim)] += w
}
