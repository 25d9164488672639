package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
)

// FuzzRequest sends arbitrary paths, query strings and bodies to every route of the
// OpenAPI document: bad input must never be a 5xx, and every error must be a
// problem+json body.
func FuzzRequest(f *testing.F) {
	f.Add(uint8(0), userA, "x", "", `{"text": "My favorite cryptos are BTC, ETH and XMR."}`)
	f.Add(uint8(2), userA, "x", "", `{"key": "contact.email", "value": "a@example.com", "rank": 3}`)
	f.Add(uint8(3), userA, "x", "as_of=2020-01-01T00:00:00Z&limit=-1&min_confidence=2", "")
	f.Add(uint8(9), userA, "favorites.x", "", `{"values": ["A", "", " ", "a."]}`)
	f.Add(uint8(10), userA, "favorites.x", "", `{"value": "A", "rank": 99999999999}`)
	f.Add(uint8(11), userA, "favorites.x", "subject=%00", "")
	f.Add(uint8(4), "alice", "\x00", "", "")
	f.Add(uint8(1), userA, "x", "", `{"text": "`+strings.Repeat("what is my ", 2000)+`"}`)
	f.Add(uint8(8), userA, "favorites.x", "offset=9223372036854775807", "")
	e := newTestEnv(f, func(o *Options) { o.NoAuth = true; o.Keys = nil })
	h := e.srv.Handler()
	routes := apiRoutes(e.srv)
	f.Fuzz(func(t *testing.T, route uint8, user, x, query, body string) {
		r := routes[int(route)%len(routes)]
		path := strings.ReplaceAll(r.path, "{user}", url.PathEscape(user))
		path = paramRE.ReplaceAllLiteralString(path, url.PathEscape(x))
		target := path
		if query != "" {
			target += "?" + query
		}
		u, err := url.Parse(target)
		if err != nil || u.Path != path {
			return // not a request a client could send
		}
		req := httptest.NewRequest(r.method, "http://127.0.0.1/", strings.NewReader(body))
		req.URL, req.RequestURI = u, u.RequestURI()
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 300 && rec.Code < 400 && rec.Header().Get("Location") != "" {
			return // ServeMux redirects an unclean path ("/a/./b") to its clean form
		}
		if rec.Code >= 500 {
			t.Fatalf("%s %s %q = %d %s", r.method, target, body, rec.Code, rec.Body)
		}
		ct := rec.Header().Get("Content-Type")
		if rec.Code >= 400 && ct != problemType {
			t.Fatalf("%s %s = %d with Content-Type %q, want %s", r.method, target, rec.Code, ct, problemType)
		}
		if rec.Code == http.StatusOK && ct == "application/x-ndjson" {
			// an export: JSON lines
			for i, line := range bytes.Split(bytes.TrimRight(rec.Body.Bytes(), "\n"), []byte("\n")) {
				if !json.Valid(line) {
					t.Fatalf("%s %s = 200 with line %d not JSON: %q", r.method, target, i+1, line)
				}
			}
			return
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s %s = %d with a body that is not JSON: %q", r.method, target, rec.Code, rec.Body)
		}
		if rec.Code == http.StatusOK && ct != "application/json" {
			t.Fatalf("%s %s = 200 with Content-Type %q", r.method, target, ct)
		}
	})
}

// route is one operation of the API.
type route struct{ method, path string }

// paramRE matches a path parameter of an OpenAPI path template.
var paramRE = regexp.MustCompile(`\{[^}]+\}`)

// apiRoutes lists every JSON operation of srv's OpenAPI document, in a fixed order.
func apiRoutes(srv *Server) []route {
	var out []route
	for path, item := range srv.API().OpenAPI().Paths {
		if path == "/metrics" || path == "/openapi.json" {
			continue // documented, but not huma's operations (documentPlainRoutes): no JSON API
		}
		for method, op := range map[string]*huma.Operation{"GET": item.Get, "POST": item.Post, "PUT": item.Put,
			"PATCH": item.Patch, "DELETE": item.Delete} {
			if op != nil {
				out = append(out, route{method, path})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path+out[i].method < out[j].path+out[j].method })
	return out
}

// TestFuzzRequestRoutes: the fuzzer reaches every route of the document.
func TestFuzzRequestRoutes(t *testing.T) {
	e := newTestEnv(t, nil)
	routes := apiRoutes(e.srv)
	seen := map[string]bool{}
	for _, r := range routes {
		seen[r.method+" "+r.path] = true
	}
	for _, want := range []string{"POST /v1/users/{user}/search", "POST /v1/users/{user}/query",
		"POST /v1/users/{user}/recall", "GET /v1/users/{user}/history/{key}", "POST /v1/users/{user}/transcripts"} {
		if !seen[want] {
			t.Errorf("the fuzzer's routes lack %s", want)
		}
	}
	if len(routes) < 40 {
		t.Errorf("%d routes, want every operation of the API", len(routes))
	}
}
