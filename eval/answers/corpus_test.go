package answers

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

func TestLoad(t *testing.T) {
	in := `{"comment": "a header"}

{"scenario": "s", "now": "2026-06-01T12:00:00Z", "setup": ["I live in Oslo.", {"say": "I moved to Rome.", "now": "2026-06-02T12:00:00Z"}, {"episode": "NEXUS v2.3.1 released", "tags": ["nexus"], "now": "2026-06-02T12:00:00Z"}, {"op": "set", "about": "Ben (husband)", "key": "plan", "value": "dentist", "anchor": "2026-06-05", "now": "2026-06-03T08:00:00Z"}]}
{"q": "Where did I live before Rome?", "scenario": "s", "kind": "history", "now": "2026-06-04T08:00:00Z", "items": ["Oslo", "a|b"], "ranks": [1, 2], "not": ["Rome"], "note": "x"}
{"q": "Is Dune one of my favorite books?", "scenario": "s", "kind": "favorites", "now": "2026-06-04T08:00:00Z", "yes": false, "count": 0}
{"q": "What is my blood type?", "scenario": "s", "kind": "unanswerable", "now": "2026-06-04T08:00:00Z", "abstain": true}
`
	c, err := Load(strings.NewReader(in), "c.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(c.Scenarios), 1; got != want {
		t.Fatalf("Load: %d scenarios, want %d", got, want)
	}
	s := c.Scenarios[0]
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	if s.Name != "s" || s.Line != 3 || !s.Now.Equal(now) || len(s.Steps) != 4 {
		t.Fatalf("scenario = %+v", s)
	}
	if st := s.Steps[0]; st.Kind != StepSay || st.Text != "I live in Oslo." || !st.Now.Equal(now) {
		t.Errorf("step 1 = %+v", st)
	}
	if st := s.Steps[1]; st.Kind != StepSay || !st.Now.Equal(now.Add(24*time.Hour)) {
		t.Errorf("step 2 = %+v", st)
	}
	if st := s.Steps[2]; st.Kind != StepEpisode || st.Text != "NEXUS v2.3.1 released" || len(st.Tags) != 1 {
		t.Errorf("step 3 = %+v", st)
	}
	st := s.Steps[3]
	if st.Kind != StepOp || st.Op.Kind != factbase.OpSet || st.Op.Fact.Key != "plan" || st.Op.Fact.Value != "dentist" ||
		st.Op.Fact.Anchor == nil || st.Op.Fact.Anchor.Format(time.DateOnly) != "2026-06-05" || st.About.String() != "Ben (husband)" {
		t.Errorf("step 4 = %+v", st)
	}
	if got, want := len(c.Questions), 3; got != want {
		t.Fatalf("Load: %d questions, want %d", got, want)
	}
	q := c.Questions[0]
	if q.Line != 4 || q.Scenario != "s" || q.Kind != KindHistory || q.Note != "x" || len(q.Items) != 2 ||
		q.Items[0].Rank != 1 || q.Items[1].Rank != 2 || len(q.Items[1].Values) != 2 || len(q.Not) != 1 {
		t.Errorf("question 1 = %+v", q)
	}
	if q := c.Questions[1]; q.Yes == nil || *q.Yes || q.Count == nil || *q.Count != 0 {
		t.Errorf("question 2 = %+v", q)
	}
	if q := c.Questions[2]; !q.Abstain || q.Expectation() != "I don't know" {
		t.Errorf("question 3 = %+v", q)
	}
}

