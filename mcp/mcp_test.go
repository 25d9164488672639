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

// transports returns, for each transport, a session acting for alice on f.
func transports(t *testing.T) map[string]func(t *testing.T, f *fixture) *mcpsdk.ClientSession {
	return map[string]func(t *testing.T, f *fixture) *mcpsdk.ClientSession{
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

// TestRememberAsk is the must-show: remember a list, then ask for its
// second member, over each transport.
func TestRememberAsk(t *testing.T) {
	for name, connect := range transports(t) {
		t.Run(name, func(t *testing.T) {
			cs := connect(t, newFixture(t))
			var rem mcp.RememberOutput
			call(t, cs, "remember", map[string]any{"text": "My favorite editors are Helix and Neovim"}, &rem)
			if got, want := rem.Counts.Stored, 2; got != want {
				t.Errorf("remember stored %d facts, want %d (%+v)", got, want, rem)
			}
			if len(rem.Writes) != 2 || rem.Writes[0].Value != "Helix" || rem.Writes[1].Value != "Neovim" {
				t.Errorf("remember writes = %+v, want Helix then Neovim", rem.Writes)
			}
			if rem.Extraction != "rules" || !strings.Contains(rem.Reply, "Helix and Neovim") {
				t.Errorf("remember = %+v, want extraction rules and a reply naming both", rem)
			}
			var ans mcp.AskOutput
			call(t, cs, "ask", map[string]any{"question": "What is my second favorite editor?"}, &ans)
			if len(ans.Items) != 1 || ans.Items[0].Value != "Neovim" || ans.Items[0].Rank != 2 {
				t.Errorf("ask items = %+v, want #2 Neovim", ans.Items)
			}
			if !strings.Contains(ans.Reply, "Neovim") {
				t.Errorf("ask reply = %q, want Neovim", ans.Reply)
			}
			// Saying it again stores nothing and reports the duplicates.
			call(t, cs, "remember", map[string]any{"text": "My favorite editors are Helix and Neovim"}, &rem)
			if rem.Counts.Stored != 0 || len(rem.Duplicates) != 2 || rem.Duplicates[1].Rank != 2 {
				t.Errorf("remembering again = %+v, want no writes and two duplicates", rem)
			}
		})
	}
}

func TestTools(t *testing.T) {
	for name, connect := range transports(t) {
		t.Run(name, func(t *testing.T) {
			cs := connect(t, newFixture(t))
			var rem mcp.RememberOutput
			call(t, cs, "remember", map[string]any{"text": "My favorite editors are Helix and Neovim"}, &rem)

			var w mcp.WriteOutput
			call(t, cs, "set_fact", map[string]any{"key": "contact.email", "value": "a@example.com", "category": "core"}, &w)
			if w.Counts.Stored != 1 || len(w.Facts) != 1 || w.Facts[0].Value != "a@example.com" || !w.Facts[0].Current {
				t.Fatalf("set_fact = %+v, want one current fact stored", w)
			}
			first := w.Facts[0].ID
			call(t, cs, "set_fact", map[string]any{"key": "contact.email", "value": "b@example.com", "category": "core"}, &w)
			if w.Counts.Stored != 1 || w.Counts.Updated != 1 {
				t.Errorf("second set_fact counts = %+v, want stored 1, updated 1", w.Counts)
			}
			call(t, cs, "set_fact", map[string]any{"key": "contact.email", "value": "B@example.com."}, &w)
			if w.Counts.Stored != 0 || len(w.Duplicates) != 1 || !strings.Contains(w.Summary, "already") {
				t.Errorf("set_fact of the same value = %+v, want a duplicate", w)
			}
			call(t, cs, "set_fact", map[string]any{"key": "favorites.text_editor", "value": "Vim", "rank": 1}, &w)
			if len(w.Mutations) == 0 || w.Mutations[0].Action != "INSERT" || w.Mutations[0].To != 1 {
				t.Errorf("set_fact at rank 1 mutations = %+v, want INSERT to #1", w.Mutations)
			}

			var list mcp.ListFactsOutput
			call(t, cs, "list_facts", map[string]any{"key": "favorites.text_editor"}, &list)
			var got []string
			for _, f := range list.Facts {
				got = append(got, f.Value)
			}
			if strings.Join(got, ",") != "Vim,Helix,Neovim" || list.Facts[2].Rank != 3 {
				t.Errorf("list_facts of the list = %v, want Vim,Helix,Neovim in rank order", got)
			}
			call(t, cs, "list_facts", map[string]any{"key_prefix": "contact.", "history": true}, &list)
			if list.Count != 2 {
				t.Errorf("list_facts with history = %d facts, want 2", list.Count)
			}
			call(t, cs, "list_facts", map[string]any{"limit": 2}, &list)
			if list.Count != 2 || !list.More {
				t.Errorf("list_facts limit 2 = count %d more %v, want 2 and more", list.Count, list.More)
			}

			var hist mcp.FactHistoryOutput
			call(t, cs, "fact_history", map[string]any{"key": "contact.email"}, &hist)
			if len(hist.Versions) != 2 || hist.Versions[0].Value != "b@example.com" || !hist.Versions[0].Current ||
				hist.Versions[1].Current || hist.Versions[1].SupersededBy == "" {
				t.Errorf("fact_history = %+v, want b (current) then a (superseded)", hist.Versions)
			}
			call(t, cs, "fact_history", map[string]any{"id": first}, &hist)
			if hist.Key != "contact.email" || len(hist.Versions) != 2 {
				t.Errorf("fact_history by id = %+v, want the two versions of contact.email", hist)
			}

			var found mcp.SearchOutput
			call(t, cs, "search", map[string]any{"query": "Neovim editor", "kinds": []string{"fact"}}, &found)
			if len(found.Hits) == 0 || found.Hits[0].Fact == nil || found.Hits[0].Fact.Value != "Neovim" {
				t.Errorf("search hits = %+v, want Neovim first", found.Hits)
			}
			call(t, cs, "search", map[string]any{"query": "Neovim", "key_prefix": "contact."}, &found)
			if len(found.Hits) != 0 {
				t.Errorf("search filtered to contact.* = %+v, want none", found.Hits)
			}

			var sh mcp.FactSheetOutput
			call(t, cs, "fact_sheet", map[string]any{}, &sh)
			if !strings.Contains(sh.Text, "Neovim") || !strings.Contains(sh.Text, "b@example.com") || sh.Entries == 0 {
				t.Errorf("fact_sheet = %+v, want the favorites and the email", sh)
			}
			call(t, cs, "fact_sheet", map[string]any{"max_chars": 40}, &sh)
			if sh.Dropped == 0 || len([]rune(sh.Text)) > 40 {
				t.Errorf("fact_sheet within 40 characters = %+v, want entries dropped", sh)
			}

			current := hist.Versions[0].ID
			var fg mcp.ForgetOutput
			call(t, cs, "forget", map[string]any{"id": current, "reason": "the user asked"}, &fg)
			if fg.Mode != "retract" || fg.Counts.Retracted != 1 || len(fg.Facts) != 1 || fg.Facts[0].Current {
				t.Errorf("forget = %+v, want one fact retracted", fg)
			}
			call(t, cs, "list_facts", map[string]any{"key": "contact.email"}, &list)
			if list.Count != 0 {
				t.Errorf("after forget, list_facts = %+v, want none current", list.Facts)
			}
			call(t, cs, "fact_history", map[string]any{"key": "contact.email"}, &hist)
			if len(hist.Versions) != 2 {
				t.Errorf("after retract, history has %d versions, want 2 kept", len(hist.Versions))
			}
			call(t, cs, "forget", map[string]any{"key": "contact.email", "mode": "delete", "reason": "it was wrong"}, &fg)
			if fg.Counts.Deleted != 2 || len(fg.Facts) != 0 {
				t.Errorf("forget delete = %+v, want 2 rows erased", fg)
			}
			call(t, cs, "fact_history", map[string]any{"key": "contact.email"}, &hist)
			if len(hist.Versions) != 0 {
				t.Errorf("after delete, history = %+v, want none", hist.Versions)
			}
			call(t, cs, "fact_sheet", map[string]any{}, &sh)
			if strings.Contains(sh.Text, "example.com") {
				t.Errorf("after delete, the fact sheet still shows the email: %q", sh.Text)
			}
		})
	}
}

func TestToolErrors(t *testing.T) {
	for name, connect := range transports(t) {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			cs := connect(t, f)
			other := "API key"
			if name == "stdio" {
				other = "acts for user " + string(alice) + " only"
			}
			cases := []struct {
				name string
				tool string
				args map[string]any
				want string
			}{
				{"empty text", "remember", map[string]any{"text": "  "}, "text is empty"},
				{"missing text", "remember", map[string]any{}, `validating "arguments"`},
				{"unknown argument", "remember", map[string]any{"text": "hi", "txt": "hi"}, "txt"},
				{"wrong type", "ask", map[string]any{"question": 5}, `validating "arguments"`},
				{"empty question", "ask", map[string]any{"question": ""}, "question is empty"},
				{"long question", "ask", map[string]any{"question": strings.Repeat("a", mcp.MaxTextBytes+1)}, "the limit is 16384"},
				{"empty query", "search", map[string]any{"query": " "}, "query is empty"},
				{"bad kind", "search", map[string]any{"query": "x", "kinds": []string{"person"}}, `kind "person"`},
				{"bad time", "search", map[string]any{"query": "x", "from": "yesterday"}, "not an RFC 3339 time"},
				{"empty value", "set_fact", map[string]any{"key": "k", "value": ""}, "value is empty"},
				{"empty key", "set_fact", map[string]any{"key": "", "value": "v"}, "key is empty"},
				{"bad category", "set_fact", map[string]any{"key": "k", "value": "v", "category": "misc"}, `category "misc"`},
				{"rank on a single key", "set_fact", map[string]any{"key": "k", "value": "v", "rank": 2}, "not a ranked list"},
				{"bad limit", "list_facts", map[string]any{"limit": 5000}, "limit 5000 is outside"},
				{"bad as_of", "list_facts", map[string]any{"as_of": "now"}, "not an RFC 3339 time"},
				{"history without key", "fact_history", map[string]any{}, "key is empty"},
				{"invalid id", "fact_history", map[string]any{"id": "nope"}, `fact "nope" not found`},
				{"forget invalid id", "forget", map[string]any{"id": "nope", "reason": "test"}, `fact "nope" not found`},
				{"forget without reason", "forget", map[string]any{"id": "x"}, "reason"},
				{"forget empty reason", "forget", map[string]any{"id": "x", "reason": " "}, "reason is empty"},
				{"forget bad mode", "forget", map[string]any{"id": "x", "reason": "r", "mode": "shred"}, `mode "shred"`},
				{"forget nothing", "forget", map[string]any{"reason": "r"}, "id is empty"},
				{"forget unknown key", "forget", map[string]any{"key": "nothing.here", "reason": "r"}, "no current facts for nothing.here"},
				{"user not a uuid", "ask", map[string]any{"question": "What is my email?", "user": "alice"}, `user id "alice" is not a UUID`},
				{"another user", "ask", map[string]any{"question": "What is my email?", "user": string(bob)}, other},
				{"negative budget", "fact_sheet", map[string]any{"max_tokens": -1}, "cannot be negative"},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					if got := callError(t, cs, tc.tool, tc.args); !strings.Contains(got, tc.want) {
						t.Errorf("%s(%v) error = %q, want it to contain %q", tc.tool, tc.args, got, tc.want)
					}
				})
			}
			// A store that cannot be reached is a tool error naming it, not a crash.
			f.store.Close()
			got := callError(t, cs, "ask", map[string]any{"question": "What is my email?"})
			if !strings.Contains(got, "store unavailable") {
				t.Errorf("with the store closed, ask error = %q, want store unavailable", got)
			}
		})
	}
}

