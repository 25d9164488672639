package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
)

func TestFactSheetRoutes(t *testing.T) {
	env := newTestEnv(t, nil)
	base := "/v1/users/" + userA + "/fact-sheet"

	// None saved yet: 404 (the web page shows its empty state).
	r := env.do("GET", base, env.keyA, "")
	if r.status != http.StatusNotFound {
		t.Fatalf("GET before any sheet = %d %s, want 404", r.status, r.body)
	}
	if p := r.problem(t); !strings.Contains(p.Detail, "no fact sheet") {
		t.Errorf("404 detail = %q", p.Detail)
	}

	for _, body := range []string{
		`{"key": "contact.email", "value": "a@example.com", "category": "core", "text": "Email is a@example.com"}`,
		`{"key": "project.name", "value": "Atlas", "category": "project"}`,
		`{"key": "mood", "value": "tired", "sensitivity": "high"}`,
	} {
		env.ok("POST", "/v1/users/"+userA+"/facts", env.keyA, body, nil)
	}
	var gen factbase.FactSheet
	env.ok("POST", base, env.keyA, "", &gen)
	if gen.Count != 3 || len(gen.Entries) != 3 || gen.ID == "" || gen.CreatedAt.IsZero() || gen.User != userA {
		t.Fatalf("POST fact-sheet = %+v, want 3 entries with id, user and time", gen)
	}
	if en := gen.Entries[0]; en.Category != factbase.Core || en.Text != "Email is a@example.com" || en.Score != 100 ||
		en.Explain.Weight != 10 || en.Explain.ReferenceScore != 10 || len(en.Explain.Buckets) != 1 || en.Explain.Included != "minimum" {
		t.Errorf("first entry = %+v, want the core email scoring 10 × 10, explained", en)
	}
	var got factbase.FactSheet
	env.ok("GET", base, env.keyA, "", &got)
	if got.ID != gen.ID || got.Count != 3 {
		t.Errorf("GET = %s (%d entries), want the sheet just generated %s", got.ID, got.Count, gen.ID)
	}

	var p core.SheetPrompt
	env.ok("GET", base+"/prompt", env.keyA, "", &p)
	want := "# Fact sheet\n## core\n- Email is a@example.com\n## project\n- project.name: Atlas\n## transient\n- mood: tired\n"
	if p.Text != want || p.SheetID != gen.ID || p.Dropped != 0 || p.Tokens != (len(want)+3)/4 {
		t.Errorf("prompt = %+v, want %q", p, want)
	}
	env.ok("GET", base+"/prompt?max_chars=60", env.keyA, "", &p)
	if p.Dropped == 0 || len(p.Text) > 60 || !strings.Contains(p.Text, "a@example.com") {
		t.Errorf("prompt within 60 characters = %+v, want the lowest entries dropped", p)
	}

	// Another user's key is refused; a bad budget or user id is named.
	if r := env.do("GET", base, env.keyB, ""); r.status != http.StatusForbidden {
		t.Errorf("user B reading A's sheet = %d, want 403", r.status)
	}
	if r := env.do("GET", base+"/prompt?max_tokens=-1", env.keyA, ""); r.status != http.StatusUnprocessableEntity {
		t.Errorf("negative budget = %d %s, want 422", r.status, r.body)
	}
	if r := env.do("POST", "/v1/users/alice/fact-sheet", env.app, ""); r.status != http.StatusUnprocessableEntity {
		t.Errorf("bad user = %d %s, want 422", r.status, r.body)
	}

	// A user with no sheet yet gets one generated for the prompt.
	env.ok("GET", "/v1/users/"+userB+"/fact-sheet/prompt", env.keyB, "", &p)
	if p.Text != "" || p.SheetID == "" {
		t.Errorf("prompt of a user without facts = %+v, want an empty block from a new sheet", p)
	}
}

// TestFactSheetFollowsWrites: every write through the API that changes a user's
// facts makes the fact sheet follow it, by the engine's one rule, whether sheets are
// regenerated at once or in the background (as serve runs).
func TestFactSheetFollowsWrites(t *testing.T) {
	for _, delay := range []time.Duration{0, time.Hour} {
		t.Run(fmt.Sprint("background=", delay), func(t *testing.T) {
			env := newTestEnv(t, func(o *Options) {
				o.Engine = memory.New(o.Engine.Store(), memory.Options{BackgroundDelay: delay})
				t.Cleanup(o.Engine.Close)
			})
			base := "/v1/users/" + userA
			writes := []struct {
				path, body, text string
			}{
				{"/facts", `{"key": "contact.email", "value": "a@example.com", "text": "Email is a@example.com"}`, "Email is a@example.com"},
				{"/lists/favorites.tea", `{"value": "Sencha"}`, "favorites.tea: Sencha"},
				{"/messages", `{"text": "My favorite color is teal."}`, "Favorite color: teal"},
			}
			for _, w := range writes {
				env.ok("POST", base+w.path, env.keyA, w.body, nil)
				var sh factbase.FactSheet
				env.ok("GET", base+"/fact-sheet", env.keyA, "", &sh)
				found := false
				for _, en := range sh.Entries {
					found = found || en.Text == w.text
				}
				if !found {
					t.Errorf("after POST %s the sheet has %+v, want an entry %q", w.path, sh.Entries, w.text)
				}
			}
		})
	}
}
