package memory_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/storetest"
)

// sheetBenchNow is the fixed clock of the sheet benchmarks' stores.
var sheetBenchNow = time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)

// sheetBenchStore fills a SQLite file with n facts of one user (a quarter in each
// category) and refs references in all: each fact's own reference from the write
// path, the rest spread at random over the 60 days before the store's fixed clock,
// recorded through the write path in batches.
//
// Filling 100,000 facts and 1,000,000 references takes minutes. With
// FACTBASE_BENCH_FIXTURES set to a directory, the filled file is kept there (as
// sheet-<n>-<refs>.db, with the user's id in sheet-<n>-<refs>.user) and later runs
// start from a copy of it; delete the files to rebuild them after a schema change
// (migrations still run on the copy when it is opened).
func sheetBenchStore(b testing.TB, path string, n, refs int) (*memory.Engine, factbase.UserID) {
	b.Helper()
	ctx := b.Context()
	now := sheetBenchNow
	dir := os.Getenv("FACTBASE_BENCH_FIXTURES")
	base := filepath.Join(dir, fmt.Sprintf("sheet-%d-%d", n, refs))
	if dir != "" {
		if u, err := os.ReadFile(base + ".user"); err == nil {
			if err := copyFile(base+".db", path); err != nil {
				b.Fatal(err)
			}
			return memory.New(openStore(b, path, fixed(now)), memory.Options{}), factbase.UserID(u)
		}
	}
	s := openStore(b, path, fixed(now))
	e := memory.New(s, memory.Options{})
	u := storetest.NewUser()
	start := time.Now()
	var ids []string
	for lo := 0; lo < n; lo += core.MaxOps {
		var ops []factbase.Op
		for i := lo; i < min(n, lo+core.MaxOps); i++ {
			cat := factbase.Categories[i%4]
			ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: fmt.Sprintf("k.%07d", i),
				Value: fmt.Sprintf("value %d", i), Category: cat, Cardinality: factbase.One,
				Text: fmt.Sprintf("The user's %s fact number %d", cat, i)}})
		}
		for _, f := range mustApply(b, e, u, ops...).Facts {
			ids = append(ids, f.ID)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	const batch = 100_000
	for left := refs - n; left > 0; left -= batch {
		rs := make([]factbase.Reference, min(batch, left))
		for i := range rs {
			rs[i] = factbase.Reference{FactID: ids[r.IntN(len(ids))], At: now.Add(-time.Duration(r.Int64N(int64(60 * 24 * time.Hour)))),
				Source: factbase.Source{Kind: factbase.SourceMessage}}
		}
		addReferences(b, e, u, rs)
	}
	b.Logf("setup: %d facts, %d references in %v", n, refs, time.Since(start).Round(time.Millisecond))
	if dir != "" {
		// Purge checkpoints the write-ahead log into the file and truncates it, so
		// that the file alone holds everything and a copy of it is the fixture.
		if purged, err := s.Purge(ctx); err != nil || !purged {
			b.Fatalf("Purge = %v, %v; want the log checkpointed", purged, err)
		}
		if err := copyFile(path, base+".db"); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(base+".user", []byte(u), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	return e, u
}

// copyFile copies the file src to dst.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func benchmarkGenerateSheet(b *testing.B, n, refs int) {
	e, u := sheetBenchStore(b, filepath.Join(b.TempDir(), "f.db"), n, refs)
	ctx := b.Context()
	b.ReportAllocs()
	cpu0, ops := processCPU(), 0
	for b.Loop() {
		sh, err := e.GenerateSheet(ctx, u, core.SheetOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if sh.Count != 100 {
			b.Fatalf("sheet has %d entries, want 100", sh.Count)
		}
		ops++
	}
	if cpu0 >= 0 {
		b.ReportMetric(float64(processCPU()-cpu0)/1e6/float64(ops), "cpu-ms/op")
	}
}

// BenchmarkGenerateSheet100k: the figure, end to end (read and count in one
// snapshot, assemble, save): 100,000 facts and 1,000,000 references.
func BenchmarkGenerateSheet100k(b *testing.B) { benchmarkGenerateSheet(b, 100_000, 1_000_000) }

// BenchmarkGenerateSheet is the series for the growth: 10 references per fact.
func BenchmarkGenerateSheet(b *testing.B) {
	for _, n := range []int{10_000, 50_000, 100_000, 200_000} {
		b.Run(fmt.Sprintf("facts=%d/refs=%d", n, 10*n), func(b *testing.B) { benchmarkGenerateSheet(b, n, 10*n) })
	}
}
