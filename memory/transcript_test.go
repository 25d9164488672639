package memory_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/storetest"
	"github.com/factbase/factbase/transcript"
)

// readFixture returns a file of testdata/transcripts.
func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "transcripts", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ingestFile ingests the file at path under its own name.
func ingestFile(t *testing.T, e *memory.Engine, u factbase.UserID, path string, o ingest.IngestOptions) ingest.IngestSummary {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sum, err := e.Ingest.IngestTranscript(t.Context(), u, f, path, o)
	if err != nil {
		t.Fatalf("IngestTranscript(%s): %v", path, err)
	}
	return sum
}

// fixtureFile copies testdata/transcripts/name to a new temporary file and returns
// its path and contents.
func fixtureFile(t *testing.T, name string) (path string, body []byte) {
	t.Helper()
	body = readFixture(t, name)
	return writeTemp(t, name, body), body
}

// ingestFixture ingests a copy of testdata/transcripts/name and returns the summary
// and the copy's path.
func ingestFixture(t *testing.T, e *memory.Engine, u factbase.UserID, name string, o ingest.IngestOptions) (ingest.IngestSummary, string) {
	t.Helper()
	path, _ := fixtureFile(t, name)
	return ingestFile(t, e, u, path, o), path
}

// writeTemp writes b to a new file in a temporary directory and returns its path.
func writeTemp(t *testing.T, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func appendFile(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// allFacts returns every current transcript fact of u as "subject predicate object
// confidence", sorted.
func allFacts(t *testing.T, e *memory.Engine, u factbase.UserID) []string {
	t.Helper()
	facts, _, err := e.Ingest.TranscriptFacts(t.Context(), u, factbase.TranscriptQuery{Limit: ingest.MaxTranscriptLimit})
	if err != nil {
		t.Fatal(err)
	}
	out := mapStrings(facts, func(f factbase.Fact) string {
		return fmt.Sprintf("%s %s %s %.1f", f.Subject, f.Key, f.Value, f.Confidence)
	})
	slices.Sort(out)
	return out
}

// diffFacts is "" when the allFacts lists got and want are the same, and both, a
// fact a line, when they differ.
func diffFacts(got, want []string) string {
	if slices.Equal(got, want) {
		return ""
	}
	return strings.Join(got, "\n") + "\nwant\n" + strings.Join(want, "\n")
}

// ingestFresh ingests body whole for a new user of a new engine and returns the
// summary and the facts it stored: what a clean ingest yields.
func ingestFresh(t *testing.T, body []byte, o ingest.IngestOptions) (ingest.IngestSummary, []string) {
	t.Helper()
	e, u := newEngine(t, memory.Options{}), storetest.NewUser()
	sum, err := e.Ingest.IngestTranscript(t.Context(), u, bytes.NewReader(body), "f.jsonl", o)
	if err != nil {
		t.Fatal(err)
	}
	return sum, allFacts(t, e, u)
}

// errCrash is the failure of crashEngine's write.
var errCrash = errors.New("simulated crash")

// crashEngine returns an engine whose failAt-th write transaction fails with
// errCrash, and the function that lets every later write through.
func crashEngine(t *testing.T, failAt int) (e *memory.Engine, repair func()) {
	t.Helper()
	writes := 0
	e = newEngine(t, memory.Options{BeforeCheck: func(context.Context, factbase.Tx) error {
		writes++
		if writes == failAt {
			return errCrash
		}
		return nil
	}})
	return e, func() { failAt = -1 }
}

// TestIngestReference is the reference example: a Bash tool use running
// sshpass ... ssh root@192.168.20.4 'ls -la'.
func TestIngestReference(t *testing.T) {
	e := newEngine(t, memory.Options{})
	u := storetest.NewUser()
	sum, path := ingestFixture(t, e, u, "reference.jsonl", ingest.IngestOptions{})
	if sum.Lines != 2 || sum.Messages != 2 || sum.Malformed != 0 || sum.Stored != sum.Facts || sum.Stored != 8 {
		t.Errorf("summary = %+v, want 2 lines, 2 messages, 8 facts all stored", sum)
	}
	const action = "action_a1000000-0000-4000-8000-000000000002"
	facts, _, err := e.Ingest.TranscriptFacts(t.Context(), u, factbase.TranscriptQuery{Subject: action})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		value, extractor string
		confidence       float64
	}
	wants := map[string]want{
		"part_of_task":     {"task_a1000000-0000-4000-8000-000000000001", transcript.RuleStructural, 1},
		"used_tool":        {"Bash", transcript.RuleStructural, 1},
		"executed_command": {"sshpass -p 'pwd' ssh root@192.168.20.4 'ls -la'", transcript.RuleStructural, 1},
		"connects_to_host": {"192.168.20.4", "ssh-target", 0.9},
		"operation_type":   {"verification", "verify-listing", 0.8},
	}
	if len(facts) != len(wants) {
		t.Errorf("%d facts of %s, want %d", len(facts), action, len(wants))
	}
	ts := time.Date(2025, 6, 2, 18, 0, 2, 0, time.UTC)
	for _, f := range facts {
		w, ok := wants[f.Key]
		if !ok {
			t.Errorf("unexpected fact %s(%s)", f.Key, f.Value)
			continue
		}
		if f.Value != w.value || f.Confidence != w.confidence || f.Extractor != w.extractor {
			t.Errorf("%s = %q %.1f by %s, want %q %.1f by %s", f.Key, f.Value, f.Confidence, f.Extractor, w.value, w.confidence, w.extractor)
		}
		if f.Cardinality != factbase.Many || f.Category != factbase.Technical || f.Type != ingest.TranscriptFactType || !f.Current {
			t.Errorf("%s: cardinality %s, category %s, type %q, current %v; want many, technical, transcript, current",
				f.Key, f.Cardinality, f.Category, f.Type, f.Current)
		}
		if got, want := f.Source, (factbase.Source{Kind: factbase.SourceTranscript, ID: path + ":2:a1000000-0000-4000-8000-000000000002"}); got != want {
			t.Errorf("%s source = %+v, want %+v", f.Key, got, want)
		}
		if !f.ValidFrom.Equal(ts) {
			t.Errorf("%s valid from %v, want the message's time %v", f.Key, f.ValidFrom, ts)
		}
	}
}

// TestIngestTwiceAndGrow: the same file twice stores nothing the second time;
// appended lines store only their facts, linked to the task of the earlier part.
func TestIngestTwiceAndGrow(t *testing.T) {
	full := readFixture(t, "rules.jsonl")
	lines := bytes.SplitAfter(full, []byte("\n"))
	head := bytes.Join(lines[:9], nil)
	tail := bytes.Join(lines[9:], nil)

	// What the whole file yields, ingested at once.
	refSum, want := ingestFresh(t, full, ingest.IngestOptions{})

	e := newEngine(t, memory.Options{})
	u := storetest.NewUser()
	path := writeTemp(t, "rules.jsonl", head)
	first := ingestFile(t, e, u, path, ingest.IngestOptions{})
	if first.Stored == 0 || first.Lines != 9 || first.Offset != int64(len(head)) {
		t.Fatalf("first ingest = %+v, want facts stored, 9 lines, offset %d", first, len(head))
	}
	second := ingestFile(t, e, u, path, ingest.IngestOptions{})
	if second.Stored != 0 || second.Facts != 0 || second.Lines != 0 || second.Bytes != 0 || !second.Resumed || second.Rewritten {
		t.Errorf("second ingest of the same file = %+v, want nothing read, resumed", second)
	}
	appendFile(t, path, tail)
	third := ingestFile(t, e, u, path, ingest.IngestOptions{})
	if !third.Resumed || third.Lines != len(lines[9:])-1 || third.Bytes != int64(len(tail)) {
		t.Errorf("third ingest = %+v, want resumed, %d lines, %d bytes", third, len(lines[9:])-1, len(tail))
	}
	if third.Duplicate != 0 || third.Stored != refSum.Stored-first.Stored {
		t.Errorf("third ingest stored %d (%d duplicates), want %d and none", third.Stored, third.Duplicate, refSum.Stored-first.Stored)
	}
	if d := diffFacts(allFacts(t, e, u), want); d != "" {
		t.Errorf("facts after two parts differ from the whole file at once:\n%s", d)
	}
	// The last action's task is in the first part: the link survived the resume.
	facts, _, _ := e.Ingest.TranscriptFacts(t.Context(), u, factbase.TranscriptQuery{
		Subject: "action_b2000000-0000-4000-8000-000000000027", Predicate: transcript.PredPartOfTask})
	if len(facts) != 1 || facts[0].Value != "task_b2000000-0000-4000-8000-000000000001" {
		t.Errorf("part_of_task of the appended action = %v, want the task of line 1", facts)
	}
	// Sessions count every line once.
	ss, _, err := e.Ingest.TranscriptSessions(t.Context(), u, "", 0, 0)
	if err != nil || len(ss) != 1 {
		t.Fatalf("sessions = %v, %v", ss, err)
	}
	if got, want := ss[0].Users+ss[0].Assistants+ss[0].Other, len(lines)-1; got != want {
		t.Errorf("session counts %d lines, want %d", got, want)
	}
}

// TestIngestEveryRule: the rules fixture fires every built-in rule, and each
// stored fact names its rule as extractor.
func TestIngestEveryRule(t *testing.T) {
	e := newEngine(t, memory.Options{})
	u := storetest.NewUser()
	ingestFixture(t, e, u, "rules.jsonl", ingest.IngestOptions{})
	for _, r := range transcript.DefaultRules().List() {
		t.Run(r.Name, func(t *testing.T) {
			facts, _, err := e.Ingest.TranscriptFacts(t.Context(), u, factbase.TranscriptQuery{Predicate: r.Predicate})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, f := range facts {
				if f.Extractor == r.Name {
					n++
					if f.Confidence != r.Confidence {
						t.Errorf("%s(%s) confidence %.2f, want %.2f", f.Key, f.Value, f.Confidence, r.Confidence)
					}
				}
			}
			if n == 0 {
				t.Errorf("no %s fact by rule %s", r.Predicate, r.Name)
			}
		})
	}
}

// TestIngestContentForms: every content form of a session log, and the session
// row it makes.
func TestIngestContentForms(t *testing.T) {
	e := newEngine(t, memory.Options{})
	u := storetest.NewUser()
	sum, path := ingestFixture(t, e, u, "forms.jsonl", ingest.IngestOptions{})
	if sum.Lines != 15 || sum.Messages != 15 || sum.Malformed != 0 {
		t.Errorf("summary = %+v, want 15 lines and messages, none malformed", sum)
	}
	const a, task = "action_c3000000-0000-4000-8000-0000000000", "task_c3000000-0000-4000-8000-0000000000"
	want := []string{
		a + "03 part_of_task " + task + "02 1.0", // thinking only
		a + "04 part_of_task " + task + "02 1.0", // text block
		a + "05 mentions_path /home/dev/project/deploy.sh 0.8",
		a + "05 part_of_task " + task + "02 1.0",
		a + "05 used_tool Read 1.0", // a non-shell tool: no executed_command
		a + "07 connects_to_host staging.example.com 0.9",
		a + "07 executed_command ssh deploy@staging.example.com true 1.0", // exec_command with a cmd list
		a + "07 part_of_task " + task + "02 1.0",
		a + "07 used_tool exec_command 1.0",
		a + "09 part_of_task " + task + "02 1.0", // an unknown block type
		a + "13 part_of_task " + task + "02 1.0", // a sidechain
		a + "13 used_tool Task 1.0",
		task + "01 in_session 33333333-3333-4333-8333-333333333333 1.0", // string content
		task + "01 task_text Why does the deploy script fail on the staging host? 1.0",
		task + "02 in_session 33333333-3333-4333-8333-333333333333 1.0", // text blocks
		task + "02 task_text It started after the last merge. 1.0",
		// No task for the tool results, the meta message or the interruption.
	}
	if d := diffFacts(allFacts(t, e, u), want); d != "" {
		t.Errorf("facts:\n%s", d)
	}
	ss, _, err := e.Ingest.TranscriptSessions(t.Context(), u, "33333333-3333-4333-8333-333333333333", 0, 0)
	if err != nil || len(ss) != 1 {
		t.Fatalf("sessions = %v, %v; want one", ss, err)
	}
	s := ss[0]
	if s.File != path || s.CWD != "/home/dev/project" || s.GitBranch != "main" || s.Version != "1.0.61" ||
		s.Summary != "Fix the flaky deploy script" || s.Users != 6 || s.Assistants != 6 || s.Other != 3 {
		t.Errorf("session = %+v, want forms.jsonl in /home/dev/project on main, 1.0.61, the summary, 6 users, 6 assistants, 3 other", s)
	}
	if !s.First.Equal(time.Date(2025, 6, 2, 18, 0, 1, 0, time.UTC)) || !s.Last.Equal(time.Date(2025, 6, 2, 18, 0, 13, 0, time.UTC)) {
		t.Errorf("session time range %v..%v, want 18:00:01..18:00:13", s.First, s.Last)
	}
}

// TestIngestMalformed: malformed lines are counted, listed with their line numbers
// and skipped; a truncated last line is left for later and read once complete.
func TestIngestMalformed(t *testing.T) {
	e := newEngine(t, memory.Options{})
	u := storetest.NewUser()
	path, body := fixtureFile(t, "malformed.jsonl")
	sum := ingestFile(t, e, u, path, ingest.IngestOptions{})
	var bad []string
	for _, b := range sum.Bad {
		bad = append(bad, fmt.Sprintf("%d: %s", b.Line, b.Reason))
	}
	wantBad := []string{
		"2: invalid JSON at column 88: unterminated string",
		"3: line is not a JSON object",
		"4: line has no type",
		"5: assistant line has no uuid",
	}
	if sum.Malformed != 4 || strings.Join(bad, "\n") != strings.Join(wantBad, "\n") {
		t.Errorf("malformed %d:\n%s\nwant 4:\n%s", sum.Malformed, strings.Join(bad, "\n"), strings.Join(wantBad, "\n"))
	}
	cut := int64(bytes.LastIndexByte(body, '\n') + 1)
	if !sum.Incomplete || sum.Offset != cut || sum.Lines != 8 {
		t.Errorf("summary = %+v, want incomplete, offset %d, 8 lines", sum, cut)
	}
	hosts := func() []string {
		objs, _, err := e.Ingest.TranscriptObjects(t.Context(), u, factbase.TranscriptQuery{Predicate: "connects_to_host"})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, o := range objs {
			out = append(out, o.Object)
		}
		sort.Strings(out)
		return out
	}
	if got, want := strings.Join(hosts(), " "), "build01.example.com"; got != want {
		t.Errorf("hosts before the last line is complete: %s, want %s", got, want)
	}
	appendFile(t, path, readFixture(t, "malformed-tail.txt"))
	sum = ingestFile(t, e, u, path, ingest.IngestOptions{})
	if sum.Incomplete || sum.Malformed != 0 || sum.Lines != 1 || sum.Stored != 4 || !sum.Resumed {
		t.Errorf("after completing the last line: %+v, want 1 line read, 4 facts stored, resumed", sum)
	}
	if got, want := strings.Join(hosts(), " "), "build01.example.com build02.example.com"; got != want {
		t.Errorf("hosts = %s, want %s", got, want)
	}
}

// TestIngestFinished: with Finished, a complete JSON last line without a newline
// is read at once.
func TestIngestFinished(t *testing.T) {
	e := newEngine(t, memory.Options{})
	u := storetest.NewUser()
	body := bytes.TrimSuffix(readFixture(t, "reference.jsonl"), []byte("\n"))
	path := writeTemp(t, "ref.jsonl", body)
	sum := ingestFile(t, e, u, path, ingest.IngestOptions{})
	if !sum.Incomplete || sum.Lines != 1 {
		t.Errorf("without Finished: %+v, want the last line left incomplete", sum)
	}
	sum = ingestFile(t, e, u, path, ingest.IngestOptions{Finished: true})
	if sum.Incomplete || sum.Lines != 1 || sum.Offset != int64(len(body)) || sum.Stored != 5 {
		t.Errorf("with Finished: %+v, want the last line read and its 5 facts stored", sum)
	}
}

// TestIngestRewritten: a file rewritten rather than appended to is detected and
// read again from the start; only the new facts are stored and the session row is
// rebuilt, not double counted.
func TestIngestRewritten(t *testing.T) {
	e := newEngine(t, memory.Options{})
	u := storetest.NewUser()
	path, body := fixtureFile(t, "rules.jsonl")
	first := ingestFile(t, e, u, path, ingest.IngestOptions{})
	// Same length, one command changed in place.
	changed := bytes.Replace(body, []byte("ssh admin@web01.example.com uptime"), []byte("ssh admin@web02.example.com uptime"), 1)
	if bytes.Equal(changed, body) {
		t.Fatal("the fixture no longer has the command this test rewrites")
	}
	if err := os.WriteFile(path, changed, 0o600); err != nil {
		t.Fatal(err)
	}
	sum := ingestFile(t, e, u, path, ingest.IngestOptions{})
	if !sum.Rewritten || sum.Resumed || sum.Lines != first.Lines {
		t.Errorf("summary = %+v, want rewritten, every line read again", sum)
	}
	// The changed line yields a new executed_command and a new host; all else is
	// already stored.
	if sum.Stored != 2 || sum.Duplicate != first.Stored-2 {
		t.Errorf("stored %d, duplicates %d; want 2 and %d", sum.Stored, sum.Duplicate, first.Stored-2)
	}
	ss, _, err := e.Ingest.TranscriptSessions(t.Context(), u, "", 0, 0)
	if err != nil || len(ss) != 1 {
		t.Fatalf("sessions = %v, %v", ss, err)
	}
	if got, want := ss[0].Users+ss[0].Assistants+ss[0].Other, first.Lines; got != want {
		t.Errorf("session counts %d lines after the re-read, want %d", got, want)
	}
	// A truncated file is a rewrite too.
	lines := bytes.SplitAfter(changed, []byte("\n"))
	if err := os.WriteFile(path, bytes.Join(lines[:3], nil), 0o600); err != nil {
		t.Fatal(err)
	}
	sum = ingestFile(t, e, u, path, ingest.IngestOptions{})
	if !sum.Rewritten || sum.Lines != 3 || sum.Stored != 0 || sum.Offset != int64(len(bytes.Join(lines[:3], nil))) {
		t.Errorf("after truncation: %+v, want rewritten, 3 lines, nothing new", sum)
	}
}

// TestIngestRulesFile: a user's rules add, replace and disable rules; a fact the
// write path would refuse is counted as invalid and skipped.
func TestIngestRulesFile(t *testing.T) {
	file := `[
  {"name": "ssh-target", "predicate": "connects_to_host", "confidence": 0.95, "applies_to": "command",
   "pattern": "@([a-z0-9.]+)", "object": "group:1"},
  {"name": "uptime", "predicate": "checks_uptime", "confidence": 0.5, "applies_to": "command", "pattern": "\\buptime\\b"},
  {"name": "dots", "predicate": "odd", "confidence": 0.5, "applies_to": "command", "pattern": "uptime", "object": "..."},
  {"name": "verify-listing", "predicate": "operation_type", "disabled": true}
]`
	mine, err := transcript.LoadRules(strings.NewReader(file), "mine.json")
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, memory.Options{})
	u := storetest.NewUser()
	sum, _ := ingestFixture(t, e, u, "rules.jsonl",
		ingest.IngestOptions{Rules: transcript.DefaultRules().Merge(mine)})
	if sum.Invalid != 1 {
		t.Errorf("invalid facts = %d, want 1 (the object \"...\")", sum.Invalid)
	}
	count := func(pred, extractor string) int {
		facts, _, err := e.Ingest.TranscriptFacts(t.Context(), u, factbase.TranscriptQuery{Predicate: pred})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range facts {
			if f.Extractor == extractor {
				n++
			}
		}
		return n
	}
	cases := []struct {
		name, predicate, extractor string
		want                       int
	}{
		{"added", "checks_uptime", "uptime", 1},
		{"refused object", "odd", "dots", 0},
		{"disabled", "operation_type", "verify-listing", 0},
		{"kept", "operation_type", "verify-diff", 1},
	}
	for _, tc := range cases {
		if got := count(tc.predicate, tc.extractor); got != tc.want {
			t.Errorf("%s: %d %s facts by %s, want %d", tc.name, got, tc.predicate, tc.extractor, tc.want)
		}
	}
	hosts, _, _ := e.Ingest.TranscriptFacts(t.Context(), u, factbase.TranscriptQuery{Predicate: "connects_to_host"})
	got := map[string]float64{}
	for _, h := range hosts {
		got[h.Value] = h.Confidence
	}
	// The replaced ssh-target rule at 0.95; the built-in url-host and host-option
	// rules still apply.
	if want := map[string]float64{"web01.example.com": 0.95, "db.internal": 0.9, "status.internal": 0.9}; !reflect.DeepEqual(got, want) {
		t.Errorf("hosts = %v, want %v", got, want)
	}
}

