package mcp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/factbase/factbase/mcp"
)

// TestTransportErrorsAreJSONRPC: what the transport refuses (a wrong content type,
// a body that is not JSON, a wrong method) comes back as a JSON-RPC error object with
// the HTTP status, never as text/plain.
func TestTransportErrorsAreJSONRPC(t *testing.T) {
	f := newFixture(t)
	ts := httpServer(t, f, false)
	key, _ := f.key(t, alice)
	tests := []struct {
		name, method, ctype, body string
		code                      int
	}{
		{"not JSON", http.MethodPost, "application/json", "{this is not json", -32700},
		{"not JSON-RPC", http.MethodPost, "application/json", `{"foo":1}`, -32600},
		{"empty batch", http.MethodPost, "application/json", `[]`, -32600},
		{"wrong content type", http.MethodPost, "text/plain", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, -32600},
		{"wrong method", http.MethodPut, "application/json", `{}`, -32600},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, ts.URL+mcp.Path, strings.NewReader(tc.body))
			req.Header.Set("Content-Type", tc.ctype)
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Authorization", "Bearer "+key)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode < 400 {
				t.Fatalf("status %d, want an error status", resp.StatusCode)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("content type %q, want application/json (body %q)", ct, body)
			}
			var m struct {
				JSONRPC string `json:"jsonrpc"`
				Error   struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(body, &m); err != nil || m.JSONRPC != "2.0" || m.Error.Code != tc.code || m.Error.Message == "" {
				t.Errorf("body %q, want a JSON-RPC error object with code %d (%v)", body, tc.code, err)
			}
		})
	}
}

// TestUnauthorizedIsJSONRPC: the endpoint's own refusals (a missing or unknown key)
// are JSON-RPC error objects too, with the 401 status and the Bearer challenge.
func TestUnauthorizedIsJSONRPC(t *testing.T) {
	f := newFixture(t)
	ts := httpServer(t, f, false)
	for _, header := range []string{"", "Bearer fb_" + strings.Repeat("A", 43)} {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+mcp.Path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if header != "" {
			req.Header.Set("Authorization", header)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var m struct {
			JSONRPC string `json:"jsonrpc"`
			Error   struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(body, &m); err != nil || m.JSONRPC != "2.0" || m.Error.Code != -32001 || m.Error.Message == "" {
			t.Errorf("Authorization %q: body %s, want a JSON-RPC error with code -32001 (%v)", header, body, err)
		}
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") ||
			!strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("Authorization %q: status %d, headers %v", header, resp.StatusCode, resp.Header)
		}
	}
}
