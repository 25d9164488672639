package embed

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/factbase/factbase"
)

func newGloVe(t testing.TB) *GloVe {
	t.Helper()
	g, err := NewGloVe()
	if err != nil {
		t.Fatalf("NewGloVe() error: %v", err)
	}
	return g
}

// embedOne embeds one text, failing the test on error.
func embedOne(t testing.TB, e factbase.Embedder, text string) []float32 {
	t.Helper()
	v, err := e.Embed(context.Background(), []string{text})
	if err != nil {
		t.Fatalf("Embed(%q) error: %v", text, err)
	}
	return v[0]
}

func TestGloVeShape(t *testing.T) {
	g := newGloVe(t)
	if got, want := g.Model(), "glove-6b-100d-sif-v1"; got != want {
		t.Errorf("Model() = %q, want %q", got, want)
	}
	if got, want := g.Dim(), 100; got != want {
		t.Errorf("Dim() = %d, want %d", got, want)
	}
	if got, want := len(g.t.words), 100000; got != want {
		t.Errorf("vocabulary has %d words, want %d", got, want)
	}
	// Frequency order: rank = index.
	for i, w := range []string{"the", ",", ".", "of", "to", "and"} {
		if got := g.t.words[i]; got != w {
			t.Errorf("word %d = %q, want %q", i, got, w)
		}
	}
	texts := []string{"", "the of and", "zzqqxx", "King", "What does Martin eat?"}
	vecs, err := g.Embed(context.Background(), texts)
	if err != nil {
		t.Fatalf("Embed error: %v", err)
	}
	if len(vecs) != len(texts) {
		t.Fatalf("Embed returned %d vectors for %d texts", len(vecs), len(texts))
	}
	for i, v := range vecs {
		var n float64
		for _, x := range v {
			n += float64(x) * float64(x)
		}
		wantNorm := 1.0
		if i < 3 { // empty, only stop words, only unknown words
			wantNorm = 0
		}
		if len(v) != 100 || math.Abs(math.Sqrt(n)-wantNorm) > 1e-5 {
			t.Errorf("Embed(%q) has length %d and norm %v, want 100 and %v", texts[i], len(v), math.Sqrt(n), wantNorm)
		}
	}
	if again := embedOne(t, g, texts[4]); !slices.Equal(again, vecs[4]) {
		t.Errorf("Embed(%q) differs between calls", texts[4])
	}
	if got, want := embedOne(t, g, "KING!"), vecs[3]; !slices.Equal(got, want) {
		t.Errorf("Embed(%q) differs from Embed(%q)", "KING!", "King")
	}
}

// TestGloVeNeighbours: a word is nearer a related word than an unrelated one, and a
// question nearer the sentence that answers it than one that does not.
func TestGloVeNeighbours(t *testing.T) {
	g := newGloVe(t)
	tests := []struct {
		text, near, far string
	}{
		{text: "king", near: "queen", far: "banana"},
		{text: "peanut", near: "almond", far: "parliament"},
		{text: "doctor", near: "nurse", far: "guitar"},
		{text: "berlin", near: "munich", far: "insulin"},
		{text: "car", near: "truck", far: "poem"},
		{text: "What does Martin eat?", near: "Martin is vegetarian", far: "Martin drives a red car"},
		{text: "Which nuts should they avoid?", near: "The user is allergic to peanuts", far: "The user lives in Berlin"},
		{text: "Where does the user live?", near: "The user lives in Berlin", far: "The user is allergic to peanuts"},
		{text: "What car does Martin have?", near: "Martin drives a red car", far: "Martin is vegetarian"},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			v := embedOne(t, g, tc.text)
			near, far := Cosine(v, embedOne(t, g, tc.near)), Cosine(v, embedOne(t, g, tc.far))
			t.Logf("%.3f %q, %.3f %q", near, tc.near, far, tc.far)
			if near <= far {
				t.Errorf("cosine(%q, %q) = %.3f, not above cosine(%q, %q) = %.3f", tc.text, tc.near, near, tc.text, tc.far, far)
			}
		})
	}
}

