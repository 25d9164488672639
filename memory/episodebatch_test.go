package memory_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/storetest"
)

// TestAddEpisodes stores a batch of episodes in one write: each with its facts,
// full-text entry and vector, found by search like one stored alone; an invalid
// episode or an oversized batch stores nothing.
func TestAddEpisodes(t *testing.T) {
	e := newEngine(t, memory.Options{Embedder: glove(t)})
	ctx := t.Context()
	u := storetest.NewUser()
	in := []ingest.EpisodeInput{
		{Content: "NEXUS v2.3.1 deployed, test success rate 97%"},
		{Content: "Martin is vegetarian", NoExtract: true},
		{Content: "Booked flights to Lisbon for the conference in May", Tags: []string{"Travel"}},
	}
	eps, res, err := e.Ingest.AddEpisodes(ctx, u, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(eps) != len(in) || res.Stored == 0 {
		t.Fatalf("AddEpisodes = %d episodes, %d facts stored; want %d episodes and the extracted facts", len(eps), res.Stored, len(in))
	}
	for i, ep := range eps {
		if ep.ID == "" || ep.Content != in[i].Content || ep.User != u || ep.CreatedAt.IsZero() {
			t.Errorf("episode %d = %+v", i, ep)
		}
		if got, want := ep.ExtractedAt != nil, !in[i].NoExtract; got != want {
			t.Errorf("episode %d extracted = %v, want %v", i, got, want)
		}
	}
	if got := eps[2].Tags; len(got) != 1 || got[0] != "travel" {
		t.Errorf("tags = %v, want [travel]", got)
	}
	for _, f := range res.Facts {
		if f.Source.Kind != factbase.SourceEpisode || f.Source.ID != eps[0].ID {
			t.Errorf("fact %s: source %+v, want the first episode", f.Key, f.Source)
		}
	}
	// Found by full text and by vector, as an episode stored alone is.
	r, err := e.Retrieve.Search(ctx, u, "trip to Portugal", retrieve.SearchOptions{Kinds: []string{factbase.KindEpisode}, Limit: 1})
	if err != nil || len(r.Hits) != 1 || r.Hits[0].ID != eps[2].ID {
		t.Errorf("Search(trip to Portugal) = %+v, %v; want the Lisbon episode by vector", r.Hits, err)
	}
	r, err = e.Retrieve.Search(ctx, u, "vegetarian", retrieve.SearchOptions{Kinds: []string{factbase.KindEpisode}, Limit: 1})
	if err != nil || len(r.Hits) != 1 || r.Hits[0].ID != eps[1].ID || r.Hits[0].Explain.BM25Rank != 1 {
		t.Errorf("Search(vegetarian) = %+v, %v; want Martin's episode by full text", r.Hits, err)
	}

	for _, tc := range []struct {
		name string
		in   []ingest.EpisodeInput
		want string
	}{
		{"an empty episode", []ingest.EpisodeInput{{Content: "fine"}, {Content: " "}}, "episode 2"},
		{"too many", make([]ingest.EpisodeInput, ingest.MaxEpisodeBatch+1), "limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i := range tc.in {
				if tc.in[i].Content == "" {
					tc.in[i].Content = fmt.Sprintf("episode %d", i)
				}
			}
			u := storetest.NewUser()
			_, _, err := e.Ingest.AddEpisodes(ctx, u, tc.in)
			if factbase.ErrorCode(err) != factbase.EINVALID || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("AddEpisodes = %v, want EINVALID naming %q", err, tc.want)
			}
			page, err := e.Ingest.Episodes(ctx, u, factbase.EpisodeFilter{Limit: 10})
			if err != nil || len(page.Episodes) != 0 {
				t.Errorf("after a refused batch: %d episodes, %v; want none", len(page.Episodes), err)
			}
		})
	}
}
