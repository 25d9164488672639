package main

import (
	"context"
	"fmt"

	"github.com/factbase/factbase/memory/chat"
)

// recallHitJSON is one recalled fact in "factbase recall --json".
type recallHitJSON struct {
	About string  `json:"about"`
	Role  string  `json:"role"`
	Key   string  `json:"key"`
	Value string  `json:"value"`
	Text  string  `json:"text"`
	Score float64 `json:"score"`
}

// runRecall implements "factbase recall": the facts that bear on a question, grouped
// by the people they are about, rendered as a prompt block.
func (m *Main) runRecall(ctx context.Context, args []string) error {
	var (
		c   common
		o   chat.RecallOptions
		now string
	)
	fs := m.flags("recall", &c, true)
	fs.IntVar(&o.Limit, "limit", chat.DefaultRecallLimit, fmt.Sprintf("at most this many facts (up to %d)", chat.MaxRecallLimit))
	fs.BoolVar(&o.IncludeSensitive, "sensitive", false, "include high-sensitivity facts (health, medical) even when not asked about")
	fs.StringVar(&now, "now", "", "the time temporal questions count from (RFC 3339 or YYYY-MM-DD; default now)")
	setUsage(fs, "Usage: factbase recall [flags] \"QUERY\"\n\nRecall the facts that bear on a question: search, the people it names, what it asks\nabout, and what falls in the time it names (\"next week\", \"upcoming birthdays\").\n\n")
	query, err := parseText(fs, args, "recall needs the query as its argument")
	if err != nil {
		return err
	}
	if o.Now, err = parseTime("now", now); err != nil {
		return err
	}
	user, e, closeFn, err := m.openUser(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	r, err := e.Chat.Recall(ctx, user, query, o)
	if err != nil {
		return err
	}
	if r.Degraded != "" {
		fmt.Fprintf(m.Stderr, "factbase: recall: %s (the other sources answered)\n", r.Degraded)
	}
	out := struct {
		Hits   []recallHitJSON `json:"hits"`
		Prompt string          `json:"prompt"`
	}{Prompt: r.Prompt}
	out.Hits = mapEach(r.Hits, func(h chat.RecallHit) recallHitJSON {
		return recallHitJSON{About: h.About, Role: h.Role, Key: h.Key, Value: h.Value, Text: h.Text, Score: h.Score}
	})
	return m.print(&c, out, func() error {
		if len(r.Hits) == 0 {
			fmt.Fprintln(m.Stdout, "Nothing recalled.")
			return nil
		}
		fmt.Fprint(m.Stdout, r.Prompt)
		return nil
	})
}
