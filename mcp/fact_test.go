package mcp_test

import (
	"strings"
	"testing"

	"github.com/factbase/factbase/mcp"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestGetAndEraseFact: get_fact reads a fact by id; erase_fact without confirm
// erases nothing and says what it would erase; with confirm it erases the fact.
func TestGetAndEraseFact(t *testing.T) {
	eachTransport(t, func(t *testing.T, f *fixture, cs *mcpsdk.ClientSession) {
		var w mcp.WriteOutput
		call(t, cs, "set_fact", map[string]any{"key": "favorites.movie", "value": "Alien"}, &w)
		call(t, cs, "set_fact", map[string]any{"key": "favorites.movie", "value": "Heat"}, &w)
		if len(w.Facts) != 1 {
			t.Fatalf("set_fact wrote %+v", w)
		}
		heat := w.Facts[0]

		var got mcp.GetFactOutput
		call(t, cs, "get_fact", map[string]any{"id": heat.ID}, &got)
		if got.Fact.ID != heat.ID || got.Fact.Value != "Heat" || got.Fact.Rank != 2 || !got.Fact.Current {
			t.Errorf("get_fact = %+v, want Heat at #2", got.Fact)
		}

		msg := callError(t, cs, "erase_fact", map[string]any{"id": heat.ID})
		for _, want := range []string{"not erased", heat.ID, "favorites.movie", `"Heat"`, "#2", "cannot be undone", "confirm: true"} {
			if !strings.Contains(msg, want) {
				t.Errorf("erase_fact without confirm: %q, want it to say %q", msg, want)
			}
		}
		call(t, cs, "get_fact", map[string]any{"id": heat.ID}, &got) // still there

		var er mcp.EraseFactOutput
		call(t, cs, "erase_fact", map[string]any{"id": heat.ID, "confirm": true, "reason": "the user asked"}, &er)
		if er.Counts.Deleted < 1 || er.Erased.ID != heat.ID || !strings.Contains(er.Summary, "Erased") {
			t.Errorf("erase_fact = %+v, want the fact erased", er)
		}
		if msg := callError(t, cs, "get_fact", map[string]any{"id": heat.ID}); !strings.Contains(msg, "not found") {
			t.Errorf("get_fact after erase_fact: %q, want not found", msg)
		}
		var lf mcp.ListFactsOutput
		call(t, cs, "list_facts", map[string]any{"key": "favorites.movie"}, &lf)
		if len(lf.Facts) != 1 || lf.Facts[0].Value != "Alien" {
			t.Errorf("the list after erasing Heat = %+v, want Alien alone", lf.Facts)
		}

		errs := []struct {
			args map[string]any
			tool string
			want string
		}{
			{map[string]any{"id": " "}, "get_fact", "id is empty"},
			{map[string]any{"id": "nope"}, "get_fact", `fact "nope" not found`},
			{map[string]any{}, "erase_fact", "id is required"},
			{map[string]any{"id": "nope", "confirm": true}, "erase_fact", `fact "nope" not found`},
			{map[string]any{"id": heat.ID, "confirm": "yes"}, "erase_fact", "confirm must be true or false"},
		}
		for _, tc := range errs {
			if msg := callError(t, cs, tc.tool, tc.args); !strings.Contains(msg, tc.want) {
				t.Errorf("%s(%v) = %q, want it to contain %q", tc.tool, tc.args, msg, tc.want)
			}
		}
	})
}

// TestSetFactRank: a rank of 0 or below is refused and writes nothing; no rank
// appends; rank 1 places first.
func TestSetFactRank(t *testing.T) {
	eachTransport(t, func(t *testing.T, f *fixture, cs *mcpsdk.ClientSession) {
		var w mcp.WriteOutput
		call(t, cs, "set_fact", map[string]any{"key": "favorites.movie", "value": "Alien"}, &w)
		for _, rank := range []any{0, -1} {
			msg := callError(t, cs, "set_fact", map[string]any{"key": "favorites.movie", "value": "Heat", "rank": rank})
			if !strings.Contains(msg, "rank must be at least 1") {
				t.Errorf("set_fact rank %v: %q, want a message saying rank must be at least 1", rank, msg)
			}
		}
		var lf mcp.ListFactsOutput
		call(t, cs, "list_facts", map[string]any{"key": "favorites.movie"}, &lf)
		if len(lf.Facts) != 1 {
			t.Errorf("after the refused ranks the list is %+v, want Alien alone", lf.Facts)
		}
		call(t, cs, "set_fact", map[string]any{"key": "favorites.movie", "value": "Heat", "rank": 1}, &w)
		call(t, cs, "set_fact", map[string]any{"key": "favorites.movie", "value": "Ran"}, &w)
		call(t, cs, "list_facts", map[string]any{"key": "favorites.movie"}, &lf)
		var got []string
		for _, f := range lf.Facts {
			got = append(got, f.Value)
		}
		if strings.Join(got, ",") != "Heat,Alien,Ran" {
			t.Errorf("list = %v, want Heat,Alien,Ran", got)
		}
	})
}
