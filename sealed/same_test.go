package sealed_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/search"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

// twin is one of two engines given the same writes: over a plain store and a sealed
// one, with the same clock and the same ids, so that their answers compare as they
// are.
type twin struct {
	name  string
	store factbase.Store
	e     *memory.Engine
}

// newTwins returns the twins over stores that open makes: a new, empty store of the
// kind each call, with the clock now.
func newTwins(t *testing.T, open func(t *testing.T, now func() time.Time) factbase.Store) []twin {
	t.Helper()
	clock := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	now := func() time.Time { return clock }
	var twins []twin
	for _, name := range []string{"plain", "sealed"} {
		s := open(t, now)
		if name == "sealed" {
			s = sealWith(t, s, newKey(t))
		}
		var n atomic.Int64
		newID := func() string { return fmt.Sprintf("01900000-0000-7000-8000-%012d", n.Add(1)) }
		twins = append(twins, twin{name, s, memory.New(s, memory.Options{NoSheetRegen: true, NewID: newID})})
	}
	return twins
}

// sqliteTwin opens a new SQLite store with the clock now.
func sqliteTwin(t *testing.T, now func() time.Time) factbase.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "factbase.db"), sqlite.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// both runs fn on each twin and fails the test unless they return equal results.
func both[T any](t *testing.T, twins []twin, what string, fn func(tw twin) (T, error)) T {
	t.Helper()
	var got [2]T
	for i, tw := range twins {
		var err error
		if got[i], err = fn(tw); err != nil {
			t.Fatalf("%s (%s): %v", what, tw.name, err)
		}
	}
	if !reflect.DeepEqual(got[0], got[1]) {
		t.Errorf("%s differs:\nplain:  %+v\nsealed: %+v", what, got[0], got[1])
	}
	return got[0]
}

// sameFacts are the facts both twins are given: varied words, shared words in
// several facts (so that BM25 ranks), keys of several words, a ranked list, a set.
var sameFacts = []factbase.Fact{
	{Key: "pet.name", Value: "Miso", Text: "The user's cat is called Miso"},
	{Key: "work.employer", Value: "Globex Corporation", Text: "The user works at Globex Corporation as a data engineer"},
	{Key: "home.city", Value: "Lisbon", Text: "The user lives in Lisbon near the river"},
	{Key: "health.allergy", Value: "peanuts", Text: "The user is allergic to peanuts", Type: "allergy"},
	{Key: "travel.next", Value: "Kyoto in April", Text: "The user travels to Kyoto in April to see the cherry blossoms"},
	{Key: "hobby.main", Value: "climbing", Text: "The user goes climbing every weekend with friends"},
	{Key: "food.breakfast", Value: "porridge with peanuts butter", Text: "The user eats porridge for breakfast"},
	{Key: "car.model", Value: "a blue Volvo estate", Text: "The user drives a blue Volvo"},
	{Key: "contact.email", Value: "ana@example.com"},
	{Key: "favorites.books", Value: "Dune"},
	{Key: "favorites.books", Value: "The Left Hand of Darkness"},
	{Key: "favorites.books", Value: "Piranesi", Rank: 1},
	{Key: "likes", Value: "river walks", Cardinality: factbase.Many},
	{Key: "likes", Value: "Cherry blossoms", Cardinality: factbase.Many},
}

var sameQueries = []string{"peanuts", "Where does the user live?", "cherry blossoms in Kyoto", "climbing friends weekend",
	"favorite books", "data engineer at Globex", "river", "allergies", "blue car", "porridge breakfast peanuts",
	"deployment accuracy", "nginx web server", "nothing matches this"}

// TestSameAnswers: the same writes into a plain store and a sealed one give the
// same facts, lists, duplicates, members, search candidates (ids and order), search
// hits, answers, transcript queries, job scrubbing and fact sheet.
func TestSameAnswers(t *testing.T) { testSameAnswers(t, sqliteTwin) }

