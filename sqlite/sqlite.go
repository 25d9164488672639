// Package sqlite is Factbase's embedded default store: one SQLite file in WAL mode,
// written through a single connection with immediate transactions and read through a
// pool of read-only connections. Migrations are embedded and applied at open.
package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/export"
	"github.com/factbase/factbase/internal/migrate"
	"github.com/factbase/factbase/internal/storeerr"
	sqlite3 "modernc.org/sqlite"
	sqlite3lib "modernc.org/sqlite/lib"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Options configure Open. The zero value is usable.
type Options struct {
	// Readers is the size of the read connection pool. Default 4.
	Readers int
	// BusyTimeout is how long a writer waits for another process's lock. Default 10s.
	BusyTimeout time.Duration
	// Synchronous is the SQLite synchronous level. "normal" (the default, with WAL):
	// every acknowledged write survives a crash of the process (tested by SIGKILL);
	// after a power loss or OS crash the newest commits may be missing but the file is
	// consistent. "full": every commit is fsynced and survives power loss too, at the
	// cost of one fsync per write.
	Synchronous string
	// Now returns the current time; default time.Now. Tests fix the clock with it.
	Now func() time.Time
	// MmapSize is how much of the database file a scan (ScanView: the fact sheet's
	// read) maps into memory for its transaction (SQLite's mmap_size), so that it
	// reads pages in place rather than copying each into the connection's page cache.
	// A write empties that cache, so a sheet generated after every write would
	// otherwise read and copy every page of the user's facts again (memory's
	// BenchmarkGenerateSheet100k measures it). Only the pages the scan reads become
	// resident (they count towards the process's resident memory), and the mapping is
	// dropped when the scan ends. Default DefaultMmapSize; negative: no mapping.
	MmapSize int64
	// ExactVectors keeps a large user's vectors in memory as float32s and ranks
	// every one by its exact dot product with the query, rather than keeping codes
	// and ranking by them with a sign-bit prefilter (vectors.go): a full scan, slower
	// and 2.3 times the memory, for measuring what the codes lose (factbase bench
	// search). Default false.
	ExactVectors bool
}

// DefaultMmapSize is the default Options.MmapSize: 2 GiB less 64 KiB, the most
// SQLite maps unless built otherwise. A larger file is read beyond it the ordinary
// way.
const DefaultMmapSize = 0x7fff0000

// Store is the SQLite store. It is safe for concurrent use.
type Store struct {
	path   string
	writer *sql.DB
	reader *sql.DB
	wstmts *stmtCache
	rstmts *stmtCache
	now    func() time.Time
	mmap   int64 // Options.MmapSize; 0: none

	gate storeerr.Gate // closed by Close
	warm *warmer       // background refreshes of the vector copies (warm.go)

	// users caches user id -> users.seq; rows of users are never renumbered.
	users sync.Map
}

var _ factbase.Store = (*Store)(nil)

// Open opens (creating if needed) the database file at path and applies migrations.
func Open(ctx context.Context, path string, o Options) (*Store, error) {
	if path == "" {
		return nil, factbase.Errorf(factbase.EINVALID, "sqlite: database path is empty")
	}
	if err := o.setDefaults(); err != nil {
		return nil, err
	}
	writer, err := openWriter(path, o)
	if err != nil {
		return nil, err
	}

	s := &Store{path: path, writer: writer, now: o.Now, mmap: o.MmapSize, warm: newWarmer()}
	if err := s.migrate(ctx); err != nil {
		writer.Close()
		return nil, err
	}

	rq := connQuery(o)
	rq.Add("_pragma", "query_only(1)")
	reader, err := sql.Open("sqlite", "file:"+path+"?"+rq.Encode())
	if err != nil {
		writer.Close()
		return nil, fmt.Errorf("sqlite: open reader: %w", err)
	}
	reader.SetMaxOpenConns(o.Readers)
	reader.SetMaxIdleConns(o.Readers)
	s.reader = reader
	s.wstmts, s.rstmts = newStmtCache(writer), newStmtCache(reader)
	for _, c := range []*stmtCache{s.wstmts, s.rstmts} {
		c.exactVectors = o.ExactVectors
		if err := c.prepare(ctx, allStaticQueries()); err != nil {
			s.Close()
			return nil, err
		}
	}
	s.warm.wg.Add(1)
	go s.warmOpen()
	return s, nil
}

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Close closes both connection pools.
func (s *Store) Close() error {
	if !s.gate.Close() {
		return nil
	}
	s.warm.close()
	s.wstmts.close()
	s.rstmts.close()
	// A statement still being prepared in the background holds a pool connection,
	// which the pool would close only when it comes back, after Close returned: the
	// file stayed open (its WAL not checkpointed) and another opener could find it
	// locked.
	s.wstmts.wait()
	s.rstmts.wait()
	err1 := s.reader.Close()
	err2 := s.writer.Close()
	return errors.Join(err1, err2)
}

