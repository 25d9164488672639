package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/postgres"
	"github.com/factbase/factbase/storetest"
	"github.com/jackc/pgx/v5"
)

// envURL names the environment variable that holds the test database's URL.
const envURL = "FACTBASE_TEST_POSTGRES"

// testSchema is this test binary's own schema, created by TestMain and dropped at the
// end, so that parallel packages and repeated runs never see each other's rows.
var testSchema string

func TestMain(m *testing.M) {
	url := os.Getenv(envURL)
	if url == "" {
		os.Exit(m.Run()) // every test skips with the reason
	}
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testSchema = "fbtest_" + hex.EncodeToString(b[:])
	code := m.Run()
	if err := dropSchema(url, testSchema); err != nil {
		fmt.Fprintf(os.Stderr, "postgres tests: dropping schema %s: %v\n", testSchema, err)
	}
	os.Exit(code)
}

// dropSchema removes schema and everything in it.
func dropSchema(url, schema string) error {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
	return err
}

// testURL returns the test database's URL, or skips the test with the reason.
func testURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv(envURL)
	if url == "" {
		t.Skipf("%s is not set: set it to a PostgreSQL URL (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable) to run the postgres store's tests; .ci/run does", envURL)
	}
	return url
}

// openTest opens a store on this run's schema; the test closes it.
func openTest(t testing.TB, o postgres.Options) *postgres.Store {
	t.Helper()
	url := testURL(t)
	if o.Schema == "" {
		o.Schema = testSchema
	}
	s, err := postgres.Open(context.Background(), url, o)
	if err != nil {
		t.Fatalf("postgres.Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// newSchema returns a fresh schema name that is dropped when the test ends.
func newSchema(t testing.TB) string {
	t.Helper()
	var b [6]byte
	rand.Read(b[:])
	name := "fbtest_" + hex.EncodeToString(b[:])
	url := testURL(t)
	t.Cleanup(func() {
		if err := dropSchema(url, name); err != nil {
			t.Errorf("dropping schema %s: %v", name, err)
		}
	})
	return name
}

// openEmpty opens a store on this run's schema with every table emptied, as the
// conformance suite asks (its tests run one after another).
func openEmpty(t *testing.T) factbase.Store {
	t.Helper()
	s := openTest(t, postgres.Options{})
	ctx := context.Background()
	rows, err := postgres.PoolOf(s).Query(ctx, `SELECT quote_ident(tablename) FROM pg_tables
		WHERE schemaname = $1 AND tablename <> 'schema_migrations'`, testSchema)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := postgres.PoolOf(s).Exec(ctx, "TRUNCATE "+strings.Join(tables, ", ")+" RESTART IDENTITY CASCADE"); err != nil {
		t.Fatalf("emptying the test schema: %v", err)
	}
	return s
}

func TestConformance(t *testing.T) {
	testURL(t)
	storetest.Run(t, openEmpty)
}
