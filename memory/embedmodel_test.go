package memory_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/storetest"
)

// Search over vectors of two embedders: a search never mixes scores of vectors it
// cannot compare, says so, and re-embedding brings the vectors back into use.

// The fixture of the tests below: the answer to allergyQuery and a decoy that
// matches fewer of its words.
const (
	allergyQuery = "allergic to peanuts"
	allergyText  = "The user is allergic to peanuts"
	allergyDecoy = "Peanuts and crackers are on the snack list"
)

// warnLines returns the lines of logs at level WARN.
func warnLines(logs string) []string {
	var out []string
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, "level=WARN") {
			out = append(out, l)
		}
	}
	return out
}

// TestSearchAfterSwitchingEmbedders writes a user's episodes with one embedder and
// one more with another, and searches with each. Were the scores mixed, the decoy,
// written by the second embedder, would have the only comparable vector and lead
// with half the text score of the answer; the search must rank by full text alone,
// warn in its result and its log, and stop warning once reembed has run.
func TestSearchAfterSwitchingEmbedders(t *testing.T) {
	ctx := t.Context()
	s := openStore(t, "", nil)
	var logs strings.Builder
	log := slog.New(slog.NewTextHandler(&logs, nil))
	old := memory.New(s, memory.Options{Embedder: embed.NewHash(64), Logger: log})
	cur := memory.New(s, memory.Options{Embedder: embed.NewHash(32), Logger: log})
	u := storetest.NewUser()
	addEpisodes(t, old, u, storetest.Episodes())
	addEpisodes(t, cur, u, []string{allergyDecoy})

	for _, tc := range []struct {
		name string
		e    *memory.Engine
	}{
		{"the new embedder (most vectors are the old one's)", cur},
		{"the old embedder (one vector is the new one's)", old},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logs.Reset()
			res, err := tc.e.Retrieve.Search(ctx, u, allergyQuery, retrieve.SearchOptions{Kinds: []string{factbase.KindEpisode}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) < 2 || res.Hits[0].Text != allergyText {
				t.Fatalf("hits %q; want %q first", hitTexts(res), allergyText)
			}
			for _, h := range res.Hits {
				if h.Explain.VectorRank != 0 || h.Explain.RRFVector != 0 {
					t.Errorf("hit %q has a vector rank %d: vectors of another embedder were mixed in", h.Text, h.Explain.VectorRank)
				}
			}
			if res.Model != "" {
				t.Errorf("Model = %q, want \"\" (vectors not used)", res.Model)
			}
			if len(res.Warnings) != 1 {
				t.Fatalf("Warnings = %q, want one", res.Warnings)
			}
			for _, want := range []string{"hash-64-v1", "hash-32-v1", "factbase reembed", "full-text only"} {
				if !strings.Contains(res.Warnings[0], want) {
					t.Errorf("warning %q does not say %q", res.Warnings[0], want)
				}
			}
			if lines := warnLines(logs.String()); len(lines) != 1 || !strings.Contains(lines[0], "hash-64-v1") ||
				!strings.Contains(lines[0], "hash-32-v1") || !strings.Contains(lines[0], string(u)) {
				t.Errorf("log warnings %q; want one line naming both embedders and the user", lines)
			}
		})
	}

	// A search of facts alone is not concerned by episodes' vectors.
	res, err := cur.Retrieve.Search(ctx, u, allergyQuery, retrieve.SearchOptions{Kinds: []string{factbase.KindFact}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("facts-only search: Warnings = %q; the user's facts have no vectors of another embedder", res.Warnings)
	}

	n, err := cur.Retrieve.Reembed(ctx, u, nil)
	if err != nil || n != len(storetest.Episodes()) {
		t.Fatalf("Reembed = %d, %v; want the %d episodes of the old embedder", n, err, len(storetest.Episodes()))
	}
	logs.Reset()
	res, err = cur.Retrieve.Search(ctx, u, allergyQuery, retrieve.SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 0 || res.Model != "hash-32-v1" || len(warnLines(logs.String())) != 0 {
		t.Errorf("after reembed: Warnings %q, Model %q, log %q; want no warning and vectors of hash-32-v1", res.Warnings, res.Model, logs.String())
	}
	if len(res.Hits) == 0 || res.Hits[0].Text != allergyText || res.Hits[0].Explain.VectorRank == 0 {
		t.Errorf("after reembed: hits %q (first explained %+v); want %q first, found by vector too", hitTexts(res), firstExplain(res), allergyText)
	}
}

func hitTexts(res retrieve.SearchResult) []string {
	return mapStrings(res.Hits, func(h retrieve.Hit) string { return h.Text })
}

func firstExplain(res retrieve.SearchResult) retrieve.Explain {
	if len(res.Hits) == 0 {
		return retrieve.Explain{}
	}
	return res.Hits[0].Explain
}

// failingEmbedder fails every call with err.
type failingEmbedder struct{ err error }

func (f failingEmbedder) Model() string { return "remote-v1" }
func (f failingEmbedder) Dim() int      { return 0 }
func (f failingEmbedder) Embed(context.Context, []string) ([][]float32, error) {
	return nil, f.err
}

// TestSearchEmbedderDown checks that a search whose embedder cannot be reached
// answers from full text with a warning, in Search and in Query, and that other
// embedder errors and invalid searches still fail.
func TestSearchEmbedderDown(t *testing.T) {
	ctx := t.Context()
	s := openStore(t, "", nil)
	u := storetest.NewUser()
	addEpisodes(t, memory.New(s, memory.Options{Embedder: embed.NewHash(64)}), u, append(storetest.Episodes(), allergyDecoy))
	for _, code := range []string{factbase.EUNAVAILABLE, factbase.ETIMEOUT} {
		t.Run(code, func(t *testing.T) {
			var logs strings.Builder
			e := memory.New(s, memory.Options{Embedder: failingEmbedder{factbase.Errorf(code, "llm: cannot reach the model server")},
				Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			res, err := e.Retrieve.Search(ctx, u, allergyQuery, retrieve.SearchOptions{})
			if err != nil {
				t.Fatalf("Search: %v; want full-text results", err)
			}
			if len(res.Hits) == 0 || res.Hits[0].Text != allergyText || res.Model != "" {
				t.Errorf("hits %q, model %q; want %q first by full text", hitTexts(res), res.Model, allergyText)
			}
			want := "the embedder remote-v1 is unreachable: llm: cannot reach the model server; results are full-text only"
			if len(res.Warnings) != 1 || res.Warnings[0] != want {
				t.Errorf("Warnings = %q, want [%q]", res.Warnings, want)
			}
			if lines := warnLines(logs.String()); len(lines) != 1 || !strings.Contains(lines[0], "unreachable") {
				t.Errorf("log warnings %q; want one line saying the embedder is unreachable", lines)
			}
			a, err := e.Retrieve.Query(ctx, u, "Is the user allergic to peanuts?", retrieve.QueryOptions{Prefer: retrieve.PreferNarrative})
			if err != nil || a.Source != retrieve.SourceNarrative || len(a.Warnings) != 1 || a.Warnings[0] != want {
				t.Errorf("Query = source %q, warnings %q, %v; want a narrative answer with the warning", a.Source, a.Warnings, err)
			}
		})
	}
	e := memory.New(s, memory.Options{Embedder: failingEmbedder{factbase.Errorf(factbase.EINVALID, "llm: the model refused the input")}})
	if _, err := e.Retrieve.Search(ctx, u, allergyQuery, retrieve.SearchOptions{}); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("Search with an embedder refusing the input: %v, want an invalid-input error", err)
	}
	down := memory.New(s, memory.Options{Embedder: failingEmbedder{factbase.Errorf(factbase.EUNAVAILABLE, "down")}})
	if _, err := down.Retrieve.Search(ctx, u, allergyQuery, retrieve.SearchOptions{Limit: -1}); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("invalid search with the embedder down: %v, want an invalid-input error", err)
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := down.Retrieve.Search(canceled, u, allergyQuery, retrieve.SearchOptions{}); err == nil {
		t.Error("Search with a canceled context succeeded, want an error")
	}
}

// TestWriteEmbedderDown: a message said while the embedder cannot be reached is
// stored (without vectors, with a warning), and reembed gives it vectors once the
// embedder is back; an embedder that refuses the input still fails the write.
func TestWriteEmbedderDown(t *testing.T) {
	ctx := t.Context()
	s := openStore(t, "", nil)
	u := storetest.NewUser()
	var logs strings.Builder
	down := memory.New(s, memory.Options{Embedder: failingEmbedder{factbase.Errorf(factbase.EUNAVAILABLE, "llm: cannot reach the model server")},
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	res, err := down.Chat.Say(ctx, u, "My email is ann@example.com and my favorite teas are oolong and chai.")
	if err != nil || res.Result.Stored != 3 {
		t.Fatalf("Say with the embedder down = %+v, %v; want the 3 facts stored", res.Result, err)
	}
	if _, err := down.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: "Deployed nexus v2.4.1 to production."}); err != nil {
		t.Fatalf("AddEpisode with the embedder down: %v", err)
	}
	if n := down.EmbedSkipped(); n < 4 {
		t.Errorf("EmbedSkipped = %d, want the 3 facts and the episode", n)
	}
	if lines := warnLines(logs.String()); len(lines) < 2 || !strings.Contains(lines[0], "factbase reembed") {
		t.Errorf("log warnings %q; want each write to say it stored without vectors", lines)
	}
	up := memory.New(s, memory.Options{Embedder: embed.NewHash(64)})
	unembedded := func() (n int, err error) {
		err = s.View(ctx, u, func(tx factbase.ReadTx) error {
			n, err = tx.CountUnembedded(ctx, embed.NewHash(64).Model())
			return err
		})
		return n, err
	}
	if n, err := unembedded(); err != nil || n < 4 {
		t.Fatalf("unembedded before reembed = %d %v, want at least 4", n, err)
	}
	if _, err := up.Retrieve.Reembed(ctx, u, nil); err != nil {
		t.Fatal(err)
	}
	if n, err := unembedded(); err != nil || n != 0 {
		t.Errorf("unembedded after reembed = %d %v, want 0", n, err)
	}
	refusing := memory.New(s, memory.Options{Embedder: failingEmbedder{factbase.Errorf(factbase.EINVALID, "llm: the model refused the input")}})
	if _, err := refusing.Chat.Say(ctx, u, "My phone is +1 555 0100."); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("Say with an embedder refusing the input: %v, want the invalid-input error", err)
	}
}
