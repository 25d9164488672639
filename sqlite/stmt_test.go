package sqlite

import (
	"context"
	"fmt"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
)

const stmtUser factbase.UserID = "5f0c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"

// openStmtStore opens a store with readers read connections and one user whose
// facts are an email and a three-member list.
func openStmtStore(t testing.TB, readers int) *Store {
	t.Helper()
	s := OpenTemp(t, Options{Readers: readers})
	ops := []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "contact.email", Value: "a@example.com"}}}
	for _, v := range []string{"BTC", "ETH", "XMR"} {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.crypto", Value: v}})
	}
	if _, err := memory.New(s, memory.Options{NoSheetRegen: true}).Apply(context.Background(), stmtUser, ops); err != nil {
		t.Fatal(err)
	}
	return s
}

// facts runs one Facts filter in a read transaction.
func facts(t testing.TB, s *Store, f factbase.FactFilter) []factbase.Fact {
	t.Helper()
	var out []factbase.Fact
	err := s.View(context.Background(), stmtUser, func(tx factbase.ReadTx) error {
		var err error
		out, err = tx.Facts(context.Background(), f)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDynamicStatementsAreCachedOnTheSecondMiss(t *testing.T) {
	s := openStmtStore(t, 2)
	f := factbase.FactFilter{Key: "favorites.crypto", MinConfidence: 0.1}
	for i := range 4 {
		if got := facts(t, s, f); len(got) != 3 {
			t.Fatalf("call %d: %d facts, want 3", i, len(got))
		}
		s.rstmts.wait()
	}
	c := s.rstmts
	c.mu.Lock()
	hits, misses := c.hits, c.misses
	c.mu.Unlock()
	// Miss 1 remembers the text, miss 2 prepares it on the pool, calls 3 and 4 hit.
	if misses != 2 || hits != 2 || c.dynamicLen() != 1 {
		t.Errorf("misses %d, hits %d, cached %d; want 2, 2, 1", misses, hits, c.dynamicLen())
	}
}

func TestDynamicStatementCacheIsBounded(t *testing.T) {
	s := openStmtStore(t, 2)
	c := s.rstmts
	c.mu.Lock()
	c.max = 3
	c.mu.Unlock()
	// Five filters of different SQL text, each used three times.
	filters := []factbase.FactFilter{
		{Key: "contact.email"}, {KeyPrefix: "favorites."}, {Key: "favorites.crypto", NewestFirst: true},
		{Category: factbase.Transient}, {MinConfidence: 0.5},
	}
	for _, f := range filters {
		for range 3 {
			facts(t, s, f)
			c.wait()
		}
	}
	if n := c.dynamicLen(); n != 3 {
		t.Fatalf("cached %d dynamic statements, want the bound 3", n)
	}
	// The two used first are the ones evicted: using them misses again.
	c.mu.Lock()
	before := c.misses
	c.mu.Unlock()
	facts(t, s, filters[0])
	facts(t, s, filters[4])
	c.mu.Lock()
	after := c.misses
	c.mu.Unlock()
	if after-before != 1 {
		t.Errorf("%d misses for an evicted and a cached shape, want 1", after-before)
	}
	// Results are unchanged by caching.
	if got := facts(t, s, factbase.FactFilter{KeyPrefix: "favorites."}); len(got) != 3 {
		t.Errorf("key prefix favorites.: %d facts, want 3", len(got))
	}
}

// TestEvictedStatementInUse: a statement evicted and closed while a transaction
// holds it keeps working until the transaction ends.
func TestEvictedStatementInUse(t *testing.T) {
	s := openStmtStore(t, 2)
	q := "SELECT count(*) FROM facts WHERE u = ? AND key = ? AND current = 1"
	s.rstmts.lookup(q)
	s.rstmts.lookup(q)
	s.rstmts.wait()
	err := s.View(context.Background(), stmtUser, func(rt factbase.ReadTx) error {
		ctx := context.Background()
		t := rt.(*tx)
		if s.rstmts.lookup(q) == nil {
			return fmt.Errorf("the statement is not cached")
		}
		st, err := t.stmt(ctx, q) // bound to this transaction
		if err != nil {
			return err
		}
		c := s.rstmts
		c.mu.Lock()
		c.max = 1
		c.mu.Unlock()
		c.lookup("SELECT 1")
		c.lookup("SELECT 1") // a second shape evicts q and closes it
		c.wait()
		if c.lookup(q) != nil {
			return fmt.Errorf("q was not evicted")
		}
		var n int
		if err := st.QueryRowContext(ctx, t.u, "favorites.crypto").Scan(&n); err != nil {
			return fmt.Errorf("after eviction: %w", err)
		}
		if n != 3 {
			return fmt.Errorf("count %d, want 3", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDynamicPrepareWithEveryReaderBusy: the background preparation waits for a
// connection; it must not make a transaction that holds the pool's only reader wait
// for itself.
func TestDynamicPrepareWithEveryReaderBusy(t *testing.T) {
	s := openStmtStore(t, 1)
	f := factbase.FactFilter{Subject: factbase.SubjectUser, Key: "contact.email"}
	err := s.View(context.Background(), stmtUser, func(rt factbase.ReadTx) error {
		for i := range 4 { // the second call starts a preparation that cannot run yet
			got, err := rt.Facts(context.Background(), f)
			if err != nil {
				return err
			}
			if len(got) != 1 || got[0].Value != "a@example.com" {
				return fmt.Errorf("call %d: %v, want the email", i, got)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.rstmts.wait() // runs once the transaction released the connection
	if n := s.rstmts.dynamicLen(); n != 1 {
		t.Errorf("cached %d dynamic statements after the transaction, want 1", n)
	}
}

// TestDynamicPrepareAfterClose: a preparation that finishes after the store closed
// leaves nothing behind, and lookups after close find nothing.
func TestDynamicPrepareAfterClose(t *testing.T) {
	s := openStmtStore(t, 1)
	q := "SELECT count(*) FROM facts WHERE u = ? AND key = ?"
	c := s.rstmts
	c.lookup(q)
	c.lookup(q) // starts the preparation
	s.Close()
	c.wait()
	if c.lookup(q) != nil || c.dynamicLen() != 0 {
		t.Errorf("a closed cache returned or kept a statement")
	}
}

// BenchmarkFactsByKey is the read of GET /v1/users/{user}/facts?key=...: one Facts
// filter in a read transaction, with and without the dynamic statement cache.
func BenchmarkFactsByKey(b *testing.B) {
	for _, cached := range []bool{false, true} {
		b.Run(fmt.Sprintf("cached=%v", cached), func(b *testing.B) {
			s := openStmtStore(b, 4)
			if !cached {
				s.rstmts.mu.Lock()
				s.rstmts.max = 0
				s.rstmts.mu.Unlock()
			}
			f := factbase.FactFilter{Key: "contact.email"}
			facts(b, s, f)
			facts(b, s, f)
			s.rstmts.wait()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				facts(b, s, f)
			}
		})
	}
}

// BenchmarkLimitParameter shows why limits are literals in the read queries: SQLite's
// planner reads a bound LIMIT, so a cached statement with "LIMIT ?" is re-prepared
// (sqlite3Reprepare) on every run, and costs about what an uncached one does.
func BenchmarkLimitParameter(b *testing.B) {
	base := "SELECT " + factColumns + " FROM facts WHERE u = ? AND key = ? AND current = 1 ORDER BY recorded_at, seq"
	for _, bc := range []struct {
		name, query string
		args        []any
	}{
		{"LIMIT ?", base + " LIMIT ? OFFSET ?", []any{"contact.email", 100, 0}},
		{"LIMIT 100", base + " LIMIT 100 OFFSET ?", []any{"contact.email", 0}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := openStmtStore(b, 4)
			run := func() {
				err := s.View(context.Background(), stmtUser, func(rt factbase.ReadTx) error {
					t := rt.(*tx)
					got, err := t.queryFacts(context.Background(), bc.query, append([]any{t.u}, bc.args...)...)
					if err == nil && len(got) != 1 {
						err = fmt.Errorf("%d facts, want 1", len(got))
					}
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			run()
			run()
			s.rstmts.wait()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				run()
			}
		})
	}
}
