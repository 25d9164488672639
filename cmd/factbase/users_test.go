package main

import (
	"strings"
	"testing"
)

func TestUsersErase(t *testing.T) {
	env := testEnv(t)
	const other = "1c8d3b5f-3a2e-4d4c-8b9f-6e7a8b9cad1e"
	for _, u := range []string{testUser, other} {
		mustRun(t, env, "facts", "set", "--user", u, "contact.email", "a@example.com")
		mustRun(t, env, "list", "add", "--user", u, "favorites.crypto", "BTC")
	}
	// Without --yes nothing happens.
	wantExit(t, env, 2, "--yes", "users", "erase", "--user", testUser)
	if out, _, _ := run(t, env, "facts", "get", "--user", testUser, "--json", "contact.email"); !strings.Contains(out, "a@example.com") {
		t.Fatalf("erase without --yes removed data: %q", out)
	}
	var res struct {
		User    string           `json:"user"`
		Removed map[string]int64 `json:"removed"`
		Total   int64            `json:"total"`
	}
	mustJSON(t, env, &res, "users", "erase", "--user", testUser, "--yes", "--json")
	if res.User != testUser || res.Removed["facts"] != 2 || res.Total < 2 {
		t.Errorf("users erase = %+v; want 2 facts removed", res)
	}
	if out, _, _ := run(t, env, "facts", "get", "--user", testUser, "--json", "contact.email"); strings.Contains(out, "a@example.com") {
		t.Errorf("after erase facts get prints %q", out)
	}
	if out, _, _ := run(t, env, "facts", "get", "--user", other, "--json", "contact.email"); !strings.Contains(out, "a@example.com") {
		t.Errorf("the other user's fact is gone: %q", out)
	}
	// A second erase has nothing to erase.
	wantExit(t, env, 1, "has no data", "users", "erase", "--user", testUser, "--yes")
	if _, stderr, code := run(t, env, "users", "erase", "--user", "nope", "--yes"); code == 0 || !strings.Contains(stderr, "UUID") {
		t.Errorf("erase of a bad id: exit %d, %q", code, stderr)
	}
}
