package sealed_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/search"
	"github.com/factbase/factbase/storetest"
)

// The cost of sealing, on SQLite: each benchmark runs over a plain store and a
// sealed one, so that their ratio is the cost. cpu-ns/op is the process's CPU time
// per operation, steadier than the wall time on a machine that runs other work.
//
//	go test -run '^$' -bench . -benchtime 2000x ./sealed/

// cpuMetric starts counting the process's CPU time; call the function it returns
// when the timed loop ends, to report cpu-ns/op.
func cpuMetric(b *testing.B) func() {
	b.ResetTimer()
	start := processCPU()
	return func() {
		if end := processCPU(); start >= 0 && end >= 0 && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

// benchStores returns a new plain SQLite store and a new sealed one, by name.
func benchStores(b *testing.B) []struct {
	name  string
	store factbase.Store
} {
	b.Helper()
	return []struct {
		name  string
		store factbase.Store
	}{
		{"plain", openSQLite(b, filepath.Join(b.TempDir(), "plain.db"))},
		{"sealed", sealWith(b, openSQLite(b, filepath.Join(b.TempDir(), "sealed.db")), newKey(b))},
	}
}

// BenchmarkWrite times the write path of one single-valued fact with a text, a new
// value each time (the current fact superseded): Insert and End through the engine.
func BenchmarkWrite(b *testing.B) {
	for _, bs := range benchStores(b) {
		b.Run(bs.name, func(b *testing.B) {
			e, u := storetest.Engine(bs.store)
			ctx := context.Background()
			defer cpuMetric(b)()
			for i := 0; i < b.N; i++ {
				_, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "contact.email",
					Value: fmt.Sprintf("user%d@example.com", i), Text: fmt.Sprintf("The user's email address is user%d@example.com", i)}}})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchFacts gives user u of s n facts with texts of a small vocabulary, so that a
// search term matches many of them.
func benchFacts(b *testing.B, s factbase.Store, n int) factbase.UserID {
	b.Helper()
	e, u := storetest.Engine(s)
	words := []string{"river", "coffee", "climbing", "Lisbon", "allergy", "peanuts", "meeting", "project", "deadline", "garden",
		"violin", "train", "budget", "doctor", "birthday", "holiday", "python", "server", "invoice", "recipe"}
	for off := 0; off < n; off += 1000 {
		var ops []factbase.Op
		for i := off; i < min(n, off+1000); i++ {
			text := fmt.Sprintf("Note %d about the %s and the %s before the %s", i, words[i%20], words[i*7%20], words[i*13%20])
			ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: fmt.Sprintf("note.%d", i), Value: words[i%20], Text: text}})
		}
		if _, err := e.Apply(context.Background(), u, ops); err != nil {
			b.Fatal(err)
		}
	}
	return u
}

// BenchmarkCurrentFact times the point read of one key among 10,000.
func BenchmarkCurrentFact(b *testing.B) {
	for _, bs := range benchStores(b) {
		u := benchFacts(b, bs.store, 10000)
		b.Run(bs.name, func(b *testing.B) {
			ctx := context.Background()
			defer cpuMetric(b)()
			for i := 0; i < b.N; i++ {
				if _, ok, err := bs.store.CurrentFact(ctx, u, factbase.SubjectUser, fmt.Sprintf("note.%d", i%10000)); err != nil || !ok {
					b.Fatal(ok, err)
				}
			}
		})
	}
}

// BenchmarkTextCandidates times a full-text search of three terms among 10,000 facts,
// the best 50 candidates.
func BenchmarkTextCandidates(b *testing.B) {
	for _, bs := range benchStores(b) {
		u := benchFacts(b, bs.store, 10000)
		b.Run(bs.name, func(b *testing.B) {
			ctx := context.Background()
			q := factbase.TextQuery{Kind: factbase.KindFact, Terms: search.Terms("peanuts allergy doctor"), Limit: 50}
			defer cpuMetric(b)()
			for i := 0; i < b.N; i++ {
				err := bs.store.View(ctx, u, func(tx factbase.ReadTx) error {
					cs, err := tx.TextCandidates(ctx, q)
					if err == nil && len(cs) != q.Limit {
						err = fmt.Errorf("%d candidates, want %d", len(cs), q.Limit)
					}
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
