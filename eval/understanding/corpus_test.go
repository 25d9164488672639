package understanding

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestLoad(t *testing.T) {
	in := `{"comment": "a header"}

{"name":"one","msg":"I live in Oslo.","facts":[["user","home.city","Oslo"]]}
{"name":"two","speaker":"assistant","now":"2026-06-01T12:00:00Z","turns":["a",{"msg":"b","speaker":"user"}],"facts":[["Ben (husband)","favorites.movie","Up|Heat","rank=2","anchor=2026-06-02","said_by=Jonas"]],"not":[["User","*","*"]]}
`
	cases, err := Load(strings.NewReader(in), "c.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(cases), 2; got != want {
		t.Fatalf("Load: %d cases, want %d", got, want)
	}
	one := cases[0]
	if one.Name != "one" || one.Line != 3 || len(one.Turns) != 1 || one.Turns[0].Speaker != "user" || !one.Turns[0].Now.Equal(DefaultNow) {
		t.Errorf("case one = %+v", one)
	}
	two := cases[1]
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	if len(two.Turns) != 2 || two.Turns[0].Speaker != "assistant" || two.Turns[1].Speaker != "user" || !two.Turns[1].Now.Equal(now) {
		t.Errorf("case two turns = %+v", two.Turns)
	}
	w := two.Facts[0]
	if w.Rank != 2 || w.Anchor != "2026-06-02" || w.SaidBy == nil || w.SaidBy.String() != "Jonas" ||
		len(w.Values) != 2 || w.About.String() != "Ben (husband)" {
		t.Errorf("fact = %+v", w)
	}
	if n := two.Not[0]; n.Key != "*" || n.Values[0] != "*" {
		t.Errorf("not = %+v", n)
	}
}

// TestLoadErrors: every malformed line is refused with its file and line.
func TestLoadErrors(t *testing.T) {
	good := `{"name":"ok","msg":"hi","facts":[]}`
	tests := []struct {
		name, line, want string
	}{
		{"not JSON", `{"name":`, "not a case"},
		{"unknown field", `{"name":"x","msg":"hi","facts":[],"fatcs":[]}`, "unknown field"},
		{"no name", `{"msg":"hi","facts":[]}`, "no name"},
		{"no message", `{"name":"x","facts":[]}`, "no msg and no turns"},
		{"both", `{"name":"x","msg":"a","turns":["b"],"facts":[]}`, "both msg and turns"},
		{"empty msg", `{"name":"x","msg":" ","facts":[]}`, "empty msg"},
		{"empty turn", `{"name":"x","turns":["a",""],"facts":[]}`, "turn 2: empty msg"},
		{"bad turn", `{"name":"x","turns":[3],"facts":[]}`, "turn 1"},
		{"no facts", `{"name":"x","msg":"hi"}`, "no facts"},
		{"short fact", `{"name":"x","msg":"hi","facts":[["user","likes"]]}`, "want [about, key, value"},
		{"bad key", `{"name":"x","msg":"hi","facts":[["user","Home City","Oslo"]]}`, "not a dotted"},
		{"wildcard in facts", `{"name":"x","msg":"hi","facts":[["user","likes","*"]]}`, "only in"},
		{"wildcard key in facts", `{"name":"x","msg":"hi","facts":[["user","*","x"]]}`, "not a dotted"},
		{"empty alternative", `{"name":"x","msg":"hi","facts":[["user","likes","a||b"]]}`, "empty alternative"},
		{"bad option", `{"name":"x","msg":"hi","facts":[["user","likes","a","rnk=1"]]}`, "unknown option"},
		{"bad rank", `{"name":"x","msg":"hi","facts":[["user","favorites.tea","a","rank=0"]]}`, "rank"},
		{"favorite without rank", `{"name":"x","msg":"hi","facts":[["user","favorites.tea","a"]]}`, "needs its rank"},
		{"bad anchor", `{"name":"x","msg":"hi","facts":[["user","plan","a","anchor=2026-13-01"]]}`, "anchor"},
		{"bad label", `{"name":"x","msg":"hi","facts":[["Ben (husband","likes","a"]]}`, "want Name (relation)"},
		{"empty relation", `{"name":"x","msg":"hi","facts":[["Ben (|wife)","likes","a"]]}`, "empty relation"},
		{"bad speaker", `{"name":"x","msg":"hi","speaker":"bot","facts":[]}`, "speaker"},
		{"bad now", `{"name":"x","msg":"hi","now":"tomorrow","facts":[]}`, "RFC 3339"},
		{"duplicate name", `{"name":"ok","msg":"again","facts":[]}`, "already on line 1"},
		{"two values", `{"name":"x","msg":"hi","facts":[]} {}`, "more than one"},
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