func TestGloVeLookup(t *testing.T) {
	g := newGloVe(t)
	tests := []struct {
		name string
		tok  string
		want string // the vocabulary word used, "" for none
	}{
		{name: "known", tok: "peanuts", want: "peanuts"},
		{name: "clitic", tok: "martin's", want: "martin"},
		{name: "negated auxiliary is a stop word", tok: "don't", want: ""},
		{name: "stem is a word", tok: "dockerized", want: "docker"},
		{name: "stem of a word", tok: "vegetarianisms", want: "vegetarian"},
		{name: "stem of an inflection", tok: "intolerances", want: "intolerance"},
		{name: "unknown", tok: "zzqqxx", want: ""},
		{name: "unknown number", tok: "98765432123", want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := g.t.index[tc.tok]; ok && tc.want != tc.tok {
				t.Fatalf("%q is in the vocabulary; the test needs a word that is not", tc.tok)
			}
			got := ""
			if i := g.t.lookup([]byte(tc.tok)); i >= 0 {
				got = g.t.words[i]
			}
			if got != tc.want {
				t.Errorf("lookup(%q) = %q, want %q", tc.tok, got, tc.want)
			}
		})
	}
}

// pairs reads a paraphrase set: questions and the facts that answer them.
func pairs(t testing.TB, name string) (questions, facts []string) {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		q, a, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("%s: no tab in %q", name, line)
		}
		questions = append(questions, q)
		facts = append(facts, a)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return questions, facts
}

// meanReciprocalRank ranks all facts by cosine to each question and averages 1/rank of
// the fact that answers it (ties count against it).
func meanReciprocalRank(t testing.TB, e factbase.Embedder, questions, facts []string) float64 {
	t.Helper()
	qv, err := e.Embed(context.Background(), questions)
	if err != nil {
		t.Fatal(err)
	}
	fv, err := e.Embed(context.Background(), facts)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for i, q := range qv {
		right := Cosine(q, fv[i])
		rank := 1
		for j, f := range fv {
			if j != i && Cosine(q, f) >= right {
				rank++
			}
		}
		sum += 1 / float64(rank)
	}
	return sum / float64(len(qv))
}

func TestParaphraseMRR(t *testing.T) {
	g := newGloVe(t)
	tests := []struct {
		name  string
		file  string
		floor float64 // GloVe's measured MRR, rounded down: a regression fails
	}{
		{name: "tuning", file: "testdata/paraphrase.tsv", floor: 0.75},
		{name: "held-out", file: "testdata/paraphrase_heldout.tsv", floor: 0.75},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			qs, fs := pairs(t, tc.file)
			glove := meanReciprocalRank(t, g, qs, fs)
			hash := meanReciprocalRank(t, NewHash(256), qs, fs)
			t.Logf("%d pairs: MRR GloVe %.3f, Hash %.3f", len(qs), glove, hash)
			if glove < tc.floor {
				t.Errorf("GloVe MRR = %.3f, want at least %.2f", glove, tc.floor)
			}
			if glove <= hash {
				t.Errorf("GloVe MRR = %.3f, not above Hash MRR %.3f", glove, hash)
			}
		})
	}
}

func TestGloVeConcurrent(t *testing.T) {
	g := newGloVe(t)
	// Unknown words build the stem index on first use; run that under -race.
	texts := []string{"The user's intolerances", "dockerized vegetarianisms", "What does Martin eat?"}
	want, err := g.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			got, err := g.Embed(context.Background(), texts)
			if err != nil {
				t.Error(err)
				return
			}
			for i := range got {
				if !slices.Equal(got[i], want[i]) {
					t.Errorf("concurrent Embed(%q) differs", texts[i])
				}
			}
		})
	}
	wg.Wait()
}

