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

const testUser = "0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"

// run runs the program with args and returns stdout, stderr and the exit status.
func run(t *testing.T, env map[string]string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }}
	code := m.Run(context.Background(), args)
	return out.String(), errb.String(), code
}

func testEnv(t *testing.T) map[string]string {
	return map[string]string{"FACTBASE_DB": filepath.Join(t.TempDir(), "f.db"), "HOME": t.TempDir()}
}

// testEnvDB is testEnv with its database made (a command that only reads refuses a
// path where none exists).
func testEnvDB(t *testing.T) map[string]string {
	t.Helper()
	env := testEnv(t)
	mustRun(t, env, "say", "--user", testUser, "Hello there.")
	return env
}

// TestReadOnlyNoDatabase: a command that only reads refuses a SQLite path where no
// database exists, and creates none; a writing command creates it.
func TestReadOnlyNoDatabase(t *testing.T) {
	env := testEnv(t)
	for _, args := range [][]string{{"ask", "--user", testUser, "What is my email?"}, {"facts", "list", "--user", testUser},
		{"search", "--user", testUser, "x"}, {"sheet", "--user", testUser}, {"jobs", "list"}} {
		if _, stderr, code := run(t, env, args...); code != 1 || !strings.Contains(stderr, "no database at "+env["FACTBASE_DB"]) {
			t.Errorf("%v on no database: exit %d, %q", args, code, stderr)
		}
	}
	if _, err := os.Stat(env["FACTBASE_DB"]); err == nil {
		t.Fatal("a reading command created the database")
	}
	mustRun(t, env, "say", "--user", testUser, "My email is ann@example.com.")
	if out := mustRun(t, env, "ask", "--user", testUser, "What is my email?"); !strings.Contains(out, "ann@example.com") {
		t.Errorf("ask after say = %q", out)
	}
}

// mustRun runs a command that must succeed and returns its standard output.
func mustRun(t *testing.T, env map[string]string, args ...string) string {
	t.Helper()
	out, stderr, code := run(t, env, args...)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	return out
}

// mustJSON runs a command that must succeed and decodes the JSON it prints into v.
func mustJSON(t *testing.T, env map[string]string, v any, args ...string) {
	t.Helper()
	out := mustRun(t, env, args...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("%s printed %q: %v", strings.Join(args, " "), out, err)
	}
}

// wantExit runs a command and checks its exit status and that its standard error
// contains msg.
func wantExit(t *testing.T, env map[string]string, code int, msg string, args ...string) {
	t.Helper()
	_, stderr, got := run(t, env, args...)
	if got != code || !strings.Contains(stderr, msg) {
		t.Errorf("%s: exit %d, stderr %q; want exit %d containing %q", strings.Join(args, " "), got, stderr, code, msg)
	}
}

// cliCase is a command line that fails: its exit status and a piece of its
// standard error.
type cliCase struct {
	name string
	args []string
	code int
	msg  string
}

// runCases runs each case on the database of env as a subtest.
func runCases(t *testing.T, env map[string]string, cases []cliCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantExit(t, env, tc.code, tc.msg, tc.args...)
		})
	}
}

// rankCryptos adds BTC, ETH and XMR to the user's favorites.crypto (the list say
// files as favorites.cryptocurrency) and moves XMR to the top: the issue's
// ranked-list scenario.
func rankCryptos(t *testing.T, env map[string]string) {
	t.Helper()
	for _, v := range []string{"BTC", "ETH", "XMR"} {
		mustRun(t, env, "list", "add", "--user", testUser, "favorites.crypto", v)
	}
	out, stderr, code := run(t, env, "list", "rank", "--user", testUser, "favorites.crypto", "XMR", "1")
	if code != 0 || !strings.Contains(out, "Moved XMR from #3 to #1") {
		t.Fatalf("list rank: exit %d, out %q, err %q", code, out, stderr)
	}
}

