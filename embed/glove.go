package embed

import (
	"bytes"
	"context"
	_ "embed" // for the GloVe asset
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"

	"github.com/factbase/factbase"
)

// gloveAsset is the GloVe 6B 100d vocabulary, int8-quantised by tools/glove; see
// asset/LICENSE-GloVe.txt for its licence and provenance and tools/glove for its format.
//
// It is embedded uncompressed: int8 vectors are close to random bytes, so gzip saves
// under a tenth of it, while the uncompressed vectors are used in place and load
// several times faster with a fifth of the allocations (BenchmarkGloVeLoad against
// BenchmarkGloVeLoadGzip).
//
//go:embed asset/glove100k.i8
var gloveAsset []byte

// GloVeModel is the model id of the vectors GloVe makes. It names the word vectors and
// the sentence method; it changes whenever either does, so that stored vectors are
// re-embedded.
const GloVeModel = "glove-6b-100d-sif-v1"

// SIF parameters. A word of frequency rank r (1 for the most frequent) is weighted by
// sifA / (sifA + p(r)), the smooth inverse frequency of Arora, Liang and Ma, "A Simple
// but Tough-to-Beat Baseline for Sentence Embeddings" (ICLR 2017), with their
// recommended a = 1e-3.
//
// GloVe ships no word counts, only the frequency order, so p(r) is estimated by the
// Zipf–Mandelbrot law p(r) = 1 / ((r + zipfK) · H), where H = Σ 1/(r + zipfK) over all
// ranks of the full 341,479-word source vocabulary and zipfK = 2.7 is Mandelbrot's fit
// for English. This gives H ≈ 11.57, p ≈ 0.023 for the most frequent token ("the",
// weight 0.04), weight 0.5 at rank 84 and weight 0.9 from rank 775 on: frequent words
// are damped, content words count nearly fully. (The true frequency of "the" in
// English text is nearer 0.05; the difference matters little, as stop words are
// dropped before weighting.)
const (
	sifA  = 1e-3
	zipfK = 2.7
)

// GloVe is the built-in offline embedder: the SIF-weighted mean of the GloVe 6B 100d
// vectors of a text's words, post-processed. It is safe for concurrent use.
//
// For each text: Tokens splits it into words; stop words (a fixed English list:
// function words, question words, negations and clitics) are dropped; each remaining
// word is looked up in the 100,000 most frequent GloVe words, and one that is not
// there is tried without a clitic ("martin's" → "martin") and then by its Snowball
// English stem, matched against the vocabulary and its words' stems ("vegetarianisms"
// → "vegetarian", "intolerances" → "intolerance"); words still unknown are skipped.
// The vectors of the words found are summed with smooth-inverse-frequency weights
// a/(a + p(w)), a = 1e-3, p(w) estimated from the word's frequency rank by Zipf's law
// (details on sifA in the source). What all word vectors share is then removed, by
// the "all-but-the-top" post-processing of Mu and Viswanath (ICLR 2018): the mean
// vector of the 10,000 most frequent words, times the sum of the weights, is
// subtracted, and the sum's components along those words' top 3 principal directions
// are projected out (tools/glove computes both). Without this, sentences are all
// alike: on the package's paraphrase sets it lifts the mean reciprocal rank of the
// right fact from 0.68 to 0.80 (tuning set) and from 0.70 to 0.79 (held-out set). The
// result is L2-normalised. A text with no known content word gives the zero vector of
// length 100, whose Cosine with anything is 0.
type GloVe struct {
	t *gloveTable
}

var _ factbase.Embedder = (*GloVe)(nil)

// loadGloVe parses the embedded asset once per process, on first use.
var loadGloVe = sync.OnceValues(func() (*gloveTable, error) { return parseGloVe(gloveAsset) })

// NewGloVe returns the embedded GloVe embedder. The asset is parsed on the first call
// and shared by every GloVe after; the stem index for unknown words is built once, on
// the first unknown word (BenchmarkGloVeLoad and BenchmarkGloVeStemIndex measure them). It returns EINTERNAL if the embedded asset is
// corrupt, which only a broken build can cause.
func NewGloVe() (*GloVe, error) {
	t, err := loadGloVe()
	if err != nil {
		return nil, err
	}
	return &GloVe{t: t}, nil
}

