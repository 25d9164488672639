package mcp_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/mcp"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

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