func TestGloVeCanceled(t *testing.T) {
	g := newGloVe(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := g.Embed(ctx, []string{"hello"})
	if got, want := factbase.ErrorCode(err), factbase.EUNAVAILABLE; got != want {
		t.Errorf("Embed with a canceled context: code %q, want %q (err %v)", got, want, err)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Embed with a canceled context: %v, want it to wrap context.Canceled", err)
	}
}

// testAsset writes an asset in the format of tools/glove.
func testAsset(vocab int, mean []float32, comps [][]float32, words []string, scales []float32, q [][]int8) []byte {
	le := binary.LittleEndian
	b := []byte("FBGLOVE1")
	b = le.AppendUint32(b, 1)
	b = le.AppendUint32(b, uint32(len(mean)))
	b = le.AppendUint32(b, uint32(len(words)))
	b = le.AppendUint32(b, uint32(vocab))
	b = le.AppendUint32(b, uint32(len(comps)))
	for _, v := range append([][]float32{mean}, comps...) {
		for _, x := range v {
			b = le.AppendUint32(b, math.Float32bits(x))
		}
	}
	for _, w := range words {
		b = append(append(b, byte(len(w))), w...)
	}
	for _, s := range scales {
		b = le.AppendUint32(b, math.Float32bits(s))
	}
	for _, v := range q {
		for _, x := range v {
			b = append(b, byte(x))
		}
	}
	return b
}

// smallAsset is a 3-dimensional vocabulary: "the" (a stop word), "cat", "dog", "car",
// with mean (1, 0, 0) and one principal direction (0, 0, 1).
func smallAsset() []byte {
	return testAsset(1000,
		[]float32{1, 0, 0}, [][]float32{{0, 0, 1}},
		[]string{"the", "cat", "dog", "car"},
		[]float32{0.5, 1, 1, 2},
		[][]int8{{1, 1, 1}, {3, 2, 5}, {3, 0, 7}, {1, -1, 0}})
}

func TestParseGloVeSmall(t *testing.T) {
	tab, err := parseGloVe(smallAsset())
	if err != nil {
		t.Fatalf("parseGloVe error: %v", err)
	}
	var buf []byte
	tests := []struct {
		text string
		want []float32
	}{
		// cat = (3, 2, 5) weighted w: w·(3,2,5) - w·(1,0,0) = w·(2,2,5); without the
		// (0,0,1) component: w·(2,2,0), normalised.
		{text: "cat", want: []float32{float32(math.Sqrt2 / 2), float32(math.Sqrt2 / 2), 0}},
		{text: "the cat", want: []float32{float32(math.Sqrt2 / 2), float32(math.Sqrt2 / 2), 0}},
		// car = 2·(1, -1, 0) - (1, 0, 0) = (1, -2, 0).
		{text: "car", want: []float32{float32(1 / math.Sqrt(5)), float32(-2 / math.Sqrt(5)), 0}},
		{text: "the", want: []float32{0, 0, 0}},
		{text: "unknownword", want: []float32{0, 0, 0}},
	}
	for _, tc := range tests {
		got := tab.embed(tc.text, &buf)
		for i := range got {
			if math.Abs(float64(got[i]-tc.want[i])) > 1e-6 {
				t.Errorf("embed(%q) = %v, want %v", tc.text, got, tc.want)
				break
			}
		}
	}
	// cat and dog have nearly equal SIF weights (ranks 2 and 3 of 1000): their sum,
	// post-processed, points between them.
	cd := tab.embed("cat dog", &buf)
	if c1, c2 := Cosine(cd, tab.embed("cat", &buf)), Cosine(cd, tab.embed("dog", &buf)); c1 < 0.5 || c2 < 0.5 {
		t.Errorf("cosine(cat dog, cat) = %.3f, cosine(cat dog, dog) = %.3f, want both above 0.5", c1, c2)
	}
	// SIF: the more frequent word weighs less.
	if !(tab.sif[0] < tab.sif[1] && tab.sif[1] < tab.sif[2] && tab.sif[2] < tab.sif[3]) {
		t.Errorf("SIF weights %v, want increasing with rank", tab.sif)
	}
}

func TestParseGloVeCorrupt(t *testing.T) {
	good := smallAsset()
	mut := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	tests := []struct {
		name  string
		asset []byte
	}{
		{name: "empty", asset: nil},
		{name: "bad magic", asset: mut(func(b []byte) []byte { b[0] = 'X'; return b })},
		{name: "version 2", asset: mut(func(b []byte) []byte { b[8] = 2; return b })},
		{name: "zero dims", asset: mut(func(b []byte) []byte { b[12] = 0; return b })},
		{name: "count above vocab", asset: mut(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[20:], 3); return b })},
		{name: "huge count", asset: mut(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[16:], 1<<31); return b })},
		{name: "huge vocab", asset: mut(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[20:], maxGloVeVocab+1); return b })},
		{name: "more components than dims", asset: mut(func(b []byte) []byte { b[24] = 4; return b })},
		{name: "truncated header", asset: good[:20]},
		{name: "truncated mean", asset: good[:30]},
		{name: "truncated words", asset: good[:60]},
		{name: "truncated vectors", asset: good[:len(good)-1]},
		{name: "trailing bytes", asset: append(bytes.Clone(good), 0)},
		{name: "nan mean", asset: mut(func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[28:], math.Float32bits(float32(math.NaN())))
			return b
		})},
		{name: "empty word", asset: testAsset(10, []float32{0}, nil, []string{""}, []float32{1}, [][]int8{{1}})},
		{name: "negative scale", asset: testAsset(10, []float32{0}, nil, []string{"a"}, []float32{-1}, [][]int8{{1}})},
		{name: "invalid utf-8 word", asset: testAsset(10, []float32{0}, nil, []string{"\xff"}, []float32{1}, [][]int8{{1}})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseGloVe(tc.asset)
			if got, want := factbase.ErrorCode(err), factbase.EINTERNAL; got != want {
				t.Errorf("parseGloVe: code %q, want %q (err %v)", got, want, err)
			}
		})
	}
}

