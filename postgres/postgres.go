// Package postgres is Factbase's PostgreSQL store, for running several Factbase
// servers over one database. It implements the same factbase.Store contract as the
// sqlite package, so the engine's one write path (memory.Engine.Apply) and its
// invariant checks run unchanged; the database adds its own guarantees: partial unique
// indexes for "one current fact per key", "one member per list position" and "a value
// once per list", CHECK constraints, and list sizes kept by plpgsql triggers so that
// the invariant check after a write is O(log n). Ranked lists keep their order as
// positions and derive ranks on read (ranks.go).
//
// # Concurrency
//
// A write transaction runs at READ COMMITTED and first takes a row lock on the user's
// row (SELECT ... FOR NO KEY UPDATE on users, creating the row if needed). Every row
// the write path reads or writes belongs to that user, so writers of one user —
// from any number of servers — are serialised by the database, and because each
// statement after the lock takes a fresh snapshot, the write path sees every earlier
// writer's commit: an append reads the true list length, a duplicate check sees a
// value another server has just added. Writers of different users never wait for each
// other.
//
// The lock was chosen over SERIALIZABLE with retries because the workload this store
// exists for — many clients appending to the same list — is exactly the case where
// serializable transactions fail and retry: under that contention most attempts would
// be wasted work, and the lock makes them queue instead, once each. Serialization
// failures and deadlocks (40001, 40P01), which a feature's own writes could still
// cause, are retried a few times with a short backoff and then reported as
// EUNAVAILABLE.
//
// Reads run in a REPEATABLE READ, READ ONLY transaction, so a list page and the list's
// length (or a list's members and its events, for an as-of read) come from one
// snapshot.
//
// Statements that need no answer (BEGIN, a fact's insert, a list event, ending a fact)
// are pipelined with the next one that does, so that the user's lock is held for as
// few round trips as possible (pipeline.go). Jobs are claimed with FOR UPDATE SKIP
// LOCKED, so workers on several servers never wait for one another.
//
// # Search
//
// Full text uses tsvector columns (English configuration) in GIN indexes. Vectors are
// searched in the database by the pgvector extension when it is there or the role
// may create it (pgvector.go: an HNSW index per dimension, no per-server copy);
// otherwise, or with Options.NoPgvector, they are real[] rows ranked in Go over a
// per-user in-memory copy that each server keeps up to date from the rows any server
// wrote (vectors.go). Store.VectorSearch says which.
//
// # Errors
//
// Driver errors are translated by SQLSTATE code, never by message text: unique and
// check violations (23505, 23514) are EINVARIANT, statement timeouts (57014) ETIMEOUT,
// serialization failures and deadlocks EUNAVAILABLE after the retries, connection
// failures (class 08, server shutdown, refused or broken connections) EUNAVAILABLE,
// and bad data such as a NUL byte in a value (class 22) EINVALID.
//
// # Schema
//
// Migrations are embedded and applied at Open, one transaction each, recorded in
// schema_migrations, under a PostgreSQL advisory lock so that several servers can
// start at once against a fresh database. Options.Schema places the tables in their
// own schema (created if needed); tests use a schema per run. Every key of a per-user
// table includes the user and every statement names it, so that the schema can be
// distributed by user (docs/scaling.md; shard_test.go and sqlcheck_test.go check
// both). On a server whose
// autovacuum is off the store keeps its tables' statistics itself (analyze.go).
// After an erasure it vacuums its tables, or rewrites them so that the table files
// no longer hold the erased rows (Options.Purge, purge.go).
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/export"
	"github.com/factbase/factbase/internal/migrate"
	"github.com/factbase/factbase/internal/storeerr"
	"github.com/factbase/factbase/internal/vecindex"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Options configure Open. The zero value is usable.
