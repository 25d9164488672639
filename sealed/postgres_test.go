package sealed_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/postgres"
	"github.com/factbase/factbase/storetest"
)

// envPostgres names the environment variable that holds the test database's URL, as
// the postgres package's tests read it.
const envPostgres = "FACTBASE_TEST_POSTGRES"

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

// TestConformancePostgres runs the suite over the sealed PostgreSQL store, every
// test on the same schema emptied (its key record too).
func TestConformancePostgres(t *testing.T) {
	schema := pgSchema(t)
	openPostgres(t, schema) // migrates the schema once
	key := newKey(t)
	storetest.Run(t, func(t *testing.T) factbase.Store {
		emptyPostgres(t, schema)
		return sealWith(t, openPostgres(t, schema), key)
	}, innerOnly)
}

// TestNoTextInPostgres writes a marker into every sealed field through the sealed
// PostgreSQL store and finds it nowhere in the schema: not in any column of any
// table (every row cast to text), and, when the server lets this role read its
// files (pg_read_binary_file: superuser or pg_read_server_files), not in the files
// of any table, index or TOAST table of the schema after a checkpoint, nor in the
// WAL written meanwhile. A plain store in another schema is scanned alike and holds
// it, so that the scan is shown to see it.
func TestNoTextInPostgres(t *testing.T) {
	url := postgresURL(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, sealedStore := range []bool{true, false} {
		name := map[bool]string{true: "sealed", false: "plain"}[sealedStore]
		t.Run(name, func(t *testing.T) {
			schema, m, u := pgSchema(t), newMarker(), storetest.NewUser()
			var start string
			if err := conn.QueryRow(ctx, "SELECT pg_current_wal_lsn()::text").Scan(&start); err != nil {
				t.Fatal(err)
			}
			inner := openPostgres(t, schema)
			var s factbase.Store = inner
			if sealedStore {
				s = sealWith(t, inner, newKey(t))
			}
			ids := writeEverything(t, s, u, m)
			checkReadBack(t, readEverything(t, s, u, ids), m)

			rows := pgRowsHolding(t, conn, schema, m)
			files, walFiles, ok := pgFilesHolding(t, conn, schema, start, m)
			t.Logf("%s: marker in rows of %v; in files %v, WAL segments %v (files read: %v)", name, rows, files, walFiles, ok)
			if sealedStore && len(rows)+len(files)+len(walFiles) > 0 {
				t.Errorf("the sealed store holds the text: rows of %v, files %v, WAL %v", rows, files, walFiles)
			}
			if !sealedStore && (len(rows) == 0 || ok && (len(files) == 0 || len(walFiles) == 0)) {
				t.Errorf("the plain store's rows %v, files %v or WAL %v do not hold the text: the scan sees nothing", rows, files, walFiles)
			}
		})
	}
}

// pgRowsHolding returns the tables of schema with a row that, cast to text, holds
// marker.
func pgRowsHolding(t *testing.T, conn *pgx.Conn, schema, marker string) []string {
	t.Helper()
	ctx := context.Background()
	rows, err := conn.Query(ctx, `SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = $1 ORDER BY 1`, schema)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	var holding []string
	for _, table := range tables {
		var n int
		q := "SELECT count(*) FROM " + pgx.Identifier{schema}.Sanitize() + "." + table + " x WHERE lower(x::text) LIKE '%' || $1 || '%'"
		if err := conn.QueryRow(ctx, q, marker).Scan(&n); err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		if n > 0 {
			holding = append(holding, table)
		}
	}
	return holding
}

// pgFilesHolding checkpoints and reads the files of every relation of schema (its
// tables, indexes, TOAST tables and their indexes) and the WAL segments from start
// on, and returns those holding marker. ok is false, with nothing read, when the
// server does not let this role read its files.
func pgFilesHolding(t *testing.T, conn *pgx.Conn, schema, start, marker string) (files, wal []string, ok bool) {
	t.Helper()
	ctx := context.Background()
	if _, err := conn.Exec(ctx, "CHECKPOINT"); err != nil {
		t.Logf("files not scanned: CHECKPOINT: %v", err)
		return nil, nil, false
	}
	rows, err := conn.Query(ctx, `SELECT c.relname, pg_relation_filepath(c.oid) FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE (n.nspname = $1 OR c.oid IN (SELECT reltoastrelid FROM pg_class t JOIN pg_namespace tn ON tn.oid = t.relnamespace WHERE tn.nspname = $1)
			OR c.oid IN (SELECT i.indexrelid FROM pg_index i JOIN pg_class t ON t.reltoastrelid = i.indrelid JOIN pg_namespace tn ON tn.oid = t.relnamespace WHERE tn.nspname = $1))
			AND pg_relation_filepath(c.oid) IS NOT NULL`, schema)
	if err != nil {
		t.Fatal(err)
	}
	type rel struct{ Name, Path string }
	rels, err := pgx.CollectRows(rows, pgx.RowToStructByPos[rel])
	if err != nil {
		t.Fatal(err)
	}
	read := func(path string) ([]byte, bool) {
		var b []byte
		err := conn.QueryRow(ctx, "SELECT pg_read_binary_file($1, 0, coalesce((pg_stat_file($1, true)).size, 0), true)", path).Scan(&b)
		if err != nil {
			if strings.Contains(err.Error(), "permission denied") {
				return nil, false
			}
			t.Fatalf("reading %s: %v", path, err)
		}
		return b, true
	}
	for _, r := range rels {
		b, ok := read(r.Path)
		if !ok {
			t.Logf("files not scanned: this role may not read the server's files")
			return nil, nil, false
		}
		if bytes.Contains(bytes.ToLower(b), []byte(marker)) {
			files = append(files, r.Name)
		}
	}
	var segs []string
	rows, err = conn.Query(ctx, `SELECT name FROM pg_ls_waldir() WHERE name >= pg_walfile_name($1::pg_lsn) AND name ~ '^[0-9A-F]{24}$' ORDER BY name`, start)
	if err != nil {
		t.Fatal(err)
	}
	if segs, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		t.Fatal(err)
	}
	for _, seg := range segs {
		b, _ := read("pg_wal/" + seg)
		if bytes.Contains(bytes.ToLower(b), []byte(marker)) {
			wal = append(wal, seg)
		}
	}
	return files, wal, true
}

// TestRotatePostgres is TestRotate over PostgreSQL: each server a store of its own
// on one schema.
func TestRotatePostgres(t *testing.T) {
	schema := pgSchema(t)
	testRotate(t, func(t *testing.T) factbase.Store { return openPostgres(t, schema) })
}

// TestSameAnswersPostgres is TestSameAnswers over PostgreSQL, each twin in a schema
// of its own.
func TestSameAnswersPostgres(t *testing.T) {
	testSameAnswers(t, func(t *testing.T, now func() time.Time) factbase.Store {
		s, err := postgres.Open(context.Background(), postgresURL(t), postgres.Options{Schema: pgSchema(t), Now: now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}
