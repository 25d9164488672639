package postgres

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/storetest"
)

// BenchmarkVectorSearch measures one vector search of one user holding 10,000 or
// 100,000 GloVe vectors of generated texts: VectorCandidates with limit 50 (what a
// search of 10 hits asks for) in a read transaction of its own, on the pgvector path
// (the dimension's HNSW index built) and on the in-memory path (the user's copy
// loaded by a first search, not timed). It reports the median and 95th percentile
// latencies, and those of a write that replaces one item's vector (put/...), which
// with pgvector inserts into the HNSW graph. The loads take a few minutes.
//
//	FACTBASE_TEST_POSTGRES=... go test -run '^$' -bench VectorSearch -benchtime 400x ./postgres
func BenchmarkVectorSearch(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		texts, vecs := vecTexts(b, n, 61)
		_, queries := vecTexts(b, 200, 62)
		for _, o := range []Options{{}, {NoPgvector: true}} {
			// The graph of 100,000 vectors fits in 256 MB: built in memory.
			s := openVectors(b, o, "maintenance_work_mem", "256MB")
			path, why := s.VectorSearch()
			name := fmt.Sprintf("%s/%dk", path, n/1000)
			if !o.NoPgvector && path != VectorsPgvector {
				b.Logf("%s: no pgvector (%s)", name, why)
				continue
			}
			u := storetest.NewUser()
			ids := putFacts(b, s, u, texts, vecs, true)
			if s.pgv != nil {
				buildIndex(b, s, len(vecs[0]))
			}
			q := func(i int) factbase.VectorQuery {
				return factbase.VectorQuery{Kind: factbase.KindFact, Model: embed.GloVeModel, Vector: queries[i%len(queries)], Limit: 50}
			}
			search(b, s, u, q(0))
			b.Run(name, func(b *testing.B) {
				took := make([]time.Duration, 0, b.N)
				for i := range b.N {
					start := time.Now()
					if got := search(b, s, u, q(i)); len(got) != 50 {
						b.Fatalf("%d candidates, want 50", len(got))
					}
					took = append(took, time.Since(start))
				}
				percentiles(b, took)
			})
			b.Run("put/"+name, func(b *testing.B) {
				took := make([]time.Duration, 0, b.N)
				for i := range b.N {
					v := factbase.Vector{Kind: factbase.KindFact, ID: ids[i%n], Model: embed.GloVeModel, Vec: vecs[(i+1)%n]}
					start := time.Now()
					if err := s.Update(context.Background(), u, func(tx factbase.Tx) error {
						return tx.PutVectors(context.Background(), []factbase.Vector{v})
					}); err != nil {
						b.Fatal(err)
					}
					took = append(took, time.Since(start))
				}
				percentiles(b, took)
			})
		}
	}
}

// percentiles reports the median and the 95th percentile of took, in milliseconds.
func percentiles(b *testing.B, took []time.Duration) {
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
}

