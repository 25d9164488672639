package sqlite

import (
	"context"
	"database/sql"
	"slices"
	"sync"
)

// stmtCache keeps prepared statements of one connection pool by SQL text, so that a
// statement is parsed once per connection instead of once per call. Transactions
// reuse them through Tx.StmtContext, which prepares a statement on the transaction's
// connection the first time and reuses it after. The cache is filled at open, while
// no transaction holds a connection: preparing on the pool inside a transaction
// would wait for a connection the transaction itself holds (the writer has one).
// Statements not in the cache (dynamic filters) are prepared on the transaction.
type stmtCache struct {
	db *sql.DB
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// maxCached bounds the cache; dynamic filter queries have a few hundred shapes at most.
// allStaticQueries lists every static statement of the store, prepared at open. A
// feature file declares its own slice and adds it here.
func allStaticQueries() [][]string {
	return [][]string{
		staticQueries,
		episodeQueries, searchQueries,
		keysQueries,
		transcriptQueries,
		sheetQueries,
		jobQueries,
		peopleQueries,
	}
}

func newStmtCache(db *sql.DB) *stmtCache { return &stmtCache{db: db, m: map[string]*sql.Stmt{}} }

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

func (c *stmtCache) get(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[query]
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.m {
		s.Close()
	}
	c.m = nil
}

// stmt returns query prepared for the transaction.
func (t *tx) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if s := t.cache.get(query); s != nil {
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

// queryRow returns a row whose Scan reports a prepare error too.
func (t *tx) queryRow(ctx context.Context, query string, args ...any) scanner {
	s, err := t.stmt(ctx, query)
	if err != nil {
		return errRow{err}
	}
	return s.QueryRowContext(ctx, args...)
}

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