// TestHTTPAuth checks the keys on the HTTP transport: none, unknown, revoked,
// another user's, and an application key.
func TestHTTPAuth(t *testing.T) {
	f := newFixture(t)
	ts := httpServer(t, f, false)
	aliceKey, _ := f.key(t, alice)
	bobKey, _ := f.key(t, bob)
	appKey, _ := f.key(t, "")
	revoked, rk := f.key(t, alice)
	if _, err := f.keys.RevokeKey(context.Background(), rk.ID, time.Now()); err != nil {
		t.Fatal(err)
	}

	refused := []struct {
		name, header, want string
	}{
		{"missing key", "", "missing API key"},
		{"not bearer", "Basic abc", "must be"},
		{"garbage", "Bearer hello", "invalid API key"},
		{"unknown key", "Bearer fb_" + strings.Repeat("A", 43), "invalid API key"},
		{"revoked key", "Bearer " + revoked, "has been revoked"},
	}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"0"}}}`
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, ts.URL+mcp.Path, strings.NewReader(init))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.header != "" {
				req.Header.Set("Authorization", tc.header)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(body), tc.want) {
				t.Errorf("status %d, body %s; want 401 containing %q", resp.StatusCode, body, tc.want)
			}
			if got := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(got, "Bearer") {
				t.Errorf("WWW-Authenticate = %q, want a Bearer challenge", got)
			}
		})
	}
	if _, err := httpSession(t, ts, ""); err == nil {
		t.Errorf("the SDK client connected without a key")
	}

	// Alice remembers with her key; Bob's key cannot act for her.
	as, err := httpSession(t, ts, aliceKey)
	if err != nil {
		t.Fatal(err)
	}
	var rem mcp.RememberOutput
	call(t, as, "remember", map[string]any{"text": "My favorite editors are Helix and Neovim"}, &rem)
	bs, err := httpSession(t, ts, bobKey)
	if err != nil {
		t.Fatal(err)
	}
	got := callError(t, bs, "ask", map[string]any{"question": "What is my second favorite editor?", "user": string(alice)})
	if !strings.Contains(got, "belongs to another user") || !strings.Contains(got, string(alice)) {
		t.Errorf("Bob's key for Alice: error %q, want it to say the key belongs to another user", got)
	}
	var ans mcp.AskOutput
	call(t, bs, "ask", map[string]any{"question": "What is my second favorite editor?"}, &ans)
	if len(ans.Items) != 0 {
		t.Errorf("Bob's own ask = %+v, want nothing: Alice's facts are hers", ans.Items)
	}
	if _, err := bs.ReadResource(context.Background(), &mcpsdk.ReadResourceParams{URI: mcp.SheetURI(alice)}); err == nil ||
		!strings.Contains(err.Error(), "belongs to another user") {
		t.Errorf("Bob reading Alice's fact sheet: err %v, want refused", err)
	}

	// An application key names the user in each call.
	ap, err := httpSession(t, ts, appKey)
	if err != nil {
		t.Fatal(err)
	}
	if got := callError(t, ap, "ask", map[string]any{"question": "What is my second favorite editor?"}); !strings.Contains(got, "application key") {
		t.Errorf("application key without user: error %q, want it to ask for the user", got)
	}
	call(t, ap, "ask", map[string]any{"question": "What is my second favorite editor?", "user": string(alice)}, &ans)
	if len(ans.Items) != 1 || ans.Items[0].Value != "Neovim" {
		t.Errorf("application key for Alice: ask = %+v, want Neovim", ans.Items)
	}

	// Keys that cannot be checked: 503, not a pass.
	f.keys.Close()
	req, _ := http.NewRequest(http.MethodPost, ts.URL+mcp.Path, strings.NewReader(init))
	req.Header.Set("Authorization", "Bearer "+aliceKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "store unavailable") {
		t.Errorf("with the key store closed: status %d, body %s; want 503 store unavailable", resp.StatusCode, body)
	}
}

// TestHTTPNoAuth: without keys every call names its user.
func TestHTTPNoAuth(t *testing.T) {
	f := newFixture(t)
	cs, err := httpSession(t, httpServer(t, f, true), "")
	if err != nil {
		t.Fatal(err)
	}
	if got := callError(t, cs, "remember", map[string]any{"text": "My email is a@example.com"}); !strings.Contains(got, "user argument") {
		t.Errorf("no user: error %q, want it to ask for the user argument", got)
	}
	var rem mcp.RememberOutput
	call(t, cs, "remember", map[string]any{"text": "My email is a@example.com", "user": string(bob)}, &rem)
	if rem.Counts.Stored != 1 {
		t.Errorf("remember for bob = %+v, want one fact stored", rem)
	}
}

func TestNewHandlerNeedsKeys(t *testing.T) {
	f := newFixture(t)
	if _, err := mcp.NewHandler(mcp.HandlerOptions{Engine: f.engine}); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("NewHandler without keys: err %v, want EINVALID", err)
	}
	if _, err := mcp.New(mcp.Options{}); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("New without engine: err %v, want EINVALID", err)
	}
	if _, err := mcp.New(mcp.Options{Engine: f.engine, User: "bob"}); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("New with user bob: err %v, want EINVALID", err)
	}
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
	for _, want := range []string{"remember", "ask", "search", "set_fact", "list_facts", "fact_history", "forget", "fact_sheet"} {
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

func TestSheetResourceAndPrompt(t *testing.T) {
	for name, connect := range transports(t) {
		t.Run(name, func(t *testing.T) {
			cs := connect(t, newFixture(t))
			ctx := context.Background()
			empty, err := cs.ReadResource(ctx, &mcpsdk.ReadResourceParams{URI: mcp.SheetURI(alice)})
			if err != nil {
				t.Fatal(err)
			}
			if len(empty.Contents) != 1 || !strings.Contains(empty.Contents[0].Text, "Nothing is known") {
				t.Errorf("empty sheet resource = %+v, want the empty note", empty.Contents)
			}
			var rem mcp.RememberOutput
			call(t, cs, "remember", map[string]any{"text": "My favorite editors are Helix and Neovim"}, &rem)

			tpls, err := cs.ListResourceTemplates(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(tpls.ResourceTemplates) != 1 || tpls.ResourceTemplates[0].URITemplate != mcp.SheetURITemplate {
				t.Errorf("resource templates = %+v, want %s", tpls.ResourceTemplates, mcp.SheetURITemplate)
			}
			res, err := cs.ReadResource(ctx, &mcpsdk.ReadResourceParams{URI: mcp.SheetURI(alice)})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, "Neovim") ||
				res.Contents[0].MIMEType != "text/markdown" {
				t.Errorf("sheet resource = %+v, want a Markdown block naming Neovim", res.Contents)
			}
			if _, err := cs.ReadResource(ctx, &mcpsdk.ReadResourceParams{URI: "factbase://users/x/y/fact-sheet"}); err == nil {
				t.Errorf("reading a malformed sheet URI succeeded")
			}

			p, err := cs.GetPrompt(ctx, &mcpsdk.GetPromptParams{Name: mcp.PromptName,
				Arguments: map[string]string{"task": "Which editor should I open?"}})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Messages) != 1 {
				t.Fatalf("prompt messages = %d, want 1", len(p.Messages))
			}
			tc, ok := p.Messages[0].Content.(*mcpsdk.TextContent)
			if !ok || !strings.Contains(tc.Text, "# Fact sheet") || !strings.Contains(tc.Text, "Helix") ||
				!strings.HasSuffix(tc.Text, "Which editor should I open?\n") || p.Messages[0].Role != "user" {
				t.Errorf("prompt = %+v, want the sheet then the task", p.Messages[0])
			}
			if _, err := cs.GetPrompt(ctx, &mcpsdk.GetPromptParams{Name: mcp.PromptName,
				Arguments: map[string]string{"max_tokens": "many"}}); err == nil {
				t.Errorf("prompt with max_tokens many succeeded")
			}
		})
	}
}

// TestHTTPHost: behind a reverse proxy on the same machine, requests reach a
// loopback address with the public Host; with keys they are served, without keys
// (the SDK's DNS rebinding protection) they are refused.
func TestHTTPHost(t *testing.T) {
	f := newFixture(t)
	secret, _ := f.key(t, alice)
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	cases := []struct {
		name   string
		noAuth bool
		key    string
		want   int
	}{
		{"with keys", false, secret, http.StatusOK},
		{"without keys", true, "", http.StatusForbidden},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := httpServer(t, f, tc.noAuth)
			req, _ := http.NewRequest(http.MethodPost, ts.URL+mcp.Path, strings.NewReader(list))
			req.Host = "memory.example.com"
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.key != "" {
				req.Header.Set("Authorization", "Bearer "+tc.key)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Errorf("Host memory.example.com: status %d (%s), want %d", resp.StatusCode, body, tc.want)
			}
		})
	}
}

// TestPeople: the people tools over each transport — remember about a person, list
// people, recall grouped by person, and a change that waits for confirmation.
func TestPeople(t *testing.T) {
	for name, connect := range transports(t) {
		t.Run(name, func(t *testing.T) {
			cs := connect(t, newFixture(t))
			var rem mcp.RememberOutput
			for _, msg := range []string{"My wife Anna is allergic to peanuts", "Anna lives in Paris", "Anna works at Initech"} {
				call(t, cs, "remember", map[string]any{"text": msg}, &rem)
				if rem.Counts.Stored == 0 {
					t.Fatalf("remember %q stored nothing: %+v", msg, rem)
				}
			}

			var people mcp.ListPeopleOutput
			call(t, cs, "list_people", map[string]any{"with_facts": true}, &people)
			if len(people.People) != 1 || people.People[0].Name != "Anna" || people.People[0].Relation != "wife" ||
				people.People[0].Role != "partner" {
				t.Fatalf("list_people = %+v, want Anna, the wife", people.People)
			}
			anna := people.People[0]
			if !hasValue(anna.Facts, "Paris") || !hasValue(anna.Facts, "Initech") {
				t.Errorf("Anna's facts = %+v, want Paris and Initech", anna.Facts)
			}

			var rec mcp.RecallOutput
			call(t, cs, "recall", map[string]any{"query": "What does my wife eat?"}, &rec)
			if len(rec.People) == 0 || rec.People[0].About != "Anna" || rec.People[0].EntityID != anna.ID {
				t.Fatalf("recall grouped = %+v, want Anna first", rec.People)
			}
			if !strings.Contains(rec.Prompt, "peanuts") || !recalled(rec, "peanuts") || rec.Count == 0 {
				t.Errorf("recall = %+v, want the peanut allergy in the facts and the prompt", rec)
			}

			// Changes of a home city and an employer wait for the user.
			call(t, cs, "remember", map[string]any{"text": "Anna lives in Berlin"}, &rem)
			call(t, cs, "remember", map[string]any{"text": "Anna works at Hooli"}, &rem)
			var cl mcp.ListConflictsOutput
			call(t, cs, "list_conflicts", map[string]any{}, &cl)
			if len(cl.Conflicts) != 2 {
				t.Fatalf("list_conflicts = %+v, want two pending", cl.Conflicts)
			}
			city, job := cl.Conflicts[0], cl.Conflicts[1]
			if city.About != "Anna" || city.CurrentValue != "Paris" || city.ProposedValue != "Berlin" || city.Status != "pending" {
				t.Errorf("first conflict = %+v, want Anna's Paris -> Berlin, pending", city)
			}
			var rc mcp.ResolveConflictOutput
			call(t, cs, "resolve_conflict", map[string]any{"id": city.ID, "decision": "confirm"}, &rc)
			if rc.Conflict.Status != "confirmed" || rc.Counts.Stored != 1 || !strings.Contains(rc.Summary, "Berlin") {
				t.Errorf("confirm = %+v, want confirmed with the new value stored", rc)
			}
			call(t, cs, "resolve_conflict", map[string]any{"id": job.ID, "decision": "reject"}, &rc)
			if rc.Conflict.Status != "rejected" || rc.Counts.Stored != 0 {
				t.Errorf("reject = %+v, want rejected, nothing written", rc)
			}
			call(t, cs, "list_people", map[string]any{"with_facts": true}, &people)
			if f := people.People[0].Facts; !hasValue(f, "Berlin") || hasValue(f, "Paris") || !hasValue(f, "Initech") || hasValue(f, "Hooli") {
				t.Errorf("after confirm and reject, Anna's facts = %+v, want Berlin and Initech", f)
			}
			call(t, cs, "list_conflicts", map[string]any{}, &cl)
			if len(cl.Conflicts) != 0 {
				t.Errorf("pending after resolving = %+v, want none", cl.Conflicts)
			}
			call(t, cs, "list_conflicts", map[string]any{"status": "all"}, &cl)
			if len(cl.Conflicts) != 2 || cl.Conflicts[0].ResolvedAt == "" {
				t.Errorf("all conflicts = %+v, want both, resolved", cl.Conflicts)
			}

			errs := []struct {
				tool string
				args map[string]any
				want string
			}{
				{"resolve_conflict", map[string]any{"id": city.ID, "decision": "confirm"}, "already confirmed"},
				{"resolve_conflict", map[string]any{"id": city.ID, "decision": "maybe"}, `decision "maybe"`},
				{"resolve_conflict", map[string]any{"id": "nope", "decision": "reject"}, "not found"},
				{"resolve_conflict", map[string]any{"id": " ", "decision": "reject"}, "id is empty"},
				{"resolve_conflict", map[string]any{"id": city.ID}, `validating "arguments"`},
				{"list_conflicts", map[string]any{"status": "open"}, `status "open"`},
				{"recall", map[string]any{"query": " "}, "query is empty"},
				{"recall", map[string]any{"query": "x", "limit": 500}, "limit 500 is outside"},
			}
			for _, tc := range errs {
				if got := callError(t, cs, tc.tool, tc.args); !strings.Contains(got, tc.want) {
					t.Errorf("%s(%v) error = %q, want it to contain %q", tc.tool, tc.args, got, tc.want)
				}
			}
		})
	}
}

func hasValue(facts []mcp.Fact, v string) bool {
	for _, f := range facts {
		if f.Value == v && f.Current {
			return true
		}
	}
	return false
}

func recalled(r mcp.RecallOutput, v string) bool {
	for _, p := range r.People {
		for _, f := range p.Facts {
			if strings.Contains(f.Value, v) || strings.Contains(f.Text, v) {
				return true
			}
		}
	}
	return false
}

// TestRememberBackground: with a background model configured, remember runs the
// rules now and queues the message as a job; a failure to queue leaves the rules'
// writes and says why.
func TestRememberBackground(t *testing.T) {
	f := newFixture(t)
	srv, err := mcp.New(mcp.Options{Engine: f.engine, User: alice, Background: f.engine.Remember})
	if err != nil {
		t.Fatal(err)
	}
	cs := stdioSession(t, srv)
	var rem mcp.RememberOutput
	call(t, cs, "remember", map[string]any{"text": "My favorite editors are Helix and Neovim"}, &rem)
	if rem.Extraction != "rules+model" || rem.Counts.Stored != 2 || rem.Job == nil || rem.Job.State != "queued" {
		t.Fatalf("remember with a model = %+v, want the rules' writes and a queued job", rem)
	}
	j, err := f.store.Job(context.Background(), rem.Job.ID)
	if err != nil || j.Input != "My favorite editors are Helix and Neovim" || j.User != alice || j.Kind != factbase.JobRemember {
		t.Errorf("the queued job = %+v, %v; want alice's remember job with the message", j, err)
	}

	failing := func(context.Context, factbase.UserID, string) (factbase.Job, error) {
		return factbase.Job{}, factbase.Errorf(factbase.EUNAVAILABLE, "this store does not keep background jobs")
	}
	srv, err = mcp.New(mcp.Options{Engine: f.engine, User: alice, Background: failing})
	if err != nil {
		t.Fatal(err)
	}
	cs = stdioSession(t, srv)
	call(t, cs, "remember", map[string]any{"text": "My email is a@example.com"}, &rem)
	if rem.Counts.Stored != 1 || rem.Job != nil || !strings.Contains(rem.ModelNote, "does not keep background jobs") {
		t.Errorf("remember with a failing queue = %+v, want the write and a model note", rem)
	}
}
