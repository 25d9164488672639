package search

import (
	"math"
	"slices"
	"testing"
)

func TestTopK(t *testing.T) {
	nan := float32(math.NaN())
	cases := []struct {
		name   string
		scores []float32
		k      int
		want   []int
	}{
		{"best first", []float32{0.1, 0.9, 0.5}, 2, []int{1, 2}},
		{"ties by index", []float32{0.5, 0.5, 0.5}, 2, []int{0, 1}},
		{"NaN skipped", []float32{nan, 0.2, nan, 0.1}, 5, []int{1, 3}},
		{"k zero", []float32{0.3}, 0, []int{}},
		{"negative", []float32{-0.5, -0.1}, 1, []int{1}},
		{"k beyond n", []float32{0.2, 0.4}, 10, []int{1, 0}},
	}
	for _, tc := range cases {
		if got := TopK(tc.scores, tc.k); !slices.Equal(got, tc.want) {
			t.Errorf("%s: TopK(%v, %d) = %v, want %v", tc.name, tc.scores, tc.k, got, tc.want)
		}
	}
}

func TestDot(t *testing.T) {
	a := []float32{1, 2, 3, 4, 5, 6, 7}
	b := []float32{7, 6, 5, 4, 3, 2, 1}
	if got, want := Dot(a, b), float32(84); got != want {
		t.Errorf("Dot = %v, want %v", got, want)
	}
	if got := Dot(a, b[:3]); got != 1*7+2*6+3*5 {
		t.Errorf("Dot over the common length = %v, want 34", got)
	}
}
