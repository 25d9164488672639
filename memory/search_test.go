package memory_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

// newSearchEngine returns an engine over a fresh SQLite store with the embedder
// (nil for none) and a clock tests can move.
func newSearchEngine(t testing.TB, emb factbase.Embedder) (*memory.Engine, *sqlite.Store) {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "f.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return memory.New(s, memory.Options{Embedder: emb}), s
}

func glove(t testing.TB) *embed.GloVe {
	t.Helper()
	g, err := embed.NewGloVe()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// twentyEpisodes is a user's episodes: two hold the answers the tests look for, the
// others are the kind of thing a user tells an assistant.
var twentyEpisodes = []string{
	"Martin is vegetarian",
	"The user is allergic to peanuts",
	"Booked flights to Lisbon for the conference in May",
	"The quarterly report is due on Friday; finance wants the revenue numbers",
	"Dentist appointment moved to next Tuesday at 3pm",
	"Sarah started a new job at the hospital as a nurse",
	"The car needs new tyres before the winter",
	"We adopted a cat called Miso from the shelter",
	"Started learning Spanish with an app every morning",
	"The team agreed to ship the mobile release next sprint",
	"Grandma's birthday party is at the lake house on Saturday",
	"Running 5 km three times a week to train for the half marathon",
	"The kitchen sink is leaking again; call the plumber",
	"Reading a novel about the history of the Roman empire",
	"Martin's daughter plays violin in the school orchestra",
	"Paid the electricity bill and the internet bill",
	"The project deadline was pushed back by two weeks",
	"Bought a new laptop with 32 GB of memory for video editing",
	"Planning a hiking trip in the mountains with old friends",
	"The neighbours are renovating their house, it is noisy in the mornings",
}

// TestSearchOfflineParaphrases is the offline check: with the built-in
// embedder and no network, paraphrased questions find the right episode in the top 3.
func TestSearchOfflineParaphrases(t *testing.T) {
	e, _ := newSearchEngine(t, glove(t))
	ctx := context.Background()
	u := storetest.NewUser()
	ids := map[string]string{}
	for _, c := range twentyEpisodes {
		r, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: c})
		if err != nil {
			t.Fatalf("AddEpisode(%q): %v", c, err)
		}
		ids[c] = r.Episode.ID
	}
	cases := []struct {
		query, want string
	}{
		{"What does Martin eat?", "Martin is vegetarian"},
		{"Which nuts should they avoid?", "The user is allergic to peanuts"},
		{"Does Martin eat meat?", "Martin is vegetarian"},
		{"What food is Martin not eating?", "Martin is vegetarian"},
		{"Any dietary restrictions for Martin?", "Martin is vegetarian"},
		{"What is the user allergic to?", "The user is allergic to peanuts"},
		{"What nuts cause an allergic reaction?", "The user is allergic to peanuts"},
		{"Is there any food allergy?", "The user is allergic to peanuts"},
		{"Which snacks are dangerous for them?", "The user is allergic to peanuts"},
		{"When is the trip to Portugal?", "Booked flights to Lisbon for the conference in May"},
		{"Do we have a pet?", "We adopted a cat called Miso from the shelter"},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			res, err := e.Retrieve.Search(ctx, u, tc.query, retrieve.SearchOptions{Limit: 3, Kinds: []string{factbase.KindEpisode}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range res.Hits {
				got = append(got, h.Text)
			}
			if !slices.Contains(got, tc.want) {
				t.Errorf("Search(%q) top 3 = %q, want it to contain %q", tc.query, got, tc.want)
			}
		})
	}
}

