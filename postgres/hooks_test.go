package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The hooks below exist in test builds only, for this package's tests and its
// external ones.

// PoolOf returns s's connection pool, for this package's external tests that read or
// change the database behind the store's back.
func PoolOf(s *Store) *pgxpool.Pool { return s.pool }

// EnvURL names the environment variable that holds the test database's URL.
const EnvURL = "FACTBASE_TEST_POSTGRES"

// DatabaseURL returns the test database's URL, or skips the test with the reason.
func DatabaseURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv(EnvURL)
	if url == "" {
		t.Skipf("%s is not set: set it to a PostgreSQL URL (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable) to run the postgres store's tests; .ci/run does", EnvURL)
	}
	return url
}

// RandomSchema returns a new schema name, "fbtest_" and 12 random hex digits.
func RandomSchema() string {
	var b [6]byte
	rand.Read(b[:])
	return "fbtest_" + hex.EncodeToString(b[:])
}

// NewSchema returns a fresh schema name that is dropped when the test ends.
func NewSchema(t testing.TB) string {
	t.Helper()
	name, url := RandomSchema(), DatabaseURL(t)
	t.Cleanup(func() {
		if err := DropSchema(url, name); err != nil {
			t.Errorf("dropping schema %s: %v", name, err)
		}
	})
	return name
}

// DropSchema removes schema and everything in it.
func DropSchema(url, schema string) error {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
	return err
}

// WaitPurge waits for s's purges under way or requested (the background vacuums of
// PurgeVacuum) to end.
func WaitPurge(s *Store) { s.purge.wait() }

// Vacuum runs one purge of s now, as Purge's run does: a rewrite when full.
func Vacuum(ctx context.Context, s *Store, full bool) (bool, error) { return s.vacuum(ctx, full) }