type Options struct {
	// Schema is the schema the tables live in; it is created if missing and becomes
	// every connection's search_path. Default: the URL's search_path, else the
	// server's default (usually public). Lower-case letters, digits and _ only.
	Schema string
	// MaxConns bounds the connection pool. Default: the URL's pool_max_conns, else 10.
	MaxConns int32
	// MinConns is how many connections the pool keeps open. Default 0.
	MinConns int32
	// StatementTimeout cancels any statement that runs longer, including one waiting
	// for the user's write lock (reported as ETIMEOUT). Default 30s; negative: none.
	StatementTimeout time.Duration
	// ConnectTimeout bounds each connection attempt. Default 5s.
	ConnectTimeout time.Duration
	// IdleInTransactionTimeout closes a connection whose transaction sits idle longer,
	// so a stuck client cannot hold a user's write lock for ever. Default 60s;
	// negative: none.
	IdleInTransactionTimeout time.Duration
	// SynchronousCommit is PostgreSQL's synchronous_commit for the store's sessions.
	// Default: the server's (normally "on": a commit returns once its WAL is flushed,
	// so an acknowledged write survives a crash of the server or the machine). "off"
	// returns before the flush: a crash may lose the last few hundred milliseconds of
	// acknowledged writes, never consistency (like the SQLite store's default
	// synchronous=normal after a power loss).
	SynchronousCommit string
	// Retries is how many times a write transaction is retried after a serialization
	// failure, a deadlock, or a connection that failed before anything was sent.
	// Default 4.
	Retries int
	// Purge is what Store.Purge does after an erasure (purge.go): PurgeVacuum
	// vacuums the tables in the background, PurgeFull rewrites them before the
	// erasure returns, PurgeOff leaves them to autovacuum. Default: the URL's
	// factbase_purge parameter, else PurgeVacuum.
	Purge PurgeMode
	// NoPgvector keeps vectors as real[] rows ranked in memory (vectors.go) even when
	// the pgvector extension is available. A schema whose vectors were converted to
	// pgvector cannot be opened with it (EINVALID). Default false: pgvector when the
	// extension is in the database or the role may create it (pgvector.go).
	NoPgvector bool
	// Now returns the current time; default time.Now. Tests fix the clock with it.
	Now func() time.Time

	// migrateSkip, set by tests, leaves the migration of this file name unapplied,
	// so that a test writes data in the schema without it and then migrates the data
	// by opening the store again without the option.
	migrateSkip string
}

// Store is the PostgreSQL store. It is safe for concurrent use.
type Store struct {
	pool    *pgxpool.Pool
	analyze *analyzer
	purge   *purger
	schema  string
	now     func() time.Time
	retries int

	// Vectors are searched in the database when pgv is set (pgvector.go), else in
	// the in-memory copies of vecs (vectors.go), vecReason saying why.
	pgv       *pgvector
	vecs      *vecindex.Index
	vecReason string

	purgeMode   PurgeMode
	migrateSkip string        // Options.migrateSkip
	gate        storeerr.Gate // closed by Close
}

var _ factbase.Store = (*Store)(nil)

var schemaName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// Open connects to the database at url (postgres://...), creates the schema if
// Options.Schema names one, and applies the embedded migrations. It returns
// EUNAVAILABLE if the database cannot be reached and EINVALID for a malformed URL.
func Open(ctx context.Context, url string, o Options) (*Store, error) {
	mode, url, err := purgeMode(o.Purge, url)
	if err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// The parse error may quote the URL, password included: say less.
		return nil, factbase.Errorf(factbase.EINVALID, "postgres: the database URL cannot be parsed")
	}
	if o.Schema == "" {
		o.Schema = cfg.ConnConfig.RuntimeParams["search_path"]
	}
	if o.Schema != "" && !schemaName.MatchString(o.Schema) {
		return nil, factbase.Errorf(factbase.EINVALID, "postgres: schema %q is not a plain lower-case identifier", o.Schema)
	}
	switch {
	case o.MaxConns > 0:
		cfg.MaxConns = o.MaxConns
	case !strings.Contains(url, "pool_max_conns"):
		cfg.MaxConns = 10
	}
	if o.MinConns > 0 {
		cfg.MinConns = o.MinConns
	}
	if o.StatementTimeout == 0 {
		o.StatementTimeout = 30 * time.Second
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = 5 * time.Second
	}
	if o.IdleInTransactionTimeout == 0 {
		o.IdleInTransactionTimeout = time.Minute
	}
	if o.Retries <= 0 {
		o.Retries = 4
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	cfg.ConnConfig.ConnectTimeout = o.ConnectTimeout
	rp := cfg.ConnConfig.RuntimeParams
	if o.StatementTimeout > 0 {
		rp["statement_timeout"] = strconv.FormatInt(o.StatementTimeout.Milliseconds(), 10)
	}
	if o.IdleInTransactionTimeout > 0 {
		rp["idle_in_transaction_session_timeout"] = strconv.FormatInt(o.IdleInTransactionTimeout.Milliseconds(), 10)
	}
	if o.Schema != "" {
		rp["search_path"] = o.Schema
	}
	switch o.SynchronousCommit {
	case "":
	case "on", "off", "local", "remote_write", "remote_apply":
		rp["synchronous_commit"] = o.SynchronousCommit
	default:
		return nil, factbase.Errorf(factbase.EINVALID, "postgres: synchronous_commit %q is not on, off, local, remote_write or remote_apply", o.SynchronousCommit)
	}
	if rp["application_name"] == "" {
		rp["application_name"] = "factbase"
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, mapErr("open", err)
	}
	s := &Store{pool: pool, schema: o.Schema, now: o.Now, retries: o.Retries, purgeMode: mode, migrateSkip: o.migrateSkip}
	if err := s.migrate(ctx, o.NoPgvector); err != nil {
		if s.pgv != nil {
			s.pgv.indexes.close()
		}
		pool.Close()
		return nil, err
	}
	if s.pgv == nil {
		s.vecs = vecindex.New(vecindex.Options{})
	}
	var autovacuum bool
	if err := pool.QueryRow(ctx, "SELECT current_setting('autovacuum')::boolean").Scan(&autovacuum); err != nil {
		if s.pgv != nil {
			s.pgv.indexes.close()
		}
		pool.Close()
		return nil, mapErr("open", err)
	}
	s.analyze = newAnalyzer(!autovacuum, s.analyzeTables)
	full := mode == PurgeFull
	s.purge = newPurger(func(ctx context.Context) (bool, error) { return s.vacuum(ctx, full) },
		func(took time.Duration) time.Duration {
			if full {
				return 0 // a caller waits for the run
			}
			return purgeDuty * took
		})
	return s, nil
}

