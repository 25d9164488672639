package memory_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase/bench"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

// maxRSS returns the process's peak resident set size in bytes so far (VmHWM in
// /proc/self/status), or 0 where that file does not exist.
func maxRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
			return kb << 10
		}
	}
	return 0
}

// benchIngest ingests a generated transcript of about size bytes end to end into a
// new SQLite file per iteration. MB/s is the end-to-end throughput (MB/cpu-s the
// same per CPU second);
// peak-heap-MiB is the largest live heap sampled after each committed batch, and
// peak-rss-MiB the process's peak resident set during the ingests (the kernel's peak
// is reset after the file is generated, where Linux allows it; run one size per
// process to read it for that size alone); batch-rss-MiB is that peak sampled after
// each committed batch, before the fact sheet is regenerated at the end (which reads
// every current fact of the user, so it grows with the facts stored).
func benchIngest(b *testing.B, size int64) {
	dir := b.TempDir()
	path := filepath.Join(dir, "session.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	n, err := bench.WriteTranscript(f, size, 1) // the generator factbase bench uses
	if err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(n)
	ctx := b.Context()
	// Count only the ingest in the peak resident set, not the file's generation.
	runtime.GC()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	var (
		peak   uint64
		rss    int64
		sum    ingest.IngestSummary
		elapse time.Duration
		cpu    time.Duration
	)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		runtime.GC()
		s, err := sqlite.Open(ctx, filepath.Join(dir, fmt.Sprintf("f%d.db", i)), sqlite.Options{})
		if err != nil {
			b.Fatal(err)
		}
		e := memory.New(s, memory.Options{})
		in, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start, c0 := time.Now(), processCPU()
		sum, err = e.Ingest.IngestTranscript(ctx, storetest.NewUser(), in, path, ingest.IngestOptions{
			Progress: func(ingest.IngestProgress) {
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc)
				rss = max(rss, maxRSS())
			}})
		elapse += time.Since(start)
		cpu += processCPU() - c0
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if sum.Offset != n || sum.Stored == 0 {
			b.Fatalf("ingest stopped at %d of %d bytes, %d facts stored", sum.Offset, n, sum.Stored)
		}
		in.Close()
		s.Close()
		os.Remove(filepath.Join(dir, fmt.Sprintf("f%d.db", i)))
		b.StartTimer()
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(maxRSS())/(1<<20), "peak-rss-MiB")
	b.ReportMetric(float64(rss)/(1<<20), "batch-rss-MiB")
	b.ReportMetric(float64(sum.Stored), "facts/op")
	b.ReportMetric(float64(sum.Stored)/elapse.Seconds()*float64(b.N), "facts/s")
	if cpu > 0 {
		// Per CPU second (user+system of the whole process, parse and SQLite on
		// both cores): steadier than MB/s when other work shares the machine.
		b.ReportMetric(float64(n)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
	}
}

// BenchmarkIngest200MB: the benchmark, a 200 MB transcript end to end into
// SQLite.
func BenchmarkIngest200MB(b *testing.B) { benchIngest(b, 200<<20) }

// BenchmarkIngest50MB is the same at a quarter of the size, to compare memory.
func BenchmarkIngest50MB(b *testing.B) { benchIngest(b, 50<<20) }
