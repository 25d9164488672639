package sealed_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/seal"
	"github.com/factbase/factbase/postgres"
	"github.com/factbase/factbase/sealed"
	"github.com/factbase/factbase/sqlite"
)

// envPostgres names the environment variable that holds the test database's URL, as
// the postgres package's tests read it.
const envPostgres = "FACTBASE_TEST_POSTGRES"

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

// postgresURL returns the test database's URL, or skips the test.
func postgresURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv(envPostgres)
	if url == "" {
		t.Skipf("%s is not set: set it to a PostgreSQL URL (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable) to run the sealed store over PostgreSQL", envPostgres)
	}
	return url
}

// pgSchema returns a new schema name, dropped with everything in it when the test
// ends.
func pgSchema(t testing.TB) string {
	t.Helper()
	url := postgresURL(t)
	var b [6]byte
	rand.Read(b[:])
	name := "fbsealed_" + hex.EncodeToString(b[:])
	t.Cleanup(func() {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Errorf("dropping schema %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{name}.Sanitize()+" CASCADE"); err != nil {
			t.Errorf("dropping schema %s: %v", name, err)
		}
	})
	return name
}

// openPostgres opens the PostgreSQL store of schema (closed when the test ends).
func openPostgres(t testing.TB, schema string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), postgresURL(t), postgres.Options{Schema: schema})
	if err != nil {
		t.Fatalf("postgres.Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// emptyPostgres empties every table of schema but the migrations' record.
func emptyPostgres(t testing.TB, schema string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, postgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) FROM pg_tables
		WHERE schemaname = $1 AND tablename <> 'schema_migrations'`, schema)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range tables {
		if _, err := conn.Exec(ctx, "TRUNCATE "+table+" RESTART IDENTITY CASCADE"); err != nil {
			t.Fatalf("emptying %s: %v", table, err)
		}
	}
}
