package memory_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/storetest"
)

func TestFactSeeking(t *testing.T) {
	cases := []struct {
		name     string
		question string
		seeking  bool
		phrase   string
	}{
		{"named version", "What is the NEXUS version?", true, "NEXUS version"},
		{"past metric", "What was the test success rate?", true, "test success rate"},
		{"contraction", "What's the p95 latency?", true, "p95 latency"},
		{"possessive", "What is my email?", true, "email"},
		{"which measure", "Which version is deployed?", true, "version is deployed"},
		{"how many", "How many tests passed?", true, "tests passed"},
		{"when is date", "When is the release date?", true, "release date"},
		{"bare phrase", "NEXUS version?", true, "NEXUS version"},
		{"status now", "What is the phase 3 status now?", true, "phase 3 status"},
		{"why", "Why did the deployment fail?", false, ""},
		{"what happened", "What happened in the last session?", false, ""},
		{"what did", "What did we decide about the cache?", false, ""},
		{"how did", "How did the migration go?", false, ""},
		{"when did", "When did Martin move to Berlin?", false, ""},
		{"reason", "What was the reason for the rollback?", false, ""},
		{"clause", "What is the thing we discussed yesterday with the team?", false, ""},
		{"tell me about", "Tell me about the launch", false, ""},
		{"one word", "Hello", false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			seeking, phrase := retrieve.FactSeeking(tc.question)
			if seeking != tc.seeking || phrase != tc.phrase {
				t.Errorf("FactSeeking(%q) = %v, %q; want %v, %q", tc.question, seeking, phrase, tc.seeking, tc.phrase)
			}
		})
	}
}

// projectEpisodes are an agent's session notes: facts are extracted from them.
var projectEpisodes = []string{
	"Session 12 complete: NEXUS v2.3.0 deployed to staging. Test success rate 91%.",
	"Session 13: fixed the flaky retrieval tests, NEXUS v2.3.1 released. Test success rate 97%, p95 latency 120 ms.",
	"Discussed why the deployment failed last week: the database migration locked the users table for ten minutes, so we moved migrations to a maintenance window.",
	"Planning notes: the next milestone is the public beta; we want onboarding emails and a pricing page first.",
}

func addAll(t *testing.T, e *memory.Engine, u factbase.UserID, contents []string, tags ...string) []ingest.EpisodeResult {
	t.Helper()
	var out []ingest.EpisodeResult
	for _, c := range contents {
		r, err := e.Ingest.AddEpisode(context.Background(), u, ingest.EpisodeInput{Content: c, Tags: tags})
		if err != nil {
			t.Fatalf("AddEpisode(%q): %v", c, err)
		}
		out = append(out, r)
	}
	return out
}

// TestQueryRouting checks the hybrid query: fact-seeking questions are answered from
// facts, narrative ones from episodes, prefer overrides the order, and a fact-seeking
// question with no matching fact falls back to the narrative.
func TestQueryRouting(t *testing.T) {
	e, _ := newSearchEngine(t, glove(t))
	ctx := context.Background()
	u := storetest.NewUser()
	eps := addAll(t, e, u, projectEpisodes)
	cases := []struct {
		name     string
		question string
		prefer   string
		source   string
		tried    []string
		value    string // for fact answers
		episode  int    // for narrative answers: index into projectEpisodes of the top passage, or -1
		contains string // for narrative answers: text the top passage holds
	}{
		{"version", "What is the NEXUS version?", "", retrieve.SourceFact, []string{"fact"}, "2.3.1", 0, ""},
		{"success rate", "What was the test success rate?", "", retrieve.SourceFact, []string{"fact"}, "97", 0, ""},
		{"latency", "What's the p95 latency?", "auto", retrieve.SourceFact, []string{"fact"}, "120", 0, ""},
		{"narrative", "Why did the deployment fail?", "", retrieve.SourceNarrative, []string{"narrative"}, "", 2, "migration"},
		{"fact seeking, no fact", "What is the pricing page deadline?", "auto", retrieve.SourceNarrative, []string{"fact", "narrative"}, "", 3, "pricing page"},
		{"prefer narrative", "What is the NEXUS version?", "narrative", retrieve.SourceNarrative, []string{"narrative"}, "", -1, "NEXUS v2.3"},
		{"prefer fact", "Tell me the success rate of the tests", "fact", retrieve.SourceFact, []string{"fact"}, "97", 0, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, err := e.Retrieve.Query(ctx, u, tc.question, retrieve.QueryOptions{Prefer: tc.prefer})
			if err != nil {
				t.Fatal(err)
			}
			if a.Source != tc.source || !slices.Equal(a.Tried, tc.tried) {
				t.Fatalf("Query(%q, %q): source %q tried %v; want %q tried %v", tc.question, tc.prefer, a.Source, a.Tried, tc.source, tc.tried)
			}
			switch tc.source {
			case retrieve.SourceFact:
				if a.Value != tc.value || a.Fact == nil || a.Fact.Episode != eps[1].Episode.ID {
					t.Errorf("fact answer %q from %+v; want %q from episode %s", a.Value, a.Fact, tc.value, eps[1].Episode.ID)
				}
			case retrieve.SourceNarrative:
				if len(a.Passages) == 0 || tc.episode >= 0 && a.Passages[0].Episode != eps[tc.episode].Episode.ID ||
					!strings.Contains(a.Passages[0].Text, tc.contains) {
					t.Errorf("passages %+v; want the first from episode %d holding %q", a.Passages, tc.episode, tc.contains)
				}
			}
		})
	}
	if _, err := e.Retrieve.Query(ctx, u, "What is it?", retrieve.QueryOptions{Prefer: "both"}); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("prefer both: error %v, want invalid", err)
	}
}