// TestIngestCrashMidway: a write that fails after some batches committed leaves
// exactly those batches (facts, checkpoint, sessions); running again stores the
// rest, and the result equals one clean ingest.
func TestIngestCrashMidway(t *testing.T) {
	body := readFixture(t, "rules.jsonl")
	_, want := ingestFresh(t, body, ingest.IngestOptions{})

	const failAt = 3
	e, repair := crashEngine(t, failAt)
	u := storetest.NewUser()
	path := writeTemp(t, "rules.jsonl", body)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var progress []int64
	sum, err := e.Ingest.IngestTranscript(t.Context(), u, f, path, ingest.IngestOptions{BatchFacts: 10,
		Progress: func(p ingest.IngestProgress) { progress = append(progress, p.Offset) }})
	f.Close()
	if !errors.Is(err, errCrash) {
		t.Fatalf("IngestTranscript = %v, want the simulated crash", err)
	}
	if len(progress) != failAt-1 {
		t.Fatalf("%d batches committed before the crash, want %d", len(progress), failAt-1)
	}
	cp, ok, err := e.Ingest.TranscriptCheckpoint(t.Context(), u, path)
	if err != nil || !ok || cp.Offset != progress[len(progress)-1] || sum.Offset != cp.Offset {
		t.Fatalf("checkpoint after the crash = %+v, %v, %v; summary offset %d; want offset %d", cp, ok, err, sum.Offset, progress[len(progress)-1])
	}
	half := allFacts(t, e, u)
	if len(half) == 0 || len(half) >= len(want) || sum.Stored != len(half) {
		t.Errorf("after the crash %d facts (summary %d), want some of %d", len(half), sum.Stored, len(want))
	}
	ss, _, _ := e.Ingest.TranscriptSessions(t.Context(), u, "", 0, 0)
	if len(ss) != 1 || ss[0].Users+ss[0].Assistants != cp.Line {
		t.Errorf("sessions after the crash = %+v, want one counting the %d committed lines", ss, cp.Line)
	}

	repair()
	again := ingestFile(t, e, u, path, ingest.IngestOptions{BatchFacts: 10})
	if !again.Resumed || again.Duplicate != 0 || again.Stored != len(want)-len(half) {
		t.Errorf("second run = %+v, want resumed, %d stored, no duplicates", again, len(want)-len(half))
	}
	if d := diffFacts(allFacts(t, e, u), want); d != "" {
		t.Errorf("facts after crash and rerun differ from a clean ingest:\n%s", d)
	}
	ss, _, _ = e.Ingest.TranscriptSessions(t.Context(), u, "", 0, 0)
	if len(ss) != 1 || ss[0].Users+ss[0].Assistants != again.Line {
		t.Errorf("sessions after the rerun = %+v, want one counting all %d lines", ss, again.Line)
	}
}