// Model returns GloVeModel.
func (g *GloVe) Model() string { return GloVeModel }

// Dim returns 100.
func (g *GloVe) Dim() int { return g.t.dims }

// Embed returns one L2-normalised vector per text (the zero vector for a text with no
// known content word). It fails only when ctx is done before it finishes.
func (g *GloVe) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var buf []byte
	for i, text := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, ctxError(err)
			}
		}
		out[i] = g.t.embed(text, &buf)
	}
	return out, nil
}

// Knows reports whether word (a search term, in lower case) adds to a text's
// vector: it is not a stop word, and it or one of its fallbacks (see GloVe) is in the
// vocabulary. Words it does not know (names, identifiers, invented words) add
// nothing: a search weighs the vector's evidence by the share of the query it saw.
func (g *GloVe) Knows(word string) bool {
	known := false
	var buf []byte
	eachToken(word, &buf, func(tok []byte) {
		if !known && !isStopWord(tok) && g.t.lookup(tok) >= 0 {
			known = true
		}
	})
	return known
}

// gloveTable is the parsed asset. It is read-only after parseGloVe, except for the
// stem index, which is built once under stemOnce.
type gloveTable struct {
	dims   int
	words  []string         // by rank - 1
	index  map[string]int32 // word → rank - 1
	sif    []float32        // per word: SIF weight
	wscale []float32        // per word: SIF weight × quantisation scale
	vecs   []byte           // count × dims int8, row-major, in place in the asset
	mean   []float32        // mean word vector, subtracted once per unit of weight
	comps  [][]float32      // unit principal directions, projected out

	stemOnce sync.Once
	stems    map[string]int32 // Snowball stem → the most frequent word with that stem
}

// maxGloVeVocab is the largest source vocabulary parseGloVe accepts.
const maxGloVeVocab = 1 << 23

// parseGloVe parses the asset format written by tools/glove.
func parseGloVe(b []byte) (*gloveTable, error) {
	bad := func(format string, args ...any) error {
		return &factbase.Error{Code: factbase.EINTERNAL, Message: "embed: corrupt GloVe asset", Err: fmt.Errorf(format, args...)}
	}
	const hdr = 8 + 5*4
	if len(b) < hdr || string(b[:8]) != "FBGLOVE1" {
		return nil, bad("bad magic")
	}
	le := binary.LittleEndian
	version, dims, count, vocab, npc := le.Uint32(b[8:]), int(le.Uint32(b[12:])), int(le.Uint32(b[16:])), int(le.Uint32(b[20:])), int(le.Uint32(b[24:]))
	if version != 1 {
		return nil, bad("version %d, want 1", version)
	}
	// The vocabulary's size only sets the Zipf estimate's sum, a loop over it:
	// bounded, so that a corrupt header cannot stall the parse (the asset's is
	// 341,479; GloVe's largest, 840B, is 2,196,017).
	if dims <= 0 || dims > 4096 || count <= 0 || vocab < count || vocab > maxGloVeVocab || count > len(b) || npc > dims {
		return nil, bad("dims %d, count %d, vocab %d, components %d", dims, count, vocab, npc)
	}
	b = b[hdr:]
	t := &gloveTable{
		dims:   dims,
		words:  make([]string, count),
		index:  make(map[string]int32, count),
		sif:    make([]float32, count),
		wscale: make([]float32, count),
	}

	// The mean and the principal directions.
	if len(b) < (1+npc)*dims*4 {
		return nil, bad("post-processing data truncated")
	}
	floats := func(n int) []float32 {
		f := make([]float32, n)
		for i := range f {
			f[i] = math.Float32frombits(le.Uint32(b[4*i:]))
		}
		b = b[4*n:]
		return f
	}
	t.mean = floats(dims)
	for range npc {
		t.comps = append(t.comps, floats(dims))
	}
	for _, v := range append([][]float32{t.mean}, t.comps...) {
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, bad("post-processing data not finite")
			}
		}
	}

	// Words: one string for all of them, sliced, so that there is one allocation.
	p := 0
	for range count {
		if p >= len(b) {
			return nil, bad("words truncated")
		}
		p += 1 + int(b[p])
	}
	if p > len(b) {
		return nil, bad("words truncated")
	}
	all := string(b[:p])
	p = 0
	for i := range count {
		n := int(all[p])
		w := all[p+1 : p+1+n]
		p += 1 + n
		if n == 0 || !utf8.ValidString(w) {
			return nil, bad("word %d is empty or not UTF-8", i)
		}
		t.words[i] = w
		if _, dup := t.index[w]; !dup {
			t.index[w] = int32(i)
		}
	}
	b = b[p:]
	if len(b) != count*4+count*dims {
		return nil, bad("%d bytes of vectors, want %d", len(b), count*4+count*dims)
	}

	// SIF weights from the Zipf–Mandelbrot estimate of p(rank).
	var h float64
	for r := vocab; r >= 1; r-- { // smallest terms first, for accuracy
		h += 1 / (float64(r) + zipfK)
	}
	for i := range count {
		s := math.Float32frombits(le.Uint32(b[4*i:]))
		if math.IsNaN(float64(s)) || math.IsInf(float64(s), 0) || s < 0 {
			return nil, bad("word %d has scale %v", i, s)
		}
		p := 1 / ((float64(i+1) + zipfK) * h)
		t.sif[i] = float32(sifA / (sifA + p))
		t.wscale[i] = t.sif[i] * s
	}
	t.vecs = b[count*4:]
	return t, nil
}

