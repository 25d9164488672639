package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// sealedWords are the distinctive words sealedFeed writes: none may be found in a
// sealed database's files. ("frobnicator" is written too, but an episode's facts
// are keyed by the thing it names, frobnicator.version, and keys stay in the clear:
// docs/security.md.)
var sealedWords = []string{"quokkaoolong", "zorbasencha", "zanzibella", "xylopeanut", "quixotown",
	"zibbleprod", "wumpusberry", "glorptown", "snarfwidget", "zorblefrim", "plonkhost", "mimsyborogove"}

// sealedFeed writes sealedWords through every entry point that takes a person's
// words: CLI say, remember (its queued job), list add, episodes add, import of
// messages, transcript ingest; HTTP messages and episodes; MCP over stdio.
func sealedFeed(t *testing.T, env map[string]string) {
	t.Helper()
	for _, m := range []string{
		"My favorite teas are quokkaoolong > zorbasencha > chai.",
		"My wife Zanzibella is allergic to xylopeanuts.",
		"I live in Quixotown.",
		"My favorite teas are quokkaoolong.", // a duplicate
	} {
		mustRun(t, env, "say", "--user", testUser, m)
	}
	mustRun(t, env, "remember", "--user", testUser, "My brother Wumpusberry lives in Glorptown.")
	mustRun(t, env, "list", "add", "--user", testUser, "favorites.gadgets", "snarfwidget")
	mustRun(t, env, "episodes", "add", "--user", testUser, "--tags", "deploy", "--meta", "host=plonkhost", "Deployed frobnicator v9.1.0 to zibbleprod.")

	dir := t.TempDir()
	msgs := filepath.Join(dir, "messages.json")
	os.WriteFile(msgs, []byte(`[{"role":"user","content":"My favorite color is mimsyborogove."}]`), 0o600)
	mustRun(t, env, "import", "--user", otherUser, msgs)
	log := filepath.Join(dir, "session.jsonl")
	os.WriteFile(log, []byte(`{"cwd":"/home/zorblefrim/proj","sessionId":"11111111-1111-4111-8111-111111111112","version":"1.0.61","gitBranch":"main","type":"user","message":{"role":"user","content":"Check the disk on the server."},"uuid":"a1000000-0000-4000-8000-000000000011","timestamp":"2025-06-02T18:00:01.000Z"}
{"parentUuid":"a1000000-0000-4000-8000-000000000011","cwd":"/home/zorblefrim/proj","sessionId":"11111111-1111-4111-8111-111111111112","version":"1.0.61","gitBranch":"main","type":"assistant","message":{"id":"msg_2","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ssh root@plonkhost.example 'df -h'","description":"run"}}]},"uuid":"a1000000-0000-4000-8000-000000000012","timestamp":"2025-06-02T18:00:02.000Z"}
`), 0o600)
	mustRun(t, env, "ingest", "transcript", "--user", testUser, log)

	s := serve(t, env, "--no-auth")
	for path, body := range map[string]string{
		"messages": `{"text":"My favorite teas are zorbasencha."}`,
		"episodes": `{"content":"Rolled back frobnicator on zibbleprod.","tags":["deploy"]}`,
	} {
		if status, _, b := call(t, "POST", s.base+"/v1/users/"+testUser+"/"+path, "", body); status/100 != 2 {
			t.Fatalf("POST %s = %d %s", path, status, b)
		}
	}
	if code := s.stop(); code != 0 {
		t.Fatalf("serve exited %d: %s", code, s.stderr.String())
	}
	stdio := map[string]string{}
	for k, v := range env {
		stdio[k] = v
	}
	stdio["FACTBASE_USER"] = testUser
	cs, stderr, end := mcpStdio(t, stdio)
	if res := mcpCall(t, cs, "remember", map[string]any{"text": "I live in Quixotown now."}); res.IsError {
		t.Fatalf("mcp remember: %s", mcpText(res))
	}
	if code := end(); code != 0 {
		t.Fatalf("factbase mcp exited %d: %s", code, stderr.String())
	}
}

