package server

import (
	"net/http"
	"strings"
	"testing"
)

// TestExportImportRoutes: GET export streams the user's data as JSON lines; POST
// import loads it into another user (ids renewed), once; another user's key is
// refused.
func TestExportImportRoutes(t *testing.T) {
	env := newTestEnv(t, nil)
	env.ok("POST", "/v1/users/"+userA+"/messages", env.keyA, `{"text":"My sister Maria lives in Porto and my email is ann@example.com."}`, nil)
	r := env.do("GET", "/v1/users/"+userA+"/export", env.keyA, "")
	if r.status != http.StatusOK || r.header.Get("Content-Type") != "application/x-ndjson" ||
		!strings.HasPrefix(string(r.body), `{"format":"factbase-export","version":1`) || !strings.Contains(string(r.body), `"kind":"end"`) {
		t.Fatalf("GET export = %d %q %.300s", r.status, r.header.Get("Content-Type"), r.body)
	}
	if r := env.do("GET", "/v1/users/"+userA+"/export", env.keyB, ""); r.status != http.StatusForbidden {
		t.Errorf("user B exporting A = %d, want 403", r.status)
	}
	var res importResult
	env.ok("POST", "/v1/users/"+userB+"/import", env.app, string(r.body), &res)
	if res.User != userB || res.Counts["facts"] == 0 || res.Counts["entities"] != 1 {
		t.Fatalf("import = %+v, want user B with the facts and the person", res)
	}
	var ans struct{ Reply string }
	env.ok("POST", "/v1/users/"+userB+"/questions", env.keyB, `{"text":"Where does my sister live?"}`, &ans)
	if !strings.Contains(ans.Reply, "Porto") {
		t.Errorf("user B's answer after the import = %q", ans.Reply)
	}
	if r := env.do("POST", "/v1/users/"+userB+"/import", env.app, string(r.body)); r.status != http.StatusConflict {
		t.Errorf("a second import = %d %s, want 409", r.status, r.body)
	}
	if r := env.do("POST", "/v1/users/"+userB+"/import", env.app, "not an export"); r.status != http.StatusUnprocessableEntity ||
		!strings.Contains(string(r.body), "line 1") {
		t.Errorf("a malformed import = %d %s, want 422 naming the line", r.status, r.body)
	}
}
