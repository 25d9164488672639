package main

import (
	"strings"
	"testing"
)

type conflictsOut struct {
	Conflicts []struct {
		ID            string `json:"id"`
		About         string `json:"about"`
		Key           string `json:"key"`
		CurrentValue  string `json:"current_value"`
		ProposedValue string `json:"proposed_value"`
		Status        string `json:"status"`
	} `json:"conflicts"`
}

func listConflicts(t *testing.T, env map[string]string, status string) conflictsOut {
	t.Helper()
	var got conflictsOut
	mustJSON(t, env, &got, "conflicts", "list", "--user", testUser, "--json", "--status", status)
	return got
}

// TestConflictsCommands: a changed employer is queued; confirm applies it with
// history; reject leaves the old value current.
func TestConflictsCommands(t *testing.T) {
	env := testEnv(t)
	env["FACTBASE_EMBEDDER"] = "none"
	mustRun(t, env, "say", "--user", testUser, "My wife Sarah works at Google.")
	out := mustRun(t, env, "say", "--user", testUser, "Sarah works at Apple.")
	if !strings.Contains(out, "until you confirm") {
		t.Errorf("say printed %q", out)
	}
	got := listConflicts(t, env, "pending")
	if len(got.Conflicts) != 1 || got.Conflicts[0].About != "Sarah" || got.Conflicts[0].CurrentValue != "Google" ||
		got.Conflicts[0].ProposedValue != "Apple" || got.Conflicts[0].Status != "pending" || got.Conflicts[0].Key != "work.employer" {
		t.Fatalf("pending = %+v", got)
	}
	out = mustRun(t, env, "conflicts", "confirm", "--user", testUser, got.Conflicts[0].ID)
	if !strings.Contains(out, "is now Apple (was Google") {
		t.Errorf("confirm printed %q", out)
	}
	var ent struct {
		Facts []struct {
			Key     string `json:"key"`
			Value   string `json:"value"`
			Current bool   `json:"current"`
		} `json:"facts"`
	}
	mustJSON(t, env, &ent, "entities", "get", "--user", testUser, "--history", "--json", "Sarah")
	var employers []string
	for _, f := range ent.Facts {
		if f.Key == "work.employer" {
			employers = append(employers, f.Value+map[bool]string{true: "*", false: ""}[f.Current])
		}
	}
	if strings.Join(employers, ",") != "Google,Apple*" {
		t.Errorf("employer history = %v, want Google then Apple (current)", employers)
	}

	mustRun(t, env, "say", "--user", testUser, "Sarah works at Netflix.")
	got = listConflicts(t, env, "pending")
	if len(got.Conflicts) != 1 {
		t.Fatalf("pending = %+v", got)
	}
	out = mustRun(t, env, "conflicts", "reject", "--user", testUser, got.Conflicts[0].ID)
	if !strings.Contains(out, "stays Apple") {
		t.Errorf("reject printed %q", out)
	}
	if got := listConflicts(t, env, "all"); len(got.Conflicts) != 2 {
		t.Errorf("all conflicts = %+v", got)
	}
	if got := listConflicts(t, env, "pending"); len(got.Conflicts) != 0 {
		t.Errorf("pending after reject = %+v", got)
	}
	wantExit(t, env, 1, "already rejected", "conflicts", "reject", "--user", testUser, got.Conflicts[0].ID)
	wantExit(t, env, 1, "is not pending, confirmed or rejected", "conflicts", "list", "--user", testUser, "--status", "maybe")
}
