package transcript

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

// triple is a fact without provenance, for comparing.
type triple struct {
	Subject, Predicate, Object string
	Confidence                 float64
}

func triples(facts []Fact) []triple {
	out := make([]triple, 0, len(facts))
	for _, f := range facts {
		out = append(out, triple{f.Subject, f.Predicate, f.Object, f.Confidence})
	}
	return out
}

// extractAll reads data and returns the facts of every message.
func extractAll(t *testing.T, data []byte, x *Extractor) []Fact {
	t.Helper()
	r := NewReader(bytes.NewReader(data), "f.jsonl", Options{})
	var out []Fact
	for {
		m, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		out = append(out, x.Extract(m)...)
	}
}

const referenceLine = `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/root","sessionId":"s-ref","version":"1.0.61","type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-20250514","content":[{"type":"tool_use","id":"toolu_ref","name":"Bash","input":{"command":"sshpass -p 'pwd' ssh root@192.168.20.4 'ls -la'","description":"List files on the server"}}],"stop_reason":null},"uuid":"3f2a9c1e-0b7d-4c55-8e21-6a1d2f0b9c44","timestamp":"2025-06-02T18:47:00.000Z"}`

// TestReferenceExample is the example from the issue: it must hold exactly.
func TestReferenceExample(t *testing.T) {
	const action = "action_3f2a9c1e-0b7d-4c55-8e21-6a1d2f0b9c44"
	want := []triple{
		{action, "used_tool", "Bash", 1.0},
		{action, "executed_command", "sshpass -p 'pwd' ssh root@192.168.20.4 'ls -la'", 1.0},
		{action, "connects_to_host", "192.168.20.4", 0.9},
		{action, "operation_type", "verification", 0.8},
	}
	t.Run("alone", func(t *testing.T) {
		facts := extractAll(t, []byte(referenceLine+"\n"), NewExtractor(nil, ExtractorOptions{}))
		if got := triples(facts); !reflect.DeepEqual(got, want) {
			t.Errorf("facts =\n%v\nwant\n%v", got, want)
		}
		for _, f := range facts {
			if f.File != "f.jsonl" || f.Line != 1 || f.UUID != "3f2a9c1e-0b7d-4c55-8e21-6a1d2f0b9c44" || f.SessionID != "s-ref" ||
				!f.Timestamp.Equal(time.Date(2025, 6, 2, 18, 47, 0, 0, time.UTC)) {
				t.Errorf("provenance of %v = %s:%d %s %s %v", f.Predicate, f.File, f.Line, f.UUID, f.SessionID, f.Timestamp)
			}
		}
		if got, want := facts[0].Source(), (factbase.Source{Kind: "transcript", ID: "f.jsonl:1:3f2a9c1e-0b7d-4c55-8e21-6a1d2f0b9c44"}); got != want {
			t.Errorf("Source() = %+v, want %+v", got, want)
		}
		if facts[2].Rule != "ssh-target" || facts[0].Rule != RuleStructural {
			t.Errorf("rules = %q, %q; want ssh-target, structural", facts[2].Rule, facts[0].Rule)
		}
	})
	t.Run("after a task", func(t *testing.T) {
		task := `{"type":"user","uuid":"u-ref","sessionId":"s-ref","message":{"role":"user","content":"List the files on the server"}}`
		line := strings.Replace(referenceLine, `"parentUuid":null`, `"parentUuid":"u-ref"`, 1)
		facts := extractAll(t, []byte(task+"\n"+line+"\n"), NewExtractor(nil, ExtractorOptions{}))
		got := triples(facts)
		wantAll := append([]triple{
			{"task_u-ref", "task_text", "List the files on the server", 1},
			{"task_u-ref", "in_session", "s-ref", 1},
			{action, "part_of_task", "task_u-ref", 1},
		}, want...)
		if !reflect.DeepEqual(got, wantAll) {
			t.Errorf("facts =\n%v\nwant\n%v", got, wantAll)
		}
	})
	t.Run("redacted", func(t *testing.T) {
		facts := extractAll(t, []byte(referenceLine+"\n"), NewExtractor(nil, ExtractorOptions{Redact: true}))
		if got, want := facts[1].Object, "sshpass -p *** ssh root@192.168.20.4 'ls -la'"; got != want {
			t.Errorf("redacted executed_command = %q, want %q", got, want)
		}
	})
}

