package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// HNSW index builds. The index of a dimension (pgvector.go) is built when a search of
// that dimension finds none valid, in the background, on a connection of its own
// without a statement timeout: CREATE INDEX CONCURRENTLY does not block writers, but
// it cannot run in a transaction and waits for the transactions older than it. A
// session advisory lock per schema and dimension lets one server build while the
// others search exactly meanwhile. A build that failed or was cancelled (Close)
// leaves an invalid index, which the next build drops first.
//
// Every search reads the index's validity from the catalogue, so what a server keeps
// here is only when it last tried each dimension's build: at most maxIndexDims
// entries (a database holds as many dimensions as embedders it has known), so that a
// build is tried at most every indexRecheck by each server.

// maxIndexDims bounds the dimensions whose builds a server remembers.
const maxIndexDims = 64

// indexRecheck is how long a server waits before it tries again to build the index of
// a dimension still not valid (another server builds it, or a build failed).
const indexRecheck = 30 * time.Second

// hnswIndexes builds the HNSW indexes of one store.
type hnswIndexes struct {
	s      *Store
	ctx    context.Context // cancelled by close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu    sync.Mutex
	tried map[int]time.Time // when a build of each dimension last started
	err   error             // the last build's error, for tests
}

func newHNSWIndexes(s *Store) *hnswIndexes {
	ctx, cancel := context.WithCancel(context.Background())
	return &hnswIndexes{s: s, ctx: ctx, cancel: cancel, tried: map[int]time.Time{}}
}

// close cancels the builds under way and waits for them to end; request starts no
// build after it (both hold mu).
func (x *hnswIndexes) close() {
	x.mu.Lock()
	x.cancel()
	x.mu.Unlock()
	x.wg.Wait()
}

// indexName names the HNSW index of dim.
func indexName(dim int) string { return fmt.Sprintf("embeddings_hnsw_%d", dim) }

// request starts a build of dim's index in the background, unless one started less
// than indexRecheck ago or no HNSW index can hold dim. It never waits.
func (x *hnswIndexes) request(dim int) {
	if typ, _ := x.s.pgv.hnswType(dim); typ == "" {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	last, ok := x.tried[dim]
	switch {
	case x.ctx.Err() != nil:
		return
	case ok && time.Since(last) < indexRecheck:
		return
	case !ok && len(x.tried) >= maxIndexDims:
		for d, at := range x.tried { // forget the builds tried longest ago
			if time.Since(at) >= indexRecheck {
				delete(x.tried, d)
			}
		}
		if len(x.tried) >= maxIndexDims {
			return
		}
	}
	x.tried[dim] = time.Now()
	x.wg.Add(1)
	go func() {
		defer x.wg.Done()
		err := x.build(x.ctx, dim)
		x.mu.Lock()
		x.err = err
		x.mu.Unlock()
	}()
}

// querier is what indexValid needs: a connection, a pool or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// indexValid reports whether dim's index exists and whether it is valid.
func indexValid(ctx context.Context, q querier, dim int) (valid, exists bool, err error) {
	err = q.QueryRow(ctx, "SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass($1)", indexName(dim)).Scan(&valid)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, false, nil
	}
	return valid, err == nil, mapErr("vector index", err)
}

// build builds dim's index unless it is valid or another server is building it, and
// returns the build's error.
func (x *hnswIndexes) build(ctx context.Context, dim int) error {
	cfg := x.s.pool.Config().ConnConfig.Copy()
	cfg.RuntimeParams["statement_timeout"] = "0"
	cfg.RuntimeParams["application_name"] = "factbase index build"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return mapErr("vector index", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	lockKey := fmt.Sprintf("factbase hnsw %s %d", x.s.schema, dim)
	var locked bool
	if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock(hashtextextended($1, 0))", lockKey).Scan(&locked); err != nil {
		return mapErr("vector index", err)
	}
	if !locked {
		return nil // another server builds it; the lock goes with the connection
	}
	valid, exists, err := indexValid(ctx, conn, dim)
	if err != nil || valid {
		return err
	}
	name := pgx.Identifier{indexName(dim)}.Sanitize()
	if exists {
		if _, err := conn.Exec(ctx, "DROP INDEX CONCURRENTLY IF EXISTS "+name); err != nil {
			return mapErr("vector index", err)
		}
	}
	typ, ops := x.s.pgv.hnswType(dim)
	ddl := fmt.Sprintf("CREATE INDEX CONCURRENTLY IF NOT EXISTS %s ON embeddings USING hnsw ((vec::%s(%d)) %s) WHERE dim = %d",
		name, typ, dim, ops, dim)
	_, err = conn.Exec(ctx, ddl)
	return mapErr("vector index", err)
}
