package embed

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/factbase/factbase"
)

func TestHashShape(t *testing.T) {
	tests := []struct {
		name      string
		dim       int
		wantDim   int
		wantModel string
	}{
		{name: "256", dim: 256, wantDim: 256, wantModel: "hash-256-v1"},
		{name: "1", dim: 1, wantDim: 1, wantModel: "hash-1-v1"},
		{name: "zero means 256", dim: 0, wantDim: 256, wantModel: "hash-256-v1"},
		{name: "negative means 256", dim: -3, wantDim: 256, wantModel: "hash-256-v1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := NewHash(tc.dim)
			if got := h.Dim(); got != tc.wantDim {
				t.Errorf("NewHash(%d).Dim() = %d, want %d", tc.dim, got, tc.wantDim)
			}
			if got := h.Model(); got != tc.wantModel {
				t.Errorf("NewHash(%d).Model() = %q, want %q", tc.dim, got, tc.wantModel)
			}
			v := embedOne(t, h, "some text")
			if len(v) != tc.wantDim {
				t.Errorf("vector length %d, want %d", len(v), tc.wantDim)
			}
		})
	}
}

// TestHashGolden pins the hashing scheme: the same text must give the same vector in
// every build, or stored vectors of "hash-8-v1" would silently change meaning. The
// expected vector was computed by hand from the scheme on Hash, checked against this
// implementation when it was written: tokens "hi" and "bob" weigh 1, trigrams "^hi",
// "hi$", "^bo", "bob", "ob$" weigh 0.5, and they land, signed, on coordinates whose
// sum is (1, 0.5, -1, 1, 0, -0.5, 0, -0.5), of norm √15/2.
func TestHashGolden(t *testing.T) {
	s := float32(1 / math.Sqrt(15))
	want := []float32{2 * s, s, -2 * s, 2 * s, 0, -s, 0, -s}
	got := embedOne(t, NewHash(8), "Hi, Bob")
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-6 {
			t.Fatalf("Hash(8) of %q = %v, want %v", "Hi, Bob", got, want)
		}
	}
}

func TestHashDeterministic(t *testing.T) {
	texts := []string{"The user is allergic to peanuts", "", "?!", "Москва"}
	a, err := NewHash(64).Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewHash(64).Embed(context.Background(), slices.Clone(texts))
	if err != nil {
		t.Fatal(err)
	}
	for i := range texts {
		if !slices.Equal(a[i], b[i]) {
			t.Errorf("Hash of %q differs between embedders: %v and %v", texts[i], a[i], b[i])
		}
	}
	for i, wantZero := range []bool{false, true, true, false} {
		var n float64
		for _, x := range a[i] {
			n += float64(x) * float64(x)
		}
		if isZero := n == 0; isZero != wantZero || (!isZero && math.Abs(n-1) > 1e-5) {
			t.Errorf("Hash of %q has squared norm %v, want zero %v or 1", texts[i], n, wantZero)
		}
	}
}

func TestHashSimilarity(t *testing.T) {
	h := NewHash(256)
	q := embedOne(t, h, "allergic to peanuts")
	near := Cosine(q, embedOne(t, h, "The user is allergic to peanut butter"))
	far := Cosine(q, embedOne(t, h, "Martin drives a red car"))
	if near <= far {
		t.Errorf("shared words: cosine %.3f, not above unrelated %.3f", near, far)
	}
	// Trigrams make inflections similar.
	if c := Cosine(embedOne(t, h, "peanuts"), embedOne(t, h, "peanut")); c < 0.3 {
		t.Errorf("cosine(peanuts, peanut) = %.3f, want at least 0.3", c)
	}
}

func TestHashCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewHash(8).Embed(ctx, []string{"x"})
	if !errors.Is(err, context.Canceled) || factbase.ErrorCode(err) != factbase.EUNAVAILABLE {
		t.Errorf("Embed with a canceled context = %v (code %q), want EUNAVAILABLE wrapping context.Canceled", err, factbase.ErrorCode(err))
	}
}
