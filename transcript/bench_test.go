package transcript_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/factbase/factbase/bench"
	"github.com/factbase/factbase/bench/cputime"
	"github.com/factbase/factbase/transcript"
)

// writeTranscript writes a generated transcript of about size bytes to a temporary
// file and returns its path and exact size.
func writeTranscript(b *testing.B, size int64) (string, int64) {
	b.Helper()
	path := filepath.Join(b.TempDir(), "session.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	n, err := bench.WriteTranscript(f, size, 1)
	if err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path, n
}

// BenchmarkParseAndExtract reads a generated transcript from a file and extracts
// every message's facts. MB/s is the parse+extract throughput (MB/cpu-s the same
// per CPU second); peak-heap-MiB is the largest heap seen while reading (sampled
// every MiB), which stays flat from 10 MB to 50 MB because one line is held at a
// time.
func BenchmarkParseAndExtract(b *testing.B) {
	for _, size := range []int64{10 << 20, 50 << 20} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			path, n := writeTranscript(b, size)
			b.SetBytes(n)
			b.ReportAllocs()
			var peak uint64
			var facts int
			var cpu time.Duration
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				runtime.GC()
				b.StartTimer()
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				r := transcript.NewReader(f, path, transcript.Options{})
				x := transcript.NewExtractor(nil, transcript.ExtractorOptions{})
				c0 := cputime.Used()
				var ms runtime.MemStats
				next := int64(0)
				facts = 0
				for {
					m, err := r.Next()
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					facts += len(x.Extract(m))
					if r.Offset() >= next {
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapAlloc)
						next = r.Offset() + 1<<20
					}
				}
				cpu += cputime.Used() - c0
				f.Close()
				if r.Offset() != n {
					b.Fatalf("offset %d after reading, want %d", r.Offset(), n)
				}
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			if cpu > 0 {
				// Throughput per CPU second (the process's user+system time, which
				// includes the GC's helpers): steadier than MB/s on a busy machine.
				b.ReportMetric(float64(n)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
			}
			b.ReportMetric(float64(facts), "facts/op")
		})
	}
}

// BenchmarkRead is BenchmarkParseAndExtract without the Extractor: the Reader's
// share (line splitting, JSON scanning, SHA-256).
func BenchmarkRead(b *testing.B) {
	path, n := writeTranscript(b, 50<<20)
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		r := transcript.NewReader(f, path, transcript.Options{})
		for {
			if _, err := r.Next(); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
		f.Close()
	}
}
