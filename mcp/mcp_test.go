package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/mcp"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/sqlite"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	alice = factbase.UserID("0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d")
	bob   = factbase.UserID("5f2d9a1c-7e3b-4c8d-9a0f-1b2c3d4e5f60")
)

// fixture is a store and an engine in a temporary directory, and the API keys in a
// second store, so that a test can make the data unreachable and still authenticate.
type fixture struct {
	store  *sqlite.Store
	keys   *sqlite.Store
	engine *memory.Engine
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	dir := t.TempDir()
	open := func(name string) *sqlite.Store {
		s, err := sqlite.Open(context.Background(), filepath.Join(dir, name), sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	s := open("f.db")
	return &fixture{store: s, keys: open("keys.db"), engine: memory.New(s, memory.Options{})}
}

// key creates an API key for user ("" for an application key) and returns its secret.
func (f *fixture) key(t *testing.T, user factbase.UserID) (string, factbase.Key) {
	t.Helper()
	secret, k, err := factbase.NewKey(user, "test", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := f.keys.CreateKey(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	return secret, k
}

// stdioSession serves srv over a pair of pipes carrying newline-delimited JSON, the
// stdio transport's wire format, and connects the SDK's client to it.
func stdioSession(t *testing.T, srv *mcp.Server) *mcpsdk.ClientSession {
	t.Helper()
	cr, sw := io.Pipe() // server -> client
	sr, cw := io.Pipe() // client -> server
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, &mcpsdk.IOTransport{Reader: sr, Writer: sw}) }()
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test", Version: "v0"}, nil).
		Connect(ctx, &mcpsdk.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		if err := <-done; err != nil {
			t.Errorf("Run = %v, want nil after the client closed", err)
		}
		cancel()
	})
	return cs
}

// bearer adds an Authorization header to every request.
type bearer struct {
	key  string
	base http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.key != "" {
		r.Header.Set("Authorization", "Bearer "+b.key)
	}
	return b.base.RoundTrip(r)
}

// httpServer serves the MCP handler on a loopback port.
func httpServer(t *testing.T, f *fixture, noAuth bool) *httptest.Server {
	t.Helper()
	o := mcp.HandlerOptions{Engine: f.engine, NoAuth: noAuth}
	if !noAuth {
		o.Keys = f.keys
	}
	h, err := mcp.NewHandler(o)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle(mcp.Path, h)
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

// httpSession connects the SDK's client over streamable HTTP with key (none if "").
func httpSession(t *testing.T, ts *httptest.Server, key string) (*mcpsdk.ClientSession, error) {
	t.Helper()
	tr := &mcpsdk.StreamableClientTransport{Endpoint: ts.URL + mcp.Path, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: bearer{key: key, base: http.DefaultTransport}}}
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test", Version: "v0"}, nil).
		Connect(context.Background(), tr, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// eachTransport runs test once per transport, as a subtest, with a session acting
// for alice on a fresh fixture.
func eachTransport(t *testing.T, test func(t *testing.T, f *fixture, cs *mcpsdk.ClientSession)) {
	connect := map[string]func(t *testing.T, f *fixture) *mcpsdk.ClientSession{
		"stdio": func(t *testing.T, f *fixture) *mcpsdk.ClientSession {
			srv, err := mcp.New(mcp.Options{Engine: f.engine, User: alice})
			if err != nil {
				t.Fatal(err)
			}
			return stdioSession(t, srv)
		},
		"http": func(t *testing.T, f *fixture) *mcpsdk.ClientSession {
			secret, _ := f.key(t, alice)
			cs, err := httpSession(t, httpServer(t, f, false), secret)
			if err != nil {
				t.Fatal(err)
			}
			return cs
		},
	}
	for name, connect := range connect {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			test(t, f, connect(t, f))
		})
	}
}

// call calls a tool that must succeed and decodes its structured output into out.
func call(t *testing.T, cs *mcpsdk.ClientSession, name string, args map[string]any, out any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): protocol error %v", name, args, err)
	}
	if res.IsError {
		t.Fatalf("%s(%v): tool error %q", name, args, text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	// Decode into a zero value, so that nothing of an earlier call's output survives.
	v := reflect.ValueOf(out).Elem()
	v.Set(reflect.Zero(v.Type()))
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: structured content %s: %v", name, b, err)
	}
}

// callError calls a tool that must fail with a tool error and returns its message.
func callError(t *testing.T, cs *mcpsdk.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): protocol error %v, want a tool error", name, args, err)
	}
	if !res.IsError {
		t.Fatalf("%s(%v): succeeded with %s, want a tool error", name, args, text(res))
	}
	if res.StructuredContent != nil {
		t.Errorf("%s(%v): a tool error carries structured content %v", name, args, res.StructuredContent)
	}
	return text(res)
}

func text(res *mcpsdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcpsdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// TestSchemas checks the tool list and that every input and output property, at
// every depth, is described.
func TestSchemas(t *testing.T) {
	f := newFixture(t)
	srv, err := mcp.New(mcp.Options{Engine: f.engine, User: alice})
	if err != nil {
		t.Fatal(err)
	}
	cs := stdioSession(t, srv)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" {
			t.Errorf("tool %s has no description", tool.Name)
		}
		if tool.OutputSchema == nil {
			t.Errorf("tool %s has no output schema", tool.Name)
		}
		for kind, schema := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			for _, p := range undescribed(schema, "") {
				t.Errorf("tool %s: %s property %s has no description", tool.Name, kind, p)
			}
		}
	}
	if got, want := strings.Join(names, ","), strings.Join(srv.Tools(), ","); got != want {
		t.Errorf("tools/list = %s, want %s", got, want)
	}
	for _, want := range []string{"remember", "ask", "search", "add_episode", "set_fact", "list_facts", "get_fact", "fact_history", "forget", "erase_fact", "fact_sheet"} {
		if !strings.Contains(","+strings.Join(names, ",")+",", ","+want+",") {
			t.Errorf("tools/list = %v, missing %s", names, want)
		}
	}
}

// undescribed returns the paths of the properties of a JSON Schema (as decoded by
// the client) that have no description.
func undescribed(schema any, path string) []string {
	m, ok := schema.(map[string]any)
	if !ok {
		return nil
	}
	var out []string
	if props, ok := m["properties"].(map[string]any); ok {
		for name, p := range props {
			pm, _ := p.(map[string]any)
			if d, _ := pm["description"].(string); d == "" {
				out = append(out, path+name)
			}
			out = append(out, undescribed(p, path+name+".")...)
		}
	}
	if items, ok := m["items"]; ok {
		out = append(out, undescribed(items, path+"[].")...)
	}
	return out
}
