package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestBenchScale runs "factbase bench scale" small on PostgreSQL and SQLite, as
// JSON: both stores hold every generated fact once, with a vector and a reference
// each, every timed operation is counted, the sizes are positive, PostgreSQL counts
// its blocks, and the schema the run made is gone after it.
func TestBenchScale(t *testing.T) {
	raw := os.Getenv("FACTBASE_TEST_POSTGRES")
	if raw == "" {
		t.Skip("FACTBASE_TEST_POSTGRES is not set: set it to a PostgreSQL URL (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable) to run bench scale against PostgreSQL and SQLite; .ci/run does")
	}
	vectorExtension(t, raw)
	var b [6]byte
	rand.Read(b[:])
	schema := "fbtest_" + hex.EncodeToString(b[:])
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, raw)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	t.Cleanup(func() { conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE") })

	out, stderr, code := run(t, testEnv(t), "bench", "scale", "--users", "20", "--facts", "40", "--searches", "25",
		"--reads", "15", "--writes", "10", "--embedder", "hash", "--postgres", raw, "--schema", schema, "--dir", t.TempDir(), "--json")
	if code != 0 {
		t.Fatalf("bench scale: exit %d: %s", code, stderr)
	}
	type result struct {
		Ops        int     `json:"ops"`
		P50us      float64 `json:"p50_us"`
		P99us      float64 `json:"p99_us"`
		Throughput float64 `json:"throughput"`
	}
	var rep struct {
		Embedder string
		Dim      int
		Stores   []struct {
			Name         string
			Vectors      string
			Prepared     string
			Facts        int
			Duplicates   int
			Load         result
			Search       result
			PointRead    result `json:"point_read"`
			Write        result
			DiskBytes    int64                        `json:"disk_bytes"`
			BytesPerFact float64                      `json:"bytes_per_fact"`
			HitShare     float64                      `json:"search_hit_share"`
			SearchBlocks *struct{ Hit, Read float64 } `json:"search_blocks"`
			Tables       []struct {
				Name  string
				Rows  int64
				Bytes int64
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("bench scale --json printed %q: %v", out, err)
	}
	if rep.Embedder != "hash-256-v1" || rep.Dim != 256 || len(rep.Stores) != 2 || rep.Stores[0].Name != "postgres" || rep.Stores[1].Name != "sqlite" {
		t.Fatalf("report: embedder %s (%d), stores %+v", rep.Embedder, rep.Dim, rep.Stores)
	}
	for _, s := range rep.Stores {
		if s.Facts != 800 || s.Duplicates != 0 || s.Load.Ops != 20 || s.Search.Ops != 25 || s.PointRead.Ops != 15 || s.Write.Ops != 10 {
			t.Errorf("%s: %d facts stored (%d duplicates), %d load transactions, %d searches, %d reads, %d writes; want 800, 0, 20, 25, 15, 10",
				s.Name, s.Facts, s.Duplicates, s.Load.Ops, s.Search.Ops, s.PointRead.Ops, s.Write.Ops)
		}
		if !(s.Load.Throughput > 0) || s.DiskBytes <= 0 || !(s.BytesPerFact > 0) || !(s.Search.P50us > 0) || s.Search.P99us < s.Search.P50us || s.HitShare == 0 {
			t.Errorf("%s: figures %+v", s.Name, s)
		}
		rows := map[string]int64{}
		var total int64
		for _, tb := range s.Tables {
			rows[tb.Name] = tb.Rows
			total += tb.Bytes
		}
		// Each fact's creation is its first reference, held by its row: no reference rows.
		if rows["facts"] != 800 || rows["fact_references"] != 0 || rows["users"] != 20 {
			t.Errorf("%s: rows after the load %v; want 800 facts, no reference rows, 20 users", s.Name, rows)
		}
		if s.Name == "postgres" && (rows["embeddings"] != 800 || total != s.DiskBytes || s.SearchBlocks == nil || !(s.SearchBlocks.Hit > 0)) {
			t.Errorf("postgres: %d vectors, tables of %d bytes in all against %d on disk, blocks per search %+v",
				rows["embeddings"], total, s.DiskBytes, s.SearchBlocks)
		}
	}
	pg := rep.Stores[0]
	if strings.Contains(pg.Vectors, "vectors pgvector") && !strings.HasPrefix(pg.Prepared, "no HNSW index: no user has enough") {
		t.Errorf("postgres after the load of users of 40 vectors: %q, want no index", pg.Prepared)
	}

	// --hnsw build builds the index whatever the users.
	out, stderr, code = run(t, testEnv(t), "bench", "scale", "--users", "5", "--facts", "40", "--searches", "5",
		"--reads", "5", "--writes", "5", "--embedder", "hash", "--postgres", raw, "--schema", schema, "--no-sqlite", "--hnsw", "build", "--json")
	if code != 0 {
		t.Fatalf("bench scale --hnsw build: exit %d: %s", code, stderr)
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Stores) != 1 {
		t.Fatalf("bench scale --hnsw build --json printed %q: %v", out, err)
	}
	if pg := rep.Stores[0]; strings.Contains(pg.Vectors, "vectors pgvector") && pg.Prepared != "HNSW index of 256 dimensions built" {
		t.Errorf("postgres with --hnsw build: %q, want the index built", pg.Prepared)
	}
	var left bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)", schema).Scan(&left); err != nil || left {
		t.Errorf("schema %s left after the run (%v)", schema, err)
	}
}
