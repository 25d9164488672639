package memory_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/bench"
	"github.com/factbase/factbase/eval"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

// The synthetic facts and questions are factbase bench's (bench.EntityFact,
// bench.Questions): a user's memory of people, places and habits whose words repeat,
// as they do in real memories, so that query words have long posting lists.

// fill100k gives one user 100,000 facts, with GloVe vectors, in batches of 1,000.
func fill100k(b *testing.B) (*memory.Engine, factbase.UserID) { return fillFacts(b, 100000) }

// fillFacts gives one user n facts (a multiple of 1,000), with GloVe vectors, in
// batches of 1,000.
func fillFacts(b *testing.B, n int) (*memory.Engine, factbase.UserID) {
	b.Helper()
	e := newEngine(b, memory.Options{Embedder: glove(b)})
	u := storetest.NewUser()
	r := rand.New(rand.NewPCG(1, 2))
	start := time.Now()
	for off := 0; off < n; off += 1000 {
		ops := make([]factbase.Op, 0, 1000)
		for i := off; i < off+1000; i++ {
			ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: bench.EntityFact(r, i)})
		}
		mustApply(b, e, u, ops...)
	}
	b.Logf("%d facts written with vectors in %v", n, time.Since(start).Round(time.Millisecond))
	return e, u
}

// percentiles reports the p50, p95 and p99 of ds in milliseconds, named
// prefix+"p50-ms".
func percentiles(b *testing.B, prefix string, ds []time.Duration) {
	if len(ds) == 0 || ds[0] < 0 {
		return
	}
	slices.Sort(ds)
	at := func(p float64) float64 { return float64(ds[int(p*float64(len(ds)-1))].Microseconds()) / 1000 }
	b.ReportMetric(at(0.50), prefix+"p50-ms")
	b.ReportMetric(at(0.95), prefix+"p95-ms")
	b.ReportMetric(at(0.99), prefix+"p99-ms")
}

