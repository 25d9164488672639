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
	}{
		{"not JSON", http.MethodPost, "application/json", "{this is not json"},
		{"wrong content type", http.MethodPost, "text/plain", `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
		{"wrong method", http.MethodPut, "application/json", `{}`},
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
			if err := json.Unmarshal(body, &m); err != nil || m.JSONRPC != "2.0" || m.Error.Code == 0 || m.Error.Message == "" {
				t.Errorf("body %q, want a JSON-RPC error object (%v)", body, err)
			}
		})
	}
}
