package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase/mcp"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpCall calls a tool and returns its result; a protocol error fails the test.
func mcpCall(t *testing.T, cs *mcpsdk.ClientSession, name string, args map[string]any) *mcpsdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): protocol error %v", name, args, err)
	}
	return res
}

// mcpText returns a result's text content.
func mcpText(res *mcpsdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcpsdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// mcpStructured decodes a result's structured content into v.
func mcpStructured(res *mcpsdk.CallToolResult, v any) error {
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// rememberThenAsk is the must-show over an open session: remember two
// favorite editors, then ask for the second.
func rememberThenAsk(t *testing.T, cs *mcpsdk.ClientSession) {
	t.Helper()
	rem := mcpCall(t, cs, "remember", map[string]any{"text": "My favorite editors are Helix and Neovim"})
	if rem.IsError {
		t.Fatalf("remember: tool error %q", mcpText(rem))
	}
	ask := mcpCall(t, cs, "ask", map[string]any{"question": "What is my second favorite editor?"})
	if ask.IsError {
		t.Fatalf("ask: tool error %q", mcpText(ask))
	}
	var out mcp.AskOutput
	if err := mcpStructured(ask, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Items) != 1 || out.Items[0].Value != "Neovim" || !strings.Contains(out.Reply, "Neovim") {
		t.Errorf("ask = %+v, want Neovim", out)
	}
}

func mcpClient() *mcpsdk.Client {
	return mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test", Version: "v0"}, nil)
}

// mcpStdio runs "factbase mcp" with args through Main with its stdin and stdout on
// pipes, as the binary runs on the process's streams, and connects a client to it.
// end closes the client and the server's standard input, and returns the exit status.
func mcpStdio(t *testing.T, env map[string]string, args ...string) (cs *mcpsdk.ClientSession, stderr *lockedBuffer, end func() int) {
	t.Helper()
	cr, sw := io.Pipe() // server stdout -> client
	sr, cw := io.Pipe() // client -> server stdin
	stderr = &lockedBuffer{}
	m := &Main{Stdin: sr, Stdout: sw, Stderr: stderr, Getenv: func(k string) string { return env[k] }, Build: testBuild}
	exit := make(chan int, 1)
	go func() { exit <- m.Run(context.Background(), append([]string{"mcp"}, args...)) }()
	cs, err := mcpClient().Connect(context.Background(), &mcpsdk.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs, stderr, func() int {
		cs.Close()
		cw.Close() // end of stdin: the server returns
		return <-exit
	}
}

// TestMCPStdio runs "factbase mcp" through Main with its stdin and stdout on pipes.
func TestMCPStdio(t *testing.T) {
	env := testEnv(t)
	env["FACTBASE_USER"] = testUser
	cs, stderr, end := mcpStdio(t, env, "--log-level", "info")
	if got := cs.InitializeResult().ServerInfo.Version; got != testBuild.Version {
		t.Errorf("MCP handshake version = %q, want the binary's %q", got, testBuild.Version)
	}
	rememberThenAsk(t, cs)
	fg := mcpCall(t, cs, "forget", map[string]any{"key": "favorites.text_editor", "reason": "testing the audit line"})
	if fg.IsError {
		t.Fatalf("forget: %s", mcpText(fg))
	}
	if code := end(); code != 0 {
		t.Errorf("factbase mcp exited with %d after the client left: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), `"reason":"testing the audit line"`) {
		t.Errorf("stderr has no audit line for forget: %s", stderr.String())
	}
}

// TestMCPChildProcess is not a test: TestMCPStdioProcess runs the test binary with
// FACTBASE_MCP_CHILD=1 to get a real "factbase mcp" process on real stdio.
func TestMCPChildProcess(t *testing.T) {
	if os.Getenv("FACTBASE_MCP_CHILD") != "1" {
		t.Skip("helper process for TestMCPStdioProcess")
	}
	os.Exit(NewMain().Run(context.Background(), []string{"mcp"}))
}

// TestMCPStdioProcess connects the SDK's CommandTransport to a child process that
// runs "factbase mcp" on its own stdin and stdout.
func TestMCPStdioProcess(t *testing.T) {
	env := testEnv(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestMCPChildProcess$")
	cmd.Env = append(os.Environ(), "FACTBASE_MCP_CHILD=1", "FACTBASE_DB="+env["FACTBASE_DB"], "FACTBASE_USER="+testUser)
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	cs, err := mcpClient().Connect(context.Background(), &mcpsdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v (stderr %s)", err, stderr.String())
	}
	rememberThenAsk(t, cs)
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v (stderr %s)", err, stderr.String())
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Errorf("the child did not exit cleanly: %v (stderr %s)", cmd.ProcessState, stderr.String())
	}
}

func TestMCPErrors(t *testing.T) {
	env := testEnv(t)
	runCases(t, env, []cliCase{
		{"no user", []string{"mcp"}, 2, "--user is required"},
		{"bad user", []string{"mcp", "--user", "alice"}, 1, `user id "alice" is not a UUID`},
		{"arguments", []string{"mcp", "--user", testUser, "extra"}, 2, "mcp takes no arguments"},
		{"bad log level", []string{"mcp", "--user", testUser, "--log-level", "loud"}, 2, "--log-level"},
	})
}

// bearerTransport sends an API key with every request.
type bearerTransport struct{ key string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.key != "" {
		r.Header.Set("Authorization", "Bearer "+b.key)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func mcpHTTP(t *testing.T, base, key string) (*mcpsdk.ClientSession, error) {
	t.Helper()
	cs, err := mcpClient().Connect(context.Background(), &mcpsdk.StreamableClientTransport{Endpoint: base + mcp.Path,
		MaxRetries: -1, HTTPClient: &http.Client{Transport: bearerTransport{key}}}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// TestMCPServe drives "factbase serve" end to end: /mcp with a user key remembers
// and answers; another user's key gets a tool error; no key gets 401.
func TestMCPServe(t *testing.T) {
	env := testEnv(t)
	mine := createKey(t, env, "--user", testUser)
	theirs := createKey(t, env, "--user", otherUser)
	s := serve(t, env)

	cs, err := mcpHTTP(t, s.base, mine)
	if err != nil {
		t.Fatalf("connect with a user key: %v", err)
	}
	rememberThenAsk(t, cs)

	other, err := mcpHTTP(t, s.base, theirs)
	if err != nil {
		t.Fatalf("connect with the other user's key: %v", err)
	}
	res := mcpCall(t, other, "ask", map[string]any{"question": "What is my second favorite editor?", "user": testUser})
	if !res.IsError || !strings.Contains(mcpText(res), "belongs to another user") {
		t.Errorf("another user's key: IsError %v, %q; want a tool error saying the key belongs to another user", res.IsError, mcpText(res))
	}

	if _, err := mcpHTTP(t, s.base, ""); err == nil {
		t.Errorf("connected to /mcp without a key")
	}
	status, ctype, body := call(t, http.MethodPost, s.base+mcp.Path, "", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if status != http.StatusUnauthorized || ctype != "application/json" || !strings.Contains(string(body), `"code":-32001`) ||
		!strings.Contains(string(body), "missing API key") {
		t.Errorf("POST /mcp without a key: %d %s %s; want 401 with a JSON-RPC error", status, ctype, body)
	}
	// The tool calls are counted in the server's metrics.
	_, _, metrics := call(t, http.MethodGet, s.base+"/metrics", "", "")
	for _, want := range []string{`factbase_mcp_tool_calls_total{outcome="ok",tool="remember"} 1`,
		`factbase_mcp_tool_calls_total{outcome="forbidden",tool="ask"} 1`, `factbase_mcp_tool_call_duration_seconds_count{tool="ask"} 2`} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if !strings.Contains(s.stderr.String(), `"route":"/mcp"`) {
		t.Errorf("the request log has no /mcp route: %s", s.stderr.String())
	}
}

// TestMCPStdioWithModel: with a model configured, "factbase mcp" runs the rules at
// once, queues the message for the model and runs the job in its own worker pool;
// the model's fact appears in a later read.
func TestMCPStdioWithModel(t *testing.T) {
	env, calls := modelEnv(t, http.StatusOK, chessAnswer(`"games"`))
	env["FACTBASE_USER"] = testUser
	cs, stderr, end := mcpStdio(t, env)
	res := mcpCall(t, cs, "remember", map[string]any{"text": "I play chess on Sundays. My email is ann@example.com"})
	var rem mcp.RememberOutput
	if err := mcpStructured(res, &rem); err != nil || res.IsError {
		t.Fatalf("remember: %s (%v)", mcpText(res), err)
	}
	if rem.Extraction != "rules+model" || rem.Job == nil || len(rem.Writes) == 0 || rem.Writes[0].Key != "contact.email" {
		t.Fatalf("remember = %+v, want the rules' email now and a queued job", rem)
	}
	// The job runs in the background; poll the fact it writes.
	var got string
	for i := 0; i < 200 && got != "chess"; i++ {
		res := mcpCall(t, cs, "list_facts", map[string]any{"key": "hobbies"})
		var list mcp.ListFactsOutput
		mcpStructured(res, &list)
		if len(list.Facts) > 0 {
			got = list.Facts[0].Value
		} else {
			time.Sleep(50 * time.Millisecond)
		}
	}
	if got != "chess" || calls.Load() != 1 {
		t.Errorf("hobbies = %q after the background job (%d model calls), want chess from one call; stderr %s", got, calls.Load(), stderr.String())
	}
	if code := end(); code != 0 {
		t.Errorf("factbase mcp exited with %d: %s", code, stderr.String())
	}
}
