package transcript

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/factbase/factbase"
)

// result is what one Next call gave.
type result struct {
	msg Message
	bad *Malformed
}

// readAll calls Next until io.EOF and returns every message and report. Any other
// error fails the test.
func readAll(t *testing.T, r *Reader) []result {
	t.Helper()
	var out []result
	for i := 0; ; i++ {
		if i > 1e6 {
			t.Fatal("Next never returned io.EOF")
		}
		m, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		var bad *Malformed
		if errors.As(err, &bad) {
			out = append(out, result{bad: bad})
			continue
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		out = append(out, result{msg: m})
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sum(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

func TestReaderFixture(t *testing.T) {
	data := readFile(t, "testdata/sessions/basic.jsonl")
	r := NewReader(bytes.NewReader(data), "basic.jsonl", Options{})
	got := readAll(t, r)
	wantTypes := []string{"summary", "user", "assistant", "assistant", "assistant", "user", "assistant", "user",
		"assistant", "system", "user", "assistant", "user", "user", "assistant", "user", "file-history-snapshot"}
	if len(got) != len(wantTypes) {
		t.Fatalf("read %d results, want %d", len(got), len(wantTypes))
	}
	var prevEnd int64
	for i, res := range got {
		if res.bad != nil {
			t.Fatalf("line %d: unexpected report %v", i+1, res.bad)
		}
		m := res.msg
		if m.Type != wantTypes[i] {
			t.Errorf("line %d: Type = %q, want %q", i+1, m.Type, wantTypes[i])
		}
		if m.Line != i+1 {
			t.Errorf("message %d: Line = %d, want %d", i, m.Line, i+1)
		}
		if m.Offset != prevEnd {
			t.Errorf("line %d: Offset = %d, want %d (the previous End)", m.Line, m.Offset, prevEnd)
		}
		if m.End <= m.Offset || data[m.End-1] != '\n' {
			t.Errorf("line %d: End = %d does not follow a newline", m.Line, m.End)
		}
		if m.File != "basic.jsonl" {
			t.Errorf("line %d: File = %q, want basic.jsonl", m.Line, m.File)
		}
		prevEnd = m.End
	}
	if got, want := r.Offset(), int64(len(data)); got != want {
		t.Errorf("Offset() = %d, want %d", got, want)
	}
	if got, want := r.Line(), 17; got != want {
		t.Errorf("Line() = %d, want %d", got, want)
	}
	if got, want := r.Sum(), sum(data); !bytes.Equal(got, want) {
		t.Errorf("Sum() = %x, want %x", got, want)
	}
	u := got[1].msg
	if got, want := u.Timestamp, time.Date(2025, 6, 2, 18, 46, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("Timestamp = %v, want %v", got, want)
	}
	if u.SessionID != "5f3c1a9e-2b7d-4e8a-9c61-0d4e7b2a1f38" || u.CWD != "/home/anna/homelab" || u.GitBranch != "main" || u.Version != "1.0.61" || u.ParentUUID != "" {
		t.Errorf("line 2 metadata = %q %q %q %q parent %q", u.SessionID, u.CWD, u.GitBranch, u.Version, u.ParentUUID)
	}
	if got[2].msg.ParentUUID != u.UUID {
		t.Errorf("line 3 ParentUUID = %q, want %q", got[2].msg.ParentUUID, u.UUID)
	}
	if !got[13].msg.IsMeta {
		t.Errorf("line 14 IsMeta = false, want true")
	}
}

func TestReaderContentForms(t *testing.T) {
	tests := []struct {
		name string
		line string
		want Message // File, Line, Offset, End are checked elsewhere and not compared
	}{
		{
			name: "string content",
			line: `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"hello there"}}`,
			want: Message{Type: "user", UUID: "u1", SessionID: "s", Role: "user", Text: "hello there"},
		},
		{
			name: "text blocks are joined",
			line: `{"type":"user","uuid":"u1","message":{"content":[{"type":"text","text":"one"},{"type":"text","text":"two"}]}}`,
			want: Message{Type: "user", UUID: "u1", Text: "one\ntwo", Blocks: []Block{{Type: "text", Text: "one"}, {Type: "text", Text: "two"}}},
		},
		{
			name: "tool_use with command",
			line: `{"type":"assistant","uuid":"a1","message":{"content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls -la /etc","timeout":5}}]}}`,
			want: Message{Type: "assistant", UUID: "a1", Blocks: []Block{{Type: "tool_use", ToolName: "Bash", ToolUseID: "toolu_1",
				Input: json.RawMessage(`{"command":"ls -la /etc","timeout":5}`), Command: "ls -la /etc"}}},
		},
		{
			name: "tool_use with cmd list",
			line: `{"type":"assistant","uuid":"a1","message":{"content":[{"type":"tool_use","id":"c1","name":"shell","input":{"cmd":["bash","-lc","make test"]}}]}}`,
			want: Message{Type: "assistant", UUID: "a1", Blocks: []Block{{Type: "tool_use", ToolName: "shell", ToolUseID: "c1",
				Input: json.RawMessage(`{"cmd":["bash","-lc","make test"]}`), Command: "bash -lc make test"}}},
		},
		{
			name: "tool_use input that is not an object",
			line: `{"type":"assistant","uuid":"a1","message":{"content":[{"type":"tool_use","id":"c1","name":"X","input":[1, 2]}]}}`,
			want: Message{Type: "assistant", UUID: "a1", Blocks: []Block{{Type: "tool_use", ToolName: "X", ToolUseID: "c1", Input: json.RawMessage(`[1, 2]`)}}},
		},
		{
			name: "tool_result with string content",
			line: `{"type":"user","uuid":"u2","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"total 0\n","is_error":true}]},"toolUseResult":{"stdout":"total 0"}}`,
			want: Message{Type: "user", UUID: "u2", Blocks: []Block{{Type: "tool_result", ToolUseID: "toolu_1", Text: "total 0\n", IsError: true}}},
		},
		{
			name: "tool_result with block content and an image",
			line: `{"type":"user","uuid":"u2","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"a"},{"type":"image","source":{"data":"xx"}},{"type":"text","text":"b"}]}]}}`,
			want: Message{Type: "user", UUID: "u2", Blocks: []Block{{Type: "tool_result", ToolUseID: "t", Text: "a\nb"}}},
		},
		{
			name: "thinking",
			line: `{"type":"assistant","uuid":"a1","message":{"content":[{"type":"thinking","thinking":"hmm","signature":"sig"}]}}`,
			want: Message{Type: "assistant", UUID: "a1", Blocks: []Block{{Type: "thinking", Text: "hmm"}}},
		},
		{
			name: "unknown block type and fields are kept or skipped",
			line: `{"type":"assistant","uuid":"a1","future":{"x":[1,{"y":null}]},"message":{"content":[{"type":"redacted_thinking","data":"zzz"},{"type":"server_tool_use","id":"s1","name":"web_search","input":{"query":"q"}},"not a block",7]}}`,
			want: Message{Type: "assistant", UUID: "a1", Blocks: []Block{{Type: "redacted_thinking"},
				{Type: "server_tool_use", ToolUseID: "s1", ToolName: "web_search", Input: json.RawMessage(`{"query":"q"}`)}}},
		},
		{
			name: "summary",
			line: `{"type":"summary","summary":"Fix the build","leafUuid":"l1"}`,
			want: Message{Type: "summary", Text: "Fix the build", LeafUUID: "l1"},
		},
		{
			name: "system",
			line: `{"type":"system","uuid":"x1","sessionId":"s","content":"Running hook","level":"info","isMeta":false}`,
			want: Message{Type: "system", UUID: "x1", SessionID: "s", Text: "Running hook"},
		},
		{
			name: "escapes, unicode and surrogate pairs",
			line: `{"type":"user","uuid":"u\u00e9","message":{"content":"tab\there \"q\" \\ \/ \ud83d\ude00 caf\u00e9 ünï \ud800x"}}`,
			want: Message{Type: "user", UUID: "ué", Text: "tab\there \"q\" \\ / 😀 café ünï \uFFFDx"},
		},
		{
			name: "invalid UTF-8 becomes U+FFFD",
			line: "{\"type\":\"user\",\"uuid\":\"u\",\"message\":{\"content\":\"a\xffb\"}}",
			want: Message{Type: "user", UUID: "u", Text: "a\uFFFDb"},
		},
		{
			name: "null and odd content shapes are tolerated",
			line: `{"type":"assistant","uuid":"a","isSidechain":true,"message":{"content":null,"role":null}}`,
			want: Message{Type: "assistant", UUID: "a", IsSidechain: true},
		},
		{
			name: "unparseable timestamp leaves it zero",
			line: `{"type":"user","uuid":"u","timestamp":"yesterday","message":{"content":"x"}}`,
			want: Message{Type: "user", UUID: "u", Text: "x"},
		},
		{
			name: "white space around everything",
			line: " \t{ \"type\" : \"user\" , \"uuid\" : \"u\" , \"message\" : { \"content\" : [ ] } } \r",
			want: Message{Type: "user", UUID: "u"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tc.line+"\n"), "f", Options{})
			got := readAll(t, r)
			if len(got) != 1 || got[0].bad != nil {
				t.Fatalf("read %+v, want one message", got)
			}
			m := got[0].msg
			if m.Line != 1 || m.Offset != 0 || m.End != int64(len(tc.line)+1) || m.File != "f" {
				t.Errorf("position = %s:%d [%d,%d), want f:1 [0,%d)", m.File, m.Line, m.Offset, m.End, len(tc.line)+1)
			}
			m.File, m.Line, m.Offset, m.End = "", 0, 0, 0
			if !reflect.DeepEqual(m, tc.want) {
				t.Errorf("message =\n%+v\nwant\n%+v", m, tc.want)
			}
		})
	}
}

func TestReaderMalformedLines(t *testing.T) {
	r := NewReader(bytes.NewReader(readFile(t, "testdata/sessions/malformed.jsonl")), "malformed.jsonl", Options{})
	got := readAll(t, r)
	want := []struct {
		line   int
		uuid   string // for messages
		reason string // for reports
	}{
		{line: 1, uuid: "m1"},
		{line: 2, reason: "unterminated string"},
		{line: 3, reason: "not a JSON object"},
		{line: 4, reason: "no type"},
		{line: 5, reason: "assistant line has no uuid"},
		{line: 6, reason: "field type is a number, want a string"},
		{line: 7, uuid: "m7"},
		{line: 9, uuid: "m9"},
		{line: 10, reason: "want end of line"},
	}
	if len(got) != len(want) {
		t.Fatalf("read %d results, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		switch {
		case w.reason != "" && g.bad == nil:
			t.Errorf("result %d: message %q, want a report for line %d", i, g.msg.UUID, w.line)
		case w.reason != "":
			if g.bad.Line != w.line || g.bad.File != "malformed.jsonl" || !strings.Contains(g.bad.Reason, w.reason) || g.bad.Incomplete {
				t.Errorf("report %d = %+v, want line %d, reason containing %q", i, g.bad, w.line, w.reason)
			}
			if want := "malformed.jsonl:" + strconv.Itoa(w.line) + ": "; !strings.HasPrefix(g.bad.Error(), want) {
				t.Errorf("Error() = %q, want prefix %q", g.bad.Error(), want)
			}
		case g.bad != nil:
			t.Errorf("result %d: report %v, want message %q", i, g.bad, w.uuid)
		case g.msg.Line != w.line || g.msg.UUID != w.uuid:
			t.Errorf("result %d: message line %d uuid %q, want line %d uuid %q", i, g.msg.Line, g.msg.UUID, w.line, w.uuid)
		}
	}
	if got, want := r.Line(), 10; got != want {
		t.Errorf("Line() = %d, want %d: malformed lines are consumed", got, want)
	}
}

func TestReaderTruncatedLastLine(t *testing.T) {
	data := readFile(t, "testdata/sessions/truncated.jsonl")
	complete := bytes.LastIndexByte(data, '\n') + 1
	r := NewReader(bytes.NewReader(data), "truncated.jsonl", Options{})
	got := readAll(t, r)
	if len(got) != 3 || got[0].bad != nil || got[1].bad != nil || got[2].bad == nil {
		t.Fatalf("read %+v, want two messages and a report", got)
	}
	bad := got[2].bad
	if !bad.Incomplete || bad.Line != 3 || bad.Offset != int64(complete) || !strings.Contains(bad.Reason, "incomplete") {
		t.Errorf("report = %+v, want incomplete line 3 at offset %d", bad, complete)
	}
	if got, want := r.Offset(), int64(complete); got != want {
		t.Errorf("Offset() = %d, want %d: the incomplete line must not be consumed", got, want)
	}
	if got, want := r.Line(), 2; got != want {
		t.Errorf("Line() = %d, want %d", got, want)
	}
	if got, want := r.Sum(), sum(data[:complete]); !bytes.Equal(got, want) {
		t.Errorf("Sum() = %x, want the hash of the complete lines %x", got, want)
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("Next after the report = %v, want io.EOF", err)
	}
}

func TestReaderUnterminatedTail(t *testing.T) {
	first := `{"type":"user","uuid":"u1","message":{"content":"a"}}` + "\n"
	valid := `{"type":"user","uuid":"u2","message":{"content":"b"}}`
	tests := []struct {
		name       string
		tail       string
		opts       Options
		wantUUIDs  []string
		wantReport string // "" for none
		wantOffset int
	}{
		{name: "valid JSON is incomplete by default", tail: valid, wantUUIDs: []string{"u1"}, wantReport: "valid JSON", wantOffset: len(first)},
		{name: "valid JSON accepted when asked", tail: valid, opts: Options{AcceptUnterminated: true}, wantUUIDs: []string{"u1", "u2"}, wantOffset: len(first) + len(valid)},
		{name: "invalid JSON is incomplete even when accepting", tail: valid[:20], opts: Options{AcceptUnterminated: true}, wantUUIDs: []string{"u1"}, wantReport: "unterminated string", wantOffset: len(first)},
		{name: "white space only is neither reported nor consumed", tail: "  \t", wantUUIDs: []string{"u1"}, wantOffset: len(first)},
		{name: "no tail", wantUUIDs: []string{"u1"}, wantOffset: len(first)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := first + tc.tail
			r := NewReader(strings.NewReader(data), "f", tc.opts)
			var uuids []string
			var report *Malformed
			for _, res := range readAll(t, r) {
				if res.bad != nil {
					report = res.bad
				} else {
					uuids = append(uuids, res.msg.UUID)
				}
			}
			if !reflect.DeepEqual(uuids, tc.wantUUIDs) {
				t.Errorf("messages %v, want %v", uuids, tc.wantUUIDs)
			}
			switch {
			case tc.wantReport == "" && report != nil:
				t.Errorf("report %v, want none", report)
			case tc.wantReport != "" && (report == nil || !report.Incomplete || !strings.Contains(report.Reason, tc.wantReport)):
				t.Errorf("report %+v, want an incomplete report containing %q", report, tc.wantReport)
			}
			if got := r.Offset(); got != int64(tc.wantOffset) {
				t.Errorf("Offset() = %d, want %d", got, tc.wantOffset)
			}
			if got, want := r.Sum(), sum([]byte(data[:tc.wantOffset])); !bytes.Equal(got, want) {
				t.Errorf("Sum() = %x, want %x", got, want)
			}
		})
	}
}

func TestReaderLongLines(t *testing.T) {
	line := func(uuid string, textLen int) string {
		return `{"type":"user","uuid":"` + uuid + `","message":{"content":"` + strings.Repeat("x", textLen) + `"}}` + "\n"
	}
	tests := []struct {
		name      string
		data      string
		max       int
		wantUUIDs []string
		wantLong  []int // lines reported as too long
		wantTail  bool  // an incomplete report at the end
		consumed  int   // bytes consumed; -1 for all
	}{
		{name: "a 300 KB line spans many buffers", data: line("a", 300_000) + line("b", 10), wantUUIDs: []string{"a", "b"}, consumed: -1},
		{name: "a line over the max is skipped", data: line("a", 10) + line("b", 500) + line("c", 10), max: 200, wantUUIDs: []string{"a", "c"}, wantLong: []int{2}, consumed: -1},
		{name: "a multi-buffer line over the max is skipped", data: line("a", 200_000) + line("b", 10), max: 100_000, wantUUIDs: []string{"b"}, wantLong: []int{1}, consumed: -1},
		{name: "a line exactly at the max is read", data: line("a", 100-len(line("a", 0))+1), max: 100, wantUUIDs: []string{"a"}, consumed: -1},
		{name: "an unterminated over-max tail is incomplete, not consumed", data: line("a", 10) + strings.TrimSuffix(line("b", 300_000), "\n"), max: 1000, wantUUIDs: []string{"a"}, wantTail: true, consumed: len(line("a", 10))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tc.data), "f", Options{MaxLineSize: tc.max})
			var uuids []string
			var long []int
			tail := false
			for _, res := range readAll(t, r) {
				switch {
				case res.bad != nil && res.bad.Incomplete:
					tail = true
				case res.bad != nil:
					if !strings.Contains(res.bad.Reason, "longer than the maximum") {
						t.Errorf("report %v, want a too-long reason", res.bad)
					}
					long = append(long, res.bad.Line)
				default:
					uuids = append(uuids, res.msg.UUID)
				}
			}
			if !reflect.DeepEqual(uuids, tc.wantUUIDs) {
				t.Errorf("messages %v, want %v", uuids, tc.wantUUIDs)
			}
			if !reflect.DeepEqual(long, tc.wantLong) {
				t.Errorf("too-long lines %v, want %v", long, tc.wantLong)
			}
			if tail != tc.wantTail {
				t.Errorf("incomplete tail reported = %v, want %v", tail, tc.wantTail)
			}
			consumed := tc.consumed
			if consumed < 0 {
				consumed = len(tc.data)
			}
			if got := r.Offset(); got != int64(consumed) {
				t.Errorf("Offset() = %d, want %d", got, consumed)
			}
			if got, want := r.Sum(), sum([]byte(tc.data[:consumed])); !bytes.Equal(got, want) {
				t.Errorf("Sum() = %x, want %x", got, want)
			}
		})
	}
}

func TestReaderReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	in := io.MultiReader(strings.NewReader(`{"type":"user","uuid":"u","message":{"content":"a"}}`+"\n"), iotest.ErrReader(boom))
	r := NewReader(in, "f", Options{})
	if _, err := r.Next(); err != nil {
		t.Fatalf("first Next: %v", err)
	}
	for i := 0; i < 2; i++ {
		if _, err := r.Next(); !errors.Is(err, boom) {
			t.Errorf("Next #%d = %v, want the read error", i+2, err)
		}
	}
	if got, want := r.Line(), 1; got != want {
		t.Errorf("Line() = %d, want %d", got, want)
	}
}

// writeFile writes data to a new file in dir and returns its path.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func userLine(uuid, parent, text string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	return `{"type":"user","uuid":"` + uuid + `","parentUuid":` + p + `,"sessionId":"s1","message":{"role":"user","content":"` + text + `"}}` + "\n"
}

func bashLine(uuid, parent, command string) string {
	return `{"type":"assistant","uuid":"` + uuid + `","parentUuid":"` + parent + `","sessionId":"s1","message":{"role":"assistant","content":[{"type":"tool_use","id":"t-` + uuid + `","name":"Bash","input":{"command":"` + command + `"}}]}}` + "\n"
}

func TestResume(t *testing.T) {
	first := userLine("u1", "", "Deploy the site") + bashLine("a1", "u1", "ls -la /var/www")
	more := bashLine("a2", "a1", "rsync -av dist/ deploy@web01:/var/www/") + userLine("u2", "a2", "Thanks")

	open := func(t *testing.T, data string) *os.File {
		t.Helper()
		f, err := os.Open(writeFile(t, t.TempDir(), "s.jsonl", []byte(data)))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	checkpoint := func(t *testing.T, data string) Checkpoint {
		t.Helper()
		r := NewReader(strings.NewReader(data), "s.jsonl", Options{})
		readAll(t, r)
		return r.Checkpoint()
	}

	t.Run("appended lines only", func(t *testing.T) {
		cp := checkpoint(t, first)
		if cp.Offset != int64(len(first)) || cp.Line != 2 || !bytes.Equal(cp.Sum, sum([]byte(first))) {
			t.Fatalf("checkpoint = %+v, want offset %d, 2 lines, hash of the lines", cp, len(first))
		}
		r, resumed, err := Resume(open(t, first+more), "s.jsonl", cp, Options{})
		if err != nil || !resumed {
			t.Fatalf("Resume = %v, %v; want resumed", resumed, err)
		}
		got := readAll(t, r)
		if len(got) != 2 || got[0].msg.UUID != "a2" || got[1].msg.UUID != "u2" {
			t.Fatalf("read %+v, want a2 and u2", got)
		}
		if got[0].msg.Line != 3 || got[0].msg.Offset != int64(len(first)) {
			t.Errorf("first new message at line %d offset %d, want line 3 offset %d", got[0].msg.Line, got[0].msg.Offset, len(first))
		}
		if r.Offset() != int64(len(first+more)) || r.Line() != 4 {
			t.Errorf("Offset, Line = %d, %d; want %d, 4", r.Offset(), r.Line(), len(first+more))
		}
		if got, want := r.Sum(), sum([]byte(first+more)); !bytes.Equal(got, want) {
			t.Errorf("Sum() = %x, want the hash of the whole file %x", got, want)
		}
	})

	t.Run("an incomplete line is read once complete", func(t *testing.T) {
		partial := first + more[:30]
		cp := checkpoint(t, partial)
		if cp.Offset != int64(len(first)) {
			t.Fatalf("checkpoint offset %d, want %d", cp.Offset, len(first))
		}
		r, resumed, err := Resume(open(t, first+more), "s.jsonl", cp, Options{})
		if err != nil || !resumed {
			t.Fatalf("Resume = %v, %v; want resumed", resumed, err)
		}
		if got := readAll(t, r); len(got) != 2 || got[0].msg.UUID != "a2" {
			t.Errorf("read %+v, want a2 then u2", got)
		}
	})

	t.Run("nothing new", func(t *testing.T) {
		cp := checkpoint(t, first)
		r, resumed, err := Resume(open(t, first), "s.jsonl", cp, Options{})
		if err != nil || !resumed {
			t.Fatalf("Resume = %v, %v; want resumed", resumed, err)
		}
		if got := readAll(t, r); len(got) != 0 {
			t.Errorf("read %+v, want nothing", got)
		}
		if !bytes.Equal(r.Sum(), cp.Sum) || r.Offset() != cp.Offset {
			t.Errorf("checkpoint moved: %+v, want %+v", r.Checkpoint(), cp)
		}
	})

	for _, tc := range []struct {
		name string
		data string
	}{
		{name: "rewritten file starts over", data: strings.Replace(first, "Deploy", "Destroy", 1) + more},
		{name: "shorter file starts over", data: first[:10]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cp := checkpoint(t, first)
			r, resumed, err := Resume(open(t, tc.data), "s.jsonl", cp, Options{})
			if err != nil || resumed {
				t.Fatalf("Resume = %v, %v; want not resumed", resumed, err)
			}
			readAll(t, r)
			complete := strings.LastIndexByte(tc.data, '\n') + 1
			if r.Offset() != int64(complete) {
				t.Errorf("Offset() = %d, want %d (read from the start)", r.Offset(), complete)
			}
		})
	}

	t.Run("replay rebuilds the extractor", func(t *testing.T) {
		cp := checkpoint(t, first)
		x := NewExtractor(nil, ExtractorOptions{})
		var replayed []string
		r, resumed, err := Resume(open(t, first+more), "s.jsonl", cp, Options{Replay: func(m Message) {
			replayed = append(replayed, m.UUID)
			x.Observe(m)
		}})
		if err != nil || !resumed {
			t.Fatalf("Resume = %v, %v; want resumed", resumed, err)
		}
		if want := []string{"u1", "a1"}; !reflect.DeepEqual(replayed, want) {
			t.Errorf("replayed %v, want %v", replayed, want)
		}
		got := readAll(t, r)
		facts := x.Extract(got[0].msg)
		if !hasFact(facts, "action_a2", PredPartOfTask, "task_u1") {
			t.Errorf("facts of a2 = %v, want part_of_task(action_a2, task_u1) across the resume", facts)
		}
		if hasFact(facts, "task_u1", PredTaskText, "Deploy the site") {
			t.Errorf("Observe made facts: %v", facts)
		}
	})

	t.Run("zero checkpoint reads everything", func(t *testing.T) {
		r, resumed, err := Resume(open(t, first), "s.jsonl", Checkpoint{}, Options{})
		if err != nil || !resumed {
			t.Fatalf("Resume = %v, %v; want resumed", resumed, err)
		}
		if got := readAll(t, r); len(got) != 2 {
			t.Errorf("read %d, want 2", len(got))
		}
	})

	t.Run("checkpoint without sum is refused", func(t *testing.T) {
		_, _, err := Resume(open(t, first), "s.jsonl", Checkpoint{Offset: 10}, Options{})
		if got, want := factbase.ErrorCode(err), factbase.EINVALID; got != want {
			t.Errorf("Resume error %v has code %q, want %q", err, got, want)
		}
	})
}

