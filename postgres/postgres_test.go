package postgres_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/postgres"
	"github.com/factbase/factbase/storetest"
	"github.com/jackc/pgx/v5"
)

// testSchema is this test binary's own schema, created by TestMain and dropped at the
// end, so that parallel packages and repeated runs never see each other's rows.
var testSchema string

func TestMain(m *testing.M) {
	url := os.Getenv(postgres.EnvURL)
	if url == "" {
		os.Exit(m.Run()) // every test skips with the reason
	}
	testSchema = postgres.RandomSchema()
	code := m.Run()
	if err := postgres.DropSchema(url, testSchema); err != nil {
		fmt.Fprintf(os.Stderr, "postgres tests: dropping schema %s: %v\n", testSchema, err)
	}
	os.Exit(code)
}

// openTest opens a store on this run's schema; the test closes it.
func openTest(t testing.TB, o postgres.Options) *postgres.Store {
	t.Helper()
	url := postgres.DatabaseURL(t)
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

// openAtOnce opens n stores on schema at once, so that their migrations race under
// the advisory lock, and closes them when the test ends. It fails the test if one
// cannot open.
func openAtOnce(t testing.TB, schema string, n int) []*postgres.Store {
	t.Helper()
	url := postgres.DatabaseURL(t)
	stores := make([]*postgres.Store, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stores[i], errs[i] = postgres.Open(context.Background(), url, postgres.Options{Schema: schema})
		}()
	}
	wg.Wait()
	t.Cleanup(func() {
		for _, s := range stores {
			if s != nil {
				s.Close()
			}
		}
	})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("opening store %d: %v", i, err)
		}
	}
	return stores
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
	postgres.DatabaseURL(t)
	storetest.Run(t, openEmpty)
}
