package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const refHostsJSON = "testdata/transcripts/project-a/session1.jsonl"

func TestIngestTranscriptCLI(t *testing.T) {
	env := testEnv(t)
	dir, err := filepath.Abs("testdata/transcripts")
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, code := run(t, env, "ingest", "transcript", "--user", testUser, dir)
	if code != 0 {
		t.Fatalf("ingest: exit %d: %s", code, stderr)
	}
	// reference: 8 facts; malformed: 10 facts from its good lines.
	if want := "Ingested 2 files (2.8 kB, 10 lines): 18 facts stored, 0 duplicates skipped, 4 malformed lines.\n"; out != want {
		t.Errorf("summary = %q, want %q", out, want)
	}
	for _, want := range []string{
		"session2.jsonl:2: invalid JSON at column 88: unterminated string (skipped)",
		"session2.jsonl:5: assistant line has no uuid (skipped)",
		"session2.jsonl: the last line has no newline yet; left for the next ingest",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q does not contain %q", stderr, want)
		}
	}
	if strings.Contains(stderr, "\r") {
		t.Errorf("a progress bar was drawn to a non-terminal: %q", stderr)
	}

	out, _, code = run(t, env, "ingest", "transcript", "--user", testUser, dir)
	if code != 0 || !strings.Contains(out, ": 0 facts stored, 0 duplicates skipped, 0 malformed lines.") {
		t.Errorf("second ingest: exit %d, %q; want nothing stored", code, out)
	}

	var got struct {
		Facts []struct {
			Subject    string  `json:"subject"`
			Predicate  string  `json:"predicate"`
			Object     string  `json:"object"`
			Confidence float64 `json:"confidence"`
			Source     struct {
				Kind string `json:"kind"`
				ID   string `json:"id"`
			} `json:"source"`
		} `json:"facts"`
	}
	mustJSON(t, env, &got, "facts", "query", "--user", testUser, "--json", "--predicate", "connects_to_host", "--min-confidence", "0.9")
	var hosts []string
	for _, f := range got.Facts {
		hosts = append(hosts, f.Object)
		if f.Predicate != "connects_to_host" || f.Confidence != 0.9 || f.Source.Kind != "transcript" || !strings.HasPrefix(f.Subject, "action_") {
			t.Errorf("fact %+v, want an action's connects_to_host at 0.9 from a transcript", f)
		}
	}
	if strings.Join(hosts, " ") != "192.168.20.4 build01.example.com" {
		t.Errorf("hosts = %v, want 192.168.20.4 and build01.example.com", hosts)
	}
	if abs, _ := filepath.Abs(refHostsJSON); len(got.Facts) > 0 && got.Facts[0].Source.ID != abs+":2:a1000000-0000-4000-8000-000000000002" {
		t.Errorf("source id = %q, want the absolute file, line 2 and the message uuid", got.Facts[0].Source.ID)
	}

	var objs struct {
		Objects []struct {
			Object   string   `json:"object"`
			Facts    int      `json:"facts"`
			Sessions []string `json:"sessions"`
		} `json:"objects"`
	}
	mustJSON(t, env, &objs, "facts", "query", "--user", testUser, "--predicate", "connects_to_host", "--by-object", "--json")
	if len(objs.Objects) != 2 || objs.Objects[0].Object != "192.168.20.4" || objs.Objects[0].Facts != 1 ||
		strings.Join(objs.Objects[0].Sessions, ",") != "11111111-1111-4111-8111-111111111111" {
		t.Errorf("objects = %+v, want 192.168.20.4 once in the reference session first", objs.Objects)
	}

	out, _, code = run(t, env, "facts", "query", "--user", testUser, "--object", "192.168.20", "--subject", "action_a1000000-0000-4000-8000-000000000002")
	if code != 0 || !strings.Contains(out, "connects_to_host  192.168.20.4") || !strings.Contains(out, "executed_command  sshpass -p 'pwd' ssh root@192.168.20.4 'ls -la'") {
		t.Errorf("text query: exit %d:\n%s", code, out)
	}
	out, _, code = run(t, env, "facts", "query", "--user", testUser, "--session", "no-such-session")
	if code != 0 || strings.TrimSpace(out) != "No facts." {
		t.Errorf("query of an unknown session: exit %d, %q", code, out)
	}
}