func TestListScenario(t *testing.T) {
	env := testEnv(t)
	rankCryptos(t, env)
	show := func() string {
		var got struct {
			Key   string `json:"key"`
			Items []struct {
				Rank  int    `json:"rank"`
				Value string `json:"value"`
			} `json:"items"`
		}
		mustJSON(t, env, &got, "list", "show", "--user", testUser, "--json", "favorites.cryptocurrency")
		var parts []string
		for _, it := range got.Items {
			parts = append(parts, string(rune('0'+it.Rank))+":"+it.Value)
		}
		return got.Key + " " + strings.Join(parts, " ")
	}
	if got, want := show(), "favorites.cryptocurrency 1:XMR 2:BTC 3:ETH"; got != want {
		t.Fatalf("list show = %q, want %q", got, want)
	}
	out, _, code := run(t, env, "list", "add", "--user", testUser, "favorites.cryptocurrency", "btc.")
	if code != 0 || !strings.Contains(out, "already in favorites.cryptocurrency at #2") {
		t.Fatalf("adding btc.: exit %d, out %q", code, out)
	}
	if got, want := show(), "favorites.cryptocurrency 1:XMR 2:BTC 3:ETH"; got != want {
		t.Fatalf("after the duplicate, list show = %q, want %q", got, want)
	}
	// The key as a person types it is the list say files: "favorites.cryptos" names
	// favorites.cryptocurrency's list (rankCryptos typed "favorites.crypto"), not a
	// list of its own, and say adds to the same list.
	mustRun(t, env, "list", "add", "--user", testUser, "favorites.cryptos", "DOGE")
	if got, want := show(), "favorites.cryptocurrency 1:XMR 2:BTC 3:ETH 4:DOGE"; got != want {
		t.Fatalf("after adding to favorites.cryptos, list show = %q, want %q", got, want)
	}
	mustRun(t, env, "say", "--user", testUser, "Add SOL to my favorite crypto")
	if out := mustRun(t, env, "list", "show", "--user", testUser, "favorites.cryptos"); !strings.Contains(out, "favorites.cryptocurrency (5)") {
		t.Errorf("list show favorites.cryptos = %q, want favorites.cryptocurrency's five", out)
	}
	// A list stored under a key of its own is read under it.
	mustRun(t, env, "facts", "set", "--user", testUser, "favorites.teas", "oolong")
	if out := mustRun(t, env, "list", "show", "--user", testUser, "favorites.teas"); !strings.Contains(out, "favorites.teas (1)") {
		t.Errorf("list show favorites.teas = %q, want the list stored under that key", out)
	}
}

func TestFactsHistory(t *testing.T) {
	env := testEnv(t)
	for _, v := range []string{"a@example.com", "b@example.com"} {
		mustRun(t, env, "facts", "set", "--user", testUser, "contact.email", v)
	}
	var got struct {
		Key      string `json:"key"`
		Versions []struct {
			Value   string `json:"value"`
			Current bool   `json:"current"`
		} `json:"versions"`
	}
	mustJSON(t, env, &got, "facts", "history", "--user", testUser, "--json", "contact.email")
	if len(got.Versions) != 2 || got.Versions[0].Value != "b@example.com" || !got.Versions[0].Current ||
		got.Versions[1].Value != "a@example.com" || got.Versions[1].Current {
		t.Fatalf("history = %+v, want b (current) then a", got.Versions)
	}
	out, _, code := run(t, env, "facts", "get", "--user", testUser, "contact.email")
	if code != 0 || strings.TrimSpace(out) != "b@example.com" {
		t.Errorf("facts get = %q (exit %d), want b@example.com", out, code)
	}
}

