package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestUsersErase(t *testing.T) {
	env := testEnv(t)
	const other = "1c8d3b5f-3a2e-4d4c-8b9f-6e7a8b9cad1e"
	for _, u := range []string{testUser, other} {
		if _, stderr, code := run(t, env, "facts", "set", "--user", u, "contact.email", "a@example.com"); code != 0 {
			t.Fatalf("facts set: exit %d: %s", code, stderr)
		}
		if _, stderr, code := run(t, env, "list", "add", "--user", u, "favorites.crypto", "BTC"); code != 0 {
			t.Fatalf("list add: exit %d: %s", code, stderr)
		}
	}
	// Without --yes nothing happens.
	if _, stderr, code := run(t, env, "users", "erase", "--user", testUser); code != 2 || !strings.Contains(stderr, "--yes") {
		t.Fatalf("erase without --yes: exit %d, %q; want 2 asking for --yes", code, stderr)
	}
	if out, _, _ := run(t, env, "facts", "get", "--user", testUser, "--json", "contact.email"); !strings.Contains(out, "a@example.com") {
		t.Fatalf("erase without --yes removed data: %q", out)
	}
	out, stderr, code := run(t, env, "users", "erase", "--user", testUser, "--yes", "--json")
	if code != 0 {
		t.Fatalf("users erase: exit %d: %s", code, stderr)
	}
	var res struct {
		User    string           `json:"user"`
		Removed map[string]int64 `json:"removed"`
		Total   int64            `json:"total"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("users erase --json printed %q: %v", out, err)
	}
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
	if _, stderr, code := run(t, env, "users", "erase", "--user", testUser, "--yes"); code != 1 || !strings.Contains(stderr, "has no data") {
		t.Errorf("second erase: exit %d, %q; want 1 and 'has no data'", code, stderr)
	}
	if _, stderr, code := run(t, env, "users", "erase", "--user", "nope", "--yes"); code == 0 || !strings.Contains(stderr, "UUID") {
		t.Errorf("erase of a bad id: exit %d, %q", code, stderr)
	}
}
