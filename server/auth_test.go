package server

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/chat"
)

func TestIsolation(t *testing.T) {
	e := newTestEnv(t, nil)
	e.ok("POST", "/v1/users/"+userA+"/facts", e.keyA, `{"key": "contact.email", "value": "a@example.com"}`, nil)
	var res factbase.Result
	e.ok("POST", "/v1/users/"+userB+"/facts", e.keyB, `{"key": "contact.email", "value": "b@example.com"}`, &res)
	bFact := res.Facts[0].ID

	// A's key on B's paths: every route refuses, reads and writes alike.
	for _, tc := range []struct{ method, path, body string }{
		{"GET", "/facts", ""},
		{"GET", "/facts/" + bFact, ""},
		{"GET", "/history/contact.email", ""},
		{"POST", "/facts", `{"key": "contact.email", "value": "evil@example.com"}`},
		{"DELETE", "/facts/" + bFact, ""},
		{"POST", "/facts/" + bFact + "/retract", ""},
		{"POST", "/messages", `{"text": "My email is evil@example.com"}`},
		{"POST", "/questions", `{"text": "What is my email?"}`},
		{"GET", "/lists/favorites.crypto", ""},
	} {
		r := e.do(tc.method, "/v1/users/"+userB+tc.path, e.keyA, tc.body)
		if r.status != http.StatusForbidden {
			t.Errorf("A's key: %s B%s = %d %s, want 403", tc.method, tc.path, r.status, r.body)
		}
	}
	// A user's fact id is unknown under another user, even with an application key.
	if r := e.do("GET", "/v1/users/"+userA+"/facts/"+bFact, e.app, ""); r.status != http.StatusNotFound {
		t.Errorf("B's fact under A = %d %s, want 404", r.status, r.body)
	}
	if r := e.do("DELETE", "/v1/users/"+userA+"/facts/"+bFact, e.keyA, ""); r.status != http.StatusNotFound {
		t.Errorf("deleting B's fact under A = %d %s, want 404", r.status, r.body)
	}
	var f factbase.Fact
	e.ok("GET", "/v1/users/"+userB+"/facts/"+bFact, e.keyB, "", &f)
	if f.Value != "b@example.com" || !f.Current {
		t.Errorf("B's fact after A's attempts = %+v, want b@example.com, current", f)
	}
	var ask chat.AskResult
	e.ok("POST", "/v1/users/"+userA+"/questions", e.keyA, `{"text": "What is my email?"}`, &ask)
	if len(ask.Items) != 1 || ask.Items[0].Value != "a@example.com" {
		t.Errorf("A's email = %+v, want a@example.com", ask.Items)
	}
}

func TestNoAuth(t *testing.T) {
	e := newTestEnv(t, func(o *Options) { o.NoAuth = true; o.Keys = nil })
	e.ok("POST", "/v1/users/"+userA+"/lists/favorites.crypto", "", `{"value": "BTC"}`, nil)
	if got := e.listValues(userA, "favorites.crypto"); got != "1:BTC" {
		t.Errorf("list = %q, want 1:BTC", got)
	}
}

func TestRevokedKeyWithoutCache(t *testing.T) {
	e := newTestEnv(t, func(o *Options) { o.KeyCacheTTL = -1 })
	path := "/v1/users/" + userA + "/lists/favorites.crypto"
	e.ok("GET", path, e.keyA, "", nil)
	if _, err := e.store.RevokeKey(context.Background(), e.keyAID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if r := e.do("GET", path, e.keyA, ""); r.status != http.StatusUnauthorized {
		t.Errorf("a revoked key = %d, want 401", r.status)
	}
}
