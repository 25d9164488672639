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

// EnvRequirePgvector names the environment variable that makes the tests of the
// pgvector path fail, rather than skip, when the server has no pgvector; .ci/run sets
// it.
const EnvRequirePgvector = "FACTBASE_REQUIRE_PGVECTOR"

// PrepareVectorExtension creates the extension vector in the schema public of the
// test database when the server has it, so that the stores of every test schema
// find it there: created by a store, it would live in that store's schema and go
// when the test drops it, with the vector columns of every other schema.
func PrepareVectorExtension(url string) error {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	var available bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector')").Scan(&available); err != nil || !available {
		return err
	}
	if _, err = conn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS vector SCHEMA public"); err != nil {
		// Another test package may have created it at the same moment.
		var n int
		if cerr := conn.QueryRow(ctx, "SELECT count(*) FROM pg_extension WHERE extname = 'vector'").Scan(&n); cerr != nil || n == 0 {
			return err
		}
	}
	return nil
}

// RequirePgvector logs how s ranks vectors and skips the test unless it is
// pgvector; with EnvRequirePgvector set it fails instead.
func RequirePgvector(t testing.TB, s *Store) {
	t.Helper()
	path, reason := s.VectorSearch()
	if path == VectorsPgvector {
		t.Logf("vector search: %s (extension %s in schema %s)", path, s.pgv.version, s.pgv.ext)
		return
	}
	t.Logf("vector search: %s (%s)", path, reason)
	if os.Getenv(EnvRequirePgvector) != "" {
		t.Fatalf("%s is set but the store does not use pgvector: %s", EnvRequirePgvector, reason)
	}
	t.Skipf("pgvector is not used (%s); install it (../shared/vendor/pgvector/install.sh) to run this test", reason)
}

// InMemoryVectors reports whether s keeps in-memory copies of users' vectors.
func InMemoryVectors(s *Store) bool { return s.vecs != nil }