func TestExtractFixture(t *testing.T) {
	id := func(p string, n int) string { return fmt.Sprintf("%s0000000-0000-4000-8000-%012d", p, n) }
	task := func(n int) string { return "task_" + id("u", n) }
	act := func(n int) string { return "action_" + id("a", n) }
	const session = "5f3c1a9e-2b7d-4e8a-9c61-0d4e7b2a1f38"
	want := []triple{
		{task(1), "task_text", "Back up the appdata share on my unraid server (root@192.168.20.4) to /mnt/user/backups and check nginx still starts.", 1},
		{task(1), "in_session", session, 1},
		{task(1), "mentions_path", "/mnt/user/backups", 0.8},
		{task(1), "targets_system", "unraid", 0.7},
		{task(1), "targets_system", "nginx", 0.7},
		// thinking only: linked, not scanned
		{act(2), "part_of_task", task(1), 1},
		{act(3), "part_of_task", task(1), 1},
		// the reference command
		{act(4), "part_of_task", task(1), 1},
		{act(4), "used_tool", "Bash", 1},
		{act(4), "executed_command", "sshpass -p 'pwd' ssh root@192.168.20.4 'ls -la'", 1},
		{act(4), "connects_to_host", "192.168.20.4", 0.9},
		{act(4), "operation_type", "verification", 0.8},
		// its tool result (string content), about the action that ran it
		{act(4), "identifies_issue", "tar: Error opening archive: Failed to open '/mnt/user/backups/old.tar'", 0.7},
		// Read: the path from its input; its result (block list) has only "error.log"
		{act(6), "part_of_task", task(1), 1},
		{act(6), "used_tool", "Read", 1},
		{act(6), "mentions_path", "/etc/nginx/nginx.conf", 0.8},
		{act(6), "targets_system", "nginx", 0.7},
		// text and a tool use in one message
		{act(8), "part_of_task", task(1), 1},
		{act(8), "used_tool", "Bash", 1},
		{act(8), "executed_command", "tar -czf /mnt/user/backups/appdata.tar.gz /mnt/user/appdata && sha256sum /mnt/user/backups/appdata.tar.gz", 1},
		{act(8), "mentions_path", "/mnt/user/backups/old.tar", 0.8},
		{act(8), "provides_solution", "The fix is to write a fresh archive and verify it with a checksum.", 0.7},
		{act(8), "discovery", "I found the cause: the old archive at /mnt/user/backups/old.tar is corrupt.", 0.6},
		{act(8), "operation_type", "archive manipulation", 0.8},
		{act(8), "operation_type", "verification", 0.8},
		{act(8), "mentions_path", "/mnt/user/backups/appdata.tar.gz", 0.8},
		{act(8), "mentions_path", "/mnt/user/appdata", 0.8},
		// the system line and the checksum's output yield nothing; an unknown block is ignored
		{act(9), "part_of_task", task(1), 1},
		{act(9), "provides_solution", "Resolved: the new backup is written and its checksum recorded.", 0.7},
		// a second task, as text blocks
		{task(12), "task_text", "Great. Now restart the docker container for traefik. Use docker compose.", 1},
		{task(12), "in_session", session, 1},
		{task(12), "targets_system", "docker", 0.7},
		{task(12), "targets_system", "traefik", 0.7},
		// after a meta message (not a task): still the second task; a non-Bash shell tool
		{act(14), "part_of_task", task(12), 1},
		{act(14), "used_tool", "exec_command", 1},
		{act(14), "executed_command", "docker compose restart traefik", 1},
		{act(14), "targets_system", "docker", 0.7},
		{act(14), "targets_system", "traefik", 0.7},
		// the interrupted tool's error result; the interruption is not a task
		{act(14), "identifies_issue", "Error: interrupted by user before the container restarted", 0.7},
	}
	got := triples(extractAll(t, readFile(t, "testdata/sessions/basic.jsonl"), NewExtractor(nil, ExtractorOptions{})))
	if !reflect.DeepEqual(got, want) {
		for i := 0; i < max(len(got), len(want)); i++ {
			var g, w triple
			if i < len(got) {
				g = got[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if g != w {
				t.Errorf("fact %d = %v, want %v", i, g, w)
			}
		}
	}
}

func TestTasksAndLinks(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  []string // "subject predicate object" of structural facts
	}{
		{
			name: "tool results are not tasks",
			lines: []string{
				`{"type":"user","uuid":"u1","sessionId":"s","message":{"content":"run the tests"}}`,
				`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"go vet"}}]}}`,
				`{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}`,
				`{"type":"assistant","uuid":"a2","parentUuid":"u2","sessionId":"s","message":{"content":[{"type":"text","text":"All good."}]}}`,
			},
			want: []string{"task_u1 task_text run the tests", "task_u1 in_session s",
				"action_a1 part_of_task task_u1", "action_a1 used_tool Bash", "action_a1 executed_command go vet",
				"action_a2 part_of_task task_u1"},
		},
		{
			name: "the parent chain wins over the latest task",
			lines: []string{
				`{"type":"user","uuid":"u1","sessionId":"s","message":{"content":"first"}}`,
				`{"type":"user","uuid":"u2","sessionId":"s","message":{"content":"second"}}`,
				`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","message":{"content":[{"type":"text","text":"on the first"}]}}`,
			},
			want: []string{"task_u1 task_text first", "task_u1 in_session s", "task_u2 task_text second", "task_u2 in_session s",
				"action_a1 part_of_task task_u1"},
		},
		{
			name: "unknown parent falls back to the session's latest task",
			lines: []string{
				`{"type":"user","uuid":"u1","sessionId":"s","message":{"content":"first"}}`,
				`{"type":"user","uuid":"v1","sessionId":"other","message":{"content":"elsewhere"}}`,
				`{"type":"assistant","uuid":"a1","parentUuid":"gone","sessionId":"s","message":{"content":[{"type":"text","text":"x"}]}}`,
			},
			want: []string{"task_u1 task_text first", "task_u1 in_session s", "task_v1 task_text elsewhere", "task_v1 in_session other",
				"action_a1 part_of_task task_u1"},
		},
		{
			name: "no task known, no link",
			lines: []string{
				`{"type":"assistant","uuid":"a1","sessionId":"s","message":{"content":"plain string content"}}`,
			},
			want: nil,
		},
		{
			name: "meta, interruption and empty messages are not tasks",
			lines: []string{
				`{"type":"user","uuid":"u1","sessionId":"s","isMeta":true,"message":{"content":"Caveat: local commands"}}`,
				`{"type":"user","uuid":"u2","sessionId":"s","message":{"content":"[Request interrupted by user]"}}`,
				`{"type":"user","uuid":"u3","sessionId":"s","message":{"content":"  "}}`,
				`{"type":"user","uuid":"u4","sessionId":"s","message":{"content":[]}}`,
				`{"type":"assistant","uuid":"a1","parentUuid":"u2","sessionId":"s","message":{"content":[{"type":"text","text":"x"}]}}`,
			},
			want: nil,
		},
		{
			name: "an image alone is a task without text",
			lines: []string{
				`{"type":"user","uuid":"u1","sessionId":"s","message":{"content":[{"type":"image","source":{"type":"base64","data":"AAAA"}}]}}`,
			},
			want: []string{"task_u1 in_session s"},
		},
		{
			name: "summary, system and unknown types yield nothing",
			lines: []string{
				`{"type":"summary","summary":"Fix the error in the build","leafUuid":"x"}`,
				`{"type":"system","uuid":"y","sessionId":"s","content":"Error: hook failed in /etc/hooks/x"}`,
				`{"type":"progress","uuid":"z","sessionId":"s","data":{"message":{"type":"user","content":"hi"}}}`,
			},
			want: nil,
		},
		{
			name: "several tool uses in one message",
			lines: []string{
				`{"type":"assistant","uuid":"a1","message":{"content":[{"type":"tool_use","id":"t1","name":"Glob","input":{"pattern":"**/*.go"}},{"type":"tool_use","id":"t2","name":"Grep","input":{"pattern":"TODO"}},{"type":"tool_use","id":"t3","name":"Glob","input":{"pattern":"*.md"}}]}}`,
			},
			want: []string{"action_a1 used_tool Glob", "action_a1 used_tool Grep"},
		},
		{
			name: "a tool without a command runs nothing",
			lines: []string{
				`{"type":"assistant","uuid":"a1","message":{"content":[{"type":"tool_use","id":"t1","name":"BashOutput","input":{"bash_id":"b1"}},{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"   "}}]}}`,
			},
			want: []string{"action_a1 used_tool BashOutput", "action_a1 used_tool Bash"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			facts := extractAll(t, []byte(strings.Join(tc.lines, "\n")+"\n"), NewExtractor(nil, ExtractorOptions{}))
			var got []string
			for _, f := range facts {
				if f.Rule == RuleStructural {
					got = append(got, f.Subject+" "+f.Predicate+" "+f.Object)
				}
				if f.Confidence != 1 && f.Rule == RuleStructural {
					t.Errorf("structural fact %v has confidence %v", f, f.Confidence)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("structural facts =\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestToolResultSubject(t *testing.T) {
	lines := []string{
		`{"type":"assistant","uuid":"a1","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"make"}}]}}`,
		`{"type":"assistant","uuid":"a2","parentUuid":"a1","message":{"content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"make install"}}]}}`,
		// results of both uses in one message whose parent is a2: each goes to its own action
		`{"type":"user","uuid":"u1","parentUuid":"a2","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"make: *** [all] Error 2 in the compile step"},{"type":"tool_result","tool_use_id":"t2","content":"install failed: permission denied on target dir"}]}}`,
		// an unknown tool use id falls back to the parent
		`{"type":"user","uuid":"u2","parentUuid":"a9","message":{"content":[{"type":"tool_result","tool_use_id":"t9","content":"Exception in thread main: java.lang.NullPointerException"}]}}`,
	}
	facts := extractAll(t, []byte(strings.Join(lines, "\n")+"\n"), NewExtractor(nil, ExtractorOptions{}))
	var got []string
	for _, f := range facts {
		if f.Predicate == "identifies_issue" {
			got = append(got, f.Subject)
		}
	}
	if want := []string{"action_a1", "action_a2", "action_a9"}; !reflect.DeepEqual(got, want) {
		t.Errorf("identifies_issue subjects = %v, want %v", got, want)
	}
}

func TestIsShellTool(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{name: "Bash", want: true},
		{name: "bash", want: true},
		{name: "shell", want: true},
		{name: "local_shell", want: true},
		{name: "run_terminal_cmd", want: true},
		{name: "exec_command", want: true},
		{name: "ExecuteCommand", want: true},
		{name: "mcp__ssh__exec", want: true},
		{name: "Read", want: false},
		{name: "Edit", want: false},
		{name: "WebFetch", want: false},
		{name: "", want: false},
		{name: "Task", want: false},
	}
	for _, tc := range tests {
		if got := IsShellTool(tc.name); got != tc.want {
			t.Errorf("IsShellTool(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestExtractorOptions(t *testing.T) {
	assistantText := func(text string) []byte {
		return []byte(`{"type":"assistant","uuid":"a1","message":{"content":[{"type":"text","text":` + jsonString(text) + `}]}}` + "\n")
	}
	toolResult := func(text string) []byte {
		return []byte(`{"type":"user","uuid":"u1","parentUuid":"a1","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":` + jsonString(text) + `}]}}` + "\n")
	}
	command := func(cmd string) []byte {
		return []byte(`{"type":"assistant","uuid":"a1","message":{"content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":` + jsonString(cmd) + `}}]}}` + "\n")
	}
	user := func(text string) []byte {
		return []byte(`{"type":"user","uuid":"u1","message":{"content":` + jsonString(text) + `}}` + "\n")
	}
	find := func(facts []Fact, pred string) []string {
		var out []string
		for _, f := range facts {
			if f.Predicate == pred {
				out = append(out, f.Object)
			}
		}
		return out
	}
	padding := strings.Repeat("all fine here ", 80_000) // ~1.1 MB

	t.Run("scan limit", func(t *testing.T) {
		late := toolResult(padding + "\nError: disk quota exceeded on /data volume\n")
		if got := find(extractAll(t, late, NewExtractor(nil, ExtractorOptions{})), "identifies_issue"); got != nil {
			t.Errorf("an error 1 MB into a tool result gave %q, want nothing (beyond the 64 KiB scan limit)", got)
		}
		early := toolResult("Error: disk quota exceeded on /data volume\n" + padding)
		if got, want := find(extractAll(t, early, NewExtractor(nil, ExtractorOptions{})), "identifies_issue"), []string{"Error: disk quota exceeded on /data volume"}; !reflect.DeepEqual(got, want) {
			t.Errorf("an error at the start gave %q, want %q", got, want)
		}
		if got := find(extractAll(t, late, NewExtractor(nil, ExtractorOptions{ScanLimit: 2 << 20})), "identifies_issue"); len(got) != 1 {
			t.Errorf("with a 2 MiB scan limit: %q, want one issue", got)
		}
	})

	t.Run("snippet length and word boundaries", func(t *testing.T) {
		long := strings.Repeat("alpha beta gamma delta ", 30) + "the migration failed on table users " + strings.Repeat("epsilon zeta eta theta ", 30)
		got := find(extractAll(t, assistantText(long), NewExtractor(nil, ExtractorOptions{})), "identifies_issue")
		if len(got) != 1 {
			t.Fatalf("issues %q, want one", got)
		}
		s := got[0]
		if n := utf8.RuneCountInString(s); n > DefaultSnippetLen {
			t.Errorf("snippet has %d characters, want at most %d: %q", n, DefaultSnippetLen, s)
		}
		if !strings.HasPrefix(s, "…") || !strings.HasSuffix(s, "…") || !strings.Contains(s, "the migration failed on table users") {
			t.Errorf("snippet %q, want …context around the match…", s)
		}
		for _, w := range strings.Fields(strings.Trim(s, "…")) {
			if !contains(strings.Fields(long), w) {
				t.Errorf("snippet %q has a cut word %q", s, w)
			}
		}
		short := find(extractAll(t, assistantText(long), NewExtractor(nil, ExtractorOptions{SnippetLen: 60})), "identifies_issue")
		if len(short) != 1 || utf8.RuneCountInString(short[0]) > 60 {
			t.Errorf("with SnippetLen 60: %q", short)
		}
	})

	t.Run("min snippet chars", func(t *testing.T) {
		text := "Build failed: exit 2."
		if got := find(extractAll(t, assistantText(text), NewExtractor(nil, ExtractorOptions{})), "identifies_issue"); got != nil {
			t.Errorf("default: %q, want nothing (too short)", got)
		}
		if got := find(extractAll(t, assistantText(text), NewExtractor(nil, ExtractorOptions{MinSnippetChars: 5})), "identifies_issue"); len(got) != 1 {
			t.Errorf("MinSnippetChars 5: %q, want the snippet", got)
		}
	})

	t.Run("max object length", func(t *testing.T) {
		heredoc := "cat > /etc/app/config.yaml <<'EOF'\n" + strings.Repeat("key: value\n", 1000) + "EOF"
		got := find(extractAll(t, command(heredoc), NewExtractor(nil, ExtractorOptions{})), "executed_command")
		if len(got) != 1 || len(got[0]) > factbase.MaxValueLen || !strings.HasSuffix(got[0], "…") || !strings.HasPrefix(got[0], "cat > /etc/app/config.yaml") {
			t.Errorf("long command gave %d objects of %d bytes, want one of at most %d ending in …", len(got), len(got[0]), factbase.MaxValueLen)
		}
	})

	t.Run("task text length", func(t *testing.T) {
		text := strings.Repeat("please migrate the database ", 20)
		got := find(extractAll(t, user(text), NewExtractor(nil, ExtractorOptions{})), "task_text")
		if len(got) != 1 || utf8.RuneCountInString(got[0]) > 200 || !strings.HasSuffix(got[0], "…") || !strings.HasPrefix(text, strings.TrimSuffix(got[0], "…")) {
			t.Errorf("task_text = %q, want the first ≤200 characters ending in …", got)
		}
		if strings.HasSuffix(strings.TrimSuffix(got[0], "…"), " ") || !contains(strings.Fields(text), lastWord(strings.TrimSuffix(got[0], "…"))) {
			t.Errorf("task_text %q is not cut at a word boundary", got[0])
		}
		got = find(extractAll(t, user(text), NewExtractor(nil, ExtractorOptions{TaskTextLen: 20})), "task_text")
		if len(got) != 1 || utf8.RuneCountInString(got[0]) > 20 {
			t.Errorf("TaskTextLen 20: %q", got)
		}
	})

	t.Run("dedup within a message", func(t *testing.T) {
		line := []byte(`{"type":"assistant","uuid":"a1","message":{"content":[{"type":"text","text":"Edit /etc/app/app.conf now. Then /etc/app/app.conf again."},{"type":"tool_use","id":"t","name":"Bash","input":{"command":"vi /etc/app/app.conf; ls -l; ls -la"}}]}}` + "\n")
		facts := extractAll(t, line, NewExtractor(nil, ExtractorOptions{}))
		if got := find(facts, "mentions_path"); !reflect.DeepEqual(got, []string{"/etc/app/app.conf"}) {
			t.Errorf("mentions_path = %q, want one", got)
		}
		if got := find(facts, "operation_type"); !reflect.DeepEqual(got, []string{"verification"}) {
			t.Errorf("operation_type = %q, want one", got)
		}
	})

	t.Run("NUL bytes are dropped", func(t *testing.T) {
		got := find(extractAll(t, command("echo a\x00b > /srv/x/y"), NewExtractor(nil, ExtractorOptions{})), "executed_command")
		if !reflect.DeepEqual(got, []string{"echo ab > /srv/x/y"}) {
			t.Errorf("executed_command = %q", got)
		}
	})

	t.Run("limit per text", func(t *testing.T) {
		var b strings.Builder
		for i := 0; i < 30; i++ {
			fmt.Fprintf(&b, "cat /srv/data/file%d.txt; ", i)
		}
		if got := find(extractAll(t, command(b.String()), NewExtractor(nil, ExtractorOptions{})), "mentions_path"); len(got) != 20 {
			t.Errorf("%d paths, want the default limit of 20", len(got))
		}
	})
}

func lastWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

func TestSnippet(t *testing.T) {
	tests := []struct {
		name string
		text string
		kw   string
		max  int
		want string
	}{
		{name: "the sentence", text: "First thing. The upload failed twice today! Then more.", kw: "failed", max: 160, want: "The upload failed twice today!"},
		{name: "the line", text: "line one\nERROR 42 at step three\nline three", kw: "ERROR", max: 160, want: "ERROR 42 at step three"},
		{name: "white space collapsed", text: "it  failed\tbadly  ", kw: "failed", max: 160, want: "it failed badly"},
		{name: "window on words", text: "one two three four five six seven eight nine ten failed eleven twelve thirteen fourteen fifteen", kw: "failed", max: 30, want: "…eight nine ten failed eleven…"},
		{name: "window at the start", text: "failed alpha beta gamma delta epsilon zeta eta theta iota", kw: "failed", max: 20, want: "failed alpha beta…"},
		{name: "window at the end", text: "alpha beta gamma delta epsilon zeta eta theta iota failed", kw: "failed", max: 20, want: "…theta iota failed"},
		{name: "unicode", text: "Ünïcödé wörds ärë hërë änd thë büïld fäïlëd failed ägäïn tödäy wïth ërrörs", kw: "failed", max: 30, want: "…büïld fäïlëd failed ägäïn…"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := strings.Index(tc.text, tc.kw)
			got := snippet(tc.text, s, s+len(tc.kw), tc.max)
			if got != tc.want {
				t.Errorf("snippet = %q, want %q", got, tc.want)
			}
			if n := utf8.RuneCountInString(got); n > tc.max {
				t.Errorf("snippet has %d characters, want at most %d", n, tc.max)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{in: "sshpass -p 'pwd' ssh root@h 'ls'", want: "sshpass -p *** ssh root@h 'ls'"},
		{in: `sshpass -p"s3cret" scp a b@h:`, want: `sshpass -p*** scp a b@h:`},
		{in: "mysql -u root -pS3cret app", want: "mysql -u root -p*** app"},
		{in: "pg_dump --password=hunter2 db", want: "pg_dump --password=*** db"},
		{in: "tool --token abcdef123 run", want: "tool --token *** run"},
		{in: "PGPASSWORD=x psql; GITHUB_TOKEN='ghp_1' gh; AWS_SECRET_ACCESS_KEY=k aws", want: "PGPASSWORD=*** psql; GITHUB_TOKEN=*** gh; AWS_SECRET_ACCESS_KEY=*** aws"},
		{in: "git clone https://user:pa55@git.example.com/r.git", want: "git clone https://user:***@git.example.com/r.git"},
		{in: `curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.x.y" url`, want: `curl -H "Authorization: Bearer ***" url`},
		{in: "ls -la /etc && ssh root@192.168.20.4", want: "ls -la /etc && ssh root@192.168.20.4"},
	}
	for _, tc := range tests {
		if got := Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRecentForgets(t *testing.T) {
	r := recent{max: 2}
	for _, k := range []string{"a", "b", "c", "d", "e"} {
		r.put(k, "v"+k)
	}
	for _, k := range []string{"c", "d", "e"} {
		if v, ok := r.get(k); !ok || v != "v"+k {
			t.Errorf("get(%q) = %q, %v; want v%s (recent)", k, v, ok, k)
		}
	}
	if _, ok := r.get("a"); ok {
		t.Errorf("get(a) found, want forgotten")
	}
	if n := len(r.cur) + len(r.old); n > 4 {
		t.Errorf("holds %d entries, want at most 2*max", n)
	}
}

func TestStructuralPredicates(t *testing.T) {
	got := StructuralPredicates()
	for _, p := range got {
		if err := factbase.ValidateKey(p); err != nil {
			t.Errorf("predicate %q: %v", p, err)
		}
	}
	if len(got) != 5 {
		t.Errorf("StructuralPredicates() = %v, want 5", got)
	}
}
