package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/eval"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/sqlite"
)

const evalUsage = `Usage: factbase eval locomo --data FILE [--k 5,10,25,50] [--embedder glove|openai|none] [--json]

Measures retrieval on LoCoMo conversations (Maharana et al., ACL 2024; the data is
CC BY-NC 4.0 and is read from FILE, never bundled). Each conversation goes into a
fresh user in a fresh temporary store: every turn becomes an episode ("Speaker:
text", timestamped with its session's date, its dia_id kept as metadata), with the
product's fact extraction; every question is searched, hits map back to the turns they
come from, and recall@k is scored against the evidence turns.
`

// runEval implements "factbase eval".
func (m *Main) runEval(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "locomo" {
		fmt.Fprint(m.Stderr, evalUsage)
		return usagef("eval needs a benchmark name: locomo")
	}
	var (
		c        common
		data, ks string
		misses   int
	)
	fs := m.flags("eval locomo", &c, false)
	fs.StringVar(&data, "data", "", "the LoCoMo JSON file (required)")
	fs.StringVar(&ks, "k", "5,10,25,50", "cut-offs for recall@k, comma-separated")
	fs.IntVar(&misses, "misses", 0, "print up to N missed questions per category (for error analysis)")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	if data == "" {
		return usagef("eval locomo needs --data FILE")
	}
	var kl []int
	for _, p := range strings.Split(ks, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || k < 1 || k > retrieve.MaxSearchLimit {
			return usagef("--k %q: each cut-off must be a whole number from 1 to %d", ks, retrieve.MaxSearchLimit)
		}
		kl = append(kl, k)
	}
	emb, err := m.embedder(&c) // --embedder: glove (default), openai, none
	if err != nil {
		return err
	}
	f, err := os.Open(data)
	if err != nil {
		return factbase.Errorf(factbase.EINVALID, "cannot read --data: %v", err)
	}
	convs, err := eval.Load(f)
	f.Close()
	if err != nil {
		return factbase.Errorf(factbase.EINVALID, "%v", err)
	}
	dir, err := os.MkdirTemp("", "factbase-eval-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	model := "none"
	if emb != nil {
		model = emb.Model()
	}
	rep, err := eval.Run(ctx, convs, eval.Options{
		Ks: kl,
		NewSystem: func(ctx context.Context, conv eval.Conversation) (eval.System, error) {
			return newEvalSystem(ctx, filepath.Join(dir, conv.ID+".db"), emb, conv)
		},
		Progress: func(done, total int, id string) {
			fmt.Fprintf(m.Stderr, "eval: %d/%d conversations (%s)\n", done, total, id)
		},
		Config: map[string]any{"data": filepath.Base(data), "embedder": model, "k": kl,
			"store": "sqlite (temporary file per conversation)", "search": "memory.Engine.Search, facts and episodes"},
	})
	if err != nil {
		return err
	}
	if c.json {
		return m.printJSON(rep)
	}
	printEval(m, rep, kl, misses)
	return nil
}

func printEval(m *Main, rep eval.Report, ks []int, misses int) {
	cats := []string{"1", "2", "3", "4", "5", "overall", "all"}
	names := map[string]string{"1": "multi-hop", "2": "temporal", "3": "open-domain", "4": "single-hop",
		"5": "adversarial", "overall": "overall (1-4)", "all": "all (1-5)"}
	tw := newTable(m.Stdout)
	fmt.Fprint(tw, "category\tquestions")
	for _, k := range ks {
		fmt.Fprintf(tw, "\tR@%d", k)
	}
	fmt.Fprintln(tw)
	for _, c := range cats {
		fmt.Fprintf(tw, "%s\t%d", names[c], rep.Questions[c])
		for _, k := range ks {
			fmt.Fprintf(tw, "\t%.3f", rep.Recall[strconv.Itoa(k)][c])
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintf(m.Stdout, "\nquery latency: p50 %.2f ms, p95 %.2f ms; ingest %d turns at %.0f turns/s\n",
		rep.LatencyMS.P50, rep.LatencyMS.P95, rep.Ingest.Turns, rep.Ingest.TurnsPerSecond)
	fmt.Fprintf(m.Stdout, "evidence ids dropped: %d; questions without evidence skipped: %d\n",
		rep.DroppedEvidence, rep.SkippedNoEvid)
	if misses > 0 {
		for _, k := range slices.Sorted(maps.Keys(rep.Misses)) {
			fmt.Fprintf(m.Stdout, "\nmissed, category %s (%d):\n", k, len(rep.Misses[k]))
			for i, ms := range rep.Misses[k] {
				if i == misses {
					break
				}
				fmt.Fprintf(m.Stdout, "  %s %q evidence %v got %v\n", ms.Conversation, ms.Question, ms.Evidence, head(ms.Retrieved, 10))
			}
		}
	}
}

func head(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// evalUser is the one user of each conversation's store.
const evalUser factbase.UserID = "10c0a000-0000-4000-8000-000000000001"

// evalSystem is Factbase under evaluation: a store and engine for one conversation.
type evalSystem struct {
	store   *sqlite.Store
	e       *memory.Engine
	byEp    map[string]string // episode id -> dia_id
	last    time.Time
	speaker [2]string
}

func newEvalSystem(ctx context.Context, path string, emb factbase.Embedder, c eval.Conversation) (*evalSystem, error) {
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		return nil, err
	}
	return &evalSystem{store: s, e: memory.New(s, memory.Options{Embedder: emb, NoSheetRegen: true}), byEp: map[string]string{}, speaker: c.Speakers}, nil
}

// Ingest stores a turn the way a user's data is stored: as an episode through the
// product's own path, which also runs its fact extraction.
func (s *evalSystem) Ingest(ctx context.Context, t eval.Turn, at time.Time) error {
	res, err := s.e.Ingest.AddEpisode(ctx, evalUser, ingest.EpisodeInput{
		Content:   t.Speaker + ": " + t.Text,
		Tags:      []string{"locomo"},
		Metadata:  map[string]string{"dia_id": t.DiaID, "speaker": t.Speaker},
		CreatedAt: at,
	})
	if err != nil {
		return err
	}
	s.byEp[res.Episode.ID] = t.DiaID
	if at.After(s.last) {
		s.last = at
	}
	return nil
}

// Retrieve searches and maps hits to dia ids: an episode to its turn, a fact to the
// turn (episode) it was extracted from.
func (s *evalSystem) Retrieve(ctx context.Context, q string, k int) ([]string, error) {
	res, err := s.e.Retrieve.Search(ctx, evalUser, q, retrieve.SearchOptions{Limit: k, Now: s.last.Add(24 * time.Hour)})
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, h := range res.Hits {
		var id string
		switch {
		case h.Episode != nil:
			id = h.Episode.Metadata["dia_id"]
		case h.Fact != nil && h.Fact.Source.Kind == factbase.SourceEpisode:
			id = s.byEp[h.Fact.Source.ID]
		}
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}

func (s *evalSystem) Close() error { return s.store.Close() }
