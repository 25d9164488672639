package sealed_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/storetest"
)

// scanDir returns the files of dir (the SQLite file, its WAL and shared memory)
// whose bytes hold marker.
func scanDir(t *testing.T, dir, marker string) (holding []string, read int) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range entries {
		b, err := os.ReadFile(filepath.Join(dir, en.Name()))
		if err != nil {
			t.Fatal(err)
		}
		read += len(b)
		if bytes.Contains(bytes.ToLower(b), []byte(marker)) {
			holding = append(holding, en.Name())
		}
	}
	return holding, read
}

// TestNoTextInSQLiteFiles writes a marker into every sealed field through the sealed
// SQLite store, reads it all back, and then finds the marker in none of the
// database's files, its WAL included (held open, then after close); the same writes
// into a plain store leave it in them, so that the scan is shown to see it.
func TestNoTextInSQLiteFiles(t *testing.T) {
	for _, sealedStore := range []bool{true, false} {
		name := map[bool]string{true: "sealed", false: "plain"}[sealedStore]
		t.Run(name, func(t *testing.T) {
			dir, m, u := t.TempDir(), newMarker(), storetest.NewUser()
			inner := openSQLite(t, filepath.Join(dir, "factbase.db"))
			var s factbase.Store = inner
			if sealedStore {
				s = sealWith(t, inner, newKey(t))
			}
			ids := writeEverything(t, s, u, m)
			checkReadBack(t, readEverything(t, s, u, ids), m)

			open, read := scanDir(t, dir, m)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			closed, _ := scanDir(t, dir, m)
			t.Logf("%s: %d bytes scanned while open; marker in %v, after close in %v", name, read, open, closed)
			if sealedStore && len(open)+len(closed) > 0 {
				t.Errorf("the sealed store's files hold the text: open %v, closed %v", open, closed)
			}
			if !sealedStore && len(open) == 0 {
				t.Error("the plain store's files do not hold the text: the scan sees nothing")
			}
		})
	}
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
	type rel struct{ name, path string }
	rels, err := pgx.CollectRows(rows, pgx.RowToStructByPos[rel])
	if err != nil {
		t.Fatal(err)
	}
	read := func(path string) ([]byte, bool) {
		var b []byte
		err := conn.QueryRow(ctx, "SELECT pg_read_binary_file($1, 0, 1073741824, true)", path).Scan(&b)
		if err != nil {
			if strings.Contains(err.Error(), "permission denied") {
				return nil, false
			}
			t.Fatalf("reading %s: %v", path, err)
		}
		return b, true
	}
	for _, r := range rels {
		b, ok := read(r.path)
		if !ok {
			t.Logf("files not scanned: this role may not read the server's files")
			return nil, nil, false
		}
		if bytes.Contains(bytes.ToLower(b), []byte(marker)) {
			files = append(files, r.name)
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
