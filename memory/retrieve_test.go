package memory_test

import (
	"fmt"
	"math"
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

// The retrieve service: hybrid search over facts and episodes, the hybrid query and
// the direct look-up.

// TestSearchOfflineParaphrases is the offline check: with the built-in
// embedder and no network, paraphrased questions find the right episode in the top 3.
func TestSearchOfflineParaphrases(t *testing.T) {
	e := newEngine(t, memory.Options{Embedder: glove(t)})
	ctx := t.Context()
	u := storetest.NewUser()
	addEpisodes(t, e, u, storetest.Episodes())
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
			got := mapStrings(res.Hits, func(h retrieve.Hit) string { return h.Text })
			if !slices.Contains(got, tc.want) {
				t.Errorf("Search(%q) top 3 = %q, want it to contain %q", tc.query, got, tc.want)
			}
		})
	}
}

// TestSearchExplain checks that every hit's explanation reproduces its score and
// says which list found it.
func TestSearchExplain(t *testing.T) {
	e := newEngine(t, memory.Options{Embedder: glove(t)})
	ctx := t.Context()
	u := storetest.NewUser()
	addEpisodes(t, e, u, storetest.Episodes())
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
		want := ((x.RRFText+x.RRFVector)*x.Decay*x.SubjectBoost*x.ImportanceBoost*x.PeriodBoost*x.RareBoost + x.Context) * x.SpeakerBoost
		if math.Abs(h.Score-want) > 1e-12 || x.Score != h.Score {
			t.Errorf("hit %q: score %v, explain recomputes %v (explain score %v)", h.Text, h.Score, want, x.Score)
		}
		if sum := x.TextShare + x.VectorShare + x.ContextShare; math.Abs(sum-1) > 1e-9 || (x.BM25Rank > 0) != (x.TextShare > 0) || (x.VectorRank > 0) != (x.VectorShare > 0) {
			t.Errorf("hit %q: shares text %v, vector %v, context %v; want them to add up to 1, each > 0 when its list found the hit", h.Text, x.TextShare, x.VectorShare, x.ContextShare)
		}
		if x.BM25Rank == 0 && x.VectorRank == 0 {
			t.Errorf("hit %q found by neither list: %+v", h.Text, x)
		}
	}
}

// TestSearchDecay checks that recency decay is applied at query time: the same
// question asked a year later scores the same items lower.
func TestSearchDecay(t *testing.T) {
	e := newEngine(t, memory.Options{})
	ctx := t.Context()
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

// TestSearchConcurrent searches from several goroutines while episodes are written
// and deleted: the in-memory vector copies must stay safe and never return a
// deleted episode (run with -race).
func TestSearchConcurrent(t *testing.T) {
	e := newEngine(t, memory.Options{Embedder: glove(t)})
	ctx := t.Context()
	u := storetest.NewUser()
	addEpisodes(t, e, u, storetest.Episodes())
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

// chat stores turns as episodes a second apart from start and returns their ids;
// a turn is "Speaker: text" with the speaker in the metadata when meta is set, and
// in the content only otherwise.
func converse(t *testing.T, e *memory.Engine, u factbase.UserID, start time.Time, meta bool, turns ...[2]string) []string {
	t.Helper()
	var ids []string
	for i, tn := range turns {
		in := ingest.EpisodeInput{Content: tn[0] + ": " + tn[1], CreatedAt: start.Add(time.Duration(i) * time.Second)}
		if meta {
			in.Content = tn[1]
			in.Metadata = map[string]string{retrieve.SpeakerKey: tn[0]}
		}
		r, err := e.Ingest.AddEpisode(t.Context(), u, in)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.Episode.ID)
	}
	return ids
}

func hitIDs(res retrieve.SearchResult) []string {
	return mapStrings(res.Hits, func(h retrieve.Hit) string { return h.ID })
}

// TestSearchConversationContext: the reply to a question is found with the question,
// though it shares no word with the query, and a turn said by the person the query
// names ranks above the same words said by the other.
func TestSearchConversationContext(t *testing.T) {
	for _, meta := range []bool{false, true} {
		name := map[bool]string{false: "speaker in content", true: "speaker in metadata"}[meta]
		t.Run(name, func(t *testing.T) {
			e := newEngine(t, memory.Options{Embedder: glove(t)})
			ctx := t.Context()
			u := storetest.NewUser()
			day1 := time.Date(2024, 3, 1, 18, 0, 0, 0, time.UTC)
			ids := converse(t, e, u, day1, meta,
				[2]string{"Caroline", "What a lovely family picture! How long have you been married?"},
				[2]string{"Melanie", "Five years already, time flies."},
				[2]string{"Caroline", "That is wonderful to hear."},
			)
			// Other days: filler, and the same words said by the other speaker.
			converse(t, e, u, day1.Add(48*time.Hour), meta,
				[2]string{"Melanie", "I went to the pottery class again."},
				[2]string{"Caroline", "I love pottery, I made a bowl last week."},
				[2]string{"Melanie", "I made a bowl last week too, a black one."},
			)
			now := day1.Add(30 * 24 * time.Hour)
			res, err := e.Retrieve.Search(ctx, u, "How long has Melanie been married?", retrieve.SearchOptions{Kinds: []string{factbase.KindEpisode}, Limit: 3, Now: now})
			if err != nil {
				t.Fatal(err)
			}
			got := hitIDs(res)
			if !slices.Contains(got, ids[1]) {
				t.Fatalf("top 3 %v (%+v) lacks the reply %s", got, res.Hits, ids[1])
			}
			for _, h := range res.Hits {
				x := h.Explain
				if h.ID == ids[1] && (x.Context <= 0 || x.SpeakerBoost <= 1) {
					t.Errorf("the reply's explain %+v: want context from the question and the speaker boost", x)
				}
				want := ((x.RRFText+x.RRFVector)*x.Decay*x.SubjectBoost*x.ImportanceBoost*x.PeriodBoost + x.Context) * x.SpeakerBoost
				if h.Score != want {
					t.Errorf("%s: score %v, explain recomputes %v", h.ID, h.Score, want)
				}
			}
			// A capitalised short form of the name names the speaker too.
			res, err = e.Retrieve.Search(ctx, u, "How long has Mel been married?", retrieve.SearchOptions{Kinds: []string{factbase.KindEpisode}, Limit: 3, Now: now})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range res.Hits {
				if h.ID == ids[1] && h.Explain.SpeakerBoost <= 1 {
					t.Errorf("'Mel' did not name Melanie: %+v", h.Explain)
				}
			}
			if !slices.Contains(hitIDs(res), ids[1]) {
				t.Errorf("'Mel': top 3 %v lacks the reply", hitIDs(res))
			}
			res, err = e.Retrieve.Search(ctx, u, "Who made a bowl, Melanie?", retrieve.SearchOptions{Kinds: []string{factbase.KindEpisode}, Limit: 2, Now: now})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) == 0 || !containsText(res.Hits[0], "black one") {
				t.Errorf("hits %+v: want Melanie's bowl first", res.Hits)
			}
		})
	}
}

