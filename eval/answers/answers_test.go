package answers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/sqlite"
)

// The held-out targets of issue #24, checked when FACTBASE_ANSWERS_TARGETS=1.
const (
	targetAccuracy = 0.90
	targetInvented = 0
)

// The corpus sizes this instrument promises, in questions (issue #24 asks for at least
// 300 in all and 80 held out).
const (
	minTuning  = 320
	minHeldout = 90
)

// issueQuestions are the questions issue #24 quotes; each must be in the corpus.
var issueQuestions = []string{
	"Who is my husband?", "When is Kai's birthday?", "Where does my brother work?", "How old is Max?",
	"Do we have any pets?", "Is anyone in my family allergic to nuts?", "What do I have on Friday?",
	"Where did I live before Oslo?", "How many favorite podcasts do I have?", "Is Dune one of my favorite books?",
	"Is BTC one of my favorite cryptos?",
}

func loadFile(t *testing.T, name string) Corpus {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := Load(f, name)
	if err != nil {
		t.Fatalf("corpus: %v", err)
	}
	return c
}

// TestAnswers builds the tuning and held-out scenarios on one engine, asks their
// questions and logs the scores. It fails on a malformed corpus, not on low scores,
// unless FACTBASE_ANSWERS_TARGETS=1 asks for the held-out targets.
// FACTBASE_ANSWERS_REPORT=path writes both reports there as JSON.
func TestAnswers(t *testing.T) {
	sets := []struct {
		name, file string
		min        int
	}{{"tuning", "corpus.jsonl", minTuning}, {"heldout", "heldout.jsonl", minHeldout}}
	loaded := make([]Corpus, len(sets))
	asked := map[string]bool{}
	for i, s := range sets {
		loaded[i] = loadFile(t, s.file)
		if n := len(loaded[i].Questions); n < s.min {
			t.Errorf("%s has %d questions, want at least %d", s.file, n, s.min)
		}
		for _, q := range loaded[i].Questions {
			asked[q.Text] = true
		}
	}
	for _, q := range issueQuestions {
		if !asked[q] {
			t.Errorf("the corpus does not ask %q (quoted in issue #24)", q)
		}
	}
	clock := &Clock{}
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "a.db"), sqlite.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e := memory.New(st, memory.Options{NoSheetRegen: true})
	defer e.Close()

	reports := map[string]Report{}
	for i, s := range sets {
		rep, err := Run(t.Context(), e, clock, s.name, loaded[i])
		if err != nil {
			t.Fatal(err)
		}
		reports[s.name] = rep
		// The held-out part's failing questions are not printed: whoever tunes ask
		// must not see them (they are in the JSON report, FACTBASE_ANSWERS_REPORT).
		examples := 10
		if s.name == "heldout" && os.Getenv("FACTBASE_ANSWERS_SHOW_HELDOUT") != "1" {
			examples = 0
		}
		t.Logf("\n%s", rep.Table(examples))
		for _, su := range rep.Setups {
			for _, msg := range su.Errors {
				t.Logf("setup error: scenario %q: %s", su.Scenario, msg)
			}
		}
		for _, g := range rep.SetupGaps {
			t.Logf("setup gap: %s", g)
		}
	}
	if path := os.Getenv("FACTBASE_ANSWERS_REPORT"); path != "" {
		b, err := json.MarshalIndent(reports, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if os.Getenv("FACTBASE_ANSWERS_TARGETS") == "1" {
		h := reports["heldout"]
		if h.Total.Accuracy < targetAccuracy {
			t.Errorf("held-out accuracy %.3f, want at least %.2f", h.Total.Accuracy, targetAccuracy)
		}
		if h.Invented > targetInvented {
			t.Errorf("held-out invented answers %d, want %d", h.Invented, targetInvented)
		}
	}
}

// TestCorpusFiles loads both corpus files on their own, so a malformed line fails
// fast with its file and line, and checks what every kind needs: some questions of
// each kind in each file.
func TestCorpusFiles(t *testing.T) {
	for _, file := range []string{"corpus.jsonl", "heldout.jsonl"} {
		c := loadFile(t, file)
		n := map[string]int{}
		for _, q := range c.Questions {
			n[q.Kind]++
		}
		var none []string
		for _, k := range Kinds {
			if n[k] == 0 {
				none = append(none, k)
			}
		}
		if len(none) > 0 {
			t.Errorf("%s asks no question of kind %s", file, strings.Join(none, ", "))
		}
	}
}
