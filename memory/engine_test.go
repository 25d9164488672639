package memory_test

import (
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/sqlite"
)

// The integration tests' common ground: the store and engine every test builds, and
// the reads and writes many of them assert with.

// alice is the user of the tests that want a fixed user id.
const alice = factbase.UserID("3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d")

// openStore opens the SQLite store at path, or at a new file in t.TempDir() when
// path is "", and closes it when the test ends. now, when not nil, is its clock.
func openStore(t testing.TB, path string, now func() time.Time) *sqlite.Store {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "f.db")
	}
	// Not t.Context(): the store prepares statements in the background with it.
	s, err := sqlite.Open(t.Context(), path, sqlite.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// newEngine returns an engine with options o over a new SQLite store (e.Store()).
func newEngine(t testing.TB, o memory.Options) *memory.Engine {
	t.Helper()
	return memory.New(openStore(t, "", nil), o)
}

// clock is a settable clock for a store.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// fixed returns a clock that always says now.
func fixed(now time.Time) func() time.Time { return func() time.Time { return now } }

// glove returns the built-in offline embedder.
func glove(t testing.TB) *embed.GloVe {
	t.Helper()
	g, err := embed.NewGloVe()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// set is the op that sets key to value for the user.
func set(key, value string) factbase.Op {
	return factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: key, Value: value}}
}

// mustApply applies ops through the write path.
func mustApply(t testing.TB, e *memory.Engine, u factbase.UserID, ops ...factbase.Op) factbase.Result {
	t.Helper()
	res, err := e.Apply(t.Context(), u, ops)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return res
}

// addReferences records refs in one write.
func addReferences(t testing.TB, e *memory.Engine, u factbase.UserID, refs []factbase.Reference) {
	t.Helper()
	ctx := t.Context()
	if _, err := e.ApplyWith(ctx, u, nil, func(w *core.Writer) error {
		_, err := w.Tx().AddReferences(ctx, refs)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// references returns the references of fact id.
func references(t testing.TB, s factbase.Store, u factbase.UserID, id string) []factbase.Reference {
	t.Helper()
	var rs []factbase.Reference
	err := s.View(t.Context(), u, func(tx factbase.ReadTx) (err error) {
		rs, err = tx.References(t.Context(), id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// values returns the values of the current facts that filter selects, in stored
// order.
func values(t testing.TB, e *memory.Engine, u factbase.UserID, filter factbase.FactFilter) []string {
	t.Helper()
	facts, err := e.Facts(t.Context(), u, filter)
	if err != nil {
		t.Fatal(err)
	}
	return mapStrings(facts, func(f factbase.Fact) string { return f.Value })
}

// addEpisodes stores each content as an episode with tags.
func addEpisodes(t testing.TB, e *memory.Engine, u factbase.UserID, contents []string, tags ...string) []ingest.EpisodeResult {
	t.Helper()
	var out []ingest.EpisodeResult
	for _, c := range contents {
		r, err := e.Ingest.AddEpisode(t.Context(), u, ingest.EpisodeInput{Content: c, Tags: tags})
		if err != nil {
			t.Fatalf("AddEpisode(%q): %v", c, err)
		}
		out = append(out, r)
	}
	return out
}

// mapStrings renders each of xs with f: the form the tests compare lists in. It is
// nil for no xs.
func mapStrings[T any](xs []T, f func(T) string) []string {
	var out []string
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}
