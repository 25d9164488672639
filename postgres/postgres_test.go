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

// testSchema and memSchema are this test binary's own schemas, created by TestMain
// and dropped at the end, so that parallel packages and repeated runs never see each
// other's rows: stores open testSchema with pgvector when the server has it, and
// memSchema with the in-memory vector path (postgres.Options.NoPgvector).
var testSchema, memSchema string

func TestMain(m *testing.M) {
	url := os.Getenv(postgres.EnvURL)
	if url == "" {
		os.Exit(m.Run()) // every test skips with the reason
	}
	if err := postgres.PrepareVectorExtension(url); err != nil {
		fmt.Fprintf(os.Stderr, "postgres tests: creating the vector extension: %v\n", err)
	}
	testSchema, memSchema = postgres.RandomSchema(), postgres.RandomSchema()
	code := m.Run()
	for _, schema := range []string{testSchema, memSchema} {
		if err := postgres.DropSchema(url, schema); err != nil {
			fmt.Fprintf(os.Stderr, "postgres tests: dropping schema %s: %v\n", schema, err)
		}
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

// openAtOnce opens n stores with o at once, so that their migrations race under the
// advisory lock, and closes them when the test ends. It fails the test if one cannot
// open.
func openAtOnce(t testing.TB, o postgres.Options, n int) []*postgres.Store {
	t.Helper()
	url := postgres.DatabaseURL(t)
	stores := make([]*postgres.Store, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stores[i], errs[i] = postgres.Open(context.Background(), url, o)
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

// openEmpty opens a store with options o on this run's schema for them (testSchema,
// or memSchema with NoPgvector) with every table emptied, as the conformance suite
// asks (its tests run one after another).
func openEmpty(t *testing.T, o postgres.Options) *postgres.Store {
	t.Helper()
	if o.NoPgvector {
		o.Schema = memSchema
	}
	s := openTest(t, o)
	ctx := context.Background()
	rows, err := postgres.PoolOf(s).Query(ctx, `SELECT quote_ident(tablename) FROM pg_tables
		WHERE schemaname = $1 AND tablename <> 'schema_migrations'`, s.Schema())
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

// TestConformance runs the conformance suite on both vector paths: pgvector (skipped
// when the server has none, unless postgres.EnvRequirePgvector is set) and the
// in-memory one.
func TestConformance(t *testing.T) {
	postgres.DatabaseURL(t)
	for _, o := range []postgres.Options{{}, {NoPgvector: true}} {
		name := postgres.VectorsPgvector
		if o.NoPgvector {
			name = postgres.VectorsInMemory
		}
		t.Run(name, func(t *testing.T) {
			s := openEmpty(t, o)
			if o.NoPgvector {
				path, reason := s.VectorSearch()
				t.Logf("vector search: %s (%s)", path, reason)
			} else {
				postgres.RequirePgvector(t, s)
			}
			storetest.Run(t, func(t *testing.T) factbase.Store { return openEmpty(t, o) })
		})
	}
}
