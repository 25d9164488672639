package eval

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// devFile is the development split, read from ../shared beside the repository (the
// data is CC BY-NC 4.0 and is not copied into the repository).
const devFile = "../../shared/bench/locomo/locomo-dev.json"

func loadDev(t *testing.T) []Conversation {
	t.Helper()
	f, err := os.Open(devFile)
	if err != nil {
		t.Skipf("LoCoMo development split not found at %s: %v", devFile, err)
	}
	defer f.Close()
	convs, err := Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return convs
}

// TestLoadDev checks the loader against the counts the data's README states
// (2,080 turns, 99 sessions, 757 questions, 438 image turns) and the evidence defects it
// lists (two unusable ids dropped; two questions left without evidence).
func TestLoadDev(t *testing.T) {
	convs := loadDev(t)
	var turns, sessions, qa, images, dropped, empty int
	for i := range convs {
		c := &convs[i]
		sessions += len(c.Sessions)
		for _, s := range c.Sessions {
			if s.Time.IsZero() {
				t.Errorf("%s session %d has no time", c.ID, s.N)
			}
			for _, tu := range s.Turns {
				turns++
				if strings.Contains(tu.Text, "[shares image: ") {
					images++
				}
			}
		}
		dropped += CleanEvidence(c)
		for _, q := range c.QA {
			qa++
			if len(q.Evidence) == 0 {
				empty++
			}
		}
	}
	if len(convs) != 4 || turns != 2080 || sessions != 99 || qa != 757 || images != 438 {
		t.Errorf("conversations %d, turns %d, sessions %d, questions %d, image turns %d; want 4, 2080, 99, 757, 438",
			len(convs), turns, sessions, qa, images)
	}
	if dropped != 2 || empty != 2 {
		t.Errorf("dropped %d evidence ids, %d questions without evidence; want 2 and 2", dropped, empty)
	}
	// "D8:6; D9:17" in conv-26 becomes two ids.
	found := false
	for _, q := range convs[0].QA {
		if len(q.Raw) == 1 && q.Raw[0] == "D8:6; D9:17" {
			found = len(q.Evidence) == 2 && q.Evidence[0] == "D8:6" && q.Evidence[1] == "D9:17"
		}
	}
	if !found {
		t.Error(`evidence "D8:6; D9:17" was not split into D8:6 and D9:17`)
	}
	// Sessions are in order and the first session's time is parsed exactly.
	if s := convs[0].Sessions[0]; s.N != 1 || !s.Time.Equal(time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)) {
		t.Errorf("conv-26 session 1 = %d at %v, want 1 at 2023-05-08 13:56", s.N, s.Time)
	}
}

func TestCleanEvidence(t *testing.T) {
	c := Conversation{Sessions: []Session{{N: 30, Turns: []Turn{{DiaID: "D30:5"}, {DiaID: "D30:6"}}}},
		QA: []QA{{Raw: []string{"D30:05"}}, {Raw: []string{"D30:5; D30:6"}}, {Raw: []string{"D"}}, {Raw: []string{"D31:1", "D30:6"}}, {}}}
	if got := CleanEvidence(&c); got != 2 {
		t.Errorf("dropped %d, want 2 (D and D31:1)", got)
	}
	want := []string{"D30:5", "D30:5 D30:6", "", "D30:6", ""}
	for i, q := range c.QA {
		if got := strings.Join(q.Evidence, " "); got != want[i] {
			t.Errorf("question %d evidence %q, want %q", i, got, want[i])
		}
	}
}

func TestRecall(t *testing.T) {
	cases := []struct {
		ev, got []string
		k       int
		want    float64
	}{
		{[]string{"a", "b"}, []string{"a", "x", "b"}, 3, 1},
		{[]string{"a", "b"}, []string{"a", "x", "b"}, 2, 0.5},
		{[]string{"a"}, nil, 5, 0},
		{nil, nil, 5, 1},
	}
	for _, tc := range cases {
		if got := Recall(tc.ev, tc.got, tc.k); got != tc.want {
			t.Errorf("Recall(%v, %v, %d) = %v, want %v", tc.ev, tc.got, tc.k, got, tc.want)
		}
	}
}

