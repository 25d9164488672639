package bench

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/sqlite"
)

// Shell commands of the kind agents run; %d varies the host.
var commands = []string{
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

var proseWords = strings.Fields(`the a config server request file found error fixed
	nginx docker container volume permission denied we should check path port service
	update restart log output failed test passed build module function returns value
	because when then after before database query index table migration user data`)

func prose(rng *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(proseWords[rng.IntN(len(proseWords))])
		if rng.IntN(12) == 0 {
			b.WriteString(".")
		}
	}
	return b.String()
}

func toolOutput(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		if i%4 == 0 {
			fmt.Fprintf(&b, "-rw-r--r--\t1 root root %6d Jun  2 18:%02d /mnt/user/appdata/file-%d.conf\n", rng.IntN(99999), i%60, i)
		} else {
			b.WriteString(prose(rng, 70))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// WriteTranscript writes about size bytes of a Claude Code-shaped session log: turns
// of a request, then steps of thinking, text, a Bash tool use and its result (with
// toolUseResult repeating the output, as Claude Code does), and every 25th turn a
// 1 MiB tool result. A new session starts every 200 turns. It returns the bytes
// written.
func WriteTranscript(w io.Writer, size int64, seed uint64) (int64, error) {
	rng := rand.New(rand.NewPCG(seed, 7))
	bw := bufio.NewWriterSize(w, 1<<20)
	var n int64
	ts := time.Date(2025, 6, 2, 18, 0, 0, 0, time.UTC)
	seq, parent, session := 0, "", ""
	line := func(typ string, message any, extra map[string]any) error {
		seq++
		ts = ts.Add(time.Duration(rng.IntN(5000)) * time.Millisecond)
		uuid := fmt.Sprintf("%08x-0000-4000-8000-%012x", seed, seq)
		k, err := writeLine(bw, parent, session, uuid, ts, typ, message, extra)
		parent = uuid
		n += int64(k)
		return err
	}
	for turn := 0; n < size; turn++ {
		if turn%200 == 0 {
			session = fmt.Sprintf("%08x-5e55-4000-8000-%012x", seed, turn)
			parent = ""
		}
		if err := line("user", map[string]any{"role": "user", "content": prose(rng, 100+rng.IntN(400))}, nil); err != nil {
			return n, err
		}
		for step := 0; step < 1+rng.IntN(4) && n < size; step++ {
			msg := func(block any) map[string]any {
				return map[string]any{"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4",
					"content": []any{block}, "stop_reason": nil, "usage": map[string]any{"input_tokens": 4, "output_tokens": 120}}
			}
			if err := line("assistant", msg(map[string]any{"type": "thinking", "thinking": prose(rng, 300+rng.IntN(1500)), "signature": strings.Repeat("Eq", 200)}), nil); err != nil {
				return n, err
			}
			if err := line("assistant", msg(map[string]any{"type": "text", "text": prose(rng, 100+rng.IntN(800))}), nil); err != nil {
				return n, err
			}
			id := fmt.Sprintf("toolu_%d_%d", turn, step)
			cmd := fmt.Sprintf(commands[rng.IntN(len(commands))], rng.IntN(50))
			if err := line("assistant", msg(map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": cmd, "description": "run it"}}), nil); err != nil {
				return n, err
			}
			out := toolOutput(rng, 200+rng.IntN(8000))
			if turn%25 == 24 && step == 0 {
				out = toolOutput(rng, 1<<20)
			}
			if err := line("user", map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": out, "is_error": false}}},
				map[string]any{"toolUseResult": map[string]any{"stdout": out, "stderr": "", "interrupted": false}}); err != nil {
				return n, err
			}
		}
	}
	return n, bw.Flush()
}

// randomUUID returns a version 4 UUID drawn from rng, as agents name messages and
// sessions: in random order, unlike the sequence numbers WriteTranscript uses.
func randomUUID(rng *rand.Rand) string {
	a, b := rng.Uint64(), rng.Uint64()
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", a>>32, a>>16&0xffff, a&0xfff, 0x8000|b>>48&0x3fff, b&0xffffffffffff)
}

// Files of a generated coding session, and the tools that touch them.
var (
	codeDirs  = []string{"internal/server", "internal/store", "cmd/app", "pkg/auth", "pkg/cache", "web/src/components", "deploy/k8s", "scripts"}
	codeFiles = []string{"handler.go", "store.go", "main.go", "config.yaml", "auth_test.go", "cache.go", "Button.tsx", "deployment.yaml", "migrate.sh", "README.md"}
	fileTools = []string{"Read", "Edit", "Write", "Grep", "Glob"}
)

// WriteCodingTranscript writes about size bytes of a Claude Code-shaped log of a
// coding session, dense in facts as real ones are (about 4 facts a KB, where
// WriteTranscript's long tool outputs make about 0.3): turns of a short request, then
// 3 to 12 steps of a short text and a tool use (Bash with a varied command, or Read,
// Edit, Write, Grep or Glob on a path of the project) and its short result, now and
// then an error. Messages and sessions have random UUIDs, as real ones do. A new
// session starts every 100 turns. It returns the bytes written.
func WriteCodingTranscript(w io.Writer, size int64, seed uint64) (int64, error) {
	rng := rand.New(rand.NewPCG(seed, 11))
	bw := bufio.NewWriterSize(w, 1<<20)
	var n int64
	ts := time.Date(2025, 6, 2, 18, 0, 0, 0, time.UTC)
	parent, session := "", ""
	line := func(typ string, message any, extra map[string]any) error {
		ts = ts.Add(time.Duration(rng.IntN(3000)) * time.Millisecond)
		uuid := randomUUID(rng)
		k, err := writeLine(bw, parent, session, uuid, ts, typ, message, extra)
		parent = uuid
		n += int64(k)
		return err
	}
	path := func() string {
		return fmt.Sprintf("/home/dev/project/%s/m%d/%s", codeDirs[rng.IntN(len(codeDirs))], rng.IntN(40), codeFiles[rng.IntN(len(codeFiles))])
	}
	// A sentence that now and then reports a finding, a fix or an error, or names a file.
	say := func(min int) string {
		s := prose(rng, min+rng.IntN(120))
		switch rng.IntN(6) {
		case 0:
			s += " found the cause in " + path()
		case 1:
			s += " fixed by " + prose(rng, 30)
		case 2:
			s += " the error was " + prose(rng, 30)
		}
		return s
	}
	for turn := 0; n < size; turn++ {
		if turn%100 == 0 {
			session = randomUUID(rng)
			parent = ""
		}
		if err := line("user", map[string]any{"role": "user", "content": say(60)}, nil); err != nil {
			return n, err
		}
		for step := 0; step < 3+rng.IntN(10) && n < size; step++ {
			msg := func(block any) map[string]any {
				return map[string]any{"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4",
					"content": []any{block}, "stop_reason": nil, "usage": map[string]any{"input_tokens": 4, "output_tokens": 60}}
			}
			if err := line("assistant", msg(map[string]any{"type": "text", "text": say(40)}), nil); err != nil {
				return n, err
			}
			id := fmt.Sprintf("toolu_%d_%d", turn, step)
			var use map[string]any
			if rng.IntN(2) == 0 {
				cmd := fmt.Sprintf(commands[rng.IntN(len(commands))], rng.IntN(200))
				use = map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": cmd, "description": "run it"}}
			} else {
				tool := fileTools[rng.IntN(len(fileTools))]
				use = map[string]any{"type": "tool_use", "id": id, "name": tool, "input": map[string]any{"file_path": path()}}
			}
			if err := line("assistant", msg(use), nil); err != nil {
				return n, err
			}
			out := toolOutput(rng, 80+rng.IntN(300))
			if rng.IntN(5) == 0 {
				out = "error: " + out
			}
			if err := line("user", map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": out, "is_error": false}}},
				map[string]any{"toolUseResult": map[string]any{"stdout": out, "stderr": "", "interrupted": false}}); err != nil {
				return n, err
			}
		}
	}
	return n, bw.Flush()
}

// writeTranscriptFile writes a transcript of about size bytes to path and returns
// its size.
func writeTranscriptFile(path string, size int64) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	n, err := WriteTranscript(f, size, 1)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// ingest ingests the transcript at path (size bytes) end to end (read, extract, embed,
// write in the product's batches) into a new SQLite file at dbPath, through the
// engine's IngestTranscript with the given embedder. Its latencies are those of each
// committed batch (2,000 facts or 8 MiB of input); its throughput is the file's MB per
// second, end to end.
func ingestFile(ctx context.Context, dbPath, path string, size int64, emb factbase.Embedder) (Result, error) {
	s, err := sqlite.Open(ctx, dbPath, sqlite.Options{})
	if err != nil {
		return Result{}, err
	}
	defer s.Close()
	e := memory.New(s, memory.Options{Embedder: emb}) // as "factbase ingest transcript" runs it
	in, err := os.Open(path)
	if err != nil {
		return Result{}, err
	}
	defer in.Close()
	var lat []time.Duration
	t0 := time.Now()
	last := t0
	sum, err := e.Ingest.IngestTranscript(ctx, userID(0), in, path, ingest.IngestOptions{Progress: func(ingest.IngestProgress) {
		now := time.Now()
		lat = append(lat, now.Sub(last))
		last = now
	}})
	total := time.Since(t0)
	if err != nil {
		return Result{}, err
	}
	if sum.Offset != size || sum.Stored == 0 {
		return Result{}, fmt.Errorf("ingest stopped at %d of %d bytes, %d facts stored", sum.Offset, size, sum.Stored)
	}
	r := summarize(fmt.Sprintf("transcript ingest, %.0f MB JSONL", float64(size)/1e6), lat, total)
	r.Throughput, r.Unit = float64(size)/1e6/total.Seconds(), "MB/s"
	r.Note = fmt.Sprintf("end to end into a new SQLite file; %d facts stored, %.0f facts/s; latencies per committed batch", sum.Stored, float64(sum.Stored)/total.Seconds())
	return r, nil
}

// rawLineInsert is the ingest's baseline: the file's lines, each inserted by a bare
// prepared INSERT, in transactions of 8 MiB of input. Latencies are per transaction.
func rawLineInsert(ctx context.Context, dbPath, path string, size int64) (Result, error) {
	db, err := sqlite.OpenDB(dbPath, sqlite.Options{})
	if err != nil {
		return Result{}, err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "CREATE TABLE raw_lines (id INTEGER PRIMARY KEY, line TEXT NOT NULL)"); err != nil {
		return Result{}, err
	}
	stmt, err := db.PrepareContext(ctx, "INSERT INTO raw_lines (line) VALUES (?)")
	if err != nil {
		return Result{}, err
	}
	defer stmt.Close()
	in, err := os.Open(path)
	if err != nil {
		return Result{}, err
	}
	defer in.Close()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	var (
		lat   []time.Duration
		tx    *sql.Tx
		ins   *sql.Stmt
		batch int
		s0    time.Time
	)
	t0 := time.Now()
	for sc.Scan() {
		if tx == nil {
			s0 = time.Now()
			if tx, err = db.BeginTx(ctx, nil); err != nil {
				return Result{}, err
			}
			ins = tx.StmtContext(ctx, stmt)
		}
		if _, err := ins.ExecContext(ctx, sc.Text()); err != nil {
			tx.Rollback()
			return Result{}, err
		}
		if batch += len(sc.Bytes()) + 1; batch >= 8<<20 {
			if err := tx.Commit(); err != nil {
				return Result{}, err
			}
			lat, tx, batch = append(lat, time.Since(s0)), nil, 0
		}
	}
	if err := sc.Err(); err != nil {
		if tx != nil {
			tx.Rollback()
		}
		return Result{}, err
	}
	if tx != nil {
		if err := tx.Commit(); err != nil {
			return Result{}, err
		}
		lat = append(lat, time.Since(s0))
	}
	total := time.Since(t0)
	r := summarize("raw line insert (baseline)", lat, total)
	r.Throughput, r.Unit = float64(size)/1e6/total.Seconds(), "MB/s"
	r.Note = "the transcript's lines by a bare prepared INSERT, 8 MiB a transaction; latencies per transaction"
	return r, nil
}

// writeLine writes one Claude Code-shaped JSONL line, the child of parent ("" for
// the first of a session), and returns the bytes written.
func writeLine(bw *bufio.Writer, parent, session, uuid string, ts time.Time, typ string, message any, extra map[string]any) (int, error) {
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
		return 0, err
	}
	return bw.Write(append(b, '\n'))
}