// analyzeTables updates the statistics of the store's busiest tables and returns the
// facts table's estimated row count (see analyze.go).
func (s *Store) analyzeTables(ctx context.Context) (float64, error) {
	// SKIP_LOCKED: a table being indexed concurrently (an HNSW build, pgvector.go)
	// is left for the next time, as waiting for its lock would deadlock with the
	// build, which waits for the ANALYZE's snapshot.
	if _, err := s.pool.Exec(ctx, "ANALYZE (SKIP_LOCKED) "+analyzeTables); err != nil {
		return 0, err
	}
	var rows float64
	err := s.pool.QueryRow(ctx, "SELECT reltuples FROM pg_class WHERE oid = 'facts'::regclass").Scan(&rows)
	return rows, err
}

// Schema returns the schema the store's tables live in ("" for the server default).
func (s *Store) Schema() string { return s.schema }

// Close closes the connection pool. A closed store returns EUNAVAILABLE.
func (s *Store) Close() error {
	if !s.gate.Close() {
		return nil
	}
	s.analyze.close()
	s.purge.close()
	if s.pgv != nil {
		s.pgv.indexes.close()
	}
	s.pool.Close()
	return nil
}

// Ping checks that the database answers and the store's tables are there; it returns
// EUNAVAILABLE (or ETIMEOUT) otherwise.
func (s *Store) Ping(ctx context.Context) error {
	if s.gate.Closed() {
		return storeerr.ErrClosed
	}
	var n int
	if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM schema_migrations").Scan(&n); err != nil {
		return mapErr("ping", err)
	}
	return nil
}

