package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
)

func TestSheet(t *testing.T) {
	env := testEnv(t)
	// The email: stated, restated (a duplicate) and used in an answer: 3 references.
	mustRun(t, env, "say", "--user", testUser, "My email is ada@example.com")
	mustRun(t, env, "say", "--user", testUser, "My email is ada@example.com")
	mustRun(t, env, "ask", "--user", testUser, "What is my email?")
	mustRun(t, env, "facts", "set", "--user", testUser, "--category", "project", "project.name", "Atlas")

	var sh factbase.FactSheet
	mustJSON(t, env, &sh, "sheet", "--user", testUser, "--json")
	if sh.Count != 2 || len(sh.Entries) != 2 {
		t.Fatalf("sheet --json: %d entries, want 2: %+v", sh.Count, sh.Entries)
	}
	if en := sh.Entries[0]; en.Text != "User's email is ada@example.com" || en.Explain.References != 3 || en.Score != 300 {
		t.Errorf("first entry = %+v, want the email with 3 references scoring 300", en)
	}
	latest := mustRun(t, env, "sheet", "--user", testUser, "--latest", "--json")
	var again factbase.FactSheet
	if err := json.Unmarshal([]byte(latest), &again); err != nil || again.ID != sh.ID {
		t.Errorf("sheet --latest = %s (%v), want the last generated %s", again.ID, err, sh.ID)
	}

	out := mustRun(t, env, "sheet", "--user", testUser)
	for _, want := range []string{"Fact sheet ", "2 entries", "\ncore\n", "300.0  User's email is ada@example.com", "\nproject\n", "40.0  project.name: Atlas"} {
		if !strings.Contains(out, want) {
			t.Errorf("sheet output lacks %q:\n%s", want, out)
		}
	}
	out = mustRun(t, env, "sheet", "--user", testUser, "--explain")
	if want := "= weight 10 × 30 (3 references: <1h 3×10=30); included: minimum"; !strings.Contains(out, want) {
		t.Errorf("sheet --explain lacks %q:\n%s", want, out)
	}

	want := "# Fact sheet\n## core\n- User's email is ada@example.com\n## project\n- project.name: Atlas\n"
	if out := mustRun(t, env, "sheet", "--user", testUser, "--prompt"); out != want {
		t.Errorf("sheet --prompt = %q, want %q", out, want)
	}
	var p core.SheetPrompt
	mustJSON(t, env, &p, "sheet", "--user", testUser, "--prompt", "--json", "--max-tokens", "15")
	if p.Dropped != 1 || p.Tokens > 15 || p.Text != "# Fact sheet\n## core\n- User's email is ada@example.com\n" {
		t.Errorf("sheet --prompt --max-tokens 15 = %+v, want the project entry dropped", p)
	}

	// Generating again with a shorter retention and privacy mode on keeps the entries
	// (nothing here is sensitive).
	if err := json.Unmarshal([]byte(mustRun(t, env, "sheet", "--user", testUser, "--json", "--private", "--retention", "1h")), &sh); err != nil || sh.Count != 2 {
		t.Fatalf("sheet --private --retention 1h: %d entries, %v", sh.Count, err)
	}
}

func TestSheetErrors(t *testing.T) {
	env := testEnvDB(t)
	other := "1b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"
	runCases(t, env, []cliCase{
		{"no user", []string{"sheet"}, 2, "--user is required"},
		{"argument", []string{"sheet", "--user", testUser, "extra"}, 2, "sheet takes no arguments"},
		{"budget without prompt", []string{"sheet", "--user", testUser, "--max-tokens", "5"}, 2, "go with --prompt"},
		{"negative budget", []string{"sheet", "--user", testUser, "--prompt", "--max-chars", "-1"}, 2, "cannot be negative"},
		{"zero retention", []string{"sheet", "--user", testUser, "--retention", "0s"}, 2, "--retention must be positive"},
		{"latest and private", []string{"sheet", "--user", testUser, "--latest", "--private"}, 2, "not with --latest"},
		{"none saved", []string{"sheet", "--user", other, "--latest"}, 1, "no fact sheet"},
		{"bad user", []string{"sheet", "--user", "alice"}, 1, `user id "alice" is not a UUID`},
	})
}
