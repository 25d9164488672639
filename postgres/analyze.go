package postgres

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Statistics. The write path's look-ups (the member with a normalised value, the
// highest rank, the invariant figures) each have exactly one right index, a partial
// one; PostgreSQL picks it from the table's statistics. Without statistics — a table
// never analyzed, as on a server whose autovacuum is off — every index looks alike
// to the planner, and it was seen to read a user's whole subject through
// facts_subject for each append: O(n) per write instead of O(log n). So when the
// server's autovacuum is off, the store analyzes its tables itself, with
// autovacuum's own rule: after 50 + 10% of the facts table's rows have been written
// since the last time. When autovacuum is on, the store leaves statistics to it.

// analyzeTables are the tables whose statistics the write path and reads depend on.
const analyzeTables = "facts, list_sizes, list_events, fact_references, episodes, embeddings"

// analyzer runs ANALYZE in the background as writes accumulate.
type analyzer struct {
	enabled bool
	writes  atomic.Int64 // rows written since the last ANALYZE began
	limit   atomic.Int64 // writes that trigger the next ANALYZE
	running atomic.Bool
	wg      sync.WaitGroup
	stop    context.CancelFunc
	ctx     context.Context
	run     func(ctx context.Context) (rows float64, err error)
}

// newAnalyzer returns an analyzer that calls run (ANALYZE, returning the facts
// table's estimated rows) when enabled.
func newAnalyzer(enabled bool, run func(ctx context.Context) (float64, error)) *analyzer {
	ctx, stop := context.WithCancel(context.Background())
	a := &analyzer{enabled: enabled, ctx: ctx, stop: stop, run: run}
	a.limit.Store(50)
	return a
}

// wrote counts n rows written by a committed transaction and starts an ANALYZE when
// enough have been.
func (a *analyzer) wrote(n int) {
	if !a.enabled || n <= 0 {
		return
	}
	if a.writes.Add(int64(n)) < a.limit.Load() || !a.running.CompareAndSwap(false, true) {
		return
	}
	a.writes.Store(0)
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		defer a.running.Store(false)
		ctx, cancel := context.WithTimeout(a.ctx, 5*time.Minute)
		defer cancel()
		rows, err := a.run(ctx)
		if err != nil {
			// Not allowed (not the tables' owner) or the server went away: try again
			// after as many writes.
			return
		}
		a.limit.Store(50 + int64(rows/10))
	}()
}

// close stops a running ANALYZE and waits for it.
func (a *analyzer) close() {
	a.stop()
	a.wg.Wait()
}
