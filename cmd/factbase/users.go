package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
)

const usersUsage = `Usage:
  factbase users erase --user UUID --yes [--json]

erase deletes everything a user owns, in one transaction: facts and their
history, ranked lists, references, embeddings and full-text entries, episodes,
transcripts, people, conflicts, saved fact sheets, queued jobs and the API keys
made for that user. It checks that no row of the user is left before it commits,
then purges the freed space (SQLite: deleted content is overwritten and the
write-ahead log truncated). It cannot be undone; --yes confirms it. It prints
the rows removed per table.
`

func (m *Main) runUsers(ctx context.Context, args []string) error {
	if sub, _, err := m.pickSubcommand(args, "users", usersUsage, subcommand{"erase", 0}); sub == "" {
		return err
	}
	var (
		c   common
		yes bool
	)
	fs := m.flags("users erase", &c, true)
	fs.BoolVar(&yes, "yes", false, "confirm: erase the user's data for good")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("users erase takes no arguments\n%s", usersUsage)
	}
	user, err := c.userID()
	if err != nil {
		return err
	}
	if !yes {
		return usagef("users erase deletes user %s's data for good; add --yes to confirm", user)
	}
	e, closeFn, err := m.openEngine(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	res, err := e.EraseUser(ctx, user)
	if err != nil {
		return err
	}
	return m.print(&c, res, func() error {
		fmt.Fprintf(m.Stdout, "Erased user %s: %d rows.\n", user, res.Total)
		writeTable(m.Stdout, "", slices.Sorted(maps.Keys(res.Removed)), func(table string) string {
			return fmt.Sprintf("  %s\t%d", table, res.Removed[table])
		})
		if !res.Purged {
			fmt.Fprintln(m.Stdout, "Not purged: copies of the erased rows may remain in the database files for now (see docs/storage.md).")
		}
		return nil
	})
}