func TestIngestTranscriptGrowsAndRules(t *testing.T) {
	env := testEnv(t)
	src, err := os.ReadFile("testdata/transcripts/project-b/sub/session2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Stored    int `json:"stored"`
		Malformed int `json:"malformed"`
		Files     []struct {
			Incomplete bool  `json:"incomplete"`
			Offset     int64 `json:"offset"`
		} `json:"files"`
	}
	mustJSON(t, env, &sum, "ingest", "transcript", "--user", testUser, "--rules", "testdata/rules-extra.json", "--json", path)
	// 10 facts, plus checks_disk for df and du.
	if sum.Stored != 12 || sum.Malformed != 4 || len(sum.Files) != 1 || !sum.Files[0].Incomplete {
		t.Errorf("summary = %+v, want 12 stored, 4 malformed, the last line incomplete", sum)
	}
	out, _, _ := run(t, env, "facts", "query", "--user", testUser, "--predicate", "checks_disk", "--json")
	if strings.Count(out, `"object": "disk usage"`) != 2 {
		t.Errorf("checks_disk facts: %s, want 2", out)
	}
	// The agent finishes its line: only that line is read.
	tail, err := os.ReadFile("../../memory/testdata/transcripts/malformed-tail.txt")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(tail)
	f.Close()
	out, _, code := run(t, env, "ingest", "transcript", "--user", testUser, path)
	if want := "Ingested 1 file (608 bytes, 1 line): 4 facts stored, 0 duplicates skipped, 0 malformed lines.\n"; code != 0 || out != want {
		t.Errorf("after the line was finished: exit %d, %q; want %q", code, out, want)
	}
	// --progress draws the bar even to a buffer.
	_, stderr, code := run(t, env, "ingest", "transcript", "--user", testUser, "--progress", path)
	if code != 0 || !strings.Contains(stderr, "100%") || !strings.Contains(stderr, "\r\033[K") {
		t.Errorf("--progress: exit %d, stderr %q; want a bar at 100%% and the line cleared", code, stderr)
	}
}

func TestIngestTranscriptErrors(t *testing.T) {
	env := testEnv(t)
	runCases(t, env, []cliCase{
		{"no kind", []string{"ingest"}, 2, "ingest needs a kind of input"},
		{"unknown kind", []string{"ingest", "episodes"}, 2, `unknown ingest kind "episodes"`},
		{"no files", []string{"ingest", "transcript", "--user", testUser}, 2, "needs at least one FILE or DIR"},
		{"no user", []string{"ingest", "transcript", "x.jsonl"}, 2, "--user is required"},
		{"missing file", []string{"ingest", "transcript", "--user", testUser, "no/such/file.jsonl"}, 1, "cannot read no/such/file.jsonl"},
		{"bad rules file", []string{"ingest", "transcript", "--user", testUser, "--rules", "testdata/rules-bad.json", refHostsJSON}, 1,
			`testdata/rules-bad.json:3: rule "broken": bad pattern "(unclosed"`},
		{"missing rules file", []string{"ingest", "transcript", "--user", testUser, "--rules", "nope.json", refHostsJSON}, 1, "cannot read rules file"},
		{"query arguments", []string{"facts", "query", "--user", testUser, "extra"}, 2, "facts query takes no arguments"},
		{"query confidence", []string{"facts", "query", "--user", testUser, "--min-confidence", "2"}, 1, "minimum confidence 2 is outside 0..1"},
		{"query limit", []string{"facts", "query", "--user", testUser, "--limit", "100000"}, 1, "limit 100000 is outside"},
	})
}

func TestRenderBar(t *testing.T) {
	cases := []struct {
		name        string
		done, total int64
		elapsed     time.Duration
		want        string
	}{
		{"start", 0, 200e6, 0, "[>         ]   0%  0.0/200.0 MB"},
		{"middle", 90e6, 200e6, 2 * time.Second, "[====>     ]  45%  90.0/200.0 MB  45.0 MB/s"},
		{"done", 200e6, 200e6, 4 * time.Second, "[==========] 100%  200.0/200.0 MB  50.0 MB/s"},
		{"past the end", 300e6, 200e6, time.Second, "[==========] 100%  300.0/200.0 MB  300.0 MB/s"},
		{"nothing to do", 0, 0, time.Second, "[==========] 100%  0.0/0.0 MB  0.0 MB/s"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := renderBar(tc.done, tc.total, tc.elapsed, 10); got != tc.want {
				t.Errorf("renderBar(%d, %d, %v) = %q, want %q", tc.done, tc.total, tc.elapsed, got, tc.want)
			}
		})
	}
}