// testSameAnswers is TestSameAnswers over the stores open makes.
func testSameAnswers(t *testing.T, open func(t *testing.T, now func() time.Time) factbase.Store) {
	ctx := context.Background()
	twins := newTwins(t, open)
	u := storetest.NewUser()

	var ops []factbase.Op
	for _, f := range sameFacts {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: f})
	}
	both(t, twins, "Apply", func(tw twin) (factbase.Result, error) { return tw.e.Apply(ctx, u, ops) })
	both(t, twins, "Apply of duplicates", func(tw twin) (factbase.Result, error) {
		return tw.e.Apply(ctx, u, []factbase.Op{
			{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.books", Value: "  dune! "}},
			{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "likes", Value: "River Walks", Cardinality: factbase.Many}},
			{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.books", Value: "piranesi", Rank: 3}},
		})
	})
	both(t, twins, "Say", func(tw twin) (chat.SayResult, error) {
		return tw.e.Chat.Say(ctx, u, "My favorite drinks are green tea, Oolong, and green tea")
	})
	for _, in := range []ingest.EpisodeInput{
		{Content: "Session 14 complete: NEXUS v2.3.1 deployed, accuracy 94.2%", Tags: []string{"deploy"}, Metadata: map[string]string{"host": "web01"}},
		{Content: "Latency dropped to 120 ms after the cache deployment", Tags: []string{"perf"}},
		{Content: "The user and Ana walked by the river in Lisbon", Tags: []string{"life"}},
	} {
		both(t, twins, "AddEpisode", func(tw twin) (ingest.EpisodeResult, error) { return tw.e.Ingest.AddEpisode(ctx, u, in) })
	}
	log := `{"type":"user","uuid":"u1","sessionId":"s-one","cwd":"/srv/app","timestamp":"2025-06-02T18:46:00Z","message":{"role":"user","content":"Check the web server"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s-one","timestamp":"2025-06-02T18:47:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ssh admin@Web01.Example.com systemctl status nginx"}}]}}
{"type":"assistant","uuid":"a2","parentUuid":"a1","sessionId":"s-one","timestamp":"2025-06-02T18:48:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"ssh root@192.168.20.4 uptime"}}]}}
{"type":"user","uuid":"u2","sessionId":"s-two","cwd":"/srv/web","timestamp":"2025-06-03T09:00:00Z","message":{"role":"user","content":"Is web01 up?"}}
{"type":"assistant","uuid":"a3","parentUuid":"u2","sessionId":"s-two","timestamp":"2025-06-03T09:01:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t3","name":"Bash","input":{"command":"ssh ops@web01.example.com systemctl status nginx"}}]}}
{"type":"assistant","uuid":"a4","parentUuid":"a3","sessionId":"s-two","timestamp":"2025-06-03T09:02:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t4","name":"Bash","input":{"command":"ssh admin@web01.example.com uptime"}}]}}
`
	both(t, twins, "IngestTranscript", func(tw twin) (ingest.IngestSummary, error) {
		return tw.e.Ingest.IngestTranscript(ctx, u, strings.NewReader(log), "s.jsonl", ingest.IngestOptions{})
	})

	both(t, twins, "Facts", func(tw twin) ([]factbase.Fact, error) {
		return tw.e.Facts(ctx, u, factbase.FactFilter{History: true})
	})
	both(t, twins, "List", func(tw twin) ([]factbase.Fact, error) {
		p, err := tw.e.List(ctx, u, factbase.SubjectUser, "favorites.books", 0, 10, nil)
		return p.Items, err
	})
	for _, v := range []string{"DUNE", "piranesi.", "Neuromancer"} {
		both(t, twins, "Member "+v, func(tw twin) (string, error) {
			f, ok, err := tw.e.Member(ctx, u, factbase.SubjectUser, "favorites.books", v)
			return fmt.Sprint(f.ID, ok), err
		})
	}
	for _, q := range sameQueries {
		for _, kind := range []string{factbase.KindFact, factbase.KindEpisode} {
			both(t, twins, "TextCandidates "+kind+" "+q, func(tw twin) ([]string, error) {
				return candidates(ctx, tw.store, u, kind, search.Terms(q))
			})
		}
		both(t, twins, "TermCounts "+q, func(tw twin) ([]int, error) {
			var n []int
			err := tw.store.View(ctx, u, func(tx factbase.ReadTx) (err error) {
				n, err = tx.TermCounts(ctx, factbase.KindFact, append(search.Terms(q), "", "!!"), 100)
				return err
			})
			return n, err
		})
		both(t, twins, "Search "+q, func(tw twin) ([]string, error) {
			r, err := tw.e.Retrieve.Search(ctx, u, q, retrieve.SearchOptions{})
			var ids []string
			for _, h := range r.Hits {
				ids = append(ids, h.Kind+" "+h.ID+" "+h.Text)
			}
			return ids, err
		})
	}
	for _, q := range []string{"What are my favorite books?", "What is my second favorite book?", "Where do I live?",
		"What am I allergic to?", "What is my cat called?", "What do I like?"} {
		both(t, twins, "Ask "+q, func(tw twin) (string, error) {
			a, err := tw.e.Chat.Ask(ctx, u, q)
			return a.Reply, err
		})
	}
	for _, q := range []factbase.TranscriptQuery{{}, {ObjectContains: "WEB01"}, {ObjectContains: "nginx", Limit: 1, Offset: 1},
		{Predicate: "connects_to_host"}, {Session: "s-two"}, {ObjectContains: "%"}} {
		both(t, twins, fmt.Sprintf("TranscriptFacts %+v", q), func(tw twin) ([]factbase.Fact, error) {
			fs, _, err := tw.e.Ingest.TranscriptFacts(ctx, u, q)
			return fs, err
		})
		both(t, twins, fmt.Sprintf("TranscriptObjects %+v", q), func(tw twin) ([]factbase.TranscriptObject, error) {
			objs, _, err := tw.e.Ingest.TranscriptObjects(ctx, u, q)
			return objs, err
		})
	}
	both(t, twins, "SubjectsNamed", func(tw twin) ([]string, error) {
		var out []string
		err := tw.store.View(ctx, u, func(tx factbase.ReadTx) (err error) {
			out, err = tx.SubjectsNamed(ctx, []string{"miso", "user", "nobody"})
			return err
		})
		return out, err
	})
	both(t, twins, "GenerateSheet", func(tw twin) (factbase.FactSheet, error) {
		return tw.e.GenerateSheet(ctx, u, core.SheetOptions{})
	})
	both(t, twins, "ScrubJobs", func(tw twin) ([]string, error) {
		return scrubJobs(ctx, tw.store, u)
	})
}

