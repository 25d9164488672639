package server

import (
	"net/http"
	"strings"
	"testing"
)

// TestDuplicateJSONKeys: a body that names a field twice is refused with 400 naming
// it, wherever it is; nothing is written.
func TestDuplicateJSONKeys(t *testing.T) {
	e := newTestEnv(t, nil)
	base := "/v1/users/" + userA
	tests := []struct {
		path, body, at string
	}{
		{"/facts", `{"key": "contact.email", "value": "a@example.com", "value": "b@example.com"}`, "body.value"},
		{"/lists/favorites.tea", `{"values": ["Sencha"], "values": ["Oolong"]}`, "body.values"},
		{"/episodes", `{"content": "x", "metadata": {"k": "1", "k": "2"}}`, "body.metadata.k"},
		{"/lists/favorites.tea", `{"value": "Matcha", "VALUE": "x", "value": "y"}`, "body.value"},
	}
	for _, tc := range tests {
		r := e.do("POST", base+tc.path, e.keyA, tc.body)
		if r.status != http.StatusBadRequest {
			t.Errorf("POST %s %s = %d %s, want 400", tc.path, tc.body, r.status, r.body)
			continue
		}
		if p := r.problem(t); !strings.Contains(p.Detail, "duplicate key "+tc.at) {
			t.Errorf("POST %s: detail %q, want it to name %s", tc.path, p.Detail, tc.at)
		}
	}
	if got := e.listValues(userA, "favorites.tea"); got != "" {
		t.Errorf("list after refused writes = %q, want empty", got)
	}
	// The same keys in different objects, and arrays of objects, are fine.
	e.ok("POST", base+"/episodes", e.keyA, `{"content": "notes", "metadata": {"value": "1"}, "tags": ["a", "b"]}`, nil)
}

func TestDuplicateKeyWalk(t *testing.T) {
	tests := []struct {
		in, at string
		dup    bool
	}{
		{`{"a": 1, "b": {"a": 2}}`, "", false},
		{`{"a": [{"x": 1}, {"x": 2, "x": 3}]}`, "body.a[1].x", true},
		{`[{"k": 1}, {"k": 1}]`, "", false},
		{`{"a": 1, "a": 2}`, "body.a", true},
		{`{"a": `, "", false},
		{strings.Repeat("[", 200) + strings.Repeat("]", 200), "", false},
		{`"just a string"`, "", false},
	}
	for _, tc := range tests {
		at, dup := duplicateKey([]byte(tc.in))
		if at != tc.at || dup != tc.dup {
			t.Errorf("duplicateKey(%.40q) = %q %v, want %q %v", tc.in, at, dup, tc.at, tc.dup)
		}
	}
}

// TestProblemEchoBounded: a refused body is quoted only in a short excerpt.
func TestProblemEchoBounded(t *testing.T) {
	e := newTestEnv(t, nil)
	big := strings.Repeat("x", 200_000)
	for _, body := range []string{
		`{"key": "contact.email", "value": ["` + big + `"]}`,
		`{"key": "contact.email", "value": {"a": "` + big + `"}}`,
		`{"key": "` + big + `", "value": "v"}`,
	} {
		r := e.do("POST", "/v1/users/"+userA+"/facts", e.keyA, body)
		if r.status < 400 || r.status >= 500 {
			t.Errorf("oversized field = %d, want a 4xx", r.status)
		}
		if len(r.body) > 4096 {
			t.Errorf("a %d-byte body got a %d-byte error response", len(body), len(r.body))
		}
	}
}

// TestHeadersTooLarge: a request line or headers over the limit get a problem+json
// 431, not Go's text/plain one.
func TestHeadersTooLarge(t *testing.T) {
	e := newTestEnv(t, nil)
	r := e.do("GET", "/v1/users/"+userA+"/facts?key="+strings.Repeat("k", 100_000), e.keyA, "")
	if r.status != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("a 100 KB query string = %d, want 431", r.status)
	}
	if p := r.problem(t); !strings.Contains(p.Detail, "more than the limit") {
		t.Errorf("detail %q", p.Detail)
	}
	r = e.do("GET", "/v1/users/"+userA+"/facts", e.keyA, "", "X-Padding", strings.Repeat("p", 70_000))
	if r.status != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("a 70 KB header = %d, want 431", r.status)
	}
	r.problem(t)
}
