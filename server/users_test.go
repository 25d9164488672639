package server

import (
	"net/http"
	"testing"

	"github.com/factbase/factbase"
)

func TestEraseUser(t *testing.T) {
	e := newTestEnv(t, nil)
	for _, u := range []struct{ user, key string }{{userA, e.keyA}, {userB, e.keyB}} {
		e.ok("POST", "/v1/users/"+u.user+"/facts", u.key, `{"key": "contact.email", "value": "x@example.com"}`, nil)
		e.ok("POST", "/v1/users/"+u.user+"/episodes", u.key, `{"content": "Release v2 is COMPLETE"}`, nil)
	}
	// A's key cannot erase B.
	if r := e.do("DELETE", "/v1/users/"+userB, e.keyA, ""); r.status != http.StatusForbidden {
		t.Errorf("A's key erasing B = %d %s, want 403", r.status, r.body)
	}
	if r := e.do("DELETE", "/v1/users/not-a-uuid", e.app, ""); r.status != http.StatusUnprocessableEntity {
		t.Errorf("erasing a bad id = %d %s, want 422", r.status, r.body)
	}
	// A erases itself with its own key; the key stops working at once.
	var res factbase.UserErasure
	e.ok("DELETE", "/v1/users/"+userA, e.keyA, "", &res)
	if res.User != userA || res.Removed["facts"] == 0 || res.Removed["episodes"] != 1 || res.Removed["api_keys"] != 1 {
		t.Errorf("erasure = %+v; want facts, one episode and A's key removed", res)
	}
	if r := e.do("GET", "/v1/users/"+userA+"/facts", e.keyA, ""); r.status != http.StatusUnauthorized {
		t.Errorf("the erased user's key afterwards = %d %s, want 401", r.status, r.body)
	}
	var facts struct {
		Facts []factbase.Fact `json:"facts"`
	}
	e.ok("GET", "/v1/users/"+userA+"/facts", e.app, "", &facts)
	if len(facts.Facts) != 0 {
		t.Errorf("A's facts after erasure: %+v", facts.Facts)
	}
	if r := e.do("DELETE", "/v1/users/"+userA, e.app, ""); r.status != http.StatusNotFound {
		t.Errorf("erasing A again = %d %s, want 404", r.status, r.body)
	}
	e.ok("GET", "/v1/users/"+userB+"/facts", e.keyB, "", &facts)
	if len(facts.Facts) == 0 {
		t.Error("B's facts are gone")
	}
}