// TestSearchExplain checks that every hit's explanation reproduces its score and
// says which list found it.
func TestSearchExplain(t *testing.T) {
	e, _ := newSearchEngine(t, glove(t))
	ctx := context.Background()
	u := storetest.NewUser()
	for _, c := range twentyEpisodes {
		if _, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: c}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := e.Retrieve.Search(ctx, u, "Martin vegetarian", retrieve.SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 {
		t.Fatal("no hits")
	}
	top := res.Hits[0]
	if top.Text != "Martin is vegetarian" || top.Explain.BM25Rank != 1 || top.Explain.VectorRank == 0 {
		t.Errorf("top hit %q explain %+v; want the vegetarian episode, BM25 rank 1, found by vector too", top.Text, top.Explain)
	}
	for _, h := range res.Hits {
		x := h.Explain
		want := ((x.RRFText+x.RRFVector)*x.Decay*x.SubjectBoost*x.ImportanceBoost*x.PeriodBoost + x.Context) * x.SpeakerBoost
		if math.Abs(h.Score-want) > 1e-12 || x.Score != h.Score {
			t.Errorf("hit %q: score %v, explain recomputes %v (explain score %v)", h.Text, h.Score, want, x.Score)
		}
		if x.BM25Rank == 0 && x.VectorRank == 0 {
			t.Errorf("hit %q found by neither list: %+v", h.Text, x)
		}
	}
}

// TestSearchDecay checks that recency decay is applied at query time: the same
// question asked a year later scores the same items lower.
func TestSearchDecay(t *testing.T) {
	e, _ := newSearchEngine(t, nil)
	ctx := context.Background()
	u := storetest.NewUser()
	old := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, c := range []string{"Deployed the search service", "Deployed the search service again"} {
		if _, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: c, CreatedAt: old.AddDate(0, i*6, 0)}); err != nil {
			t.Fatal(err)
		}
	}
	at := func(now time.Time) []retrieve.Hit {
		res, err := e.Retrieve.Search(ctx, u, "search service", retrieve.SearchOptions{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) != 2 {
			t.Fatalf("%d hits, want 2", len(res.Hits))
		}
		return res.Hits
	}
	soon, later := at(old.AddDate(0, 7, 0)), at(old.AddDate(2, 0, 0))
	if soon[0].Text != "Deployed the search service again" {
		t.Errorf("top hit %q, want the newer episode", soon[0].Text)
	}
	if !(later[0].Explain.Decay < soon[0].Explain.Decay) || !(later[0].Score < soon[0].Score) {
		t.Errorf("a year later: decay %v score %v, before: decay %v score %v; want both lower",
			later[0].Explain.Decay, later[0].Score, soon[0].Explain.Decay, soon[0].Score)
	}
	if d := soon[0].Explain.AgeDays; d < 29 || d > 32 {
		t.Errorf("age of the newer episode = %v days, want about 30", d)
	}
}

func texts(hits []retrieve.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Text
	}
	return out
}

func hasText(hits []retrieve.Hit, sub string) bool {
	for _, h := range hits {
		if strings.Contains(h.Text, sub) {
			return true
		}
	}
	return false
}

// TestSearchConcurrent searches from several goroutines while episodes are written
// and deleted: the in-memory vector copies must stay safe and never return a
// deleted episode (run with -race).
func TestSearchConcurrent(t *testing.T) {
	e, _ := newSearchEngine(t, glove(t))
	ctx := context.Background()
	u := storetest.NewUser()
	for _, c := range twentyEpisodes {
		if _, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: c}); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan error, 5)
	go func() {
		for i := range 30 {
			r, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: "Martin cooked a vegetarian curry, batch " + strings.Repeat("x", i)})
			if err == nil && i%2 == 0 {
				_, err = e.Ingest.DeleteEpisode(ctx, u, r.Episode.ID, false)
			}
			if err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for range 4 {
		go func() {
			for range 20 {
				res, err := e.Retrieve.Search(ctx, u, "What does Martin eat?", retrieve.SearchOptions{Kinds: []string{factbase.KindEpisode}})
				if err != nil {
					done <- err
					return
				}
				for _, h := range res.Hits {
					if h.Episode == nil || h.Episode.ID != h.ID {
						done <- fmt.Errorf("hit %s without its episode", h.ID)
						return
					}
				}
			}
			done <- nil
		}()
	}
	for range 5 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	res, err := e.Retrieve.Search(ctx, u, "vegetarian curry batch", retrieve.SearchOptions{Kinds: []string{factbase.KindEpisode}, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, h := range res.Hits {
		if strings.HasPrefix(h.Text, "Martin cooked") {
			n++
		}
	}
	if n != 15 {
		t.Errorf("found %d curry episodes after the writes, want the 15 not deleted", n)
	}
}
