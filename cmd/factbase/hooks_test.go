package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runIn is run with stdin.
func runIn(t *testing.T, env map[string]string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }}
	code := m.Run(context.Background(), args)
	return out.String(), errb.String(), code
}

// hookPayloadFor is Claude Code's documented command-hook payload.
func hookPayloadFor(event, transcript, cwd string) string {
	b, _ := json.Marshal(map[string]string{"session_id": "5f3c1a9e-2b7d-4e8a-9c61-0d4e7b2a1f38", "transcript_path": transcript,
		"hook_event_name": event, "cwd": cwd, "source": "startup"})
	return string(b)
}

// TestHooksClaudeCode: the printed and installed entries, and a session's round trip
// through the hooks: SessionEnd ingests the transcript (again only what was
// appended), SessionStart hands back the fact sheet and what is known of the project.
func TestHooksClaudeCode(t *testing.T) {
	env := testEnv(t)
	env["FACTBASE_USER"] = testUser
	out := mustRun(t, env, "hooks", "claude-code")
	var printed struct {
		Settings struct {
			Hooks map[string][]struct {
				Hooks []struct{ Type, Command string } `json:"hooks"`
			} `json:"hooks"`
		} `json:"settings.json"`
		MCP struct {
			MCPServers map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"mcpServers"`
		} `json:".mcp.json"`
	}
	if err := json.Unmarshal([]byte(out), &printed); err != nil {
		t.Fatalf("hooks claude-code printed %q: %v", out, err)
	}
	for _, ev := range []string{"SessionStart", "PreCompact", "SessionEnd"} {
		hs := printed.Settings.Hooks[ev]
		if len(hs) != 1 || len(hs[0].Hooks) != 1 || hs[0].Hooks[0].Type != "command" ||
			!strings.Contains(hs[0].Hooks[0].Command, "hooks claude-code run --user "+testUser+" --db "+env["FACTBASE_DB"]) {
			t.Errorf("%s entry = %+v, want the run command for the user and database", ev, hs)
		}
	}
	if s := printed.MCP.MCPServers["factbase"]; strings.Join(s.Args, " ") != "mcp --user "+testUser+" --db "+env["FACTBASE_DB"] {
		t.Errorf("MCP entry = %+v", s)
	}

	// --install merges into the project's settings and keeps what is there.
	project := t.TempDir()
	settings := filepath.Join(project, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte(`{"model":"opus","hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"echo hi"}]}]}}`), 0o644)
	out = mustRun(t, env, "hooks", "claude-code", "--install", "--project", project)
	if !strings.Contains(out, "3 hook entries added") || !strings.Contains(out, "1 MCP server entries added") {
		t.Errorf("install printed %q", out)
	}
	if out = mustRun(t, env, "hooks", "claude-code", "--install", "--project", project); !strings.Contains(out, "0 hook entries added") {
		t.Errorf("a second install printed %q, want nothing added", out)
	}
	var doc struct {
		Model string                      `json:"model"`
		Hooks map[string][]map[string]any `json:"hooks"`
	}
	b, _ := os.ReadFile(settings)
	if err := json.Unmarshal(b, &doc); err != nil || doc.Model != "opus" || len(doc.Hooks["SessionStart"]) != 2 || len(doc.Hooks["SessionEnd"]) != 1 {
		t.Errorf("settings after install = %s (%v), want the user's model and hook kept beside ours", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(project, ".mcp.json")); err != nil || !strings.Contains(string(b), `"factbase"`) {
		t.Errorf(".mcp.json = %s %v", b, err)
	}
	broken := t.TempDir()
	os.MkdirAll(filepath.Join(broken, ".claude"), 0o755)
	os.WriteFile(filepath.Join(broken, ".claude", "settings.json"), []byte(`[1,2`), 0o644)
	if _, stderr, code := run(t, env, "hooks", "claude-code", "--install", "--project", broken); code != 1 || !strings.Contains(stderr, "not a JSON object") {
		t.Errorf("install over a broken settings file: exit %d, %q", code, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(broken, ".claude", "settings.json")); string(b) != `[1,2` {
		t.Errorf("the broken settings file was changed: %q", b)
	}

	// A session's round trip.
	src, err := os.ReadFile(filepath.Join("..", "..", "transcript", "testdata", "sessions", "basic.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	transcript := filepath.Join(t.TempDir(), "5f3c1a9e.jsonl")
	os.WriteFile(transcript, []byte(strings.Join(lines[:len(lines)/2], "")), 0o644)
	_, stderr, code := runIn(t, env, hookPayloadFor("PreCompact", transcript, "/home/anna/homelab"), "hooks", "claude-code", "run")
	if code != 0 || !strings.Contains(stderr, "PreCompact: read") {
		t.Fatalf("PreCompact: exit %d, %q", code, stderr)
	}
	os.WriteFile(transcript, src, 0o644) // the session went on
	_, stderr, code = runIn(t, env, hookPayloadFor("SessionEnd", transcript, "/home/anna/homelab"), "hooks", "claude-code", "run")
	first := len(lines) / 2
	if code != 0 || !strings.Contains(stderr, "SessionEnd: read") || strings.Contains(stderr, "read "+itoa(len(lines))+" lines") {
		t.Fatalf("SessionEnd: exit %d, %q; want only the appended lines read (not all %d; %d before)", code, stderr, len(lines), first)
	}
	facts := mustRun(t, env, "facts", "list", "--user", testUser)
	if strings.Contains(facts, "No facts") {
		t.Fatalf("no facts stored from the transcript")
	}
	_, stderr, _ = runIn(t, env, hookPayloadFor("SessionEnd", transcript, "/home/anna/homelab"), "hooks", "claude-code", "run")
	if !strings.Contains(stderr, "read 0 lines") {
		t.Errorf("a second SessionEnd read %q, want nothing new", stderr)
	}
	mustRun(t, env, "say", "--user", testUser, "My favorite editors are Helix and Zed.")
	out, stderr, code = runIn(t, env, hookPayloadFor("SessionStart", transcript, "/home/anna/homelab"), "hooks", "claude-code", "run")
	var start struct {
		Out struct {
			Event   string `json:"hookEventName"`
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &start); err != nil || code != 0 || start.Out.Event != "SessionStart" ||
		!strings.Contains(start.Out.Context, "Helix") {
		t.Fatalf("SessionStart: exit %d, out %q, err %q; want the fact sheet as additional context", code, out, stderr)
	}
	if strings.Contains(start.Out.Context, "sshpass -p 'pwd'") {
		t.Errorf("the context holds a password from the transcript's commands: %s", start.Out.Context)
	}

	// Bad payloads are refused with a reason; other events are ignored.
	if _, stderr, code := runIn(t, env, "{not json", "hooks", "claude-code", "run"); code != 1 || !strings.Contains(stderr, "not JSON") {
		t.Errorf("a malformed payload: exit %d, %q", code, stderr)
	}
	if _, stderr, code := runIn(t, env, `{"hook_event_name":"SessionEnd"}`, "hooks", "claude-code", "run"); code != 1 || !strings.Contains(stderr, "no transcript_path") {
		t.Errorf("SessionEnd without a transcript: exit %d, %q", code, stderr)
	}
	if out, _, code := runIn(t, env, `{"hook_event_name":"PreToolUse"}`, "hooks", "claude-code", "run"); code != 0 || out != "" {
		t.Errorf("an event the hooks ignore: exit %d, out %q", code, out)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
