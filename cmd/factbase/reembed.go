package main

import (
	"context"
	"fmt"

	"github.com/factbase/factbase"
)

const reembedUsage = `Usage:
  factbase reembed [flags] --user U | --all

Gives every fact and episode whose vector is missing or was made by another
model a vector of the configured embedder (--embedder; the built-in GloVe by
default), in batches, with progress on standard error. Interrupted, it resumes
where it stopped when run again.

It is the fix for the search warning "the stored vectors of N items were made by
another embedder": vectors of different embedders cannot be compared, so until
every item has a vector of the configured embedder, search ranks by full text
alone. Run it, with the same --embedder as the server, after switching
embedders.

Flags:
`

func (m *Main) runReembed(ctx context.Context, args []string) error {
	var (
		c   common
		all bool
	)
	fs := m.flags("reembed", &c, true)
	setUsage(fs, reembedUsage)
	fs.BoolVar(&all, "all", false, "every user of the database")
	if err := parse(fs, args); err != nil {
		return err
	}
	if len(fs.Args()) != 0 {
		return usagef("reembed takes no arguments\n%s", reembedUsage)
	}
	if all == (c.user != "") {
		return usagef("reembed needs exactly one of --user and --all")
	}
	var user factbase.UserID
	if !all {
		var err error
		if user, err = c.userID(); err != nil {
			return err
		}
	}
	if c.embedder == "none" {
		return usagef("reembed needs an embedder; --embedder none has none")
	}
	e, closeFn, err := m.openEngine(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	var n int
	if all {
		n, err = e.Retrieve.ReembedAll(ctx, func(u factbase.UserID, done, total int) {
			fmt.Fprintf(m.Stderr, "reembed %s: %d/%d\n", u, done, total)
		})
	} else {
		n, err = e.Retrieve.Reembed(ctx, user, func(done, total int) {
			fmt.Fprintf(m.Stderr, "reembed: %d/%d\n", done, total)
		})
	}
	if err != nil {
		return err
	}
	return m.printLine(&c, map[string]int{"embedded": n}, fmt.Sprintf("Embedded %d item(s).", n))
}
