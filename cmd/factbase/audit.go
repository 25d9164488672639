package main

import (
	"cmp"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/factbase/factbase"
)

// runAudit implements "factbase audit": the audit trail, newest first.
func (m *Main) runAudit(ctx context.Context, args []string) error {
	var (
		c              common
		action, before string
		limit          int
	)
	fs := m.flags("audit", &c, true)
	fs.StringVar(&action, "action", "", "only entries of this action (user.erase, facts.delete, entity.merge, key.create, ...)")
	fs.IntVar(&limit, "limit", 50, "at most this many (1..1000)")
	fs.StringVar(&before, "before", "", "only entries older than the entry with this id (the next page)")
	setUsage(fs, `Usage: factbase audit [flags]

The audit trail, newest first: erasures, merges and splits of people, conflict
decisions, API keys created and revoked; when, by which key (or the command line),
what, on which user and ids, and how many rows. Never the text of what was erased.
Every user's entries unless --user (or $FACTBASE_USER) is set.

`)
	if err := parseNone(fs, args, "audit"); err != nil {
		return err
	}
	user, err := c.optionalUser()
	if err != nil {
		return err
	}
	s, err := m.openStore(ctx, &c)
	if err != nil {
		return err
	}
	defer s.Close()
	entries, err := s.Audit(ctx, factbase.AuditFilter{User: user, Action: action, Limit: limit, Before: before})
	if err != nil {
		return err
	}
	return m.print(&c, map[string]any{"entries": entries}, func() error {
		if len(entries) == 0 {
			fmt.Fprintln(m.Stdout, "No audit entries.")
			return nil
		}
		for _, e := range entries {
			var counts []string
			for k, n := range e.Counts {
				counts = append(counts, fmt.Sprintf("%s=%d", k, n))
			}
			sort.Strings(counts)
			fmt.Fprintf(m.Stdout, "%s  %-16s %-14s user %s  %s  %s\n", localTime(e.At), e.Action, e.Actor, cmp.Or(string(e.User), "-"),
				e.Target, strings.Join(counts, " "))
		}
		return nil
	})
}