// TestQueryNothing checks that a user with no data gets no source, not an error.
func TestQueryNothing(t *testing.T) {
	e, _ := newSearchEngine(t, glove(t))
	a, err := e.Retrieve.Query(context.Background(), storetest.NewUser(), "What is the NEXUS version?", retrieve.QueryOptions{})
	if err != nil || a.Source != "" || len(a.Tried) != 2 {
		t.Errorf("Query on an empty store = %+v, %v; want no source after trying both", a, err)
	}
}

func TestLookup(t *testing.T) {
	e, _ := newSearchEngine(t, nil)
	ctx := context.Background()
	u := storetest.NewUser()
	day := func(d int) time.Time { return time.Date(2025, 3, d, 12, 0, 0, 0, time.UTC) }
	var ids []string
	for i, in := range []ingest.EpisodeInput{
		{Content: "NEXUS v1.0.0 shipped", Tags: []string{"nexus"}, CreatedAt: day(1)},
		{Content: "ORBIT v4.2.0 shipped", Tags: []string{"orbit"}, CreatedAt: day(2)},
		{Content: "NEXUS v1.1.0 shipped, accuracy 88%", Tags: []string{"nexus", "release"}, CreatedAt: day(3)},
	} {
		r, err := e.Ingest.AddEpisode(ctx, u, in)
		if err != nil {
			t.Fatalf("episode %d: %v", i, err)
		}
		ids = append(ids, r.Episode.ID)
	}
	cases := []struct {
		name string
		o    retrieve.LookupOptions
		want []string // key=value@episode index
	}{
		{"by type", retrieve.LookupOptions{Type: "version"}, []string{"nexus.version=1.1.0@2", "orbit.version=4.2.0@1"}},
		{"by key", retrieve.LookupOptions{Key: "orbit.version"}, []string{"orbit.version=4.2.0@1"}},
		{"by tag", retrieve.LookupOptions{Type: "version", Tags: []string{"Release"}}, []string{"nexus.version=1.1.0@2"}},
		{"by date", retrieve.LookupOptions{Type: "version", To: day(3)}, []string{"orbit.version=4.2.0@1"}},
		{"limit", retrieve.LookupOptions{Type: "version", Limit: 1}, []string{"nexus.version=1.1.0@2"}},
		{"metric", retrieve.LookupOptions{Type: "metric"}, []string{"accuracy=88@2"}},
		{"none", retrieve.LookupOptions{Type: "latency"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := e.Retrieve.Lookup(ctx, u, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rs {
				got = append(got, r.Key+"="+r.Value+"@"+itoa(slices.Index(ids, r.Episode)))
				if r.Confidence <= 0 || r.Timestamp.IsZero() {
					t.Errorf("%s: confidence %v timestamp %v", r.Key, r.Confidence, r.Timestamp)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Lookup(%+v) = %v, want %v", tc.o, got, tc.want)
			}
		})
	}
	if _, err := e.Retrieve.Lookup(ctx, u, retrieve.LookupOptions{}); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("Lookup with no type or key: %v, want invalid", err)
	}
}

func itoa(i int) string {
	if i < 0 {
		return "-"
	}
	return string(rune('0' + i))
}