// migrate applies the embedded migrations that are not yet recorded, the pgvector
// one only if the store uses pgvector (chooseVectors; noPgvector: not). It holds a
// session-level advisory lock, keyed by the schema, for the whole run, so that servers
// starting at once apply each migration exactly once: the others wait, then find
// every migration recorded.
func (s *Store) migrate(ctx context.Context, noPgvector bool) error {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return mapErr("migrate", err)
	}
	defer conn.Release()
	lockKey := "factbase migrate " + s.schema
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock(hashtextextended($1, 0))", lockKey); err != nil {
		return mapErr("migrate", err)
	}
	defer func() {
		// A failed unlock (the connection broke) releases the lock with the session.
		_, err := conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(hashtextextended($1, 0))", lockKey)
		if err != nil {
			conn.Conn().Close(context.Background())
		}
	}()
	if s.schema != "" {
		if _, err := conn.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{s.schema}.Sanitize()); err != nil {
			return mapErr("migrate", err)
		}
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		name text PRIMARY KEY, applied_at bigint NOT NULL)`); err != nil {
		return mapErr("migrate", err)
	}
	if err := s.chooseVectors(ctx, conn.Conn(), noPgvector); err != nil {
		return err
	}
	return migrate.Run(migrations, func(f migrate.File) error { return s.applyMigration(ctx, conn.Conn(), f) })
}

// applyMigration runs migration f and records it by its file name, in one
// transaction on conn, unless it is recorded (the caller holds the migration lock).
func (s *Store) applyMigration(ctx context.Context, conn *pgx.Conn, f migrate.File) error {
	base := strings.TrimPrefix(f.Name, "migrations/")
	setup, skip := s.migrationSetup(base)
	if skip || base == s.migrateSkip {
		return nil
	}
	done, err := migrate.Recorded(conn.QueryRow(ctx, "SELECT count(*) FROM schema_migrations WHERE name = $1", base))
	if done || err != nil {
		return mapErr("migrate", err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		return mapErr("migrate", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if setup != "" {
		if _, err := tx.Exec(ctx, setup); err != nil {
			return fmt.Errorf("postgres: migrate %s: %w", base, mapErr("migrate", err))
		}
	}
	// A multi-statement script runs over the simple protocol, in this transaction.
	if _, err := tx.Exec(ctx, f.Body, pgx.QueryExecModeSimpleProtocol); err != nil {
		return fmt.Errorf("postgres: migrate %s: %w", base, mapErr("migrate", err))
	}
	if _, err := tx.Exec(ctx, "INSERT INTO schema_migrations (name, applied_at) VALUES ($1, $2)", base, s.now().UnixNano()); err != nil {
		return mapErr("migrate", err)
	}
	return mapErr("migrate", tx.Commit(ctx))
}

// Update runs fn in one write transaction for user, holding the lock on the user's
// row (see the package documentation). A serialization failure or deadlock, or a
// connection lost before anything was sent, reruns fn in a new transaction, up to
// Options.Retries times; then the error is EUNAVAILABLE.
func (s *Store) Update(ctx context.Context, user factbase.UserID, fn func(factbase.Tx) error) error {
	var err error
	for attempt := 0; ; attempt++ {
		if err := s.gate.Check(user); err != nil {
			return err
		}
		err = s.update(ctx, user, fn)
		if err == nil || !retryable(err) || ctx.Err() != nil {
			break
		}
		if attempt >= s.retries {
			return &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "store is busy; try again", Err: err}
		}
		backoff := time.Duration(1<<attempt) * 5 * time.Millisecond
		select {
		case <-ctx.Done():
			return mapErr("update", ctx.Err())
		case <-time.After(backoff):
		}
	}
	return mapErr("update", err)
}

func (s *Store) update(ctx context.Context, user factbase.UserID, fn func(factbase.Tx) error) error {
	t, err := s.transact(ctx, "ISOLATION LEVEL READ COMMITTED", user, func(t *tx) error {
		if err := t.lockUser(ctx); err != nil {
			return err
		}
		return fn(t)
	}, driverErr)
	if err != nil {
		return err
	}
	s.analyze.wrote(t.writes)
	return nil
}

// transact runs fn in one transaction for user, begun with options on a pooled
// connection, and commits it; any failure rolls it back. It returns the transaction
// fn ran in. The errors of BEGIN and COMMIT pass through stepErr with the step's
// name ("begin", "commit"); fn's are returned as they are.
func (s *Store) transact(ctx context.Context, options string, user factbase.UserID, fn func(*tx) error, stepErr func(step string, err error) error) (*tx, error) {
	cn, err := s.begin(ctx, options)
	if err != nil {
		return nil, stepErr("begin", err)
	}
	defer cn.release()
	committed := false
	defer func() {
		if !committed {
			cn.rollback(ctx)
		}
	}()
	t := &tx{s: s, q: cn, user: user, now: s.now().UTC()}
	t.Reads = export.NewReads(t, &exportStatements, user)
	if err := fn(t); err != nil {
		return nil, err
	}
	if err := commit(ctx, cn); err != nil {
		return nil, stepErr("commit", err)
	}
	committed = true
	return t, nil
}

// driverErr is transact's stepErr for update: the driver's error stays as it is, so
// that Update can tell a retryable failure and maps the error once.
func driverErr(_ string, err error) error { return err }

// commit sends the queued statements and COMMIT. A transaction that PostgreSQL
// rolled back instead (an earlier statement failed) is an error.
func commit(ctx context.Context, cn *conn) error {
	tag, err := cn.Exec(ctx, "COMMIT")
	if err != nil {
		return err
	}
	if tag.String() != "COMMIT" {
		return factbase.Errorf(factbase.EINTERNAL, "store: the transaction was rolled back (%s)", tag.String())
	}
	return nil
}

// CurrentFact is the point read: the current fact of a single-valued key, read by
// one statement on a pooled connection without BEGIN and COMMIT (one statement reads
// one snapshot), so one round trip instead of two.
func (s *Store) CurrentFact(ctx context.Context, user factbase.UserID, subject, key string) (factbase.Fact, bool, error) {
	if err := s.gate.Check(user); err != nil {
		return factbase.Fact{}, false, err
	}
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		return factbase.Fact{}, false, mapErr("connection", err)
	}
	defer c.Release()
	t := &tx{s: s, q: &conn{c: c}, user: user, now: s.now().UTC()}
	return t.Current(ctx, subject, key)
}

// View runs fn in a read-only snapshot for user. A user with no data sees empty
// results, not an error.
func (s *Store) View(ctx context.Context, user factbase.UserID, fn func(factbase.ReadTx) error) error {
	if err := s.gate.Check(user); err != nil {
		return err
	}
	_, err := s.transact(ctx, "ISOLATION LEVEL REPEATABLE READ READ ONLY", user, func(t *tx) error { return fn(t) }, mapErr)
	return err
}

// retryable reports whether a failed write transaction may simply be run again.
func retryable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "40001" || pe.Code == "40P01"
	}
	return pgconn.SafeToRetry(err)
}

// mapErr translates driver errors into domain errors by SQLSTATE code and error
// type, once storeerr.Common has translated those every store shares.
func mapErr(op string, err error) error {
	if mapped, ok := storeerr.Common(op, err); ok {
		return mapped
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "23505":
			return &factbase.Error{Code: factbase.EINVARIANT, Message: "invariant violated: " + constraintName(pe.ConstraintName), Err: err}
		case pe.Code == "23514":
			return &factbase.Error{Code: factbase.EINVARIANT, Message: "invariant violated: a value outside its allowed range", Err: err}
		case strings.HasPrefix(pe.Code, "23"):
			return &factbase.Error{Code: factbase.EINVARIANT, Message: "invariant violated: constraint failed", Err: err}
		case pe.Code == "57014":
			return &factbase.Error{Code: factbase.ETIMEOUT, Message: "store: " + op + ": statement timed out", Err: err}
		case pe.Code == "55P03":
			return &factbase.Error{Code: factbase.ETIMEOUT, Message: "store: " + op + ": lock wait timed out", Err: err}
		case pe.Code == "40001" || pe.Code == "40P01":
			return &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "store is busy; try again", Err: err}
		case strings.HasPrefix(pe.Code, "08"), strings.HasPrefix(pe.Code, "53"),
			pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03", pe.Code == "25P03":
			return &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "store unavailable", Err: err}
		case strings.HasPrefix(pe.Code, "22"):
			return &factbase.Error{Code: factbase.EINVALID, Message: "a value the database cannot store (" + dataProblem(pe.Code) + ")", Err: err}
		}
		return fmt.Errorf("postgres: %s: %w", op, err)
	}
	if isConnErr(err) {
		return &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "store unavailable: the database cannot be reached", Err: err}
	}
	return fmt.Errorf("postgres: %s: %w", op, err)
}

// isConnErr reports whether err means the database could not be reached or the
// connection broke.
func isConnErr(err error) bool {
	var ce *pgconn.ConnectError
	var ne net.Error
	switch {
	case errors.As(err, &ce), errors.As(err, &ne), pgconn.Timeout(err), pgconn.SafeToRetry(err):
		return true
	case errors.Is(err, pgconn.ErrConnClosed), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, net.ErrClosed), errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE):
		return true
	}
	return false
}

// constraintName names a violated unique index in terms a user can follow.
func constraintName(name string) string {
	switch name {
	case "facts_rank_current":
		return "two members of a list at the same rank"
	case "facts_member_current":
		return "a value appears twice in a list"
	case "facts_one_current":
		return "more than one current fact for a single-valued key"
	case "facts_id_key":
		return "a fact id used twice"
	}
	return "constraint failed"
}

func dataProblem(code string) string {
	switch code {
	case "22021":
		return "a NUL byte or an invalid character"
	case "22001":
		return "too long"
	case "22003":
		return "a number out of range"
	}
	return "SQLSTATE " + code
}
