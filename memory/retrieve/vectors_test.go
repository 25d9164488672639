package retrieve

import (
	"slices"
	"strings"
	"testing"

	"github.com/factbase/factbase"
)

// TestIncomparable: the vectors a query vector cannot be compared with are those of
// another model or dimension, among the kinds searched.
func TestIncomparable(t *testing.T) {
	both := []string{factbase.KindFact, factbase.KindEpisode}
	facts := []string{factbase.KindFact}
	eps := []string{factbase.KindEpisode}
	glove := factbase.VectorModel{Model: "glove-6b-100d-sif-v1", Dim: 100, Facts: 3, Episodes: 2}
	hash := factbase.VectorModel{Model: "hash-256-v1", Dim: 256, Facts: 0, Episodes: 4}
	wide := factbase.VectorModel{Model: "openai:m", Dim: 1536, Facts: 1}
	narrow := factbase.VectorModel{Model: "openai:m", Dim: 768, Facts: 1}
	cases := []struct {
		name  string
		ms    []factbase.VectorModel
		model string
		dim   int
		kinds []string
		want  []factbase.VectorModel
	}{
		{"no vectors", nil, "glove-6b-100d-sif-v1", 100, both, nil},
		{"all of the model", []factbase.VectorModel{glove}, "glove-6b-100d-sif-v1", 100, both, nil},
		{"wholly another model", []factbase.VectorModel{glove}, "hash-256-v1", 256, both, []factbase.VectorModel{glove}},
		{"partly another model", []factbase.VectorModel{glove, hash}, "glove-6b-100d-sif-v1", 100, both, []factbase.VectorModel{hash}},
		{"another model among episodes only, facts searched", []factbase.VectorModel{glove, hash}, "glove-6b-100d-sif-v1", 100, facts, nil},
		{"another model among episodes, episodes searched", []factbase.VectorModel{glove, hash}, "glove-6b-100d-sif-v1", 100, eps, []factbase.VectorModel{hash}},
		{"counts of kinds not searched left out", []factbase.VectorModel{glove}, "hash-256-v1", 256, eps,
			[]factbase.VectorModel{{Model: glove.Model, Dim: 100, Episodes: 2}}},
		{"the model in another dimension", []factbase.VectorModel{narrow, wide}, "openai:m", 1536, both, []factbase.VectorModel{narrow}},
		{"dimension not known", []factbase.VectorModel{narrow, wide}, "openai:m", 0, both, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := incomparable(tc.ms, tc.model, tc.dim, tc.kinds); !slices.Equal(got, tc.want) {
				t.Errorf("incomparable(%+v, %q, %d, %v) = %+v, want %+v", tc.ms, tc.model, tc.dim, tc.kinds, got, tc.want)
			}
		})
	}
}

// TestMixedWarning: the warning names the current embedder, each other one with
// its dimension and count, the total, and the fix.
func TestMixedWarning(t *testing.T) {
	got := mixedWarning("hash-32-v1", 32, []factbase.VectorModel{
		{Model: "glove-6b-100d-sif-v1", Dim: 100, Facts: 2, Episodes: 1},
		{Model: "hash-64-v1", Dim: 64, Episodes: 4},
	})
	for _, want := range []string{
		"the stored vectors of 7 items", "the current one, hash-32-v1 (32 dimensions)",
		"glove-6b-100d-sif-v1 (100 dimensions, 3 items), hash-64-v1 (64 dimensions, 4 items)",
		"full-text only until `factbase reembed` gives every item a vector of hash-32-v1",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("mixedWarning = %q; want it to contain %q", got, want)
		}
	}
}
