package memory_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/bench"
	"github.com/factbase/factbase/bench/cputime"
	"github.com/factbase/factbase/internal/userdata"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

// The bulk ingest benchmarks: a generated log through IngestTranscript into a new
// SQLite file, beside a bare-INSERT baseline measured in the same process on the
// same kind of file. Compare the ratio (baseline rows/s over facts/s), which a
// loaded machine moves much less than either figure.
//
//	go test -run '^$' -bench 'BulkIngest' -benchtime 1x ./memory/

// writeLog writes a generated log of about size bytes with gen to a file in dir and
// returns its path and size.
func writeLog(b *testing.B, dir string, gen func(io.Writer, int64, uint64) (int64, error), size int64) (string, int64) {
	b.Helper()
	path := filepath.Join(dir, "session.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	n, err := gen(f, size, 1)
	if err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path, n
}

// rawRowsPerSecond is the baseline: rows bare prepared INSERTs of a fact-sized row
// (a 60-byte indexed key, a 100-byte value) into a new file, batch rows a
// transaction, on a writer opened as the store opens its own. It returns rows/s.
func rawRowsPerSecond(b *testing.B, dir string, rows, batch int) float64 {
	b.Helper()
	path := filepath.Join(dir, "raw.db")
	defer os.Remove(path)
	db, err := sqlite.OpenDB(path, sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE raw (id INTEGER PRIMARY KEY, k TEXT NOT NULL, v TEXT NOT NULL);
		CREATE INDEX raw_k ON raw (k)`); err != nil {
		b.Fatal(err)
	}
	stmt, err := db.Prepare("INSERT INTO raw (k, v) VALUES (?, ?)")
	if err != nil {
		b.Fatal(err)
	}
	defer stmt.Close()
	value := fmt.Sprintf("%0100d", 0)
	start := time.Now()
	for done := 0; done < rows; {
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		ins := tx.Stmt(stmt)
		for j := 0; j < batch && done < rows; j, done = j+1, done+1 {
			k := "action_00000001-0000-4000-9000-" + strconv.Itoa(1e11+done) + " used_tool"
			if _, err := ins.Exec(k, value); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	return float64(rows) / time.Since(start).Seconds()
}

// bytesWritten returns the bytes the process has passed to write calls so far
// (wchar in /proc/self/io), or -1 where that file does not exist.
func bytesWritten() int64 {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return -1
			}
			return n
		}
	}
	return -1
}

// benchBulkIngest ingests a log of about size bytes made by gen, end to end, into a
// new SQLite file per iteration, with emb as the embedder (nil: none), and reports
// facts/s, MB/s, MB and facts per CPU second, the bytes written per fact (to the
// write-ahead log and, at checkpoints, the database file: what a write costs on a
// disk shared with other work), the baseline's rows/s and the ratio, the peak heap
// (live and not yet collected) and the process's peak resident set, both sampled
// after each committed batch (before the fact sheet regenerated at the end, which
// reads every current fact of the user).
func benchBulkIngest(b *testing.B, gen func(io.Writer, int64, uint64) (int64, error), size int64, emb factbase.Embedder) {
	dir := b.TempDir()
	path, n := writeLog(b, dir, gen, size)
	ctx := context.Background()
	b.SetBytes(n)
	runtime.GC()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) // the peak RSS from here on (Linux)
	var (
		rss     int64
		peak    uint64
		stored  int
		elapsed time.Duration
		cpu     time.Duration
		written int64
	)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		runtime.GC()
		db := filepath.Join(dir, fmt.Sprintf("f%d.db", i))
		s, err := sqlite.Open(ctx, db, sqlite.Options{})
		if err != nil {
			b.Fatal(err)
		}
		e := memory.New(s, memory.Options{Embedder: emb})
		in, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start, c0, w0 := time.Now(), cputime.Used(), bytesWritten()
		sum, err := e.Ingest.IngestTranscript(ctx, storetest.NewUser(), in, path, ingest.IngestOptions{
			Progress: func(ingest.IngestProgress) {
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc)
				rss = max(rss, maxRSS())
			}})
		elapsed += time.Since(start)
		cpu += cputime.Used() - c0
		written += bytesWritten() - w0
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if sum.Offset != n || sum.Stored == 0 {
			b.Fatalf("ingest stopped at %d of %d bytes, %d facts stored", sum.Offset, n, sum.Stored)
		}
		stored += sum.Stored
		in.Close()
		e.Close()
		s.Close()
		os.Remove(db)
		b.StartTimer()
	}
	b.StopTimer()
	factsPerSec := float64(stored) / elapsed.Seconds()
	raw := rawRowsPerSecond(b, dir, stored/b.N, ingest.DefaultIngestBatchFacts)
	b.ReportMetric(float64(stored/b.N), "facts/op")
	b.ReportMetric(factsPerSec, "facts/s")
	b.ReportMetric(float64(n)*float64(b.N)/1e6/elapsed.Seconds(), "MB/s")
	if cpu > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
		b.ReportMetric(float64(stored)/cpu.Seconds(), "facts/cpu-s")
	}
	if written >= 0 {
		b.ReportMetric(float64(written)/float64(stored), "B-written/fact")
	}
	b.ReportMetric(raw, "raw-rows/s")
	b.ReportMetric(raw/factsPerSec, "x-raw")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(rss)/(1<<20), "batch-rss-MiB")
}

// BenchmarkBulkIngestCoding: a 32 MB log of a coding session, dense in facts (about
// 125,000), without vectors and with the built-in GloVe embedder.
func BenchmarkBulkIngestCoding(b *testing.B) {
	b.Run("none", func(b *testing.B) { benchBulkIngest(b, bench.WriteCodingTranscript, 32<<20, nil) })
	b.Run("glove", func(b *testing.B) { benchBulkIngest(b, bench.WriteCodingTranscript, 32<<20, glove(b)) })
}

// BenchmarkBulkIngestBench: the log factbase bench ingests (long tool outputs, about
// 10,000 facts in 32 MB), with the GloVe embedder as the CLI runs it.
func BenchmarkBulkIngestBench(b *testing.B) {
	benchBulkIngest(b, bench.WriteTranscript, 32<<20, glove(b))
}

// episodeText is a generated episode of a service's deployment, with a version, an
// error rate, a latency, a count and a status for the pattern extraction to find
// (about 5 facts); the services repeat, so later versions supersede earlier ones.
func episodeText(i int) (string, []string) {
	svc := fmt.Sprintf("svc-%d", i%400)
	return fmt.Sprintf("Deployed %s v%d.%d.%d to production. Error rate %d.%d%%, p95 latency %d ms. "+
		"Processed %d invoices overnight; migration status: done.", svc, 1+i%7, i%13, i%101, i%5, i%10, 20+i%400, 1000+i), []string{svc}
}

// BenchmarkBulkBackfill: pattern extraction over 20,000 stored episodes that had none
// (BackfillEpisodes), a batch of episodes a transaction, into a new SQLite file.
func BenchmarkBulkBackfill(b *testing.B) {
	const episodes = 20000
	ctx := context.Background()
	dir := b.TempDir()
	var (
		stored  int
		elapsed time.Duration
		cpu     time.Duration
	)
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		s, err := sqlite.Open(ctx, filepath.Join(dir, fmt.Sprintf("b%d.db", i)), sqlite.Options{})
		if err != nil {
			b.Fatal(err)
		}
		e := memory.New(s, memory.Options{})
		u := storetest.NewUser()
		for done := 0; done < episodes; done += ingest.MaxEpisodeBatch {
			in := make([]ingest.EpisodeInput, ingest.MaxEpisodeBatch)
			for j := range in {
				content, tags := episodeText(done + j)
				in[j] = ingest.EpisodeInput{Content: content, Tags: tags, NoExtract: true}
			}
			if _, _, err := e.Ingest.AddEpisodes(ctx, u, in); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		start, c0 := time.Now(), cputime.Used()
		res, err := e.Ingest.BackfillEpisodes(ctx, u, 0, nil)
		elapsed += time.Since(start)
		cpu += cputime.Used() - c0
		if err != nil {
			b.Fatal(err)
		}
		if res.Episodes != episodes || res.Facts == 0 {
			b.Fatalf("backfill = %+v, want %d episodes and facts", res, episodes)
		}
		stored += res.Facts
		b.StopTimer()
		e.Close()
		s.Close()
		b.StartTimer()
	}
	b.StopTimer()
	raw := rawRowsPerSecond(b, dir, stored/b.N, ingest.DefaultIngestBatchFacts)
	b.ReportMetric(float64(stored/b.N), "facts/op")
	b.ReportMetric(float64(stored)/elapsed.Seconds(), "facts/s")
	if cpu > 0 {
		b.ReportMetric(float64(stored)/cpu.Seconds(), "facts/cpu-s")
	}
	b.ReportMetric(raw, "raw-rows/s")
	b.ReportMetric(raw/(float64(stored)/elapsed.Seconds()), "x-raw")
}

// BenchmarkBulkImport: a user's export (an 8 MB coding log's facts with their
// GloVe vectors, references and sessions) imported into a new SQLite file, as
// "factbase import" does: decoded, then written in one transaction.
func BenchmarkBulkImport(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	path, _ := writeLog(b, dir, bench.WriteCodingTranscript, 8<<20)
	src, err := sqlite.Open(ctx, filepath.Join(dir, "src.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	e := memory.New(src, memory.Options{Embedder: glove(b), NoSheetRegen: true})
	defer e.Close()
	u := storetest.NewUser()
	in, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	if _, err := e.Ingest.IngestTranscript(ctx, u, in, path, ingest.IngestOptions{}); err != nil {
		b.Fatal(err)
	}
	d, err := userdata.Read(ctx, src, u)
	if err != nil {
		b.Fatal(err)
	}
	var export bytes.Buffer
	if _, err := userdata.Encode(&export, u, d, time.Now(), true); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(export.Len()))
	var (
		elapsed time.Duration
		cpu     time.Duration
	)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		dst, err := sqlite.Open(ctx, filepath.Join(dir, fmt.Sprintf("dst%d.db", i)), sqlite.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start, c0 := time.Now(), cputime.Used()
		_, data, err := userdata.Decode(bytes.NewReader(export.Bytes()))
		if err == nil {
			data.Counts = userdata.Expected(data)
			err = userdata.Write(ctx, dst, u, data)
		}
		elapsed += time.Since(start)
		cpu += cputime.Used() - c0
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := userdata.Verify(ctx, dst, u, data); err != nil {
			b.Fatal(err)
		}
		dst.Close()
		b.StartTimer()
	}
	b.StopTimer()
	facts := len(d.Facts)
	raw := rawRowsPerSecond(b, dir, facts, ingest.DefaultIngestBatchFacts)
	b.ReportMetric(float64(facts), "facts/op")
	b.ReportMetric(float64(facts*b.N)/elapsed.Seconds(), "facts/s")
	if cpu > 0 {
		b.ReportMetric(float64(facts*b.N)/cpu.Seconds(), "facts/cpu-s")
	}
	b.ReportMetric(raw, "raw-rows/s")
	b.ReportMetric(raw/(float64(facts*b.N)/elapsed.Seconds()), "x-raw")
}
