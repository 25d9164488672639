package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestPostgresDB: with FACTBASE_DB (or --db) a postgres:// URL, the commands and the
// server run on the PostgreSQL store.
func TestPostgresDB(t *testing.T) {
	env := map[string]string{"FACTBASE_DB": pgTestURL(t), "HOME": t.TempDir()}
	rankCryptos(t, env)
	key := createKey(t, env, "--name", "backend")
	s := serve(t, env)
	if status, _, body := call(t, "GET", s.base+"/readyz", "", ""); status != 200 {
		t.Fatalf("GET /readyz = %d %s", status, body)
	}
	list := s.base + "/v1/users/" + testUser + "/lists/favorites.crypto"
	if status, _, body := call(t, "POST", list, key, `{"value": "btc."}`); status != 200 || !strings.Contains(string(body), `"rank":2`) {
		t.Fatalf("POST a duplicate = %d %s; want it reported at #2", status, body)
	}
	status, _, body := call(t, "GET", list, key, "")
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