// candidates returns the ids of the text candidates of terms, best first.
func candidates(ctx context.Context, s factbase.Store, u factbase.UserID, kind string, terms []string) ([]string, error) {
	var ids []string
	err := s.View(ctx, u, func(tx factbase.ReadTx) error {
		cs, err := tx.TextCandidates(ctx, factbase.TextQuery{Kind: kind, Terms: terms, Limit: 20})
		for _, c := range cs {
			ids = append(ids, c.ID)
		}
		return err
	})
	return ids, err
}

// scrubJobs queues jobs holding a text in their input, their error or their result,
// and others, scrubs the text, and returns the count and every job's texts after.
func scrubJobs(ctx context.Context, s factbase.Store, u factbase.UserID) ([]string, error) {
	inputs := []string{"my email is ana@example.com", "my cat is Miso", "nothing here", "a failure", "a result", `say "Miso"`}
	for i, in := range inputs {
		if _, err := s.EnqueueJob(ctx, factbase.Job{ID: fmt.Sprintf("job-%d", i), User: u, Kind: factbase.JobExtract, Input: in, MaxAttempts: 1}); err != nil {
			return nil, err
		}
	}
	claim := func(id string) (factbase.Job, error) {
		j, ok, err := s.ClaimJob(ctx, time.Minute, factbase.JobClaim{ID: id})
		if err == nil && !ok {
			err = fmt.Errorf("job %s not claimed", id)
		}
		return j, err
	}
	j, err := claim("job-3")
	if err != nil {
		return nil, err
	}
	if _, err := s.FailJob(ctx, j.ID, j.Lease, factbase.JobFailure{Message: "no route to Lisbon", Dead: true}); err != nil {
		return nil, err
	}
	if j, err = claim("job-4"); err != nil {
		return nil, err
	}
	err = s.Update(ctx, u, func(tx factbase.Tx) error {
		return tx.CompleteJob(ctx, j.ID, j.Lease, factbase.JobOutcome{Result: []byte(`{"city":"Lisbon","quote":"\"Miso\""}`)})
	})
	if err != nil {
		return nil, err
	}
	var n int
	err = s.Update(ctx, u, func(tx factbase.Tx) (err error) {
		n, err = tx.ScrubJobs(ctx, []string{"ana@example.com", "", "Lisbon", `\"Miso`})
		return err
	})
	out := []string{fmt.Sprint(n)}
	for i := range inputs {
		j, jerr := s.Job(ctx, fmt.Sprintf("job-%d", i))
		err = errors.Join(err, jerr)
		out = append(out, fmt.Sprintf("%q %q %s", j.Input, j.Error, j.Result))
	}
	return out, err
}
