package server

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRequestIDsAndLogs(t *testing.T) {
	e := newTestEnv(t, nil)
	r := e.do("GET", "/v1/users/"+userA+"/lists/favorites.crypto", e.keyA, "", "X-Request-Id", "trace-42")
	if got := r.header.Get("X-Request-Id"); got != "trace-42" {
		t.Errorf("X-Request-Id = %q, want the client's trace-42", got)
	}
	r = e.do("GET", "/v1/users/"+userA+"/lists/favorites.crypto", e.keyA, "", "X-Request-Id", "bad id with spaces")
	generated := r.header.Get("X-Request-Id")
	if generated == "" || strings.Contains(generated, " ") {
		t.Errorf("X-Request-Id = %q, want a generated id instead of the malformed one", generated)
	}
	r = e.do("GET", "/nope", "", "")
	if r.header.Get("X-Request-Id") == "" {
		t.Errorf("a 404 carries no X-Request-Id")
	}
	// Every line logged while serving a request names it; the access line has the
	// route, status and key.
	var sawTrace bool
	for _, line := range strings.Split(strings.TrimSpace(e.logs.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q is not JSON: %v", line, err)
		}
		if rec["msg"] != "request" {
			continue
		}
		if rec["request_id"] == nil || rec["request_id"] == "" {
			t.Errorf("log line without request_id: %s", line)
		}
		if rec["request_id"] == "trace-42" {
			sawTrace = true
			if rec["route"] != "/v1/users/{user}/lists/{key}" || rec["status"] != float64(200) || rec["key"] != e.keyAID || rec["user"] != userA {
				t.Errorf("access line %s lacks route, status, key or user", line)
			}
		}
	}
	if !sawTrace {
		t.Errorf("no access line for request trace-42 in %s", e.logs.String())
	}
}
