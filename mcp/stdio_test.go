package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase/mcp"
)

// rawLine is one JSON-RPC message as read off the wire.
type rawLine struct {
	ID     any             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// rawStdio serves a server for alice over mcp.Stdio on pipes, with maxLine as its
// line limit, and returns the writer of its input, the reader of its answers and
// the result of Run. The session is initialized.
func rawStdio(t *testing.T, f *fixture, maxLine int) (in *io.PipeWriter, answers <-chan rawLine, done <-chan error) {
	t.Helper()
	srv, err := mcp.New(mcp.Options{Engine: f.engine, User: alice})
	if err != nil {
		t.Fatal(err)
	}
	sr, sw := io.Pipe() // client -> server
	cr, cw := io.Pipe() // server -> client
	ctx, cancel := context.WithCancel(context.Background())
	runc := make(chan error, 1)
	go func() {
		runc <- srv.Run(ctx, &mcp.Stdio{In: sr, Out: cw, MaxLineBytes: maxLine})
		cw.Close()
	}()
	lines := make(chan rawLine, 1000)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(cr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var l rawLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Errorf("the server wrote a line that is not JSON: %q", sc.Text())
				continue
			}
			lines <- l
		}
	}()
	t.Cleanup(func() {
		sw.Close()
		cancel()
		for range lines {
		}
	})
	send(t, sw, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	if l := next(t, lines); l.ID != "init" || l.Error != nil {
		t.Fatalf("initialize answered %+v", l)
	}
	send(t, sw, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return sw, lines, runc
}

func send(t *testing.T, w io.Writer, line string) {
	t.Helper()
	if _, err := io.WriteString(w, line+"\n"); err != nil {
		t.Fatalf("writing %q: %v", line, err)
	}
}

func next(t *testing.T, lines <-chan rawLine) rawLine {
	t.Helper()
	select {
	case l, ok := <-lines:
		if !ok {
			t.Fatal("the server closed its output")
		}
		return l
	case <-time.After(10 * time.Second):
		t.Fatal("no answer in 10 s")
	}
	return rawLine{}
}

// TestStdioBadLines: a line that is not JSON gets a parse error, one that is not
// JSON-RPC an invalid request error (with its id when it has one), and the session
// goes on serving.
func TestStdioBadLines(t *testing.T) {
	f := newFixture(t)
	in, lines, _ := rawStdio(t, f, 4096)
	tests := []struct {
		name, line string
		code       int
		id         any
	}{
		{"not JSON", "this is not json", -32700, nil},
		{"half an object", `{"jsonrpc":"2.0","id":3,"method":`, -32700, nil},
		{"two objects", `{"jsonrpc":"2.0","id":3,"method":"ping"} {}`, -32700, nil},
		{"not JSON-RPC", `{"foo":1}`, -32600, nil},
		{"wrong version", `{"jsonrpc":"1.0","id":7,"method":"ping"}`, -32600, 7.0},
		{"empty batch", `[]`, -32600, nil},
		{"batch of junk", `[1,2]`, -32600, nil},
		{"batch repeating an id", `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600, nil},
		{"a number", `42`, -32600, nil},
		{"too long", `{"jsonrpc":"2.0","id":8,"method":"ping","params":{"pad":"` + strings.Repeat("x", 5000) + `"}}`, -32600, nil},
	}
	for i, tc := range tests {
		send(t, in, tc.line)
		l := next(t, lines)
		if l.Error == nil || l.Error.Code != tc.code || l.ID != tc.id || l.Error.Message == "" {
			t.Errorf("%s: answered %+v (error %+v), want code %d and id %v", tc.name, l, l.Error, tc.code, tc.id)
		}
		// Still serving: a tool call after each bad line is answered.
		send(t, in, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"ask","arguments":{"question":"What is my email?"}}}`, 100+i))
		if l := next(t, lines); l.ID != float64(100+i) || l.Error != nil || len(l.Result) == 0 {
			t.Fatalf("after %s: the next call answered %+v, want its result", tc.name, l)
		}
	}
}

// TestStdioAnswersInFlight: when the input ends right after a burst of calls,
// every call is answered before Run returns (the SDK's transport cancels them and
// drops their answers).
func TestStdioAnswersInFlight(t *testing.T) {
	f := newFixture(t)
	in, lines, done := rawStdio(t, f, 0)
	const n = 40
	var burst strings.Builder
	for i := range n {
		fmt.Fprintf(&burst, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"remember","arguments":{"text":"My favorite number is %d"}}}`+"\n", i, i)
	}
	if _, err := io.WriteString(in, burst.String()); err != nil {
		t.Fatal(err)
	}
	in.Close()
	answered := map[float64]bool{}
	for l := range lines {
		id, _ := l.ID.(float64)
		if l.Error != nil || len(l.Result) == 0 {
			t.Errorf("call %v answered %+v", l.ID, l.Error)
		}
		answered[id] = true
	}
	if len(answered) != n {
		t.Errorf("%d of %d calls answered before the server ended", len(answered), n)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run = %v, want nil at the end of the input", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after the input ended")
	}
}
