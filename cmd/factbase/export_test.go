package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportImportRoundTrip: export, import into an empty store, export again: the
// same file but for the header's time; an import into another user id, a refusal of
// a user who has data, of a newer format and of a file cut short.
func TestExportImportRoundTrip(t *testing.T) {
	env := testEnv(t)
	for _, m := range []string{"My favorite editors are Helix, Neovim and Zed.", "Move Zed to the top of my favorite editors.",
		"My sister Maria lives in Porto.", "My email is ann@example.com.", "Actually my email is ann.lee@example.com.",
		"I'm allergic to peanuts.", "My dentist is Dr. Patel."} {
		mustRun(t, env, "say", "--user", testUser, m)
	}
	mustRun(t, env, "episodes", "add", "--user", testUser, "--tags", "nexus", "NEXUS v2.3.1 released.")
	mustRun(t, env, "sheet", "--user", testUser)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	mustRun(t, env, "export", "--user", testUser, "--vectors", "--output", a)

	other := testEnv(t)
	out := mustRun(t, other, "import", a)
	if !strings.Contains(out, "Imported into "+testUser) || !strings.Contains(out, "facts") {
		t.Fatalf("import printed %q", out)
	}
	mustRun(t, other, "export", "--user", testUser, "--vectors", "--output", b)
	ab, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	_, restA, _ := strings.Cut(string(ab), "\n")
	_, restB, _ := strings.Cut(string(bb), "\n")
	if restA != restB || len(restA) < 1000 {
		t.Fatalf("the second export differs from the first (%d and %d bytes after the header)", len(restA), len(restB))
	}
	if got := mustRun(t, other, "ask", "--user", testUser, "What is my email?"); !strings.Contains(got, "ann.lee@example.com") {
		t.Errorf("ask after import = %q", got)
	}
	if got := mustRun(t, other, "list", "show", "--user", testUser, "favorites.text_editor"); !strings.Contains(got, "#1  Zed") {
		t.Errorf("the list after import = %q, want Zed first", got)
	}

	// Into another user id; twice is refused.
	const u2 = "0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c22"
	mustRun(t, other, "import", "--user", u2, a)
	if got := mustRun(t, other, "ask", "--user", u2, "Where does my sister live?"); !strings.Contains(got, "Porto") {
		t.Errorf("ask of the retargeted user = %q", got)
	}
	if _, stderr, code := run(t, other, "import", "--user", u2, a); code != 1 || !strings.Contains(stderr, "already has data") {
		t.Errorf("importing into a user with data: exit %d, %q", code, stderr)
	}

	// Refusals: a newer version, a file cut short, not an export.
	newer := filepath.Join(dir, "newer.jsonl")
	os.WriteFile(newer, []byte(strings.Replace(string(ab), `"version":1`, `"version":2`, 1)), 0o644)
	const u3 = "0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c33"
	if _, stderr, code := run(t, other, "import", "--user", u3, "--format", "factbase", newer); code != 1 || !strings.Contains(stderr, "format version 2") {
		t.Errorf("a newer version: exit %d, %q", code, stderr)
	}
	cut := filepath.Join(dir, "cut.jsonl")
	lines := strings.SplitAfter(string(ab), "\n")
	os.WriteFile(cut, []byte(strings.Join(lines[:len(lines)/2], "")), 0o644)
	if _, stderr, code := run(t, other, "import", "--user", u3, cut); code != 1 || !strings.Contains(stderr, "cut short") {
		t.Errorf("a file cut short: exit %d, %q", code, stderr)
	}
	if out, _, _ := run(t, other, "facts", "list", "--user", u3); !strings.Contains(out, "No facts") {
		t.Errorf("a refused import stored facts: %q", out)
	}
	if got := mustRun(t, env, "audit", "--user", testUser); !strings.Contains(got, "user.export") {
		t.Errorf("the export is not in the audit trail: %q", got)
	}
}

// TestImportMem0AndMessages: mem0's get_all JSON and a list of messages are read as
// the user's statements.
func TestImportMem0AndMessages(t *testing.T) {
	env := testEnv(t)
	dir := t.TempDir()
	mem0 := filepath.Join(dir, "mem0.json")
	os.WriteFile(mem0, []byte(`{"results":[{"id":"m1","memory":"Name is Alex","user_id":"alex","created_at":"2024-07-20T01:36:33.389583-07:00"},
{"id":"m2","memory":"Lives in Lisbon","created_at":"2024-07-21T10:00:00Z"},{"id":"m3","memory":"Is allergic to nuts"}]}`), 0o644)
	out := mustRun(t, env, "import", "--user", testUser, mem0)
	if !strings.Contains(out, "Read 3 messages; the rules stored 3 facts") {
		t.Fatalf("mem0 import = %q", out)
	}
	if got := mustRun(t, env, "ask", "--user", testUser, "Where do I live?"); !strings.Contains(got, "Lisbon") {
		t.Errorf("ask after the mem0 import = %q", got)
	}
	msgs := filepath.Join(dir, "msgs.json")
	os.WriteFile(msgs, []byte(`[{"role":"system","content":"You are helpful."},{"role":"user","content":"My favorite teas are oolong and chai."},
{"role":"assistant","content":"My favorite tea is green tea."},{"role":"user","content":"I work at Globex."}]`), 0o644)
	out = mustRun(t, env, "import", "--user", "0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c44", msgs)
	if !strings.Contains(out, "Read 3 messages") {
		t.Fatalf("messages import = %q", out)
	}
	got := mustRun(t, env, "list", "show", "--user", "0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c44", "favorites.tea")
	if !strings.Contains(got, "oolong") || strings.Contains(got, "green tea") {
		t.Errorf("favorite teas = %q, want the user's only", got)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`[{"role":"robot","content":"hi"}]`), 0o644)
	if _, stderr, code := run(t, env, "import", "--user", testUser, "--format", "messages", bad); code != 1 || !strings.Contains(stderr, `role "robot"`) {
		t.Errorf("a bad role: exit %d, %q", code, stderr)
	}
}
