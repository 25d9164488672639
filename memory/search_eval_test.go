package memory_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/eval"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

// locomoPath finds the LoCoMo development split: $FACTBASE_LOCOMO, else the shared
// bench directory beside the repository.
func locomoPath() string {
	if p := os.Getenv("FACTBASE_LOCOMO"); p != "" {
		return p
	}
	return filepath.Join("..", "..", "shared", "bench", "locomo", "locomo-dev.json")
}

// episodeSystem stores each LoCoMo turn as an episode ("Speaker: text", created at
// the session's time, its dia id in the metadata) and retrieves with Search over
// episodes, answering with the hits' dia ids.
type episodeSystem struct {
	e    *memory.Engine
	s    *sqlite.Store
	u    factbase.UserID
	last time.Time
}

func (s *episodeSystem) Ingest(ctx context.Context, t eval.Turn, at time.Time) error {
	if at.After(s.last) {
		s.last = at
	}
	_, err := s.e.Ingest.AddEpisode(ctx, s.u, ingest.EpisodeInput{
		Content: t.Speaker + ": " + t.Text, CreatedAt: at, NoExtract: true,
		Metadata: map[string]string{"dia_id": t.DiaID, "speaker": t.Speaker},
	})
	return err
}

func (s *episodeSystem) Retrieve(ctx context.Context, q string, k int) ([]string, error) {
	res, err := s.e.Retrieve.Search(ctx, s.u, q, retrieve.SearchOptions{Kinds: []string{factbase.KindEpisode}, Limit: k, Now: s.last})
	if err != nil {
		return nil, err
	}
	return mapStrings(res.Hits, func(h retrieve.Hit) string { return h.Episode.Metadata["dia_id"] }), nil
}

func (s *episodeSystem) Close() error { return s.s.Close() }

// locomoFloor is the overall recall@10 (categories 1-4) below which
// TestLoCoMoRecall fails: a guard against regressions, set just under the figure
// measured when the ranking last changed (0.731 with conversation context). The goal
// is 0.70; see the README.
const locomoFloor = 0.72

// TestLoCoMoRecall runs the LoCoMo retrieval evaluation over episode search with the
// built-in embedder, on the development split when it is present, and logs recall@k
// per category.
func TestLoCoMoRecall(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: ingests 2,080 turns")
	}
	if raceEnabled {
		// Minutes under the race detector (SQLite some thirtyfold slower), and the
		// evaluation runs nothing concurrently; TestSearchConcurrent covers races.
		t.Skip("slow under the race detector, and single-threaded")
	}
	f, err := os.Open(locomoPath())
	if err != nil {
		t.Skipf("LoCoMo development split not found (%v); set FACTBASE_LOCOMO", err)
	}
	defer f.Close()
	convs, err := eval.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	g := glove(t)
	dir := t.TempDir()
	rep, err := eval.Run(t.Context(), convs, eval.Options{
		Ks: []int{5, 10, 25},
		NewSystem: func(ctx context.Context, c eval.Conversation) (eval.System, error) {
			s, err := sqlite.Open(ctx, filepath.Join(dir, c.ID+".db"), sqlite.Options{})
			if err != nil {
				return nil, err
			}
			return &episodeSystem{e: memory.New(s, memory.Options{Embedder: g}), s: s, u: storetest.NewUser()}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	ks := make([]string, 0, len(rep.Recall))
	for k := range rep.Recall {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		r := rep.Recall[k]
		t.Logf("recall@%s: overall %.3f all %.3f | c1 %.3f c2 %.3f c3 %.3f c4 %.3f c5 %.3f",
			k, r["overall"], r["all"], r["1"], r["2"], r["3"], r["4"], r["5"])
	}
	t.Logf("latency p50 %.2f ms p95 %.2f ms; ingest %.0f turns/s", rep.LatencyMS.P50, rep.LatencyMS.P95, rep.Ingest.TurnsPerSecond)
	if got := rep.Recall["10"]["overall"]; got < locomoFloor {
		t.Errorf("overall recall@10 = %.3f, want at least %.2f", got, locomoFloor)
	}
}
