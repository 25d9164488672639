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
		r, err := e.Ingest.AddEpisode(context.Background(), u, in)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.Episode.ID)
	}
	return ids
}

func hitIDs(res retrieve.SearchResult) []string {
	var out []string
	for _, h := range res.Hits {
		out = append(out, h.ID)
	}
	return out
}

// TestSearchConversationContext: the reply to a question is found with the question,
// though it shares no word with the query, and a turn said by the person the query
// names ranks above the same words said by the other.
func TestSearchConversationContext(t *testing.T) {
	for _, meta := range []bool{false, true} {
		name := map[bool]string{false: "speaker in content", true: "speaker in metadata"}[meta]
		t.Run(name, func(t *testing.T) {
			e, _ := newSearchEngine(t, glove(t))
			ctx := context.Background()
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

func containsText(h retrieve.Hit, s string) bool {
	return h.Episode != nil && strings.Contains(h.Episode.Content, s)
}

// TestSearchContextOnlyConversations: notes without a speaker, or turns far apart in
// time, are not each other's context.
func TestSearchContextOnlyConversations(t *testing.T) {
	e, _ := newSearchEngine(t, glove(t))
	ctx := context.Background()
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
	e, _ := newSearchEngine(t, nil)
	ctx := context.Background()
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
