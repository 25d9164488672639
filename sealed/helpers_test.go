package sealed_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/seal"
	"github.com/factbase/factbase/sealed"
	"github.com/factbase/factbase/sqlite"
)

func newKey(t testing.TB) *seal.Key {
	t.Helper()
	k, err := seal.ParseKey(seal.NewKey())
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// openSQLite opens the SQLite store of the file path (closed when the test ends).
func openSQLite(t testing.TB, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatalf("sqlite.Open(%s): %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// seal opens inner sealed with key, failing the test on an error.
func sealWith(t testing.TB, inner factbase.Store, key *seal.Key) *sealed.Store {
	t.Helper()
	s, err := sealed.Open(context.Background(), inner, key)
	if err != nil {
		t.Fatalf("sealed.Open: %v", err)
	}
	return s
}

// openSealedSQLite returns a new sealed SQLite store in a temporary directory, its
// inner store, and the database file's path.
func openSealedSQLite(t testing.TB, key *seal.Key) (*sealed.Store, *sqlite.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "factbase.db")
	inner := openSQLite(t, path)
	return sealWith(t, inner, key), inner, path
}