// embed returns the normalised sentence vector of text. buf is scratch space.
func (t *gloveTable) embed(text string, buf *[]byte) []float32 {
	v := make([]float32, t.dims)
	var weight float32
	eachToken(text, buf, func(tok []byte) {
		if isStopWord(tok) {
			return
		}
		i := t.lookup(tok)
		if i < 0 {
			return
		}
		weight += t.sif[i]
		w := t.wscale[i]
		row := t.vecs[int(i)*t.dims : int(i+1)*t.dims]
		for j, q := range row {
			v[j] += w * float32(int8(q))
		}
	})
	if weight == 0 {
		return v
	}
	// All-but-the-top: remove what every word vector shares. Subtracting the mean from
	// each word and projecting each out of the top directions, then summing, is the
	// same as doing it once to the sum.
	for j, m := range t.mean {
		v[j] -= weight * m
	}
	for _, u := range t.comps {
		var dot float32
		for j, x := range v {
			dot += x * u[j]
		}
		for j, x := range u {
			v[j] -= dot * x
		}
	}
	Normalize(v)
	return v
}

// lookup returns the index of tok's vector, or -1 if it has none. Its fallbacks are
// documented on GloVe.
func (t *gloveTable) lookup(tok []byte) int32 {
	if i, ok := t.index[string(tok)]; ok {
		return i
	}
	// A clitic: GloVe's tokenizer split "martin's" into "martin" + "'s" and "don't"
	// into "do" + "n't"; the clitic itself is a stop word.
	if k := bytes.IndexByte(tok, '\''); k >= 0 {
		if bytes.HasSuffix(tok, []byte("n't")) && len(tok) > 3 {
			k = len(tok) - 3
		}
		tok = tok[:k]
		if len(tok) == 0 || isStopWord(tok) {
			return -1
		}
		if i, ok := t.index[string(tok)]; ok {
			return i
		}
	}
	if !isLetters(tok) {
		return -1
	}
	stem := english.Stem(string(tok), true)
	if i, ok := t.index[stem]; ok {
		return i
	}
	t.stemOnce.Do(t.buildStems)
	if i, ok := t.stems[stem]; ok {
		return i
	}
	return -1
}

// buildStems indexes the vocabulary's words by their Snowball stems, keeping the most
// frequent word for each stem.
func (t *gloveTable) buildStems() {
	m := make(map[string]int32, len(t.words)/2)
	for i, w := range t.words {
		if !isLetters([]byte(w)) || stopWords[w] {
			continue
		}
		s := english.Stem(w, true)
		if _, ok := m[s]; !ok {
			m[s] = int32(i)
		}
	}
	t.stems = m
}

// isLetters reports whether tok is all ASCII letters, the only words worth stemming
// with an English stemmer.
func isLetters(tok []byte) bool {
	for _, c := range tok {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return len(tok) > 0
}