// sealedReads are read commands whose answers must not change with encryption.
var sealedReads = [][]string{
	{"ask", "What are my favorite teas?"},
	{"ask", "Who is my wife?"},
	{"ask", "Where do I live?"},
	{"ask", "Is anyone in my family allergic to nuts?"},
	{"list", "show", "favorite.teas"},
	{"list", "show", "favorites.gadgets"},
	{"search", "quokkaoolong"},
	{"search", "allergic peanuts"},
	{"search", "frobnicator zibbleprod"},
	{"query", "What version of frobnicator was deployed?"},
	{"recall", "Where does my brother live?"},
	{"sheet"},
}

// idPattern matches what differs between two stores given the same writes: ids,
// durations, times, and BM25's raw scores (the sealed index ranks one column of
// hashed, Snowball-stemmed words where SQLite's plain one ranks three of words,
// Porter-stemmed: the same order, scores a few percent apart).
var idPattern = regexp.MustCompile(`\(\d+\.\d+\)|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+(\.\d+)? ?(ms|µs|s)\b|\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d)?`)

// TestSealedEntryPoints writes distinctive words through every entry point into a
// database sealed with a data key, then scans the database's files for them and
// finds none; the same writes into a database without a key give the same answers
// to every read command.
func TestSealedEntryPoints(t *testing.T) {
	envK, _ := modelEnv(t, http.StatusOK, `{"facts":[],"entities":[],"topics":[]}`)
	envP, _ := modelEnv(t, http.StatusOK, `{"facts":[],"entities":[],"topics":[]}`)
	keyFile := filepath.Join(t.TempDir(), "data.key")
	mustRun(t, envK, "datakey", "new", "--out", keyFile)
	envK["FACTBASE_DATA_KEY_FILE"] = keyFile

	sealedFeed(t, envK)
	sealedFeed(t, envP)

	// The plain database holds the words (the scan can find them), the sealed one none.
	if found := scanFiles(t, envP["FACTBASE_DB"]); len(found) < len(sealedWords)-1 {
		t.Fatalf("the plain database holds only %v of %v: the feed does not write them", found, sealedWords)
	}
	if found := scanFiles(t, envK["FACTBASE_DB"]); len(found) > 0 {
		t.Errorf("the sealed database's files hold %v", found)
	}

	for _, args := range sealedReads {
		a := append(slices.Clone(args), "--user", testUser)
		want, got := mustRun(t, envP, a...), mustRun(t, envK, a...)
		if idPattern.ReplaceAllString(got, "#") != idPattern.ReplaceAllString(want, "#") {
			t.Errorf("%s: sealed\n%s\nplain\n%s", strings.Join(args, " "), got, want)
		}
	}
	if got := mustRun(t, envK, "ask", "--user", testUser, "What are my favorite teas?"); !strings.Contains(got, "quokkaoolong") {
		t.Errorf("ask on the sealed database: %q", got)
	}
}

// scanFiles returns the sealedWords found, in any case, in the SQLite database at
// path and its write-ahead log.
func scanFiles(t *testing.T, path string) []string {
	t.Helper()
	var all []byte
	for _, p := range []string{path, path + "-wal", path + "-journal"} {
		b, err := os.ReadFile(p)
		if err == nil {
			all = append(all, bytes.ToLower(b)...)
		}
	}
	var found []string
	for _, w := range sealedWords {
		if bytes.Contains(all, []byte(w)) {
			found = append(found, w)
		}
	}
	return found
}