// timeLoop runs op(i) in the benchmark's i-th iteration, on one locked OS thread,
// and reports the percentiles of its wall and thread CPU times.
func timeLoop(b *testing.B, op func(i int) error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var wall, cpu []time.Duration
	for i := 0; b.Loop(); i++ {
		c, start := threadCPU(), time.Now()
		err := op(i)
		wall = append(wall, time.Since(start))
		if c >= 0 {
			cpu = append(cpu, threadCPU()-c)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	percentiles(b, "", wall)
	percentiles(b, "cpu-", cpu)
}

// BenchmarkSearch100k is hybrid search (BM25 + GloVe vectors, fused, decayed,
// boosted, top 10 with their rows) over 100,000 facts of one user. The first search
// loads the user's vectors into memory; it runs before the timer starts.
func BenchmarkSearch100k(b *testing.B) { benchSearch(b, 100000) }

// BenchmarkSearch4k is the same over 4,000 facts, few enough for the SQLite store
// to rank vectors with sqlite-vec's k-NN (vec0) instead of an in-memory copy.
func BenchmarkSearch4k(b *testing.B) { benchSearch(b, 4000) }

func benchSearch(b *testing.B, n int) {
	e, u := fillFacts(b, n)
	ctx := b.Context()
	qs := bench.Questions(3, 200)
	cold := time.Now()
	if _, err := e.Retrieve.Search(ctx, u, qs[0], retrieve.SearchOptions{}); err != nil {
		b.Fatal(err)
	}
	b.Logf("first search (loads the vectors): %v", time.Since(cold).Round(time.Millisecond))
	timeLoop(b, func(i int) error {
		res, err := e.Retrieve.Search(ctx, u, qs[i%len(qs)], retrieve.SearchOptions{})
		if err != nil || len(res.Hits) == 0 {
			return fmt.Errorf("Search(%q) = %d hits, %v", qs[i%len(qs)], len(res.Hits), err)
		}
		return nil
	})
}

// BenchmarkSearchMemories100k is hybrid search over 100,000 short free-text memories
// (episodes) of one user, GloVe vectors, the questions of factbase bench search
// (issue #26's case: counting the query's words among the episodes was most of
// it). The first search runs before the timer starts.
func BenchmarkSearchMemories100k(b *testing.B) {
	const n = 100_000
	e := newEngine(b, memory.Options{Embedder: glove(b)})
	u := storetest.NewUser()
	ctx := b.Context()
	start := time.Now()
	for off := 0; off < n; off += ingest.MaxEpisodeBatch {
		in := make([]ingest.EpisodeInput, 0, ingest.MaxEpisodeBatch)
		for i := off; i < off+ingest.MaxEpisodeBatch; i++ {
			in = append(in, ingest.EpisodeInput{Content: bench.GenMemory(1, n, i).Text})
		}
		if _, _, err := e.Ingest.AddEpisodes(ctx, u, in); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("%d memories written with vectors in %v", n, time.Since(start).Round(time.Millisecond))
	qs := make([]string, 200)
	for j := range qs {
		qs[j] = bench.GenQuestion(1, n, j).Text
	}
	if _, err := e.Retrieve.Search(ctx, u, qs[0], retrieve.SearchOptions{}); err != nil {
		b.Fatal(err)
	}
	timeLoop(b, func(i int) error {
		res, err := e.Retrieve.Search(ctx, u, qs[i%len(qs)], retrieve.SearchOptions{})
		if err != nil || len(res.Hits) == 0 {
			return fmt.Errorf("Search(%q) = %d hits, %v", qs[i%len(qs)], len(res.Hits), err)
		}
		return nil
	})
}

// BenchmarkAsk100k asks everyday questions (issue #24's, about lists, people,
// groups, history and time) of a user with 100,000 facts besides them, through the
// one answer path; point-read is the engine's read of one key in the same store, for
// scale.
func BenchmarkAsk100k(b *testing.B) {
	e, u := fill100k(b)
	ctx := people.WithMessage(b.Context(), people.MessageInfo{Time: time.Now()})
	for _, m := range []string{"I live in Bergen.", "I moved to Oslo.", "My husband Ben works at Figma.",
		"My son Kai was born on May 4, 2018.", "My brother Tom works at Siemens.", "My son Max is 7.",
		"We have a dog named Rex.", "My daughter Lea is allergic to nuts.", "I have a dentist appointment on Friday at 10am.",
		"My favorite podcasts are Radiolab and Serial.", "My favorite books are Dune and Emma."} {
		if _, err := e.Chat.Say(ctx, u, m); err != nil {
			b.Fatal(err)
		}
	}
	qs := []string{"Who is my husband?", "When is Kai's birthday?", "Where does my brother work?", "How old is Max?",
		"Do we have any pets?", "Is anyone in my family allergic to nuts?", "What do I have on Friday?",
		"Where did I live before Oslo?", "How many favorite podcasts do I have?", "Is Dune one of my favorite books?",
		"What's my least favorite book?", "What is my blood type?"}
	b.Run("ask", func(b *testing.B) {
		timeLoop(b, func(i int) error {
			_, err := e.Chat.Ask(ctx, u, qs[i%len(qs)])
			return err
		})
	})
	b.Run("point-read", func(b *testing.B) {
		timeLoop(b, func(int) error {
			fs, err := e.Get(ctx, u, factbase.SubjectUser, factbase.KeyCity, nil)
			if err == nil && len(fs) != 1 {
				err = fmt.Errorf("home city: %d facts", len(fs))
			}
			return err
		})
	})
}

// BenchmarkLookup is the direct fact look-up by type (newest 10) among 100,000 facts
// of one user.
func BenchmarkLookup(b *testing.B) {
	e, u := fill100k(b)
	ctx := b.Context()
	timeLoop(b, func(i int) error {
		rs, _, err := e.Retrieve.Lookup(ctx, u, retrieve.LookupOptions{Type: bench.Types[i%len(bench.Types)], Limit: 10})
		if err != nil || len(rs) != 10 {
			return fmt.Errorf("Lookup = %d results, %v", len(rs), err)
		}
		return nil
	})
}

// BenchmarkAddEpisode stores a 300-byte episode with extraction and its vectors.
func BenchmarkAddEpisode(b *testing.B) {
	e := newEngine(b, memory.Options{Embedder: glove(b)})
	u := storetest.NewUser()
	ctx := b.Context()
	i := 0
	for b.Loop() {
		_, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: fmt.Sprintf(
			"Session %d complete: NEXUS v2.3.%d deployed to staging. Test success rate 97%%, p95 latency 120 ms. Phase 3 IN_PROGRESS; the team reviewed the retrieval failures.", i, i)})
		if err != nil {
			b.Fatal(err)
		}
		i++
	}
}

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
// measured when the ranking last changed (0.767 with two turns of context on each
// side). The goal is 0.70; see the README.
const locomoFloor = 0.75

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
