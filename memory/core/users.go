package core

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/factbase/factbase"
)

// EraseUser deletes everything the user owns in one transaction: facts and their
// history, list events, references, embeddings and full-text entries, episodes,
// transcripts, entities, conflicts, saved sheets, queued jobs and the user's own API
// keys. Before commit it checks that the store counts no row of the user left in any
// table; after commit it asks the store to purge the freed space (for SQLite, a WAL
// checkpoint that truncates the log), so that the data is gone from the files too.
// A user with no data is ENOTFOUND.
func (e *Engine) EraseUser(ctx context.Context, user factbase.UserID) (factbase.UserErasure, error) {
	before, err := Read(ctx, e, user, func(tx factbase.ReadTx) (map[string]int64, error) { return tx.UserRows(ctx) })
	if err != nil {
		return factbase.UserErasure{}, err
	}
	if len(before) == 0 {
		return factbase.UserErasure{}, factbase.Errorf(factbase.ENOTFOUND, "user %s has no data", user)
	}
	if e.bg != nil {
		e.bg.forget(user) // queued references and sheet regeneration would write again
	}
	out := factbase.UserErasure{User: user}
	err = e.store.Update(ctx, user, func(tx factbase.Tx) error {
		removed, err := tx.EraseUser(ctx)
		if err != nil {
			return err
		}
		left, err := tx.UserRows(ctx)
		if err != nil {
			return err
		}
		if len(left) > 0 {
			return factbase.Errorf(factbase.EINVARIANT, "erasing user %s left rows behind: %s", user, describeCounts(left))
		}
		out.Removed = removed
		return nil
	})
	if err != nil {
		return factbase.UserErasure{}, err
	}
	for _, n := range out.Removed {
		out.Total += n
	}
	out.Purged, err = e.store.Purge(ctx)
	if err != nil {
		return out, fmt.Errorf("user %s erased; purging the freed space failed: %w", user, err)
	}
	return out, nil
}

// describeCounts prints counts as "table=n, ..." in table order.
func describeCounts(m map[string]int64) string {
	var b strings.Builder
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s=%d", k, m[k])
	}
	return b.String()
}