// TestDataKeyRefusals: a sealed database refuses to open without its key and with
// another key; a database in the clear refuses a key; nothing is written by any.
func TestDataKeyRefusals(t *testing.T) {
	env := testEnv(t)
	dir := t.TempDir()
	k1, k2 := filepath.Join(dir, "k1"), filepath.Join(dir, "k2")
	mustRun(t, env, "datakey", "new", "--out", k1)
	mustRun(t, env, "datakey", "new", "--out", k2)
	if _, stderr, code := run(t, env, "datakey", "new", "--out", k1); code == 0 || !strings.Contains(stderr, "exists") {
		t.Errorf("datakey new over a key: exit %d, %s", code, stderr)
	}
	plain := testEnv(t)
	mustRun(t, plain, "say", "--user", testUser, "I live in Lisbon.")
	if _, stderr, code := run(t, plain, "say", "--user", testUser, "--data-key-file", k1, "I live in Quixotown."); code != 1 || !strings.Contains(stderr, "in the clear") {
		t.Errorf("a key on a database in the clear: exit %d, %s", code, stderr)
	}
	env["FACTBASE_DATA_KEY_FILE"] = k1
	mustRun(t, env, "say", "--user", testUser, "I live in Quixotown.")
	for name, e := range map[string]map[string]string{
		"no key":    {"FACTBASE_DB": env["FACTBASE_DB"]},
		"wrong key": {"FACTBASE_DB": env["FACTBASE_DB"], "FACTBASE_DATA_KEY_FILE": k2},
	} {
		_, stderr, code := run(t, e, "say", "--user", testUser, "I live in Glorptown.")
		if code != 1 || !strings.Contains(stderr, "data key") {
			t.Errorf("%s: exit %d, %s", name, code, stderr)
		}
	}
	if !strings.Contains(mustRun(t, env, "ask", "--user", testUser, "Where do I live?"), "Quixotown") {
		t.Error("the refused commands changed the database")
	}

	var st map[string]any
	mustJSON(t, env, &st, "datakey", "status", "--json")
	if st["sealed"] != true || st["key_opens"] != true {
		t.Errorf("status %v", st)
	}
	if out := mustRun(t, plain, "datakey", "status"); !strings.Contains(out, "Not sealed") {
		t.Errorf("status of a database in the clear: %q", out)
	}
}

// TestDataKeyRotate: a rotation re-seals every text under the new key; afterwards
// the new key opens the database and the old one does not; the audit trail records
// it with counts.
func TestDataKeyRotate(t *testing.T) {
	env, _ := modelEnv(t, http.StatusOK, `{"facts":[],"entities":[],"topics":[]}`)
	dir := t.TempDir()
	k1, k2 := filepath.Join(dir, "k1"), filepath.Join(dir, "k2")
	mustRun(t, env, "datakey", "new", "--out", k1)
	mustRun(t, env, "datakey", "new", "--out", k2)
	env["FACTBASE_DATA_KEY_FILE"] = k1
	sealedFeed(t, env)
	want := mustRun(t, env, "ask", "--user", testUser, "What are my favorite teas?")

	var res struct {
		From, To string
		Rows     map[string]int
	}
	mustJSON(t, env, &res, "datakey", "rotate", "--new-key-file", k2, "--batch", "3", "--json")
	if res.Rows["facts"] == 0 || res.Rows["episodes"] == 0 || res.From == res.To {
		t.Errorf("rotation %+v", res)
	}
	if _, stderr, code := run(t, env, "ask", "--user", testUser, "What are my favorite teas?"); code != 1 || !strings.Contains(stderr, "data key") {
		t.Errorf("the old key after the rotation: exit %d %s", code, stderr)
	}
	env["FACTBASE_DATA_KEY_FILE"] = k2
	if got := mustRun(t, env, "ask", "--user", testUser, "What are my favorite teas?"); got != want {
		t.Errorf("after the rotation: %q, before %q", got, want)
	}
	var audit struct {
		Entries []struct {
			Action string
			Counts map[string]int
		}
	}
	mustJSON(t, env, &audit, "audit", "--action", "datakey.rotate", "--json")
	if len(audit.Entries) != 1 || audit.Entries[0].Counts["facts"] == 0 {
		b, _ := json.Marshal(audit)
		t.Errorf("audit %s", b)
	}
	if found := scanFiles(t, env["FACTBASE_DB"]); len(found) > 0 {
		t.Errorf("after the rotation the files hold %v", found)
	}
}
