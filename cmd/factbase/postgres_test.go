package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase/postgres"
	"github.com/factbase/factbase/server"
)

// TestPostgresDB: with FACTBASE_DB (or --db) a postgres:// URL, the commands and the
// server run on the PostgreSQL store.
func TestPostgresDB(t *testing.T) {
	env := map[string]string{"FACTBASE_DB": pgTestURL(t), "HOME": t.TempDir()}
	rankCryptos(t, env)
	key := createKey(t, env, "--name", "backend")
	s := serve(t, env)
	status, _, body := call(t, "GET", s.base+"/readyz", "", "")
	var ready map[string]string
	if err := json.Unmarshal(body, &ready); err != nil || status != 200 {
		t.Fatalf("GET /readyz = %d %s", status, body)
	}
	// pgvector when the server has it, else the in-memory ranking; the log says which.
	store := logLine(t, logLines(t, s.stderr.String()), "store")
	if v := ready["vectors"]; (v != "pgvector" && v != "in-memory") || store["vectors"] != v || store["kind"] != "postgres" {
		t.Errorf("/readyz vectors %q, store line %v; want pgvector or in-memory in both", v, store)
	}
	t.Logf("vector search: %v", store["vectors"])
	// The CLI filed "favorites.crypto" as say does; the API takes keys as they are.
	list := s.base + "/v1/users/" + testUser + "/lists/favorites.cryptocurrency"
	if status, _, body := call(t, "POST", list, key, `{"value": "btc."}`); status != 200 || !strings.Contains(string(body), `"rank":2`) {
		t.Fatalf("POST a duplicate = %d %s; want it reported at #2", status, body)
	}
	status, _, body = call(t, "GET", list, key, "")
	if status != 200 || !strings.Contains(string(body), `"total":3`) || strings.Index(string(body), "XMR") > strings.Index(string(body), "BTC") {
		t.Fatalf("GET list = %d %s; want XMR, BTC, ETH", status, body)
	}
	if code := s.stop(); code != 0 {
		t.Errorf("serve exited with %d: %s", code, s.stderr.String())
	}
	// An unreachable database is "unavailable", not a crash.
	wantExit(t, map[string]string{"FACTBASE_DB": "postgres://postgres@127.0.0.1:1/test?sslmode=disable&connect_timeout=2"}, 1, "unavailable",
		"list", "show", "--user", testUser, "favorites.crypto")
}

// pgTestURL returns a URL of the test database (FACTBASE_TEST_POSTGRES) whose
// search_path is a fresh schema, dropped when the test ends; it skips the test when
// the variable is not set.
func pgTestURL(t *testing.T) string {
	t.Helper()
	raw := os.Getenv("FACTBASE_TEST_POSTGRES")
	if raw == "" {
		t.Skip("FACTBASE_TEST_POSTGRES is not set: set it to a PostgreSQL URL (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable) to run the PostgreSQL tests; .ci/run does")
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "fbtest_" + hex.EncodeToString(b[:])
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	vectorExtension(t, raw)
	t.Cleanup(func() {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, raw)
		if err != nil {
			t.Errorf("dropping schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE"); err != nil {
			t.Errorf("dropping schema %s: %v", schema, err)
		}
	})
	return u.String()
}

// TestVectorNames: the PostgreSQL store names its vector paths as /readyz does, so
// that serve passes them on as they are.
func TestVectorNames(t *testing.T) {
	if postgres.VectorsPgvector != server.VectorsPgvector || postgres.VectorsInMemory != server.VectorsInMemory {
		t.Errorf("postgres names %q, %q; server names %q, %q", postgres.VectorsPgvector, postgres.VectorsInMemory,
			server.VectorsPgvector, server.VectorsInMemory)
	}
}

// vectorExtension creates the extension vector in the schema public of the database
// at url, when the server has it: a store that finds none creates it in its own
// schema, which the test drops at the end, and with it the vector columns of every
// other test's schema.
func vectorExtension(t *testing.T, url string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, `DO $$ BEGIN
		IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
			CREATE EXTENSION IF NOT EXISTS vector SCHEMA public;
		END IF; END $$`)
	if err != nil {
		// Another test package may have created it at the same moment.
		var n int
		if cerr := conn.QueryRow(ctx, "SELECT count(*) FROM pg_extension WHERE extname = 'vector'").Scan(&n); cerr != nil || n == 0 {
			t.Fatalf("creating the extension vector: %v", err)
		}
	}
}
