package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/factbase/factbase"
)

func TestFacts(t *testing.T) {
	e := newTestEnv(t, nil)
	base := "/v1/users/" + userA
	var res factbase.Result
	e.ok("POST", base+"/facts", e.keyA, `{"key": "contact.email", "value": "a@example.com", "category": "core", "confidence": 0.9}`, &res)
	if res.Stored != 1 || len(res.Facts) != 1 {
		t.Fatalf("set = %+v, want one stored fact", res)
	}
	if res.Facts[0].User != userA {
		t.Errorf("the stored fact names user %q, want %s", res.Facts[0].User, userA)
	}
	first := res.Facts[0]
	e.ok("POST", base+"/facts", e.keyA, `{"key": "contact.email", "value": "b@example.com", "category": "core", "confidence": 0.9}`, &res)
	if res.Stored != 1 || res.Updated != 1 {
		t.Fatalf("second set = %+v, want stored 1, updated 1", res)
	}
	second := res.Facts[0]
	e.ok("POST", base+"/facts", e.keyA, `{"key": "work.role", "value": "engineer", "confidence": 0.5}`, nil)

	var f factbase.Fact
	e.ok("GET", base+"/facts/"+first.ID, e.keyA, "", &f)
	if f.Value != "a@example.com" || f.Current || f.SupersededBy != second.ID {
		t.Errorf("GET first fact = %+v, want a@example.com superseded by %s", f, second.ID)
	}

	cases := []struct {
		name  string
		query string
		want  string
	}{
		{name: "all current", query: "", want: "b@example.com engineer"},
		{name: "by key", query: "?key=contact.email", want: "b@example.com"},
		{name: "by prefix", query: "?prefix=work.", want: "engineer"},
		{name: "by category", query: "?category=core", want: "b@example.com"},
		{name: "min confidence", query: "?min_confidence=0.8", want: "b@example.com"},
		{name: "history", query: "?key=contact.email&history=true", want: "a@example.com b@example.com"},
		{name: "newest first", query: "?history=true&newest_first=true&limit=1", want: "engineer"},
		{name: "as of before anything", query: "?as_of=2000-01-01T00:00:00Z", want: ""},
		{name: "subject", query: "?subject=entity:x", want: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var page struct {
				Facts []factbase.Fact `json:"facts"`
			}
			e.ok("GET", base+"/facts"+tc.query, e.keyA, "", &page)
			var vals []string
			for _, f := range page.Facts {
				vals = append(vals, f.Value)
			}
			if got := strings.Join(vals, " "); got != tc.want {
				t.Errorf("GET facts%s = %q, want %q", tc.query, got, tc.want)
			}
		})
	}

	var h struct {
		Key      string          `json:"key"`
		Versions []factbase.Fact `json:"versions"`
	}
	e.ok("GET", base+"/history/contact.email", e.keyA, "", &h)
	if len(h.Versions) != 2 || h.Versions[0].Value != "b@example.com" || h.Versions[1].Value != "a@example.com" {
		t.Errorf("history = %+v, want b then a", h.Versions)
	}

	e.ok("POST", base+"/facts/"+second.ID+"/retract", e.keyA, "", &res)
	if res.Retracted != 1 {
		t.Errorf("retract = %+v, want one retracted", res)
	}
	if r := e.do("POST", base+"/facts/"+second.ID+"/retract", e.keyA, ""); r.status != http.StatusConflict {
		t.Errorf("retracting twice = %d %s, want 409", r.status, r.body)
	} else {
		r.problem(t)
	}
	e.ok("DELETE", base+"/facts/"+first.ID, e.keyA, "", &res)
	if res.Deleted != 1 {
		t.Errorf("delete = %+v, want one deleted", res)
	}
	if r := e.do("GET", base+"/facts/"+first.ID, e.keyA, ""); r.status != http.StatusNotFound {
		t.Errorf("GET a deleted fact = %d, want 404", r.status)
	}
}

// TestHistoryPages: a key's history is read in pages of at most 1,000 versions.
func TestHistoryPages(t *testing.T) {
	e := newTestEnv(t, nil)
	var ops []factbase.Op
	for i := range 250 {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "status", Value: fmt.Sprintf("v%03d", i)}})
	}
	if _, err := e.srv.opts.Engine.Apply(t.Context(), userA, ops); err != nil {
		t.Fatal(err)
	}
	base := "/v1/users/" + userA + "/history/status"
	var h history
	e.ok("GET", base, e.keyA, "", &h)
	if len(h.Versions) != 100 || !h.More || h.Limit != 100 || h.Versions[0].Value != "v249" || !h.Versions[0].Current {
		t.Errorf("first page: %d versions, more %v, limit %d, newest %q", len(h.Versions), h.More, h.Limit, h.Versions[0].Value)
	}
	e.ok("GET", base+"?offset=200&limit=100", e.keyA, "", &h)
	if len(h.Versions) != 50 || h.More || h.Versions[49].Value != "v000" {
		t.Errorf("last page: %d versions, more %v", len(h.Versions), h.More)
	}
	for _, q := range []string{"?limit=1001", "?offset=-1", "?limit=-5"} {
		if r := e.do("GET", base+q, e.keyA, ""); r.status != http.StatusUnprocessableEntity {
			t.Errorf("GET history%s = %d, want 422", q, r.status)
		}
	}
}