// BenchmarkHNSWFilters compares the ways of searching one user's vectors among other
// users' with pgvector, on 100,000 GloVe vectors of 8 users (50,000, 20,000 and six of
// 5,000), outside the store: an exact scan of the user's rows (a b-tree on the user),
// one HNSW index without and with iterative scans at several ef_search, the
// planner's own choice, and 8 hash partitions by user with an index each. It reports
// recall@10 against the exact scan and the median and 95th percentile latencies of a
// top-10 search; docs/pgvector.md holds the figures behind the store's choice
// (pgvector.go). The load and the two index builds take a few minutes.
//
//	FACTBASE_TEST_POSTGRES=... go test -run '^$' -bench HNSWFilters -benchtime 100x ./postgres
func BenchmarkHNSWFilters(b *testing.B) {
	ctx := context.Background()
	s := openVectors(b, Options{StatementTimeout: -1}, "maintenance_work_mem", "256MB")
	RequirePgvector(b, s)
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Release()
	exec := func(sql string, args ...any) {
		b.Helper()
		if _, err := conn.Exec(ctx, sql, args...); err != nil {
			b.Fatalf("%s: %v", sql, err)
		}
	}
	sizes := []int{50_000, 20_000, 5000, 5000, 5000, 5000, 5000, 5000}
	var owner []int32
	for u, n := range sizes {
		for range n {
			owner = append(owner, int32(u))
		}
	}
	rand.New(rand.NewPCG(5, 5)).Shuffle(len(owner), func(i, j int) { owner[i], owner[j] = owner[j], owner[i] })
	_, vecs := vecTexts(b, len(owner), 71)
	_, queries := vecTexts(b, 100, 72)
	vecText := func(v []float32) string {
		buf := []byte{'['}
		for i, x := range v {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendFloat(buf, float64(x), 'g', -1, 32)
		}
		return string(append(buf, ']'))
	}
	ext := s.pgv.ext
	exec("CREATE TABLE one (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, u int, vec " + ext + ".vector)")
	exec("CREATE TABLE part (seq bigint GENERATED ALWAYS AS IDENTITY, u int, vec " + ext + ".vector) PARTITION BY HASH (u)")
	for i := range 8 {
		exec(fmt.Sprintf("CREATE TABLE part_%d PARTITION OF part FOR VALUES WITH (MODULUS 8, REMAINDER %d)", i, i))
	}
	for _, table := range []string{"one", "part"} {
		for lo := 0; lo < len(vecs); lo += 5000 {
			var ts []string
			for _, v := range vecs[lo : lo+5000] {
				ts = append(ts, vecText(v))
			}
			exec("INSERT INTO "+table+" (u, vec) SELECT x.u, x.v::"+ext+".vector FROM unnest($1::int[], $2::text[]) AS x(u, v)",
				owner[lo:lo+5000], ts)
		}
		start := time.Now()
		exec("CREATE INDEX ON " + table + " USING hnsw ((vec::" + ext + ".vector(100)) " + ext + ".vector_cosine_ops)")
		b.Logf("%s: HNSW index built in %v", table, time.Since(start).Round(time.Millisecond))
		exec("CREATE INDEX ON " + table + " (u, seq)")
		exec("ANALYZE " + table)
	}
	query := func(table string, exact bool) string {
		order := "vec::" + ext + ".vector(100) OPERATOR(" + ext + ".<=>) $1::" + ext + ".vector(100)"
		if exact {
			order = "(" + order + ") + 0, seq"
		}
		return "SELECT seq FROM " + table + " WHERE u = $2 ORDER BY " + order + " LIMIT 10"
	}
	top := func(sql string, q []float32, u int) []int64 {
		rows, err := conn.Query(ctx, sql, vecText(q), u)
		if err != nil {
			b.Fatal(err)
		}
		seqs, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			b.Fatal(err)
		}
		return seqs
	}
	ways := []struct{ name, table, settings string }{
		{"exact", "one", ""},
		{"hnsw_ef100", "one", "SET enable_sort = off; SET hnsw.ef_search = 100"},
		{"iterative_ef100", "one", "SET enable_sort = off; SET hnsw.iterative_scan = strict_order; SET hnsw.ef_search = 100"},
		{"iterative_ef200", "one", "SET enable_sort = off; SET hnsw.iterative_scan = strict_order; SET hnsw.ef_search = 200"},
		{"iterative_ef400", "one", "SET enable_sort = off; SET hnsw.iterative_scan = strict_order; SET hnsw.ef_search = 400"},
		{"planner_ef100", "one", "SET hnsw.iterative_scan = strict_order; SET hnsw.ef_search = 100"},
		{"partitions_ef100", "part", "SET enable_sort = off; SET hnsw.iterative_scan = strict_order; SET hnsw.ef_search = 100"},
	}
	for _, u := range []int{0, 1, 2} {
		exact := make([][]int64, len(queries))
		for i, q := range queries {
			exact[i] = top(query("one", true), q, u)
		}
		for _, way := range ways {
			b.Run(fmt.Sprintf("user_%dk/%s", sizes[u]/1000, way.name), func(b *testing.B) {
				exec("RESET ALL")
				exec("SET plan_cache_mode = force_custom_plan")
				if way.settings != "" {
					exec(way.settings)
				}
				sql := query(way.table, way.name == "exact")
				var hits, total int
				took := make([]time.Duration, 0, b.N)
				for i := range b.N {
					start := time.Now()
					got := top(sql, queries[i%len(queries)], u)
					took = append(took, time.Since(start))
					for _, seq := range got {
						if slices.Contains(exact[i%len(queries)], seq) {
							hits++
						}
					}
					total += len(exact[i%len(queries)])
				}
				percentiles(b, took)
				b.ReportMetric(float64(hits)/float64(total), "recall@10")
			})
		}
	}
}
