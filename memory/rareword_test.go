package memory_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/storetest"
)

// TestSearchRareWordDecides is issue #26's item 2 with the built-in embedder: a
// question asked by a word few memories hold (a name, an identifier, an invented
// word, all unknown to GloVe) puts the memory holding it first, although many others
// share the question's common words and rank well by vector. The word is reported as
// rare, its memory carries the rare boost, the vector list is weighed by the share
// of the question GloVe knows, and a word no memory holds changes nothing.
func TestSearchRareWordDecides(t *testing.T) {
	e := newEngine(t, memory.Options{Embedder: glove(t)})
	ctx := t.Context()
	u := storetest.NewUser()
	people := []string{"Dana", "Priya", "Omar", "Grace", "Lukas"}
	things := []string{"bicycle", "guitar", "camera", "ladder", "kettle", "tent", "laptop", "violin"}
	verbs := []string{"borrowed", "fixed", "sold", "packed", "cleaned", "ordered"}
	places := []string{"Glasgow", "Oslo", "Lisbon", "Lima", "Porto", "Seoul", "Denver"}
	var in []ingest.EpisodeInput
	for i := range 200 { // each common word in at most a fifth of them: none is pruned
		in = append(in, ingest.EpisodeInput{Content: fmt.Sprintf("%s %s the %s %s in %s on Monday.", people[i%len(people)],
			verbs[i/5%len(verbs)], []string{"green", "old", "small", "red"}[i%4], things[i%len(things)], places[i/3%len(places)]), NoExtract: true})
	}
	in = append(in,
		ingest.EpisodeInput{Content: "My friend Vydepor borrowed a striped piano while in Glasgow.", NoExtract: true},
		ingest.EpisodeInput{Content: "Ticket INC-483920: the printer in the Lisbon office is jammed.", NoExtract: true},
		ingest.EpisodeInput{Content: "Tom keeps the zorblatt behind the old shed in Oslo.", NoExtract: true})
	eps, _, err := e.Ingest.AddEpisodes(ctx, u, in)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		query, rare string
		want        int
	}{
		{"What did Vydepor borrow in Glasgow?", "vydepor", 200},
		{"What happened with INC-483920 in the office?", "483920", 201},
		{"Who borrowed the zorblatt on Monday?", "zorblatt", 202},
	} {
		t.Run(tc.rare, func(t *testing.T) {
			res, err := e.Retrieve.Search(ctx, u, tc.query, retrieve.SearchOptions{Kinds: []string{factbase.KindEpisode}, Limit: 5})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) == 0 || res.Hits[0].ID != eps[tc.want].ID {
				t.Fatalf("Search(%q) first = %v, want %q", tc.query, hitTexts(res), eps[tc.want].Content)
			}
			x := res.Hits[0].Explain
			if !slices.Contains(res.RareTerms, tc.rare) || x.Rare == 0 || !(x.RareBoost > 1) || !(x.TextShare > 0.5) {
				t.Errorf("rare terms %v, first hit's explain %+v; want %q rare, the hit boosted, text its main share", res.RareTerms, x, tc.rare)
			}
			if !(res.VectorWeight > 0 && res.VectorWeight < 1) {
				t.Errorf("vector weight %v, want below 1: GloVe does not know %q", res.VectorWeight, tc.rare)
			}
			// A word no memory holds adds nothing: neither the weight nor the order change.
			typo, err := e.Retrieve.Search(ctx, u, tc.query+" qxzzvy", retrieve.SearchOptions{Kinds: []string{factbase.KindEpisode}, Limit: 5})
			if err != nil {
				t.Fatal(err)
			}
			if typo.VectorWeight != res.VectorWeight || !slices.Equal(hitTexts(typo), hitTexts(res)) {
				t.Errorf("with an unknown word no memory holds: weight %v, hits %q; want %v, %q", typo.VectorWeight, hitTexts(typo), res.VectorWeight, hitTexts(res))
			}
		})
	}
	// A question GloVe knows every word of weighs the vector list fully.
	res, err := e.Retrieve.Search(ctx, u, "Who borrowed the green bicycle?", retrieve.SearchOptions{Kinds: []string{factbase.KindEpisode}})
	if err != nil || res.VectorWeight != 1 || len(res.RareTerms) != 0 {
		t.Errorf("known words: weight %v, rare terms %v, %v; want 1, none", res.VectorWeight, res.RareTerms, err)
	}
}