// TestIngestConcurrentConflict: when another ingest of the same file commits in
// between, the first one stops with a conflict instead of writing a stale
// checkpoint.
func TestIngestConcurrentConflict(t *testing.T) {
	e := newEngine(t, memory.Options{})
	u := storetest.NewUser()
	path, _ := fixtureFile(t, "rules.jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ran := false
	_, err = e.Ingest.IngestTranscript(t.Context(), u, f, path, ingest.IngestOptions{BatchFacts: 10,
		Progress: func(ingest.IngestProgress) {
			if !ran {
				ran = true
				ingestFile(t, e, u, path, ingest.IngestOptions{}) // another run finishes the file
			}
		}})
	if factbase.ErrorCode(err) != factbase.ECONFLICT {
		t.Fatalf("IngestTranscript = %v, want conflict", err)
	}
	again := ingestFile(t, e, u, path, ingest.IngestOptions{})
	if again.Lines != 0 || !again.Resumed {
		t.Errorf("after the conflict: %+v, want the file fully ingested already", again)
	}
}

// TestTranscriptQueries: hosts with counts and sessions across files; validation.
func TestTranscriptQueries(t *testing.T) {
	e := newEngine(t, memory.Options{})
	u := storetest.NewUser()
	for _, name := range []string{"reference.jsonl", "rules.jsonl", "forms.jsonl", "malformed.jsonl"} {
		ingestFixture(t, e, u, name, ingest.IngestOptions{})
	}
	ctx := t.Context()
	objs, _, err := e.Ingest.TranscriptObjects(ctx, u, factbase.TranscriptQuery{Predicate: "connects_to_host", MinConfidence: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range objs {
		got = append(got, fmt.Sprintf("%s %d %s", o.Object, o.Facts, strings.Join(o.Sessions, ",")))
	}
	want := []string{
		"192.168.20.4 1 11111111-1111-4111-8111-111111111111",
		"build01.example.com 1 44444444-4444-4444-8444-444444444444",
		"db.internal 1 22222222-2222-4222-8222-222222222222",
		"staging.example.com 1 33333333-3333-4333-8333-333333333333",
		"status.internal 1 22222222-2222-4222-8222-222222222222",
		"web01.example.com 1 22222222-2222-4222-8222-222222222222",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("hosts:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	bySession, _, err := e.Ingest.TranscriptFacts(ctx, u, factbase.TranscriptQuery{Session: "11111111-1111-4111-8111-111111111111"})
	if err != nil || len(bySession) != 8 {
		t.Errorf("facts of the reference session: %d, %v; want 8", len(bySession), err)
	}
	bad := []struct {
		name string
		user factbase.UserID
		q    factbase.TranscriptQuery
	}{
		{"confidence over 1", u, factbase.TranscriptQuery{MinConfidence: 1.5}},
		{"negative confidence", u, factbase.TranscriptQuery{MinConfidence: -0.1}},
		{"limit over max", u, factbase.TranscriptQuery{Limit: ingest.MaxTranscriptLimit + 1}},
		{"negative offset", u, factbase.TranscriptQuery{Offset: -1}},
		{"bad predicate", u, factbase.TranscriptQuery{Predicate: " x"}},
		{"bad user", "alice", factbase.TranscriptQuery{}},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := e.Ingest.TranscriptFacts(ctx, tc.user, tc.q); factbase.ErrorCode(err) != factbase.EINVALID {
				t.Errorf("TranscriptFacts: %v, want invalid", err)
			}
			if _, _, err := e.Ingest.TranscriptObjects(ctx, tc.user, tc.q); factbase.ErrorCode(err) != factbase.EINVALID {
				t.Errorf("TranscriptObjects: %v, want invalid", err)
			}
		})
	}
}

// TestIngestValidation: a bad user or file name is refused before anything is read.
func TestIngestValidation(t *testing.T) {
	e := newEngine(t, memory.Options{})
	cases := []struct {
		name string
		user factbase.UserID
		file string
	}{
		{"bad user", "alice", "x.jsonl"},
		{"empty name", storetest.NewUser(), ""},
		{"long name", storetest.NewUser(), strings.Repeat("x", ingest.MaxTranscriptName+1)},
		{"invalid UTF-8", storetest.NewUser(), "x\xff.jsonl"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.Ingest.IngestTranscript(t.Context(), tc.user, strings.NewReader("{}\n"), tc.file, ingest.IngestOptions{})
			if factbase.ErrorCode(err) != factbase.EINVALID {
				t.Errorf("IngestTranscript = %v, want invalid", err)
			}
		})
	}
	// A future timestamp does not make a fact valid from the future.
	u := storetest.NewUser()
	future := bytes.ReplaceAll(readFixture(t, "reference.jsonl"), []byte("2025-06-02"), []byte("2999-01-01"))
	ingestFile(t, e, u, writeTemp(t, "future.jsonl", future), ingest.IngestOptions{})
	facts, _, _ := e.Ingest.TranscriptFacts(t.Context(), u, factbase.TranscriptQuery{})
	for _, f := range facts {
		if f.ValidFrom.After(f.RecordedAt) {
			t.Errorf("%s valid from %v, after it was recorded (%v)", f.Key, f.ValidFrom, f.RecordedAt)
		}
	}
	// A canceled context stops the ingest.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := e.Ingest.IngestTranscript(ctx, u, bytes.NewReader(future), "c.jsonl", ingest.IngestOptions{}); err == nil {
		t.Error("IngestTranscript with a canceled context succeeded")
	}
}
