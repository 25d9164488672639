package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/storeerr"
)

// What the store's tables hold and cost, for benchmarks and capacity planning
// (factbase bench scale, docs/scaling.md); none of it is on a request's path.

// TableSize is one table of the store's schema on disk.
type TableSize struct {
	Name string `json:"name"`
	// Rows is the table's exact row count (every row is read to count it).
	Rows int64 `json:"rows"`
	// Bytes is the table with its indexes and TOAST (pg_total_relation_size);
	// IndexBytes the indexes' share of it.
	Bytes      int64 `json:"bytes"`
	IndexBytes int64 `json:"index_bytes"`
}

// TableSizes returns every table of the store's schema with its exact row count and
// its size on disk, largest first. It reads every row of every table: for
// benchmarks and operators, not for a request.
func (s *Store) TableSizes(ctx context.Context) ([]TableSize, error) {
	if s.gate.Closed() {
		return nil, storeerr.ErrClosed
	}
	rows, err := s.pool.Query(ctx, `SELECT c.relname, pg_total_relation_size(c.oid), pg_indexes_size(c.oid)
		FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
		ORDER BY 2 DESC, 1`)
	if err != nil {
		return nil, mapErr("table sizes", err)
	}
	var (
		out []TableSize
		t   TableSize
	)
	if _, err := pgx.ForEachRow(rows, []any{&t.Name, &t.Bytes, &t.IndexBytes}, func() error {
		out = append(out, t)
		return nil
	}); err != nil {
		return nil, mapErr("table sizes", err)
	}
	for i := range out {
		q := "SELECT count(*) FROM " + pgx.Identifier{out[i].Name}.Sanitize()
		if err := s.pool.QueryRow(ctx, q).Scan(&out[i].Rows); err != nil {
			return nil, mapErr("table sizes", err)
		}
	}
	return out, nil
}

// BlockCounts returns how many blocks the reads of the store's tables (their heap,
// indexes and TOAST) found in PostgreSQL's shared buffers (hit) and how many they
// had to read from the operating system (read), since the server's statistics were
// last reset: the difference of two calls is what the work between them cost. The
// idle connections of the pool are made to report their counts first.
func (s *Store) BlockCounts(ctx context.Context) (hit, read int64, err error) {
	if s.gate.Closed() {
		return 0, 0, storeerr.ErrClosed
	}
	for _, c := range s.pool.AcquireAllIdle(ctx) {
		// A backend reports its counts when it goes idle, at most once a second
		// unless forced, which this statement does. Before PostgreSQL 15 there is no
		// such function, and the counts may be a few seconds late.
		c.Exec(ctx, "SELECT pg_stat_force_next_flush()")
		c.Release()
	}
	err = s.pool.QueryRow(ctx, `SELECT
		coalesce(sum(coalesce(heap_blks_hit, 0) + coalesce(idx_blks_hit, 0) + coalesce(toast_blks_hit, 0) + coalesce(tidx_blks_hit, 0)), 0)::bigint,
		coalesce(sum(coalesce(heap_blks_read, 0) + coalesce(idx_blks_read, 0) + coalesce(toast_blks_read, 0) + coalesce(tidx_blks_read, 0)), 0)::bigint
		FROM pg_statio_all_tables WHERE schemaname = current_schema()`).Scan(&hit, &read)
	return hit, read, mapErr("block counts", err)
}

// BuildVectorIndex builds the HNSW index of vectors of dim now, as the first search
// of that dimension would in the background (pgvector_index.go), and returns when it
// is valid: after a bulk load, so that the first searches do not rank exactly. It
// returns nil at once when the index is valid, and EINVALID when the store does not
// use pgvector or no HNSW index can hold dim. Another server's build under way is
// waited for. A build chosen as a deadlock's victim (a database-wide ANALYZE or
// VACUUM waits for its lock while it waits for their transactions) starts again, a
// few times.
func (s *Store) BuildVectorIndex(ctx context.Context, dim int) error {
	if s.gate.Closed() {
		return storeerr.ErrClosed
	}
	if s.pgv == nil {
		return factbase.Errorf(factbase.EINVALID, "postgres: vectors are not in pgvector (%s)", s.vecReason)
	}
	if typ, _ := s.pgv.hnswType(dim); typ == "" {
		return factbase.Errorf(factbase.EINVALID, "postgres: no HNSW index holds vectors of %d dimensions", dim)
	}
	for deadlocks := 0; ; {
		if err := s.pgv.indexes.build(ctx, dim); err != nil {
			if deadlocks++; retryable(err) && deadlocks <= s.retries {
				continue
			}
			return err
		}
		valid, _, err := indexValid(ctx, s.pool, dim)
		if err != nil || valid {
			return err
		}
		select { // another server holds the build's lock
		case <-ctx.Done():
			return mapErr("vector index", ctx.Err())
		case <-time.After(time.Second):
		}
	}
}

// qVecMostOfDim is the most vectors of a dimension any user holds.
const qVecMostOfDim = "SELECT coalesce(max(n), 0) FROM embedding_dims WHERE dim = $1"

// VectorIndexWanted reports whether a search of vectors of dim would have the
// dimension's HNSW index built (pgvector.go: hnswUseful): whether some user holds
// enough of them that walking the index could beat scanning the user's vectors, for
// a search of limit items. False without pgvector.
func (s *Store) VectorIndexWanted(ctx context.Context, dim, limit int) (bool, error) {
	if s.gate.Closed() {
		return false, storeerr.ErrClosed
	}
	if s.pgv == nil {
		return false, nil
	}
	var most int64
	if err := s.pool.QueryRow(ctx, qVecMostOfDim, dim).Scan(&most); err != nil {
		return false, mapErr("vector index", err)
	}
	return hnswUseful(most, limit), nil
}

// DropSchema closes the store and drops its schema (Options.Schema) with everything
// in it: for benchmarks and tests that made a schema for themselves. The pgvector
// extension, if it lives there, moves to the schema public first, so that the
// vector columns of other schemas keep their type. A store without a schema of its
// own is refused (EINVALID).
func (s *Store) DropSchema(ctx context.Context) error {
	if s.schema == "" {
		return factbase.Errorf(factbase.EINVALID, "postgres: the store has no schema of its own to drop")
	}
	if s.gate.Closed() {
		return storeerr.ErrClosed
	}
	cfg := s.pool.Config().ConnConfig.Copy()
	s.Close()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return mapErr("drop schema", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var inSchema bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
		WHERE e.extname = 'vector' AND n.nspname = $1)`, s.schema).Scan(&inSchema); err != nil {
		return mapErr("drop schema", err)
	}
	if inSchema {
		if _, err := conn.Exec(ctx, "ALTER EXTENSION vector SET SCHEMA public"); err != nil {
			return mapErr("drop schema", err)
		}
	}
	_, err = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{s.schema}.Sanitize()+" CASCADE")
	return mapErr("drop schema", err)
}
