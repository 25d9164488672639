package sqlite

import (
	"container/list"
	"context"
	"database/sql"
	"slices"
	"sync"
	"time"

	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/storeerr"
)

// stmtCache keeps prepared statements of one connection pool by SQL text, so that a
// statement is parsed once per connection instead of once per call. Transactions
// reuse them through Tx.StmtContext, which prepares a statement on the transaction's
// connection the first time and reuses it after.
//
// It holds two kinds. The static statements (allStaticQueries) are prepared at open,
// while no transaction holds a connection, and stay until the store closes. Dynamic
// statements (the Facts filters, built from the filter's fields) are cached by text
// in a bounded LRU. They cannot be prepared on the pool from inside a transaction:
// that waits for a free connection, and the transaction itself holds one (the writer
// has only one; four readers all inside transactions would wait for each other). So
// a miss prepares the statement on the transaction, as before; the second miss of
// the same text starts a background preparation on the pool, which waits for a
// connection without holding one, and later calls find it in the cache. Waiting for
// the second miss keeps one-off texts (IN lists of a rare length) out of the cache.
//
// A cached statement is parsed again anyway when it binds its LIMIT: SQLite's planner
// reads a bound LIMIT value, so a statement with "LIMIT ?" is re-prepared on every
// run (BenchmarkLimitParameter). Read queries write their limit as a literal.
type stmtCache struct {
	db *sql.DB
	mu sync.Mutex
	m  map[string]*sql.Stmt // static statements; nil once closed

	max     int                      // bound on dynamic statements; 0: none are cached
	dyn     map[string]*list.Element // SQL text -> element of lru, whose Value is *dynStmt
	lru     *list.List               // most recently used first
	pending map[string]bool          // dynamic statements being prepared
	seen    map[string]bool          // dynamic texts missed once; emptied when full
	wg      sync.WaitGroup           // background preparations (tests wait for them)

	hits, misses int64 // dynamic lookups, for tests and benchmarks

	// vecTables holds the dimensions whose vec_<dim> table a committed transaction
	// found (vectors.go), so writes skip the schema look-up; tables are never dropped.
	vecTables sync.Map // int -> bool
	// shares holds each user's share of the full-text entries of a kind (search.go).
	shares sync.Map // shareKey -> ownerShare
	// exactVectors is Options.ExactVectors: the vector index keeps float32s, not codes.
	exactVectors bool
}

type dynStmt struct {
	query string
	stmt  *sql.Stmt
}

// maxDynamicStmts bounds the dynamic statements of one pool; the Facts filter has a
// few hundred shapes at most, and a program uses a handful of them.
const maxDynamicStmts = 256

// maxSeenTexts bounds the texts remembered as missed once; maxDynamicText the length
// of a text that is cached at all.
const (
	maxSeenTexts   = 1024
	maxDynamicText = 8 << 10
)

// dynamicPrepareTimeout bounds a background preparation's wait for a connection.
const dynamicPrepareTimeout = 30 * time.Second

// allStaticQueries lists every static statement of the store, prepared at open. A
// feature file declares its own slice and adds it here.
func allStaticQueries() [][]string {
	return [][]string{
		staticQueries, rankQueries,
		episodeQueries, searchQueries,
		keysQueries,
		transcriptQueries, vectorBulkQueries,
		sheetQueries,
		jobQueries,
		peopleQueries,
		ftsQueries,
	}
}

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, m: map[string]*sql.Stmt{}, max: maxDynamicStmts,
		dyn: map[string]*list.Element{}, lru: list.New(), pending: map[string]bool{}, seen: map[string]bool{}}
}

// prepare fills the cache; call it only while no transaction is open.
func (c *stmtCache) prepare(ctx context.Context, lists [][]string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, q := range slices.Concat(lists...) {
		s, err := c.db.PrepareContext(ctx, q)
		if err != nil {
			return mapErr("prepare", err)
		}
		c.m[q] = s
	}
	return nil
}

// get returns the static statement query, or nil.
func (c *stmtCache) get(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[query]
}