func FuzzParseGloVe(f *testing.F) {
	f.Add(smallAsset())
	f.Add(testAsset(10, []float32{0, 0}, nil, []string{"a", "b"}, []float32{1, 1}, [][]int8{{1, 2}, {3, 4}}))
	f.Fuzz(func(t *testing.T, asset []byte) {
		tab, err := parseGloVe(asset)
		if err != nil {
			return
		}
		var buf []byte
		for _, w := range append(slices.Clone(tab.words), "a b", "zzz's") {
			v := tab.embed(w, &buf)
			if len(v) != tab.dims {
				t.Fatalf("embed(%q) has length %d, want %d", w, len(v), tab.dims)
			}
		}
	})
}

func FuzzGloVeEmbed(f *testing.F) {
	g := newGloVe(f)
	for _, s := range []string{"What does Martin eat?", "martin's don't dockerized", "", "Москва", "a\xffb'''"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v := embedOne(t, g, text)
		var n float64
		for _, x := range v {
			n += float64(x) * float64(x)
		}
		if len(v) != 100 || (n != 0 && math.Abs(n-1) > 1e-4) {
			t.Errorf("Embed(%q) has length %d and squared norm %v, want 100 and 0 or 1", text, len(v), n)
		}
	})
}

func BenchmarkGloVeEmbed(b *testing.B) {
	g := newGloVe(b)
	texts := []string{"The user is allergic to peanuts and avoids all tree nuts"}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := g.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "sentences/s")
}

// BenchmarkGloVeLoad measures parsing the embedded asset, the work of the first
// NewGloVe (the stem index is built later, on the first unknown word).
func BenchmarkGloVeLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseGloVe(gloveAsset); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGloVeLoadGzip measures the alternative not taken: embedding the asset
// gzipped and decompressing it before parsing.
func BenchmarkGloVeLoadGzip(b *testing.B) {
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	w.Write(gloveAsset)
	w.Close()
	b.Logf("asset %d bytes, gzipped %d bytes", len(gloveAsset), z.Len())
	b.ReportAllocs()
	for b.Loop() {
		r, err := gzip.NewReader(bytes.NewReader(z.Bytes()))
		if err != nil {
			b.Fatal(err)
		}
		raw, err := io.ReadAll(r)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := parseGloVe(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGloVeStemIndex measures building the stem index, paid once, on the first
// unknown word.
func BenchmarkGloVeStemIndex(b *testing.B) {
	tab, err := parseGloVe(gloveAsset)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		tab.buildStems()
	}
}

// TestGloVeKnows: common words, their inflections and clitics are known; names,
// identifiers, invented words and stop words are not.
func TestGloVeKnows(t *testing.T) {
	g, err := NewGloVe()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		word string
		want bool
	}{
		{"coffee", true}, {"bicycles", true}, {"martin's", true}, {"lisbon", true},
		{"zorblatt", false}, {"inc48213", false}, {"vydepor", false}, {"the", false}, {"", false},
	} {
		if got := g.Knows(tc.word); got != tc.want {
			t.Errorf("Knows(%q) = %v, want %v", tc.word, got, tc.want)
		}
	}
}
