package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/memory/people"
)

// TestPeople drives the people operations over HTTP: messages create entities,
// recall finds Martin's diet and nothing about Leo, a changed employer waits as a
// conflict that confirm applies, and entities can be renamed, merged and deleted.
func TestPeople(t *testing.T) {
	e := newTestEnv(t, nil)
	base := "/v1/users/" + userA
	e.ok("POST", base+"/messages", e.keyA, `{"text": "My son Leo is 8 and loves dinosaurs. My colleague Martin is vegetarian."}`, nil)
	var rec chat.Recollection
	e.ok("POST", base+"/recall", e.keyA, `{"query": "What does Martin eat?"}`, &rec)
	if len(rec.Hits) == 0 || rec.Hits[0].About != "Martin" || rec.Hits[0].Value != "vegetarian" || len(rec.FactsByEntity) == 0 ||
		!strings.Contains(rec.Prompt, "vegetarian") {
		t.Fatalf("recall = %+v", rec)
	}
	for _, h := range rec.Hits {
		if h.About == "Leo" {
			t.Errorf("recall found a fact about Leo: %+v", h)
		}
	}
	var list struct {
		Entities []factbase.Entity `json:"entities"`
	}
	e.ok("GET", base+"/entities", e.keyA, "", &list)
	if len(list.Entities) != 2 {
		t.Fatalf("entities = %+v", list)
	}
	var view people.EntityView
	e.ok("GET", base+"/entities/Martin", e.keyA, "", &view)
	if view.Relation != "colleague" || len(view.Facts) != 2 {
		t.Errorf("GET entities/Martin = %+v", view)
	}

	e.ok("POST", base+"/messages", e.keyA, `{"text": "Martin works at Acme."}`, nil)
	e.ok("POST", base+"/messages", e.keyA, `{"text": "Martin works at Initech."}`, nil)
	var cs struct {
		Conflicts []factbase.Conflict `json:"conflicts"`
	}
	e.ok("GET", base+"/conflicts", e.keyA, "", &cs)
	if len(cs.Conflicts) != 1 || cs.Conflicts[0].CurrentValue != "Acme" || cs.Conflicts[0].Proposed.Value != "Initech" {
		t.Fatalf("conflicts = %+v", cs)
	}
	var conf people.ConflictResult
	e.ok("POST", base+"/conflicts/"+cs.Conflicts[0].ID+"/confirm", e.keyA, "", &conf)
	if conf.Conflict.Status != factbase.ConflictConfirmed || conf.Result.Updated != 1 {
		t.Errorf("confirm = %+v", conf)
	}
	if r := e.do("POST", base+"/conflicts/"+cs.Conflicts[0].ID+"/reject", e.keyA, ""); r.status != http.StatusConflict {
		t.Errorf("rejecting a confirmed conflict = %d %s, want 409", r.status, r.body)
	}
	e.ok("GET", base+"/conflicts?status=all", e.keyA, "", &cs)
	if len(cs.Conflicts) != 1 {
		t.Errorf("all conflicts = %+v", cs)
	}

	var created people.EntityResult
	e.ok("POST", base+"/entities", e.keyA, `{"name": "Marty", "role": "colleague"}`, &created)
	var merged people.EntityResult
	e.ok("POST", base+"/entities/Martin/merge", e.keyA, `{"from": "`+created.Entity.ID+`"}`, &merged)
	if len(merged.Entity.Aliases) != 1 || merged.Entity.Aliases[0] != "Marty" {
		t.Errorf("merge = %+v", merged)
	}
	var ren factbase.Entity
	e.ok("POST", base+"/entities/Marty/rename", e.keyA, `{"name": "Martin Ruiz"}`, &ren)
	if ren.Name != "Martin Ruiz" {
		t.Errorf("rename = %+v", ren)
	}
	var del people.EntityResult
	e.ok("DELETE", base+"/entities/"+ren.ID, e.keyA, "", &del)
	if del.Result.Deleted == 0 {
		t.Errorf("delete = %+v", del)
	}
	if r := e.do("GET", base+"/entities/"+ren.ID, e.keyA, ""); r.status != http.StatusNotFound {
		t.Errorf("GET a deleted entity = %d", r.status)
	}
	// another user's key sees nothing of it
	if r := e.do("GET", base+"/entities", e.keyB, ""); r.status != http.StatusForbidden {
		t.Errorf("user B listing A's entities = %d, want 403", r.status)
	}
	if r := e.do("POST", base+"/recall", e.keyA, `{"query": ""}`); r.status != http.StatusUnprocessableEntity {
		t.Errorf("empty recall query = %d, want 422", r.status)
	}
}