func TestErrors(t *testing.T) {
	env := testEnv(t)
	runCases(t, env, []cliCase{
		{"no user", []string{"list", "show", "favorites.x"}, 2, "--user is required"},
		{"bad user", []string{"list", "show", "--user", "alice", "favorites.x"}, 1, `user id "alice" is not a UUID`},
		{"unknown command", []string{"frobnicate"}, 2, "unknown command"},
		{"bad rank", []string{"list", "rank", "--user", testUser, "favorites.x", "A", "zero"}, 1, "not a whole number"},
		{"not a list", []string{"list", "add", "--user", testUser, "contact.email", "A"}, 1, "not a ranked list"},
		{"remove absent", []string{"list", "remove", "--user", testUser, "favorites.x", "A"}, 1, `"A" is not in favorites.x`},
		{"missing args", []string{"facts", "set", "--user", testUser, "k"}, 2, "wrong number of arguments"},
		{"bad flag", []string{"facts", "get", "--frob", "k"}, 2, "flag provided but not defined"},
		{"empty value", []string{"facts", "set", "--user", testUser, "k", " "}, 1, "value is empty"},
		{"delete unknown", []string{"facts", "delete", "--user", testUser, "nope"}, 1, `fact "nope" not found`},
	})
}

// TestSayMessageTime: a message's own time anchors its temporal markers, on the CLI
// and over HTTP.
func TestSayMessageTime(t *testing.T) {
	env := testEnv(t)
	mustRun(t, env, "say", "--user", testUser, "--time", "2026-01-05T10:00:00Z", "I fly to Lisbon next Friday")
	out, _, _ := run(t, env, "facts", "list", "--user", testUser, "--json")
	if !strings.Contains(out, `"anchor": "2026-01-16T00:00:00Z"`) {
		t.Errorf("the anchor of \"next Friday\" said on Monday 5 January 2026 is not 16 January: %s", out)
	}
	wantExit(t, env, 1, "not an RFC 3339 time", "say", "--user", testUser, "--time", "yesterday", "hi")
	s := serve(t, testEnv(t), "--no-auth")
	if st, _, b := call(t, "POST", s.base+"/v1/users/"+testUser+"/messages", "", `{"text": "I fly to Oslo tomorrow", "time": "2026-03-01T09:00:00Z"}`); st != 200 {
		t.Fatalf("POST messages with a time: %d %s", st, b)
	}
	st, _, b := call(t, "GET", s.base+"/v1/users/"+testUser+"/facts", "", "")
	if st != 200 || !strings.Contains(string(b), `"anchor":"2026-03-02T`) {
		t.Errorf("the anchor of \"tomorrow\" said on 1 March 2026: %d %s", st, b)
	}
}

// TestFlagsAfterArguments: a flag after the positional arguments is read as a flag in
// every command, never stored as data; after "--" flag-like text is data; an unknown
// flag among the arguments is refused with the way to pass such text.
func TestFlagsAfterArguments(t *testing.T) {
	env := testEnv(t)
	var said map[string]any
	mustJSON(t, env, &said, "say", "My favorite tea is oolong", "--user", testUser, "--json")
	var page struct {
		Items []struct{ Value string } `json:"items"`
	}
	mustJSON(t, env, &page, "list", "show", "favorites.tea", "--user", testUser, "--json")
	if len(page.Items) != 1 || page.Items[0].Value != "oolong" {
		t.Errorf("say with --json after the message stored %+v, want [oolong]", page.Items)
	}
	mustRun(t, env, "list", "add", "favorites.cryptocurrency", "BTC", "--user", testUser)
	mustRun(t, env, "facts", "set", "--user", testUser, "note.temp", "--", "-5")
	var facts struct{ Facts []struct{ Key, Value string } }
	mustJSON(t, env, &facts, "facts", "list", "--user", testUser, "--json")
	got := map[string]string{}
	for _, f := range facts.Facts {
		got[f.Key] += f.Value
	}
	if got["favorites.cryptocurrency"] != "BTC" || got["note.temp"] != "-5" {
		t.Errorf("stored %v; want favorites.cryptocurrency BTC and note.temp -5 (after --, flag-like text is data)", got)
	}
	runCases(t, env, []cliCase{
		{"unknown flag after the message", []string{"say", "--user", testUser, "hello", "--frob"}, 2, `put -- before it`},
		{"flag-like text", []string{"facts", "set", "--user", testUser, "k", "-5"}, 2, `flag provided but not defined: -5`},
		{"a flag after --", []string{"facts", "set", "--user", testUser, "k", "--", "v", "--json"}, 2, `wrong number of arguments`},
	})
}
