package postgres_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
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

func fillList(b *testing.B, e *memory.Engine, u factbase.UserID, key string, n int) {
	b.Helper()
	for off := 0; off < n; off += 1000 {
		var ops []factbase.Op
		for i := off; i < min(n, off+1000); i++ {
			ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: key, Value: fmt.Sprintf("member-%05d", i)}})
		}
		if _, err := e.Apply(context.Background(), u, ops); err != nil {
			b.Fatal(err)
		}
	}
}

func benchEngine(b *testing.B) (*memory.Engine, factbase.UserID) {
	return benchEngineWith(b, postgres.Options{})
}

func benchEngineWith(b *testing.B, o postgres.Options) (*memory.Engine, factbase.UserID) {
	s := openTest(b, o)
	// The write path alone: no sheet regeneration after each write.
	return memory.New(s, memory.Options{NoSheetRegen: true}), storetest.NewUser()
}

// commitModes runs a write benchmark with synchronous_commit on (the default: every
// commit waits for its WAL flush) and off (the flush follows; closest to the SQLite
// store's default synchronous=normal).
func commitModes(b *testing.B, fn func(b *testing.B, e *memory.Engine, u factbase.UserID)) {
	for _, mode := range []string{"on", "off"} {
		b.Run("sync_"+mode, func(b *testing.B) {
			e, u := benchEngineWith(b, postgres.Options{SynchronousCommit: mode})
			fn(b, e, u)
		})
	}
}

// BenchmarkApplyRankedAppend appends to a list of 10,000 members.
func BenchmarkApplyRankedAppend(b *testing.B) {
	commitModes(b, func(b *testing.B, e *memory.Engine, u factbase.UserID) {
		fillList(b, e, u, "favorites.big", 10000)
		ctx := context.Background()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.big", Value: fmt.Sprintf("new-%d", i)}}}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkApplyRankedMove moves a member between #5000 and #1 of a 10,000-member
// list: each move shifts 4,999 other members.
func BenchmarkApplyRankedMove(b *testing.B) {
	e, u := benchEngine(b)
	fillList(b, e, u, "favorites.big", 10000)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rank := 1
		if i%2 == 1 {
			rank = 5000
		}
		res, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.big", Value: "member-04999", Rank: rank}}})
		if err != nil {
			b.Fatal(err)
		}
		if res.Mutations[0].Action != factbase.Move {
			b.Fatalf("action %s, want MOVE", res.Mutations[0].Action)
		}
	}
}

// BenchmarkApplyOneSet sets a single-valued key to a new value each time (supersession).
func BenchmarkApplyOneSet(b *testing.B) {
	commitModes(b, func(b *testing.B, e *memory.Engine, u factbase.UserID) {
		ctx := context.Background()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "contact.email", Value: fmt.Sprintf("u%d@example.com", i)}}}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkPointRead reads the current value of one key among 10,000.
func BenchmarkPointRead(b *testing.B) {
	e, u := benchEngine(b)
	ctx := context.Background()
	var ops []factbase.Op
	for i := 0; i < 10000; i++ {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: fmt.Sprintf("k.%d", i), Value: "value"}})
	}
	if _, err := e.Apply(ctx, u, ops); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, err := e.Get(ctx, u, "", fmt.Sprintf("k.%d", i%10000), nil)
		if err != nil || len(f) != 1 {
			b.Fatal(err, len(f))
		}
	}
}

// BenchmarkListPage reads a page of 100 from the middle of a 10,000-member list.
func BenchmarkListPage(b *testing.B) {
	e, u := benchEngine(b)
	fillList(b, e, u, "favorites.big", 10000)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := e.List(ctx, u, "", "favorites.big", 5000, 100, nil)
		if err != nil || len(p.Items) != 100 {
			b.Fatal(err)
		}
	}
}
