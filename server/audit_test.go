package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/factbase/factbase"
)

// TestAuditRoute: an erasure through the API is recorded with the key that did it,
// without content; the trail is readable with an application key only.
func TestAuditRoute(t *testing.T) {
	env := newTestEnv(t, nil)
	env.ok("POST", "/v1/users/"+userA+"/messages", env.keyA, `{"text":"My email is auditroute@example.com."}`, nil)
	if r := env.do("DELETE", "/v1/users/"+userA, env.app, ""); r.status != http.StatusOK {
		t.Fatalf("DELETE user = %d %s", r.status, r.body)
	}
	var list struct {
		Entries []factbase.AuditEntry `json:"entries"`
	}
	env.ok("GET", "/v1/audit?user="+userA, env.app, "", &list)
	if len(list.Entries) != 1 || list.Entries[0].Action != factbase.AuditUserErase || !strings.HasPrefix(list.Entries[0].Actor, "key:") ||
		list.Entries[0].Counts["facts"] == 0 {
		t.Fatalf("audit of user A = %+v, want the erasure by the application key with counts", list.Entries)
	}
	if r := env.do("GET", "/v1/audit", env.app, ""); strings.Contains(string(r.body), "auditroute") {
		t.Errorf("the audit trail holds erased text: %s", r.body)
	}
	if r := env.do("GET", "/v1/audit", env.keyB, ""); r.status != http.StatusForbidden {
		t.Errorf("a user key reading the audit trail = %d, want 403", r.status)
	}
	if r := env.do("GET", "/v1/audit?limit=5000", env.app, ""); r.status != http.StatusUnprocessableEntity {
		t.Errorf("limit 5000 = %d, want 422", r.status)
	}
}
