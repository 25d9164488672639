package main

import (
	"context"
	"fmt"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
)

const conflictsUsage = `Usage:
  factbase conflicts list    [flags]
  factbase conflicts confirm [flags] ID
  factbase conflicts reject  [flags] ID

A conflict is a change to a single-valued fact that waits for the user: a new
employer, city or email for someone, a health fact, or a value from a less
trusted source (the assistant, lower confidence). confirm applies the proposed
value through the write path (the old one stays in history); reject records the
decision and changes nothing.
`

// conflictJSON is a conflict in JSON output.
type conflictJSON struct {
	ID            string     `json:"id"`
	Subject       string     `json:"subject"`
	About         string     `json:"about"`
	Key           string     `json:"key"`
	CurrentID     string     `json:"current_id"`
	CurrentValue  string     `json:"current_value"`
	ProposedValue string     `json:"proposed_value"`
	SaidBy        string     `json:"said_by"`
	Confidence    float64    `json:"confidence"`
	Source        string     `json:"source"`
	Reason        string     `json:"reason"`
	Status        string     `json:"status"`
	CreatedAt     time.Time  `json:"created_at"`
	ResolvedAt    *time.Time `json:"resolved_at,omitempty"`
	ResultID      string     `json:"result_id,omitempty"`
}

func conflictOut(c factbase.Conflict, names map[string]string) conflictJSON {
	about := names[c.Subject]
	if about == "" {
		about = c.Subject
	}
	return conflictJSON{ID: c.ID, Subject: c.Subject, About: about, Key: c.Key, CurrentID: c.CurrentID,
		CurrentValue: c.CurrentValue, ProposedValue: c.Proposed.Value, SaidBy: c.Proposed.SaidBy,
		Confidence: c.Proposed.Confidence, Source: c.Proposed.Source.Kind, Reason: c.Reason, Status: string(c.Status),
		CreatedAt: c.CreatedAt, ResolvedAt: c.ResolvedAt, ResultID: c.ResultID}
}

func (m *Main) runConflicts(ctx context.Context, args []string) error {
	sub, want, err := m.pickSubcommand(args, "conflicts", conflictsUsage, subcommand{"list", 0}, subcommand{"confirm", 1}, subcommand{"reject", 1})
	if sub == "" {
		return err
	}
	var (
		c             common
		status        string
		offset, limit int
	)
	fs := m.flags("conflicts "+sub, &c, true)
	if sub == "list" {
		fs.StringVar(&status, "status", "pending", "pending, confirmed, rejected or all")
		fs.IntVar(&limit, "limit", core.DefaultPageSize, fmt.Sprintf("at most this many (up to %d)", core.MaxPageSize))
		fs.IntVar(&offset, "offset", 0, "skip this many")
	}
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	if fs.NArg() != want {
		return usagef("conflicts %s: wrong number of arguments\n\n%s", sub, conflictsUsage)
	}
	st := factbase.ConflictStatus(status)
	if status == "all" {
		st = ""
	}
	user, e, closeFn, err := m.openUser(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	// labels names the people the conflicts cs are about.
	labels := func(cs ...factbase.Conflict) (map[string]string, error) {
		subjects := mapEach(cs, func(c factbase.Conflict) string { return c.Subject })
		names, err := e.People.Labels(ctx, user, subjects)
		if names != nil {
			names[factbase.SubjectUser] = "user"
		}
		return names, err
	}
	switch sub {
	case "list":
		p, err := e.People.Conflicts(ctx, user, st, offset, limit)
		if err != nil {
			return err
		}
		names, err := labels(p.Conflicts...)
		if err != nil {
			return err
		}
		out := mapEach(p.Conflicts, func(x factbase.Conflict) conflictJSON { return conflictOut(x, names) })
		return m.print(&c, map[string]any{"conflicts": out, "more": p.More}, func() error {
			err := printTable(m, "No conflicts.", "ID\tABOUT\tKEY\tCURRENT\tPROPOSED\tSAID BY\tSTATUS", out, func(o conflictJSON) string {
				return fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s", o.ID, o.About, o.Key, o.CurrentValue, o.ProposedValue, o.SaidBy, o.Status)
			})
			m.printNext(p.More, offset+len(out))
			return err
		})
	case "confirm":
		r, err := e.People.ConfirmConflict(ctx, user, fs.Arg(0))
		if err != nil {
			return err
		}
		names, err := labels(r.Conflict)
		if err != nil {
			return err
		}
		return m.printLine(&c, struct {
			Conflict conflictJSON    `json:"conflict"`
			Result   factbase.Result `json:"result"`
		}{conflictOut(r.Conflict, names), r.Result}, fmt.Sprintf("Confirmed: %s's %s is now %s (was %s, kept in history).",
			names[r.Conflict.Subject], r.Conflict.Key, r.Conflict.Proposed.Value, r.Conflict.CurrentValue))
	default:
		r, err := e.People.RejectConflict(ctx, user, fs.Arg(0))
		if err != nil {
			return err
		}
		names, err := labels(r)
		if err != nil {
			return err
		}
		return m.printLine(&c, struct {
			Conflict conflictJSON `json:"conflict"`
		}{conflictOut(r, names)}, fmt.Sprintf("Rejected: %s's %s stays %s.", names[r.Subject], r.Key, r.CurrentValue))
	}
}