func hasFact(facts []Fact, subject, pred, obj string) bool {
	for _, f := range facts {
		if f.Subject == subject && f.Predicate == pred && f.Object == obj {
			return true
		}
	}
	return false
}

func TestResumeAfterAcceptedUnterminatedLine(t *testing.T) {
	data := userLine("u1", "", "one") + strings.TrimSuffix(userLine("u2", "u1", "two"), "\n")
	r := NewReader(strings.NewReader(data), "f", Options{AcceptUnterminated: true})
	if got := readAll(t, r); len(got) != 2 {
		t.Fatalf("read %d, want 2", len(got))
	}
	cp := r.Checkpoint()
	f, err := os.Open(writeFile(t, t.TempDir(), "f", []byte(data)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var replayed []string
	r2, resumed, err := Resume(f, "f", cp, Options{Replay: func(m Message) { replayed = append(replayed, m.UUID) }})
	if err != nil || !resumed {
		t.Fatalf("Resume = %v, %v", resumed, err)
	}
	if r2.Line() != 2 || r2.Offset() != int64(len(data)) {
		t.Errorf("resumed at line %d offset %d, want 2, %d", r2.Line(), r2.Offset(), len(data))
	}
	if want := []string{"u1", "u2"}; !reflect.DeepEqual(replayed, want) {
		t.Errorf("replayed %v, want %v", replayed, want)
	}
}
