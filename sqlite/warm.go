package sqlite

import (
	"context"
	"strconv"
	"sync"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/vecindex"
)

// After a write that stored vectors commits, the writer's user's in-memory copy of
// them (vectors.go) is brought up to date in the background: when the user has a
// copy already (they search), and when the write stored many vectors (a bulk load)
// and the user has more of that dimension than vec0 ranks. The search after a load
// then finds the vectors read instead of reading them itself: the first search
// after loading 100,000 memories took 1.35 s, the p99 of an interactive search
// (issue #26). A search that comes while the copy is being read waits for it, as it
// would for its own read. Work is coalesced per user: writes that come during a
// refresh are caught up by one more.

// At open, the same runs once over the users whose searches rank vectors in memory,
// most recently written first, as many as fill half the copies' budget (warmOpen):
// the first search after a restart finds its vectors read, or being read.

// warmBulk is the fewest vectors of a model and dimension a write stores for its
// user's copy to be made in the background.
const warmBulk = 256

// vecPut names the vectors of one model and dimension a transaction stored.
type vecPut struct {
	model string
	dim   int
}

// warmer runs the background refreshes of one Store.
type warmer struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	closed  bool
	pending map[factbase.UserID]map[vecPut]bool // a user's entry exists while a refresh of theirs runs
}

func newWarmer() *warmer {
	ctx, cancel := context.WithCancel(context.Background())
	return &warmer{ctx: ctx, cancel: cancel, pending: map[factbase.UserID]map[vecPut]bool{}}
}

// close stops the refreshes and waits for the one running.
func (w *warmer) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.cancel()
	w.wg.Wait()
}

// afterVectors is called by Update after a commit that stored puts (vectors by
// model and dimension) for user, whose row number is u.
func (s *Store) afterVectors(user factbase.UserID, u int64, puts map[vecPut]int) {
	x := vecCacheFor(s.rstmts)
	id := strconv.FormatInt(u, 10)
	w := s.warm
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	keys, running := w.pending[user]
	for k, n := range puts {
		if n >= warmBulk || x.Holds(id, k.model, k.dim) {
			if keys == nil {
				keys = map[vecPut]bool{}
			}
			keys[k] = true
		}
	}
	if keys == nil {
		return
	}
	w.pending[user] = keys
	if running {
		return // the running refresh takes them next
	}
	w.wg.Add(1)
	go s.warmUser(user)
}

// warmUser refreshes user's copies until no write asks for more.
func (s *Store) warmUser(user factbase.UserID) {
	w := s.warm
	defer w.wg.Done()
	for {
		w.mu.Lock()
		keys := w.pending[user]
		if len(keys) == 0 || w.closed {
			delete(w.pending, user)
			w.mu.Unlock()
			return
		}
		w.pending[user] = map[vecPut]bool{}
		w.mu.Unlock()
		// An error leaves the copy as it was: the next search reads what is missing.
		_ = s.view(w.ctx, user, s.reader, func(rt factbase.ReadTx) error {
			t := rt.(*tx)
			for k := range keys {
				var most int
				if err := t.queryRow(w.ctx, qVecKindMax, t.u, k.dim).Scan(&most); err != nil {
					return mapErr("vector count", err)
				}
				if most <= vecKNNMax {
					continue // vec0 ranks them: no copy
				}
				src := vecSource{t: t, model: k.model, dim: k.dim}
				if err := vecCacheFor(t.cache).Refresh(w.ctx, src, strconv.FormatInt(t.u, 10), k.model, k.dim); err != nil {
					return err
				}
			}
			return nil
		})
	}
}

// qWarmOpen lists the users with more than vecKNNMax vectors of a kind (bound as
// ?1), by model and dimension, most recently written first.
const qWarmOpen = `SELECT us.id, c.model, c.dim, sum(c.n) FROM embedding_counts c JOIN users us ON us.seq = c.u
	GROUP BY c.u, c.model, c.dim HAVING max(c.n) > ?1
	ORDER BY (SELECT max(seq) FROM embeddings e WHERE e.u = c.u) DESC`

// warmOpen makes, after Open, the copies of the users qWarmOpen lists while they
// fill at most half of the copies' budget, leaving the rest to the users who search.
func (s *Store) warmOpen() {
	w := s.warm
	defer w.wg.Done()
	type job struct {
		user factbase.UserID
		k    vecPut
	}
	var jobs []job
	rows, err := s.reader.QueryContext(w.ctx, qWarmOpen, vecKNNMax)
	if err != nil {
		return
	}
	var used int64
	for rows.Next() {
		var (
			j job
			n int64
		)
		if rows.Scan(&j.user, &j.k.model, &j.k.dim, &n) != nil {
			break
		}
		budget, each := vecCacheFor(s.rstmts).Budget(j.k.dim)
		if used += n * each; used > budget/2 {
			break
		}
		jobs = append(jobs, j)
	}
	rows.Close()
	for _, j := range jobs {
		w.mu.Lock()
		if w.closed {
			w.mu.Unlock()
			return
		}
		_, running := w.pending[j.user]
		keys := w.pending[j.user]
		if keys == nil {
			keys = map[vecPut]bool{}
		}
		keys[j.k] = true
		w.pending[j.user] = keys
		w.mu.Unlock()
		if !running {
			w.wg.Add(1)
			s.warmUser(j.user) // in this goroutine: one user at a time
		}
	}
}

var _ vecindex.Sizer = vecSource{}
