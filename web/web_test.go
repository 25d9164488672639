package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHandler(t *testing.T) {
	srv := httptest.NewServer(Handler(Options{NoAuth: true, Version: "test-1"}))
	defer srv.Close()
	cases := []struct {
		path, ctype, contains string
		status                int
	}{
		{"/", "text/html", `data-noauth="true"`, 200},
		{"/ui/app.js", "javascript", "function api(", 200},
		{"/ui/style.css", "text/css", "ol.ranked", 200},
		{"/ui/nope.js", "", "", 404},
	}
	for _, tc := range cases {
		r, err := http.Get(srv.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != tc.status || !strings.Contains(r.Header.Get("Content-Type"), tc.ctype) || !strings.Contains(string(b), tc.contains) {
			t.Errorf("GET %s: %d %q, body has %q: %v", tc.path, r.StatusCode, r.Header.Get("Content-Type"), tc.contains, strings.Contains(string(b), tc.contains))
		}
	}
	r, _ := http.Get(srv.URL + "/")
	if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("content security policy %q, want default-src 'self' and frame-ancestors 'none'", csp)
	}
	if xfo := r.Header.Get("X-Frame-Options"); xfo != "DENY" {
		t.Errorf("X-Frame-Options %q, want DENY: no other site may frame the page", xfo)
	}
	b, _ := io.ReadAll(r.Body)
	if !strings.Contains(string(b), "Factbase test-1") {
		t.Error("the version is not in the page")
	}
	// No external resources: every src and href is same-origin.
	for _, bad := range []string{"http://", "https://", "//cdn"} {
		if strings.Contains(string(b), `src="`+bad) || strings.Contains(string(b), `href="`+bad) {
			t.Errorf("page loads an external resource (%s)", bad)
		}
	}
}
