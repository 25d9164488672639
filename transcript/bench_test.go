package transcript

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// genCommands are shell commands of the kind agents run.
var genCommands = []string{
	"sshpass -p 'hunter2' ssh root@192.168.20.4 'ls -la /mnt/user/appdata'",
	"docker compose -f /opt/stack/docker-compose.yml up -d",
	"tar -czf /backup/appdata-2025.tar.gz /mnt/user/appdata",
	"sha256sum /backup/appdata-2025.tar.gz",
	"go test ./... -race",
	"git diff HEAD~1 -- internal/server/handler.go",
	"kubectl get pods -n monitoring",
	"systemctl status nginx --no-pager",
	"psql -h db.internal -U app -c 'select count(*) from users'",
	"rsync -avz ./dist/ deploy@web01.example.com:/var/www/site/",
	"grep -rn \"TODO\" src/ | head -50",
	"npm test -- --watch=false",
}

// genWords make up prose.
var genWords = strings.Fields(`the a config server request file found error fixed
	nginx docker container volume permission denied we should check path port service
	update restart log output failed test passed build module function returns value
	because when then after before database query index table migration user data`)

func genProse(rng *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(genWords[rng.IntN(len(genWords))])
		if rng.IntN(12) == 0 {
			b.WriteString(".")
		}
		if rng.IntN(40) == 0 {
			b.WriteString("\n\n")
		}
	}
	return b.String()
}

// genOutput is tool output: lines with paths, tabs, quotes and some non-ASCII.
func genOutput(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		switch rng.IntN(6) {
		case 0:
			fmt.Fprintf(&b, "-rw-r--r--\t1 root root %6d Jun  2 18:%02d /mnt/user/appdata/file-%d.conf\n", rng.IntN(99999), i%60, i)
		case 1:
			fmt.Fprintf(&b, "%s: \"%s\" → ok\n", time.Date(2025, 6, 2, 18, i%60, 0, 0, time.UTC).Format(time.RFC3339), genProse(rng, 40))
		default:
			b.WriteString(genProse(rng, 70))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// genTranscript writes about size bytes of a Claude Code-shaped session log to w:
// turns of a user request, thinking, text, a Bash tool use and its result (with
// toolUseResult duplicating the output, as Claude Code does), and every so often a
// 1 MiB tool result. It returns the bytes written.
func genTranscript(w io.Writer, size int64, seed uint64) (int64, error) {
	rng := rand.New(rand.NewPCG(seed, 42))
	bw := bufio.NewWriter(w)
	var n int64
	session := "7d1f5c2e-6b2a-4c41-9a55-0f3b1d2c9e10"
	ts := time.Date(2025, 6, 2, 18, 0, 0, 0, time.UTC)
	seq := 0
	parent := ""
	line := func(typ string, message any, extra map[string]any) error {
		seq++
		ts = ts.Add(time.Duration(rng.IntN(5000)) * time.Millisecond)
		uuid := fmt.Sprintf("%08x-0000-4000-8000-%012x", seed, seq)
		v := map[string]any{
			"parentUuid": nilIfEmpty(parent), "isSidechain": false, "userType": "external",
			"cwd": "/home/dev/project", "sessionId": session, "version": "1.0.61", "gitBranch": "main",
			"type": typ, "message": message, "uuid": uuid, "timestamp": ts.Format(time.RFC3339Nano),
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
		if err := line("user", map[string]any{"role": "user", "content": genProse(rng, 100+rng.IntN(400))}, nil); err != nil {
			return n, err
		}
		for step := 0; step < 1+rng.IntN(4) && n < size; step++ {
			msg := func(blocks ...any) map[string]any {
				return map[string]any{"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4",
					"content": blocks, "stop_reason": nil, "usage": map[string]any{"input_tokens": 4, "output_tokens": 120}}
			}
			if err := line("assistant", msg(map[string]any{"type": "thinking", "thinking": genProse(rng, 300+rng.IntN(1500)), "signature": strings.Repeat("Eq", 200)}), map[string]any{"requestId": "req_1"}); err != nil {
				return n, err
			}
			if err := line("assistant", msg(map[string]any{"type": "text", "text": genProse(rng, 100+rng.IntN(800))}), nil); err != nil {
				return n, err
			}
			id := fmt.Sprintf("toolu_%d_%d", turn, step)
			cmd := genCommands[rng.IntN(len(genCommands))]
			if err := line("assistant", msg(map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": cmd, "description": "run it"}}), nil); err != nil {
				return n, err
			}
			size := 200 + rng.IntN(8000)
			if turn%25 == 24 && step == 0 {
				size = 1 << 20
			}
			out := genOutput(rng, size)
			if err := line("user", map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": out, "is_error": false}}},
				map[string]any{"toolUseResult": map[string]any{"stdout": out, "stderr": "", "interrupted": false}}); err != nil {
				return n, err
			}
		}
	}
	return n, bw.Flush()
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// BenchmarkParseAndExtract reads a generated transcript from a file and extracts
// every message's facts. MB/s is the parse+extract throughput (MB/cpu-s the same
// per CPU second); peak-heap-MiB is the largest heap seen while reading (sampled
// every MiB), which stays flat from 10 MB to 50 MB because one line is held at a
// time.
func BenchmarkParseAndExtract(b *testing.B) {
	for _, size := range []int64{10 << 20, 50 << 20} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "session.jsonl")
			f, err := os.Create(path)
			if err != nil {
				b.Fatal(err)
			}
			n, err := genTranscript(f, size, 1)
			if err != nil {
				b.Fatal(err)
			}
			if err := f.Close(); err != nil {
				b.Fatal(err)
			}
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
				r := NewReader(f, path, Options{})
				x := NewExtractor(nil, ExtractorOptions{})
				c0 := cpuTime()
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
				cpu += cpuTime() - c0
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
	path := filepath.Join(b.TempDir(), "session.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	n, err := genTranscript(f, 50<<20, 1)
	if err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		r := NewReader(f, path, Options{})
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
