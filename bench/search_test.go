package bench

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/search"
)

// TestRunSearch runs the search benchmark at 2,000 memories with the default
// embedder: the report has its figures, both searches find the source of most
// questions, and the product's search agrees with exact search (at 2,000 vectors
// sqlite-vec ranks both exactly, so they must agree).
func TestRunSearch(t *testing.T) {
	emb, err := embed.NewGloVe()
	if err != nil {
		t.Fatal(err)
	}
	var progress []string
	rep, err := RunSearch(context.Background(), SearchOptions{N: 2000, Queries: 100, Embedder: emb, Dir: t.TempDir(),
		Progress: func(m string) { progress = append(progress, m) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", rep)
	finite := func(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
	if rep.N != 2000 || rep.Queries != 100 || rep.Seed != 1 || rep.Embedder != emb.Model() {
		t.Errorf("report names N %d, queries %d, seed %d, embedder %q", rep.N, rep.Queries, rep.Seed, rep.Embedder)
	}
	if !finite(rep.AddPerSecond) || !finite(rep.BytesPerMemory) || rep.RSSBytes <= 0 || rep.PeakRSSBytes < rep.RSSBytes ||
		rep.SearchRSSBytes <= 0 || rep.SearchRSSBytes > rep.PeakRSSBytes {
		t.Errorf("add %.0f/s, %.0f bytes a memory, RSS %d, peak %d, with the product's store alone %d", rep.AddPerSecond,
			rep.BytesPerMemory, rep.RSSBytes, rep.PeakRSSBytes, rep.SearchRSSBytes)
	}
	if rep.VectorBytes != 0 || rep.VectorCopies != 0 {
		t.Errorf("%d bytes of %d vectors in memory; want none at 2,000 (sqlite-vec ranks them)", rep.VectorBytes, rep.VectorCopies)
	}
	for name, r := range map[string]SearchRun{"search": rep.Search, "exact": rep.Exact} {
		l := r.Latency
		if !finite(r.FirstMs) || !finite(l.P50ms) || l.P95ms < l.P50ms || l.P99ms < l.P95ms {
			t.Errorf("%s latency: first %v, %+v", name, r.FirstMs, l)
		}
		if r.All.Questions != 100 || r.Rare.Questions+r.Common.Questions != 100 || r.Rare.Questions == 0 || r.Synonym.Questions == 0 {
			t.Errorf("%s: %d questions, %d rare, %d common, %d synonym", name, r.All.Questions, r.Rare.Questions, r.Common.Questions, r.Synonym.Questions)
		}
		// Floors below what was measured (2026-11-26: recall@10 1.00, hit@1 1.00, of
		// rare-token questions 1.00; 0.83 and 0.56 before issue #26's fusion), the
		// rare-token one the target.
		if r.All.RecallAt10 < 0.95 || r.All.HitAt1 < 0.9 || r.All.HitAt1 > r.All.RecallAt10 || r.Rare.HitAt1 < 0.9 {
			t.Errorf("%s: recall@10 %.3f, hit@1 %.3f, rare-token hit@1 %.3f; want at least 0.95, 0.9 and 0.9", name, r.All.RecallAt10, r.All.HitAt1, r.Rare.HitAt1)
		}
	}
	if rep.AgreementAt10 != 1 || rep.VectorRecallAt10 != 1 {
		t.Errorf("agreement with exact search %.3f, vector recall %.3f; want 1 below 20,000 vectors", rep.AgreementAt10, rep.VectorRecallAt10)
	}
	if len(progress) == 0 || !strings.Contains(progress[0], "2000") {
		t.Errorf("progress = %q", progress)
	}
}

// TestGeneratedQuestionsKnowTheirSource: every question shares a distinctive word
// with its memory (its rare token, or its object or a word of like meaning), and
// the same seed gives the same data.
func TestGeneratedQuestionsKnowTheirSource(t *testing.T) {
	rare := 0
	for j := range 500 {
		q := GenQuestion(7, 1000, j)
		if q != GenQuestion(7, 1000, j) || GenMemory(7, 1000, q.Source) != GenMemory(7, 1000, q.Source) {
			t.Fatalf("question %d is not reproducible", j)
		}
		m := GenMemory(7, 1000, q.Source)
		words := search.Terms(q.Text)
		switch {
		case q.Rare != RareNone:
			rare++
			if q.Rare != m.Rare || !strings.Contains(q.Text, m.Token) {
				t.Errorf("%q asks by %s, memory %q has %s %q", q.Text, q.Rare, m.Text, m.Rare, m.Token)
			}
		case q.Synonym:
			if !slices.Contains(words, m.synonym) {
				t.Errorf("%q does not name %q's object by %q", q.Text, m.Text, m.synonym)
			}
		default:
			if !slices.Contains(words, m.noun) {
				t.Errorf("%q does not name %q's object", q.Text, m.Text)
			}
		}
	}
	if rare < 150 || rare > 250 {
		t.Errorf("%d of 500 questions by a rare token, want about %.0f", rare, 500*rareQuestionShare)
	}
}