// oracle retrieves the evidence of each question (when known) and a fixed distractor.
type oracle struct {
	answers map[string][]string
	turns   int
}

func (o *oracle) Ingest(context.Context, Turn, time.Time) error { o.turns++; return nil }
func (o *oracle) Retrieve(_ context.Context, q string, k int) ([]string, error) {
	return append([]string{"D0:0"}, o.answers[q]...), nil
}
func (o *oracle) Close() error { return nil }

func TestRunScoring(t *testing.T) {
	c := Conversation{ID: "c", Sessions: []Session{{N: 1, Turns: []Turn{{DiaID: "D1:1"}, {DiaID: "D1:2"}, {DiaID: "D1:3"}}}},
		QA: []QA{
			{Question: "q1", Category: 1, Raw: []string{"D1:1", "D1:2"}},
			{Question: "q2", Category: 4, Raw: []string{"D1:3"}},
			{Question: "q5", Category: 5, Raw: []string{"D1:2"}},
			{Question: "none", Category: 3, Raw: nil},
		}}
	answers := map[string][]string{"q1": {"D1:2", "D1:1"}, "q2": {"D1:3"}}
	rep, err := Run(context.Background(), []Conversation{c}, Options{Ks: []int{1, 2, 3},
		NewSystem: func(context.Context, Conversation) (System, error) { return &oracle{answers: answers}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		k, group string
		want     float64
	}{
		{"1", "1", 0}, {"2", "1", 0.5}, {"3", "1", 1}, {"2", "4", 1}, {"3", "5", 0},
		{"3", "overall", 1}, {"3", "all", 2.0 / 3}, {"2", "overall", 0.75},
	}
	for _, c := range checks {
		if got := rep.Recall[c.k][c.group]; got != c.want {
			t.Errorf("recall@%s[%s] = %v, want %v", c.k, c.group, got, c.want)
		}
	}
	if rep.SkippedNoEvid != 1 || rep.Questions["all"] != 3 || rep.Ingest.Turns != 3 {
		t.Errorf("skipped %d, questions %d, turns %d; want 1, 3, 3", rep.SkippedNoEvid, rep.Questions["all"], rep.Ingest.Turns)
	}
	// One conversation: its own figures are the report's.
	pc, ok := rep.PerConversation["c"]
	if !ok || len(rep.PerConversation) != 1 {
		t.Fatalf("per conversation %v, want c alone", rep.PerConversation)
	}
	for _, c := range checks {
		if got, want := pc.Recall[c.k][c.group], rep.Recall[c.k][c.group]; got != want {
			t.Errorf("c: recall@%s[%s] = %v, want %v", c.k, c.group, got, want)
		}
	}
	if got, want := pc.Questions["overall"], rep.Questions["overall"]; got != want {
		t.Errorf("c: %d questions overall, want %d", got, want)
	}
}

func TestRunPerConversation(t *testing.T) {
	conv := func(id string) Conversation {
		return Conversation{ID: id, Sessions: []Session{{N: 1, Turns: []Turn{{DiaID: "D1:1"}, {DiaID: "D1:2"}}}},
			QA: []QA{{Question: id, Category: 4, Raw: []string{"D1:1"}}}}
	}
	// a's question is answered at rank 2 (after the distractor), b's not at all.
	answers := map[string][]string{"a": {"D1:1"}}
	rep, err := Run(context.Background(), []Conversation{conv("a"), conv("b")}, Options{Ks: []int{1, 2},
		NewSystem: func(context.Context, Conversation) (System, error) { return &oracle{answers: answers}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		conv, k string
		want    float64
	}{{"a", "1", 0}, {"a", "2", 1}, {"b", "2", 0}} {
		if got := rep.PerConversation[tc.conv].Recall[tc.k]["overall"]; got != tc.want {
			t.Errorf("%s: recall@%s = %v, want %v", tc.conv, tc.k, got, tc.want)
		}
	}
	if got, want := rep.Recall["2"]["overall"], 0.5; got != want {
		t.Errorf("recall@2 over both = %v, want %v", got, want)
	}
}
