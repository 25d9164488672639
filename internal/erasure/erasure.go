// Package erasure is the order in which a store erases one user's rows, and the
// tally of what it removed or left, the same for every store. Each store says how it
// finds its tables and deletes or counts a user's rows of one (Tables).
package erasure

import (
	"context"
	"slices"
)

// First lists the tables erased before every other, in this order, so that the
// per-row triggers on facts (which scrub saved sheets, references and conflicts one
// fact at a time) find nothing left to scrub.
var First = []string{"sheets", "fact_references", "conflicts", "embeddings", "facts"}

// ByUserID lists the tables that name their user by id (column user_id) rather than
// by the owner key (column u): the job queue and the API keys.
var ByUserID = []string{"jobs", "api_keys"}

// Tables is one user's rows in a store, table by table. Its methods return the
// store's own errors.
type Tables interface {
	// Owned lists the tables with an owner column u, found in the schema so that a
	// table added later is erased without a change here.
	Owned(ctx context.Context) ([]string, error)
	// Delete deletes the user's rows of table, by user_id when byID, else by u, and
	// returns how many it deleted.
	Delete(ctx context.Context, table string, byID bool) (int64, error)
	// Count counts the user's rows of table, by user_id when byID, else by u.
	Count(ctx context.Context, table string, byID bool) (int64, error)
	// DeleteSome deletes at most limit of the user's rows of table (by u) and
	// returns how many it deleted.
	DeleteSome(ctx context.Context, table string, limit int) (int64, error)
}

// Tally counts rows per table; a table with none is left out.
type Tally map[string]int64

// Add adds n rows of table.
func (t Tally) Add(table string, n int64) {
	if n > 0 {
		t[table] += n
	}
}

// Erase deletes every row of the user: First in order, then the other owned tables,
// then ByUserID. It returns the rows removed per table.
func Erase(ctx context.Context, ts Tables) (Tally, error) {
	owned, err := ts.Owned(ctx)
	if err != nil {
		return nil, err
	}
	removed := Tally{}
	if err := removed.each(ctx, append(slices.Clone(First), owned...), ByUserID, ts.Delete); err != nil {
		return nil, err
	}
	return removed, nil
}

// Rows counts the rows the user still owns in every owned table and ByUserID.
func Rows(ctx context.Context, ts Tables) (Tally, error) {
	owned, err := ts.Owned(ctx)
	if err != nil {
		return nil, err
	}
	left := Tally{}
	if err := left.each(ctx, owned, ByUserID, ts.Count); err != nil {
		return nil, err
	}
	return left, nil
}

// each adds what rows returns for each of byU's tables (by u) and then each of
// byID's (by user_id).
func (t Tally) each(ctx context.Context, byU, byID []string, rows func(ctx context.Context, table string, byID bool) (int64, error)) error {
	for i, table := range append(slices.Clone(byU), byID...) {
		n, err := rows(ctx, table, i >= len(byU))
		if err != nil {
			return err
		}
		t.Add(table, n)
	}
	return nil
}

// Bulky lists, in First's order, the tables a user's erasure deletes in batches
// (EraseSome) before the last transaction erases the rest: the ones a large user has
// hundreds of thousands of rows in. The small ones First names before them (saved
// sheets, conflicts) go whole in the first batch, so that the facts' triggers find
// nothing to scrub.
var Bulky = []string{"fact_references", "embeddings", "list_events", "facts"}

// EraseSome deletes a batch of the user's rows: the saved sheets and conflicts whole,
// then at most limit rows of the Bulky tables, in order. done is true when no Bulky
// row was left for another batch; Erase then removes the rest in one transaction.
func EraseSome(ctx context.Context, ts Tables, limit int) (removed Tally, done bool, err error) {
	removed = Tally{}
	for _, table := range []string{"sheets", "conflicts"} {
		n, err := ts.Delete(ctx, table, false)
		if err != nil {
			return nil, false, err
		}
		removed.Add(table, n)
	}
	left := limit
	for _, table := range Bulky {
		n, err := ts.DeleteSome(ctx, table, left)
		if err != nil {
			return nil, false, err
		}
		removed.Add(table, n)
		if left -= int(n); left <= 0 {
			return removed, false, nil
		}
	}
	return removed, true, nil
}
