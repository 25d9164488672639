package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/factbase/factbase/memory/retrieve"
)

const queryUsage = `Usage:
  factbase query [flags] QUESTION...

The hybrid query. A question that seeks a fact ("What is the NEXUS version?",
"What was the test success rate?") is answered from the facts first, and falls
back to a narrative search over episodes; other questions go to the episodes
first. --prefer fact or narrative overrides the order. The answer says which
source gave it.

Flags:
`

func (m *Main) runQuery(ctx context.Context, args []string) error {
	var (
		c common
		o retrieve.QueryOptions
	)
	fs := m.flags("query", &c, true)
	setUsage(fs, queryUsage)
	fs.StringVar(&o.Prefer, "prefer", retrieve.PreferAuto, "which source to try first: fact, narrative or auto")
	fs.IntVar(&o.Passages, "passages", 3, "at most this many narrative passages (up to 20)")
	if err := parse(fs, args); err != nil {
		return err
	}
	question := strings.Join(fs.Args(), " ")
	if strings.TrimSpace(question) == "" {
		return usagef("query needs a question\n%s", queryUsage)
	}
	switch o.Prefer {
	case retrieve.PreferAuto, retrieve.PreferFact, retrieve.PreferNarrative:
	default:
		return usagef("--prefer %q is not fact, narrative or auto", o.Prefer)
	}
	user, e, closeFn, err := m.openUser(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	a, err := e.Retrieve.Query(ctx, user, question, o)
	if err != nil {
		return err
	}
	return m.print(&c, a, func() error {
		m.printWarnings(a.Warnings)
		return m.printAnswer(a)
	})
}

// printAnswer writes a hybrid query's answer for people, with the source it came from.
func (m *Main) printAnswer(a retrieve.QueryAnswer) error {
	switch a.Source {
	case retrieve.SourceFact:
		fmt.Fprintln(m.Stdout, a.Value)
		f := a.Fact
		from := ""
		if f.Episode != "" {
			from = ", episode " + f.Episode
		}
		fmt.Fprintf(m.Stdout, "(source: fact %s%s, confidence %.2f, %s)\n", f.Key, from, f.Confidence, localTime(f.Timestamp))
	case retrieve.SourceNarrative:
		for i, p := range a.Passages {
			fmt.Fprintf(m.Stdout, "%d. %s\n   (episode %s, %s)\n", i+1, p.Text, p.Episode, localTime(p.CreatedAt))
		}
		fmt.Fprintln(m.Stdout, "(source: narrative)")
	default:
		fmt.Fprintf(m.Stdout, "No answer found (tried %s).\n", strings.Join(a.Tried, ", "))
	}
	return nil
}
