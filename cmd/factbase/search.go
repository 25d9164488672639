package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/retrieve"
)

const searchUsage = `Usage:
  factbase search [flags] QUERY...

Hybrid search over the user's facts and episodes: full-text (BM25 over
porter-stemmed words) and vector candidates fused by reciprocal rank, damped by
recency, boosted for facts about a person the query names. Every hit explains
its score. The built-in embedder needs no network (see --embedder).

When the user's vectors were made by another embedder than the configured one,
or the embedder cannot be reached, the search ranks by full text alone and says
why on standard error; "factbase reembed" brings the vectors back into use.

Flags:
`

// hitJSON is one hit in "search --json".
type hitJSON struct {
	Kind    string           `json:"kind"`
	ID      string           `json:"id"`
	Text    string           `json:"text"`
	Score   float64          `json:"score"`
	Explain retrieve.Explain `json:"explain"`
}

func (m *Main) runSearch(ctx context.Context, args []string) error {
	var (
		c              common
		o              retrieve.SearchOptions
		kind, category string
		scope          scopeFlags
	)
	fs := m.flags("search", &c, true)
	setUsage(fs, searchUsage)
	fs.StringVar(&kind, "kind", "all", "what to search: facts, episodes or all")
	fs.IntVar(&o.Limit, "limit", retrieve.DefaultSearchLimit, fmt.Sprintf("at most this many hits (up to %d)", retrieve.MaxSearchLimit))
	fs.StringVar(&o.KeyPrefix, "prefix", "", "only facts whose key starts with this")
	fs.StringVar(&o.Type, "type", "", "only facts of this type")
	fs.StringVar(&category, "category", "", "only facts of this sheet category")
	fs.StringVar(&o.Subject, "subject", "", "only facts about this subject (user, entity:<id>)")
	fs.Float64Var(&o.MinConfidence, "min-confidence", 0, "only facts with at least this confidence")
	scope.flags(fs, "only episodes (and their facts) with every one of these comma-separated tags",
		"only items from this time on (RFC 3339 or YYYY-MM-DD)", "only items before this time")
	fs.BoolVar(&o.IncludeSuperseded, "history", false, "also find facts a newer value replaced")
	fs.Float64Var(&o.Threshold, "threshold", 0, "least score a hit must have")
	if err := parse(fs, args); err != nil {
		return err
	}
	query := strings.Join(fs.Args(), " ")
	if strings.TrimSpace(query) == "" {
		return usagef("search needs a query\n%s", searchUsage)
	}
	switch kind {
	case "all", "":
	case "facts", "fact":
		o.Kinds = []string{factbase.KindFact}
	case "episodes", "episode":
		o.Kinds = []string{factbase.KindEpisode}
	default:
		return usagef("--kind %q is not facts, episodes or all", kind)
	}
	if err := scope.into(&o.Tags, &o.From, &o.To); err != nil {
		return err
	}
	o.Category = factbase.Category(category)
	user, e, closeFn, err := m.openUser(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	res, err := e.Retrieve.Search(ctx, user, query, o)
	if err != nil {
		return err
	}
	hits := mapEach(res.Hits, func(h retrieve.Hit) hitJSON {
		return hitJSON{Kind: h.Kind, ID: h.ID, Text: h.Text, Score: h.Score, Explain: h.Explain}
	})
	out := map[string]any{"hits": hits}
	if len(res.Warnings) > 0 {
		out["warnings"] = res.Warnings
	}
	return m.print(&c, out, func() error {
		m.printWarnings(res.Warnings)
		if len(res.Hits) == 0 {
			fmt.Fprintln(m.Stdout, "No hits.")
			return nil
		}
		for i, h := range res.Hits {
			fmt.Fprintf(m.Stdout, "%2d. [%s] %.4f  %s\n", i+1, h.Kind, h.Score, oneLine(h.Text, 100, "..."))
			fmt.Fprintf(m.Stdout, "    %s  id %s\n", explainLine(h.Explain), h.ID)
		}
		return nil
	})
}

// printWarnings writes a search's warnings to standard error, one a line.
func (m *Main) printWarnings(ws []string) {
	for _, w := range ws {
		fmt.Fprintln(m.Stderr, "warning: "+w)
	}
}

// explainLine renders an explanation in one line.
func explainLine(x retrieve.Explain) string {
	var parts []string
	if x.BM25Rank > 0 {
		parts = append(parts, fmt.Sprintf("bm25 #%d (%.2f)", x.BM25Rank, x.BM25))
	}
	if x.VectorRank > 0 {
		parts = append(parts, fmt.Sprintf("vector #%d (sim %.2f)", x.VectorRank, x.Similarity))
	}
	parts = append(parts, fmt.Sprintf("decay %.2f", x.Decay))
	if x.SubjectBoost != 1 {
		parts = append(parts, fmt.Sprintf("subject x%.2f", x.SubjectBoost))
	}
	if x.ImportanceBoost != 1 {
		parts = append(parts, fmt.Sprintf("importance x%.2f", x.ImportanceBoost))
	}
	return strings.Join(parts, ", ")
}
