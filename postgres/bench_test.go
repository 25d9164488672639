package postgres_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/factbase/factbase/postgres"
	"github.com/factbase/factbase/storetest"
)

// The benchmarks below are the sqlite package's, run on PostgreSQL, beside a raw
// baseline on the same server: compare BenchmarkRawInsert (one INSERT per
// transaction, synchronous commit) with the writes and BenchmarkRawSelect with the
// point read. Run them with
//
//	FACTBASE_TEST_POSTGRES=postgres://... go test -run '^$' -bench . -benchtime 2000x ./postgres/

func rawTable(b *testing.B, s *postgres.Store) {
	b.Helper()
	if _, err := postgres.PoolOf(s).Exec(context.Background(), `CREATE TABLE IF NOT EXISTS raw (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, k text NOT NULL, v text NOT NULL);
		CREATE INDEX IF NOT EXISTS raw_k ON raw (k)`); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRawInsert: a bare prepared INSERT of one row per transaction.
func BenchmarkRawInsert(b *testing.B) {
	s := openTest(b, postgres.Options{})
	rawTable(b, s)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tx, err := postgres.PoolOf(s).Begin(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO raw (k, v) VALUES ($1, $2)", fmt.Sprintf("k%d", i), "value"); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRawSelect: a bare indexed SELECT of one row on the pool.
func BenchmarkRawSelect(b *testing.B) {
	s := openTest(b, postgres.Options{})
	rawTable(b, s)
	ctx := context.Background()
	if _, err := postgres.PoolOf(s).Exec(ctx, "INSERT INTO raw (k, v) SELECT 'k' || i, 'value' FROM generate_series(0, 9999) i"); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var v string
		if err := postgres.PoolOf(s).QueryRow(ctx, "SELECT v FROM raw WHERE k = $1 LIMIT 1", fmt.Sprintf("k%d", i%10000)).Scan(&v); err != nil {
			b.Fatal(err)
		}
	}
}

// bench returns the shared benchmarks on a store opened with o.
func bench(b *testing.B, o postgres.Options) storetest.Bench {
	e, u := storetest.Engine(openTest(b, o))
	return storetest.Bench{Engine: e, User: u}
}

// commitModes runs a write benchmark with synchronous_commit on (the default: every
// commit waits for its WAL flush) and off (the flush follows; closest to the SQLite
// store's default synchronous=normal).
func commitModes(b *testing.B, fn func(bn storetest.Bench, b *testing.B)) {
	for _, mode := range []string{"on", "off"} {
		b.Run("sync_"+mode, func(b *testing.B) { fn(bench(b, postgres.Options{SynchronousCommit: mode}), b) })
	}
}

// BenchmarkApplyRankedAppend appends to a list of 10,000 members.
func BenchmarkApplyRankedAppend(b *testing.B) { commitModes(b, storetest.Bench.RankedAppend) }

// BenchmarkApplyRankedMove moves a member between #5000 and #1 of a 10,000-member
// list: each move shifts 4,999 other members.
func BenchmarkApplyRankedMove(b *testing.B) { bench(b, postgres.Options{}).RankedMove(b) }

// BenchmarkApplyOneSet sets a single-valued key to a new value each time (supersession).
func BenchmarkApplyOneSet(b *testing.B) { commitModes(b, storetest.Bench.OneSet) }

// BenchmarkPointRead reads the current value of one key among 10,000.
func BenchmarkPointRead(b *testing.B) { bench(b, postgres.Options{}).PointRead(b) }

// BenchmarkListPage reads a page of 100 from the middle of a 10,000-member list.
func BenchmarkListPage(b *testing.B) { bench(b, postgres.Options{}).ListPage(b) }

// BenchmarkPurge times one purge run after one fact of a user's 200,000 (20 lists of
// 10,000) is deleted: vacuum is PurgeVacuum's VACUUM (ANALYZE, INDEX_CLEANUP ON) of
// every table, full PurgeFull's VACUUM (FULL, ANALYZE), which holds each table's
// ACCESS EXCLUSIVE lock while it rewrites it. Filling takes minutes:
//
//	FACTBASE_TEST_POSTGRES=postgres://... go test -run '^$' -bench Purge -benchtime 5x ./postgres/
func BenchmarkPurge(b *testing.B) {
	s := openTest(b, postgres.Options{Schema: postgres.NewSchema(b), Purge: postgres.PurgeOff})
	e, u := storetest.Engine(s)
	for k := range 20 {
		storetest.FillList(b, e, u, fmt.Sprintf("notes.list%02d", k), 10000)
	}
	ctx := context.Background()
	if _, err := postgres.Vacuum(ctx, s, false); err != nil { // as autovacuum would have
		b.Fatal(err)
	}
	var table, indexes string
	if err := postgres.PoolOf(s).QueryRow(ctx, `SELECT pg_size_pretty(pg_table_size('facts')),
		pg_size_pretty(pg_indexes_size('facts'))`).Scan(&table, &indexes); err != nil {
		b.Fatal(err)
	}
	b.Logf("facts: %s, its indexes %s", table, indexes)
	for _, full := range []bool{false, true} {
		b.Run(map[bool]string{false: "vacuum", true: "full"}[full], func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				// The row an erasure leaves dead; the engine's own delete would purge.
				if _, err := postgres.PoolOf(s).Exec(ctx, "DELETE FROM facts WHERE seq = (SELECT max(seq) FROM facts)"); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if purged, err := postgres.Vacuum(ctx, s, full); err != nil || purged != full {
					b.Fatalf("Vacuum = %v, %v", purged, err)
				}
			}
		})
	}
}
