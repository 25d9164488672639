package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// The hooks below exist in test builds only, for this package's tests and its
// external ones.

// WriterOf returns s's write connection pool, for this package's external tests that
// read or corrupt the file behind the store's back.
func WriterOf(s *Store) *sql.DB { return s.writer }

// OpenFile opens the store at path with o and closes it when the test ends; a test
// may close it before.
func OpenFile(t testing.TB, path string, o Options) *Store {
	t.Helper()
	s, err := Open(context.Background(), path, o)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// OpenTemp opens a store on a new file in the test's temporary directory with o, as
// OpenFile does.
func OpenTemp(t testing.TB, o Options) *Store {
	t.Helper()
	return OpenFile(t, filepath.Join(t.TempDir(), "factbase.db"), o)
}

// ExecAll runs each statement on db, in order, and fails the test at the first that
// fails: for tests that take a file back to an older schema behind the store's back.
func ExecAll(t testing.TB, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// Reopen closes s and opens its file again, as OpenFile does: the store applies the
// migrations the file no longer records.
func Reopen(t testing.TB, s *Store) *Store {
	t.Helper()
	s.Close()
	return OpenFile(t, s.path, Options{})
}

// Downgrade closes s, runs stmts on its file over a connection of their own (they
// take the schema back to before a migration and delete its record) and reopens the
// file (Reopen), which applies that migration again.
func Downgrade(t testing.TB, s *Store, stmts ...string) *Store {
	t.Helper()
	s.Close()
	db, err := sql.Open("sqlite", "file:"+s.path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ExecAll(t, db, stmts...)
	db.Close()
	return Reopen(t, s)
}
