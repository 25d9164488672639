package understanding

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/sqlite"
)

// The held-out targets of issue #23, checked when FACTBASE_UNDERSTANDING_TARGETS=1.
const (
	targetPrecision = 0.97
	targetRecall    = 0.85
	targetGarbage   = 0
)

// The corpus sizes issue #23 asks for, in messages.
const (
	minTuning  = 400
	minHeldout = 120
)

func loadFile(t *testing.T, name string) []Case {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := Load(f, name)
	if err != nil {
		t.Fatalf("corpus: %v", err)
	}
	return cases
}

// TestUnderstanding runs the tuning and held-out corpora through Say on one engine
// and logs the scores. It fails on a malformed corpus, not on low scores, unless
// FACTBASE_UNDERSTANDING_TARGETS=1 asks for the held-out targets.
// FACTBASE_UNDERSTANDING_REPORT=path writes both reports there as JSON.
func TestUnderstanding(t *testing.T) {
	sets := []struct {
		name, file string
		min        int
	}{{"tuning", "corpus.jsonl", minTuning}, {"heldout", "heldout.jsonl", minHeldout}}
	loaded := make([][]Case, len(sets))
	for i, s := range sets {
		loaded[i] = loadFile(t, s.file)
		n := 0
		for _, c := range loaded[i] {
			n += len(c.Turns)
		}
		if n < s.min {
			t.Errorf("%s has %d messages, want at least %d", s.file, n, s.min)
		}
	}
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "u.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e := memory.New(st, memory.Options{NoSheetRegen: true})
	defer e.Close()

	reports := map[string]Report{}
	for i, s := range sets {
		rep, err := Run(t.Context(), e, s.name, loaded[i])
		if err != nil {
			t.Fatal(err)
		}
		reports[s.name] = rep
		// The held-out part's failures are not printed: whoever tunes the rules must
		// not see them (they are in the JSON report, FACTBASE_UNDERSTANDING_REPORT).
		examples := 10
		if s.name == "heldout" && os.Getenv("FACTBASE_UNDERSTANDING_SHOW_HELDOUT") != "1" {
			examples = 0
		}
		t.Logf("\n%s", rep.Table(examples))
		for _, msg := range rep.Errors {
			t.Logf("say error: %s", msg)
		}
	}
	if path := os.Getenv("FACTBASE_UNDERSTANDING_REPORT"); path != "" {
		b, err := json.MarshalIndent(reports, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if os.Getenv("FACTBASE_UNDERSTANDING_TARGETS") == "1" {
		h := reports["heldout"]
		if h.Total.Precision < targetPrecision {
			t.Errorf("held-out precision %.3f, want at least %.2f", h.Total.Precision, targetPrecision)
		}
		if h.Total.Recall < targetRecall {
			t.Errorf("held-out recall %.3f, want at least %.2f", h.Total.Recall, targetRecall)
		}
		if h.Garbage > targetGarbage {
			t.Errorf("held-out garbage values %d, want %d", h.Garbage, targetGarbage)
		}
	}
}