// Ping checks that the database can be read.
func (s *Store) Ping(ctx context.Context) error {
	var n int
	if err := s.reader.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations").Scan(&n); err != nil {
		return mapErr("ping", err)
	}
	return nil
}

func (s *Store) migrate(ctx context.Context) error {
	if _, err := s.writer.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)`); err != nil {
		return mapErr("migrate", err)
	}
	return migrate.Run(migrations, func(f migrate.File) error { return s.applyMigration(ctx, f) })
}

// applyMigration runs migration f and its step (migrationSteps), and records it by
// its path, in one immediate transaction, unless it is recorded.
func (s *Store) applyMigration(ctx context.Context, f migrate.File) error {
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return mapErr("migrate", err)
	}
	defer tx.Rollback()
	done, err := migrate.Recorded(tx.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations WHERE name = ?", f.Name))
	if done || err != nil {
		return mapErr("migrate", err)
	}
	if _, err := tx.ExecContext(ctx, f.Body); err != nil {
		return fmt.Errorf("sqlite: migrate %s: %w", f.Name, err)
	}
	if step := migrationSteps[f.Name]; step != nil {
		if err := step(ctx, tx); err != nil {
			return fmt.Errorf("sqlite: migrate %s: %w", f.Name, err)
		}
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)", f.Name, s.now().UnixNano()); err != nil {
		return mapErr("migrate", err)
	}
	return tx.Commit()
}

// Update runs fn in one immediate write transaction for user.
func (s *Store) Update(ctx context.Context, user factbase.UserID, fn func(factbase.Tx) error) error {
	sqlTx, t, err := s.begin(ctx, s.writer, nil, s.wstmts, user, true)
	if err != nil {
		return err
	}
	defer sqlTx.Rollback()
	if err := fn(t); err != nil {
		return err
	}
	if err := t.flushDeferred(ctx); err != nil {
		return err
	}
	if err := sqlTx.Commit(); err != nil {
		return mapErr("commit", err)
	}
	if len(t.vecPuts) > 0 {
		s.afterVectors(user, t.u, t.vecPuts)
	}
	return nil
}

// View runs fn in a read-only snapshot for user. A user with no data sees empty
// results, not an error.
func (s *Store) View(ctx context.Context, user factbase.UserID, fn func(factbase.ReadTx) error) error {
	return s.view(ctx, user, s.reader, fn)
}

// ScanView is View for a read that walks much of the file (the fact sheet reads
// every current fact of the user): its connection maps up to Options.MmapSize of
// the file for the transaction and unmaps it after.
func (s *Store) ScanView(ctx context.Context, user factbase.UserID, fn func(factbase.ReadTx) error) error {
	if s.mmap <= 0 || s.gate.Closed() || !user.Valid() {
		return s.View(ctx, user, fn)
	}
	conn, err := s.reader.Conn(ctx)
	if err != nil {
		return mapErr("connection", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA mmap_size = %d", s.mmap)); err != nil {
		return mapErr("map the file", err)
	}
	defer func() {
		if _, err := conn.ExecContext(context.Background(), "PRAGMA mmap_size = 0"); err != nil {
			// A connection left mapping the file would keep its pages resident.
			conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}()
	return s.view(ctx, user, conn, fn)
}

// beginner is a *sql.DB or a *sql.Conn.
type beginner interface {
	BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
}

// view runs fn in a read-only transaction begun on b.
func (s *Store) view(ctx context.Context, user factbase.UserID, b beginner, fn func(factbase.ReadTx) error) error {
	sqlTx, t, err := s.begin(ctx, b, &sql.TxOptions{ReadOnly: true}, s.rstmts, user, false)
	if err != nil {
		return err
	}
	defer sqlTx.Rollback()
	return fn(t)
}

// begin checks the call (storeerr.Gate.Check), begins a transaction on b for user,
// its statements cached in cache, and reads the user's row number, creating the row
// when create is set (userSeq). The caller rolls the returned transaction back when
// it is done with it.
func (s *Store) begin(ctx context.Context, b beginner, opts *sql.TxOptions, cache *stmtCache, user factbase.UserID, create bool) (*sql.Tx, *tx, error) {
	if err := s.gate.Check(user); err != nil {
		return nil, nil, err
	}
	sqlTx, err := b.BeginTx(ctx, opts)
	if err != nil {
		return nil, nil, mapErr("begin", err)
	}
	t := &tx{q: sqlTx, cache: cache, user: user, now: s.now().UTC(), users: &s.users}
	t.Reads = export.NewReads(t, &exportStatements, user)
	if t.u, err = t.userSeq(ctx, create); err != nil {
		sqlTx.Rollback()
		return nil, nil, err
	}
	return sqlTx, t, nil
}

// userSeq returns the user's row number, creating the row when create is set. A user
// with no row reads as seq 0, which matches no data.
func (t *tx) userSeq(ctx context.Context, create bool) (int64, error) {
	if v, ok := t.users.Load(t.user); ok {
		return v.(int64), nil
	}
	var seq int64
	err := t.queryRow(ctx, qUserSeq, string(t.user)).Scan(&seq)
	if err == nil {
		t.users.Store(t.user, seq)
		return seq, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, mapErr("user", err)
	}
	if !create {
		return 0, nil
	}
	res, err := t.exec(ctx, qUserInsert, string(t.user), t.now.UnixNano())
	if err != nil {
		return 0, mapErr("user", err)
	}
	// Not cached here: the transaction may still roll back.
	return res.LastInsertId()
}

// mapErr translates driver errors into domain errors by SQLite result code, after
// the translations every store shares (storeerr.Common).
func mapErr(op string, err error) error {
	if mapped, ok := storeerr.Common(op, err); ok {
		return mapped
	}
	var se *sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3lib.SQLITE_CONSTRAINT:
			return &factbase.Error{Code: factbase.EINVARIANT, Message: "invariant violated: " + constraintName(se), Err: err}
		case sqlite3lib.SQLITE_BUSY, sqlite3lib.SQLITE_LOCKED:
			return &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "store is busy", Err: err}
		case sqlite3lib.SQLITE_FULL, sqlite3lib.SQLITE_IOERR, sqlite3lib.SQLITE_CANTOPEN, sqlite3lib.SQLITE_READONLY:
			return &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "store unavailable", Err: err}
		}
	}
	if errors.Is(err, sql.ErrConnDone) || errors.Is(err, sql.ErrTxDone) || strings.Contains(err.Error(), "database is closed") {
		return &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "store unavailable", Err: err}
	}
	return fmt.Errorf("sqlite: %s: %w", op, err)
}

// constraintName names the violated constraint in terms a user can follow.
func constraintName(se *sqlite3.Error) string {
	msg := se.Error()
	switch {
	case strings.Contains(msg, "facts.u, facts.subject, facts.key, facts.rank"):
		return "two members of a list at the same rank"
	case strings.Contains(msg, "facts.u, facts.subject, facts.key, facts.norm"):
		return "a value appears twice in a list"
	case strings.Contains(msg, "facts.u, facts.subject, facts.key"):
		return "more than one current fact for a single-valued key"
	case strings.Contains(msg, "CHECK"):
		return "a value outside its allowed range"
	}
	return "constraint failed"
}
