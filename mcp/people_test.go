package mcp_test

import (
	"strings"
	"testing"

	"github.com/factbase/factbase/mcp"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPeople: the people tools over each transport — remember about a person, list
// people, recall grouped by person, and a change that waits for confirmation.
func TestPeople(t *testing.T) {
	eachTransport(t, func(t *testing.T, f *fixture, cs *mcpsdk.ClientSession) {
		var rem mcp.RememberOutput
		for _, msg := range []string{"My wife Anna is allergic to peanuts", "Anna lives in Paris", "Anna works at Initech"} {
			call(t, cs, "remember", map[string]any{"text": msg}, &rem)
			if rem.Counts.Stored == 0 {
				t.Fatalf("remember %q stored nothing: %+v", msg, rem)
			}
		}

		var people mcp.ListPeopleOutput
		call(t, cs, "list_people", map[string]any{"with_facts": true}, &people)
		if len(people.People) != 1 || people.People[0].Name != "Anna" || people.People[0].Relation != "wife" ||
			people.People[0].Role != "partner" {
			t.Fatalf("list_people = %+v, want Anna, the wife", people.People)
		}
		anna := people.People[0]
		if !hasValue(anna.Facts, "Paris") || !hasValue(anna.Facts, "Initech") {
			t.Errorf("Anna's facts = %+v, want Paris and Initech", anna.Facts)
		}

		var rec mcp.RecallOutput
		call(t, cs, "recall", map[string]any{"query": "What does my wife eat?"}, &rec)
		if len(rec.People) == 0 || rec.People[0].About != "Anna" || rec.People[0].EntityID != anna.ID {
			t.Fatalf("recall grouped = %+v, want Anna first", rec.People)
		}
		if !strings.Contains(rec.Prompt, "peanuts") || !recalled(rec, "peanuts") || rec.Count == 0 {
			t.Errorf("recall = %+v, want the peanut allergy in the facts and the prompt", rec)
		}

		// Changes of a home city and an employer wait for the user.
		call(t, cs, "remember", map[string]any{"text": "Anna lives in Berlin"}, &rem)
		call(t, cs, "remember", map[string]any{"text": "Anna works at Hooli"}, &rem)
		var cl mcp.ListConflictsOutput
		call(t, cs, "list_conflicts", map[string]any{}, &cl)
		if len(cl.Conflicts) != 2 {
			t.Fatalf("list_conflicts = %+v, want two pending", cl.Conflicts)
		}
		city, job := cl.Conflicts[0], cl.Conflicts[1]
		if city.About != "Anna" || city.CurrentValue != "Paris" || city.ProposedValue != "Berlin" || city.Status != "pending" {
			t.Errorf("first conflict = %+v, want Anna's Paris -> Berlin, pending", city)
		}
		var rc mcp.ResolveConflictOutput
		call(t, cs, "resolve_conflict", map[string]any{"id": city.ID, "decision": "confirm"}, &rc)
		if rc.Conflict.Status != "confirmed" || rc.Counts.Stored != 1 || !strings.Contains(rc.Summary, "Berlin") {
			t.Errorf("confirm = %+v, want confirmed with the new value stored", rc)
		}
		call(t, cs, "resolve_conflict", map[string]any{"id": job.ID, "decision": "reject"}, &rc)
		if rc.Conflict.Status != "rejected" || rc.Counts.Stored != 0 {
			t.Errorf("reject = %+v, want rejected, nothing written", rc)
		}
		call(t, cs, "list_people", map[string]any{"with_facts": true}, &people)
		if f := people.People[0].Facts; !hasValue(f, "Berlin") || hasValue(f, "Paris") || !hasValue(f, "Initech") || hasValue(f, "Hooli") {
			t.Errorf("after confirm and reject, Anna's facts = %+v, want Berlin and Initech", f)
		}
		call(t, cs, "list_conflicts", map[string]any{}, &cl)
		if len(cl.Conflicts) != 0 {
			t.Errorf("pending after resolving = %+v, want none", cl.Conflicts)
		}
		call(t, cs, "list_conflicts", map[string]any{"status": "all"}, &cl)
		if len(cl.Conflicts) != 2 || cl.Conflicts[0].ResolvedAt == "" {
			t.Errorf("all conflicts = %+v, want both, resolved", cl.Conflicts)
		}

		errs := []struct {
			tool string
			args map[string]any
			want string
		}{
			{"resolve_conflict", map[string]any{"id": city.ID, "decision": "confirm"}, "already confirmed"},
			{"resolve_conflict", map[string]any{"id": city.ID, "decision": "maybe"}, `decision "maybe" is not one of confirm, reject`},
			{"resolve_conflict", map[string]any{"id": "nope", "decision": "reject"}, "not found"},
			{"resolve_conflict", map[string]any{"id": " ", "decision": "reject"}, "id is empty"},
			{"resolve_conflict", map[string]any{"id": city.ID}, "decision is required"},
			{"list_conflicts", map[string]any{"status": "open"}, `status "open" is not one of pending, confirmed, rejected, all`},
			{"recall", map[string]any{"query": " "}, "query is empty"},
			{"recall", map[string]any{"query": "x", "limit": 500}, "limit must be at most 100, got 500"},
			{"list_people", map[string]any{"limit": 1001}, "limit must be at most 1000, got 1001"},
			{"list_conflicts", map[string]any{"limit": 1001}, "limit must be at most 1000, got 1001"},
			{"list_conflicts", map[string]any{"offset": -1}, "offset must be at least 0, got -1"},
		}
		for _, tc := range errs {
			if got := callError(t, cs, tc.tool, tc.args); !strings.Contains(got, tc.want) {
				t.Errorf("%s(%v) error = %q, want it to contain %q", tc.tool, tc.args, got, tc.want)
			}
		}
	})
}

func hasValue(facts []mcp.Fact, v string) bool {
	for _, f := range facts {
		if f.Value == v && f.Current {
			return true
		}
	}
	return false
}

func recalled(r mcp.RecallOutput, v string) bool {
	for _, p := range r.People {
		for _, f := range p.Facts {
			if strings.Contains(f.Value, v) || strings.Contains(f.Text, v) {
				return true
			}
		}
	}
	return false
}