// TestLoadErrors: every malformed line is refused with its file and line.
func TestLoadErrors(t *testing.T) {
	good := `{"scenario": "s", "setup": ["I live in Oslo."]}`
	tests := []struct {
		name, line, want string
	}{
		{"not JSON", `{"q":`, "not a corpus line"},
		{"unknown field", `{"q": "x", "scenario": "s", "kind": "user", "itmes": ["a"]}`, "unknown field"},
		{"neither", `{"note": "x"}`, "neither a scenario"},
		{"two values", `{"comment": "a"} {}`, "more than one"},
		{"scenario without name", `{"scenario": "", "setup": ["hi"]}`, "needs a name"},
		{"duplicate scenario", `{"scenario": "s", "setup": ["hi"]}`, "already on line 1"},
		{"empty setup", `{"scenario": "t", "setup": []}`, "empty setup"},
		{"scenario with items", `{"scenario": "t", "setup": ["hi"], "items": ["a"]}`, "question fields"},
		{"empty message", `{"scenario": "t", "setup": [" "]}`, "setup 1: empty message"},
		{"bad step", `{"scenario": "t", "setup": [3]}`, "setup 1: want a string"},
		{"two step kinds", `{"scenario": "t", "setup": [{"say": "a", "episode": "b"}]}`, "exactly one of"},
		{"no step kind", `{"scenario": "t", "setup": [{"now": "2026-01-01T00:00:00Z"}]}`, "exactly one of"},
		{"say with tags", `{"scenario": "t", "setup": [{"say": "a", "tags": ["x"]}]}`, "only say and now"},
		{"episode with key", `{"scenario": "t", "setup": [{"episode": "a", "key": "x"}]}`, "only episode, tags"},
		{"empty episode", `{"scenario": "t", "setup": [{"episode": ""}]}`, "empty episode"},
		{"bad op", `{"scenario": "t", "setup": [{"op": "delete", "key": "a", "value": "b"}]}`, "want set, remove or retract"},
		{"op bad key", `{"scenario": "t", "setup": [{"op": "set", "key": "Home City", "value": "b"}]}`, "not a dotted"},
		{"op no value", `{"scenario": "t", "setup": [{"op": "set", "key": "plan"}]}`, "needs a value"},
		{"op bad anchor", `{"scenario": "t", "setup": [{"op": "set", "key": "plan", "value": "x", "anchor": "2026-13-01"}]}`, "anchor"},
		{"op bad about", `{"scenario": "t", "setup": [{"op": "set", "about": "Ben (husband", "key": "plan", "value": "x"}]}`, "want Name (relation)"},
		{"op about assistant", `{"scenario": "t", "setup": [{"op": "set", "about": "assistant", "key": "plan", "value": "x"}]}`, "not the assistant"},
		{"bad now", `{"scenario": "t", "now": "tomorrow", "setup": ["hi"]}`, "RFC 3339"},
		{"steps out of order", `{"scenario": "t", "setup": [{"say": "a", "now": "2026-02-01T00:00:00Z"}, {"say": "b", "now": "2026-01-01T00:00:00Z"}]}`, "setup 2: at 2026-01-01"},
		{"unknown scenario", `{"q": "x?", "scenario": "nope", "kind": "user", "items": ["a"]}`, "not defined above"},
		{"question with setup", `{"q": "x?", "scenario": "s", "kind": "user", "items": ["a"], "setup": ["hi"]}`, "has a setup"},
		{"bad kind", `{"q": "x?", "scenario": "s", "kind": "facts", "items": ["a"]}`, "kind \"facts\""},
		{"expects nothing", `{"q": "x?", "scenario": "s", "kind": "user"}`, "expects nothing"},
		{"abstain of another kind", `{"q": "x?", "scenario": "s", "kind": "user", "abstain": true}`, "goes with kind unanswerable"},
		{"unanswerable without abstain", `{"q": "x?", "scenario": "s", "kind": "unanswerable", "items": ["a"]}`, "goes with kind unanswerable"},
		{"abstain with items", `{"q": "x?", "scenario": "s", "kind": "unanswerable", "abstain": true, "items": ["a"]}`, "expects nothing else"},
		{"ranks without items", `{"q": "x?", "scenario": "s", "kind": "favorites", "items": ["a"], "ranks": [1, 2]}`, "2 ranks for 1 items"},
		{"rank zero", `{"q": "x?", "scenario": "s", "kind": "favorites", "items": ["a"], "ranks": [0]}`, "want a number from 1"},
		{"negative count", `{"q": "x?", "scenario": "s", "kind": "favorites", "count": -1}`, "negative"},
		{"empty alternative", `{"q": "x?", "scenario": "s", "kind": "user", "items": ["a||b"]}`, "empty alternative"},
		{"empty not", `{"q": "x?", "scenario": "s", "kind": "user", "items": ["a"], "not": ["."]}`, "not 1"},
		{"asked before setup", `{"q": "x?", "scenario": "s", "kind": "user", "items": ["a"], "now": "2020-01-01T00:00:00Z"}`, "before the scenario's last step"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(strings.NewReader(good+"\n"+tc.line+"\n"), "c.jsonl")
			var le *LineError
			if !errors.As(err, &le) || le.Line != 2 || le.File != "c.jsonl" {
				t.Fatalf("Load(%s) = %v, want an error on c.jsonl:2", tc.line, err)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "c.jsonl:2: ") {
				t.Errorf("Load(%s) = %q, want it to name the line and contain %q", tc.line, err, tc.want)
			}
		})
	}
}

// TestLoadDuplicateQuestion: the same question asked twice of a scenario at the same
// time is refused; at another time it is a new question.
func TestLoadDuplicateQuestion(t *testing.T) {
	in := `{"scenario": "s", "setup": ["hi"]}
{"q": "Where do I live?", "scenario": "s", "kind": "user", "items": ["Oslo"]}
{"q": "Where do I live?", "scenario": "s", "kind": "user", "items": ["Oslo"], "now": "2026-05-01T00:00:00Z"}
{"q": "where do I live?", "scenario": "s", "kind": "user", "items": ["Rome"]}
`
	_, err := Load(strings.NewReader(in), "d.jsonl")
	if err == nil || !strings.HasPrefix(err.Error(), "d.jsonl:4: ") || !strings.Contains(err.Error(), "already on line 2") {
		t.Errorf("Load = %v, want d.jsonl:4 naming line 2", err)
	}
}