// TestSearchContextReach: the turns on both sides of a hit, two places away at most,
// are found with it, each after the hit and further turns after nearer ones, and a
// turn's explanation says how much of its score its neighbours gave.
func TestSearchContextReach(t *testing.T) {
	e := newEngine(t, memory.Options{Embedder: glove(t)})
	u := storetest.NewUser()
	day := time.Date(2024, 3, 1, 18, 0, 0, 0, time.UTC)
	ids := converse(t, e, u, day, true,
		[2]string{"Ann", "Good morning."},
		[2]string{"Bob", "Hi there."},
		[2]string{"Ann", "Have you ever seen a quetzal?"},
		[2]string{"Bob", "Once, yes."},
		[2]string{"Ann", "Lucky you!"},
		[2]string{"Bob", "Anyway, see you."},
	)
	res, err := e.Retrieve.Search(t.Context(), u, "quetzal", retrieve.SearchOptions{Kinds: []string{factbase.KindEpisode}, Limit: 10, Now: day.Add(24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	rank := map[string]int{}
	by := map[string]retrieve.Hit{}
	for i, h := range res.Hits {
		rank[h.ID], by[h.ID] = i, h
	}
	hit := ids[2]
	if r, ok := rank[hit]; !ok || r != 0 {
		t.Fatalf("hits %v: want the quetzal turn first", hitIDs(res))
	}
	for _, nb := range [][2]string{{ids[3], ids[4]}, {ids[1], ids[0]}} { // after, before
		near, far := by[nb[0]], by[nb[1]]
		if near.ID == "" || far.ID == "" {
			t.Fatalf("hits %v lack the turns around %s: %s, %s", hitIDs(res), hit, nb[0], nb[1])
		}
		if near.Explain.Context <= 0 || far.Explain.Context <= 0 || far.Explain.Context >= near.Explain.Context {
			t.Errorf("context %v near, %v two turns away: want both above 0, the further one less", near.Explain.Context, far.Explain.Context)
		}
		if far.Explain.ContextShare <= 0 || far.Score >= by[hit].Score {
			t.Errorf("%s: %+v: want a context share, and a score below the hit's", far.ID, far.Explain)
		}
	}
	if _, ok := rank[ids[5]]; ok && by[ids[5]].Explain.Context > 0 {
		t.Errorf("three turns away inherited: %+v", by[ids[5]].Explain)
	}
}

func containsText(h retrieve.Hit, s string) bool {
	return h.Episode != nil && strings.Contains(h.Episode.Content, s)
}

// TestSearchContextOnlyConversations: notes without a speaker, or turns far apart in
// time, are not each other's context.
func TestSearchContextOnlyConversations(t *testing.T) {
	e := newEngine(t, memory.Options{Embedder: glove(t)})
	ctx := t.Context()
	u := storetest.NewUser()
	start := time.Date(2024, 3, 1, 18, 0, 0, 0, time.UTC)
	for i, c := range []string{"Martin is vegetarian", "The car needs new tyres before the winter"} {
		if _, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: c, CreatedAt: start.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	// Two turns an hour apart: further than a conversation's pause.
	if _, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: "Ann: Does Martin eat meat?", CreatedAt: start.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: "Bob: The garden fence is broken.", CreatedAt: start.Add(2 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	res, err := e.Retrieve.Search(ctx, u, "What does Martin eat?", retrieve.SearchOptions{Kinds: []string{factbase.KindEpisode}, Limit: 10, Now: start.Add(24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		if h.Explain.Context != 0 || h.Explain.SpeakerBoost != 1 {
			t.Errorf("%q got context %v, speaker boost %v; want none", h.Text, h.Explain.Context, h.Explain.SpeakerBoost)
		}
		if h.Explain.BM25Rank == 0 && h.Explain.VectorRank == 0 {
			t.Errorf("%q found by neither list nor by context", h.Text)
		}
	}
}

// TestSearchNamedPeriod: a question naming a date with its year ranks what was said
// that day above the same words said on other days.
func TestSearchNamedPeriod(t *testing.T) {
	e := newEngine(t, memory.Options{})
	ctx := t.Context()
	u := storetest.NewUser()
	var want string
	for i, d := range []int{3, 13, 23} {
		r, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: "Showed a new painting to the group",
			CreatedAt: time.Date(2023, 10, d, 15, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			want = r.Episode.ID
		}
	}
	now := time.Date(2023, 11, 1, 0, 0, 0, 0, time.UTC)
	res, err := e.Retrieve.Search(ctx, u, "What painting was shown on October 13, 2023?", retrieve.SearchOptions{Now: now, MinSimilarity: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 3 || res.Hits[0].ID != want || res.Hits[0].Explain.PeriodBoost <= 1 || res.Period == nil {
		t.Fatalf("hits %+v period %+v: want the 13 October episode first, boosted", res.Hits, res.Period)
	}
	// Without a year the date names no period.
	res, err = e.Retrieve.Search(ctx, u, "What painting was shown on October 13?", retrieve.SearchOptions{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if res.Period != nil {
		t.Errorf("period %+v for a date without a year", res.Period)
	}
}

// projectEpisodes are an agent's session notes: facts are extracted from them.
var projectEpisodes = []string{
	"Session 12 complete: NEXUS v2.3.0 deployed to staging. Test success rate 91%.",
	"Session 13: fixed the flaky retrieval tests, NEXUS v2.3.1 released. Test success rate 97%, p95 latency 120 ms.",
	"Discussed why the deployment failed last week: the database migration locked the users table for ten minutes, so we moved migrations to a maintenance window.",
	"Planning notes: the next milestone is the public beta; we want onboarding emails and a pricing page first.",
}

// TestQueryRouting checks the hybrid query: fact-seeking questions are answered from
// facts, narrative ones from episodes, prefer overrides the order, and a fact-seeking
// question with no matching fact falls back to the narrative.
func TestQueryRouting(t *testing.T) {
	e := newEngine(t, memory.Options{Embedder: glove(t)})
	ctx := t.Context()
	u := storetest.NewUser()
	eps := addEpisodes(t, e, u, projectEpisodes)
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
	e := newEngine(t, memory.Options{Embedder: glove(t)})
	a, err := e.Retrieve.Query(t.Context(), storetest.NewUser(), "What is the NEXUS version?", retrieve.QueryOptions{})
	if err != nil || a.Source != "" || len(a.Tried) != 2 {
		t.Errorf("Query on an empty store = %+v, %v; want no source after trying both", a, err)
	}
}

func TestLookup(t *testing.T) {
	e := newEngine(t, memory.Options{})
	ctx := t.Context()
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
			rs, _, err := e.Retrieve.Lookup(ctx, u, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			got := mapStrings(rs, func(r retrieve.LookupResult) string {
				return r.Key + "=" + r.Value + "@" + itoa(slices.Index(ids, r.Episode))
			})
			for _, r := range rs {
				if r.Confidence <= 0 || r.Timestamp.IsZero() {
					t.Errorf("%s: confidence %v timestamp %v", r.Key, r.Confidence, r.Timestamp)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Lookup(%+v) = %v, want %v", tc.o, got, tc.want)
			}
		})
	}
	if _, _, err := e.Retrieve.Lookup(ctx, u, retrieve.LookupOptions{}); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("Lookup with no type or key: %v, want invalid", err)
	}
}

func itoa(i int) string {
	if i < 0 {
		return "-"
	}
	return string(rune('0' + i))
}
