package memory_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

// benchCommands are shell commands of the kind agents run; %d varies the host.
var benchCommands = []string{
	"sshpass -p 'hunter2' ssh root@192.168.20.%d 'ls -la /mnt/user/appdata'",
	"docker compose -f /opt/stack%d/docker-compose.yml up -d",
	"tar -czf /backup/appdata-%d.tar.gz /mnt/user/appdata",
	"sha256sum /backup/appdata-%d.tar.gz",
	"go test ./internal/pkg%d/... -race",
	"git diff HEAD~%d -- internal/server/handler.go",
	"kubectl get pods -n monitoring-%d",
	"systemctl status nginx@%d --no-pager",
	"psql -h db%d.internal -U app -c 'select count(*) from users'",
	"rsync -avz ./dist/ deploy@web%d.example.com:/var/www/site/",
	"grep -rn \"TODO\" src/mod%d | head -50",
	"npm test -- --shard=%d",
}

var benchWords = strings.Fields(`the a config server request file found error fixed
	nginx docker container volume permission denied we should check path port service
	update restart log output failed test passed build module function returns value
	because when then after before database query index table migration user data`)

func benchProse(rng *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(benchWords[rng.IntN(len(benchWords))])
		if rng.IntN(12) == 0 {
			b.WriteString(".")
		}
	}
	return b.String()
}

func benchOutput(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		if i%4 == 0 {
			fmt.Fprintf(&b, "-rw-r--r--\t1 root root %6d Jun  2 18:%02d /mnt/user/appdata/file-%d.conf\n", rng.IntN(99999), i%60, i)
		} else {
			b.WriteString(benchProse(rng, 70))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// writeBenchTranscript writes about size bytes of a Claude Code-shaped session log:
// turns of a request, then steps of thinking, text, a Bash tool use and its result
// (with toolUseResult repeating the output, as Claude Code does), and every 25th
// turn a 1 MiB tool result. A new session starts every 200 turns. It returns the
// bytes written.
func writeBenchTranscript(w io.Writer, size int64, seed uint64) (int64, error) {
	rng := rand.New(rand.NewPCG(seed, 7))
	bw := bufio.NewWriterSize(w, 1<<20)
	var n int64
	ts := time.Date(2025, 6, 2, 18, 0, 0, 0, time.UTC)
	seq, parent, session := 0, "", ""
	line := func(typ string, message any, extra map[string]any) error {
		seq++
		ts = ts.Add(time.Duration(rng.IntN(5000)) * time.Millisecond)
		uuid := fmt.Sprintf("%08x-0000-4000-8000-%012x", seed, seq)
		v := map[string]any{"parentUuid": parent, "isSidechain": false, "userType": "external",
			"cwd": "/home/dev/project", "sessionId": session, "version": "1.0.61", "gitBranch": "main",
			"type": typ, "message": message, "uuid": uuid, "timestamp": ts.Format(time.RFC3339Nano)}
		if parent == "" {
			v["parentUuid"] = nil
		}
		for k, x := range extra {
			v[k] = x
		}
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		parent = uuid
		k, err := bw.Write(append(b, '\n'))
		n += int64(k)
		return err
	}
	for turn := 0; n < size; turn++ {
		if turn%200 == 0 {
			session = fmt.Sprintf("%08x-5e55-4000-8000-%012x", seed, turn)
			parent = ""
		}
		if err := line("user", map[string]any{"role": "user", "content": benchProse(rng, 100+rng.IntN(400))}, nil); err != nil {
			return n, err
		}
		for step := 0; step < 1+rng.IntN(4) && n < size; step++ {
			msg := func(block any) map[string]any {
				return map[string]any{"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4",
					"content": []any{block}, "stop_reason": nil, "usage": map[string]any{"input_tokens": 4, "output_tokens": 120}}
			}
			if err := line("assistant", msg(map[string]any{"type": "thinking", "thinking": benchProse(rng, 300+rng.IntN(1500)), "signature": strings.Repeat("Eq", 200)}), nil); err != nil {
				return n, err
			}
			if err := line("assistant", msg(map[string]any{"type": "text", "text": benchProse(rng, 100+rng.IntN(800))}), nil); err != nil {
				return n, err
			}
			id := fmt.Sprintf("toolu_%d_%d", turn, step)
			cmd := fmt.Sprintf(benchCommands[rng.IntN(len(benchCommands))], rng.IntN(50))
			if err := line("assistant", msg(map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": cmd, "description": "run it"}}), nil); err != nil {
				return n, err
			}
			out := benchOutput(rng, 200+rng.IntN(8000))
			if turn%25 == 24 && step == 0 {
				out = benchOutput(rng, 1<<20)
			}
			if err := line("user", map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": out, "is_error": false}}},
				map[string]any{"toolUseResult": map[string]any{"stdout": out, "stderr": "", "interrupted": false}}); err != nil {
				return n, err
			}
		}
	}
	return n, bw.Flush()
}

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
	n, err := writeBenchTranscript(f, size, 1)
	if err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(n)
	ctx := context.Background()
	// Count only the ingest in the peak resident set, not the file's generation.
	runtime.GC()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	var (
		peak   uint64
		rss    int64
		sum    memory.IngestSummary
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
		start, c0 := time.Now(), ingestCPUTime()
		sum, err = e.IngestTranscript(ctx, storetest.NewUser(), in, path, memory.IngestOptions{
			Progress: func(memory.IngestProgress) {
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc)
				rss = max(rss, maxRSS())
			}})
		elapse += time.Since(start)
		cpu += ingestCPUTime() - c0
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