// lookup returns query's statement from the static statements or the dynamic LRU.
// On a miss it returns nil; on the second miss of query it starts preparing it on the
// pool in the background (unless the cache is closed or already preparing it).
func (c *stmtCache) lookup(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.m[query]; s != nil || c.m == nil || c.max <= 0 {
		return s
	}
	if e := c.dyn[query]; e != nil {
		c.hits++
		c.lru.MoveToFront(e)
		return e.Value.(*dynStmt).stmt
	}
	c.misses++
	switch {
	case c.pending[query] || len(query) > maxDynamicText:
	case !c.seen[query]:
		if len(c.seen) >= maxSeenTexts {
			clear(c.seen)
		}
		c.seen[query] = true
	default:
		delete(c.seen, query)
		c.pending[query] = true
		c.wg.Add(1)
		go c.prepareDynamic(query)
	}
	return nil
}

// prepareDynamic prepares query on the pool and adds it to the LRU, closing the
// least recently used statement beyond the bound. A statement closed while a
// transaction uses it stays usable: database/sql closes it when the last user is
// done. A failed preparation is forgotten; the next miss tries again.
func (c *stmtCache) prepareDynamic(query string) {
	defer c.wg.Done()
	ctx, cancel := context.WithTimeout(context.Background(), dynamicPrepareTimeout)
	defer cancel()
	s, err := c.db.PrepareContext(ctx, query)
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.pending, query)
	if err != nil {
		return
	}
	if c.m == nil || c.dyn[query] != nil { // closed meanwhile, or a duplicate
		s.Close()
		return
	}
	c.dyn[query] = c.lru.PushFront(&dynStmt{query: query, stmt: s})
	for c.lru.Len() > c.max {
		old := c.lru.Remove(c.lru.Back()).(*dynStmt)
		delete(c.dyn, old.query)
		old.stmt.Close()
	}
}

// wait waits for the background preparations started so far (Store.Close, tests).
func (c *stmtCache) wait() { c.wg.Wait() }

// dynamicLen returns the number of cached dynamic statements.
func (c *stmtCache) dynamicLen() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// close closes every cached statement. A background preparation still running
// closes its statement when it finishes.
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.m {
		s.Close()
	}
	c.m = nil
	for e := c.lru.Front(); e != nil; e = e.Next() {
		e.Value.(*dynStmt).stmt.Close()
	}
	c.lru.Init()
	clear(c.dyn)
}

// stmt returns query prepared for the transaction.
func (t *tx) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if t.q == nil { // a single-statement read on the pool (Store.CurrentFact)
		if s := t.cache.get(query); s != nil {
			return s, nil
		}
		return nil, storeerr.ErrClosed
	}
	if s := t.cache.lookup(query); s != nil {
		return t.q.StmtContext(ctx, s), nil
	}
	s, err := t.q.PrepareContext(ctx, query)
	if err != nil {
		return nil, mapErr("prepare", err)
	}
	return s, nil
}

func (t *tx) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	s, err := t.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.ExecContext(ctx, args...)
}

func (t *tx) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	s, err := t.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.QueryContext(ctx, args...)
}

// execCount runs query and returns how many rows it changed; its error is mapped
// naming op.
func (t *tx) execCount(ctx context.Context, op, query string, args ...any) (int, error) {
	res, err := t.exec(ctx, query, args...)
	if err != nil {
		return 0, mapErr(op, err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// byID reads with scan the row of the user's what (entity, conflict, ...) id that
// query selects (its parameters: the user, id): ENOTFOUND if there is none, other
// errors mapped naming what.
func byID[T any](ctx context.Context, t *tx, what, query, id string, scan func(rowcodec.Scanner) (T, error)) (T, error) {
	v, err := scan(t.queryRow(ctx, query, t.u, id))
	return v, mapErr(what, storeerr.NotFoundIf(err, sql.ErrNoRows, what, id))
}

// put runs the upsert query of v with the arguments that args (a rowcodec encoder,
// which validates v) makes of it for the user; its error is mapped naming op.
func put[T any](ctx context.Context, t *tx, op, query string, args func(any, T, time.Time) ([]any, error), v T) error {
	a, err := args(t.u, v, t.now)
	if err == nil {
		_, err = t.exec(ctx, query, a...)
	}
	return mapErr(op, err)
}

// queryRow returns a row whose Scan reports a prepare error too.
func (t *tx) queryRow(ctx context.Context, query string, args ...any) rowcodec.Scanner {
	s, err := t.stmt(ctx, query)
	if err != nil {
		return errRow{err}
	}
	return s.QueryRowContext(ctx, args...)
}

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
