package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestNoAuthGuard: without keys, a page the person visits can neither reach the API
// through a rebound name nor change data with a cross-site form or fetch.
func TestNoAuthGuard(t *testing.T) {
	e := newTestEnv(t, func(o *Options) { o.NoAuth = true; o.Keys = nil })
	list := "/v1/users/" + userA + "/lists/favorites.crypto"
	send := func(method, host, origin, ctype, body string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(method, e.url+list, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		res, err := e.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res
	}
	tests := []struct {
		name                       string
		method, host, origin, ctyp string
		body                       string
		status                     int
	}{
		{"rebound name", "GET", "attacker.example", "", "", "", http.StatusForbidden},
		{"rebound name with port", "GET", "attacker.example:7411", "", "", "", http.StatusForbidden},
		{"localhost", "GET", "localhost:7411", "", "", "", http.StatusOK},
		{"another loopback address", "GET", "127.0.0.2:7411", "", "", "", http.StatusOK},
		{"IPv6 loopback", "GET", "[::1]:7411", "", "", "", http.StatusOK},
		{"cross-site form", "POST", "", "http://attacker.example", "application/x-www-form-urlencoded", `{"value":"EVIL1"}`, http.StatusForbidden},
		{"form without origin", "POST", "", "", "application/x-www-form-urlencoded", `{"value":"EVIL2"}`, http.StatusUnsupportedMediaType},
		{"text/plain", "POST", "", "", "text/plain", `{"value":"EVIL3"}`, http.StatusUnsupportedMediaType},
		{"multipart", "POST", "", "", "multipart/form-data; boundary=x", `{"value":"EVIL4"}`, http.StatusUnsupportedMediaType},
		{"cross-site JSON", "POST", "", "https://attacker.example", "application/json", `{"value":"EVIL5"}`, http.StatusForbidden},
		{"opaque origin", "POST", "", "null", "application/json", `{"value":"EVIL6"}`, http.StatusForbidden},
		{"same origin JSON", "POST", "", "SELF", "application/json", `{"value":"BTC"}`, http.StatusOK},
		{"JSON without origin (curl, programs)", "POST", "", "", "application/json", `{"value":"ETH"}`, http.StatusOK},
		{"cross-site delete", "DELETE", "", "http://attacker.example", "", "", http.StatusForbidden},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			origin := tc.origin
			if origin == "SELF" {
				origin = e.url
			}
			res := send(tc.method, tc.host, origin, tc.ctyp, tc.body)
			if res.StatusCode != tc.status {
				t.Errorf("%s = %d, want %d", tc.name, res.StatusCode, tc.status)
			}
			if tc.status >= 400 && res.Header.Get("Content-Type") != problemType {
				t.Errorf("%s: content type %q, want %s", tc.name, res.Header.Get("Content-Type"), problemType)
			}
		})
	}
	if got := e.listValues(userA, "favorites.crypto"); got != "1:BTC 2:ETH" {
		t.Errorf("list = %q, want only the two same-origin and programmatic writes", got)
	}
}

// TestKeysAcceptFormType: with keys, a body sent as curl's default form type is
// still read as JSON (a cross-site page cannot send the key).
func TestKeysAcceptFormType(t *testing.T) {
	e := newTestEnv(t, nil)
	r := e.do("POST", "/v1/users/"+userA+"/lists/favorites.crypto", e.keyA, `{"value": "BTC"}`,
		"Content-Type", "application/x-www-form-urlencoded")
	if r.status != http.StatusOK {
		t.Fatalf("form-typed JSON with a key = %d %s, want 200", r.status, r.body)
	}
}
