package sqlite

import (
	"context"
	"math"
)

// A transaction that inserts more than one fact indexes their full text once, before
// it commits, rather than fact by fact (migration 0018): FTS5 writes its pending
// terms to a new segment at every savepoint, and every fact INSERT opens one, so a
// write of 100 facts wrote 100 segments. The first fact of a transaction is indexed
// by the triggers as before; from its second (from its first, for a bulk insert:
// InsertFacts), fts_defer.from_seq holds the first seq the triggers leave to
// flushDeferred, which indexes every fact from there on that is current or
// superseded (the state the triggers index) and sets from_seq back to the largest
// integer before the transaction commits. A transaction that fails rolls it back
// with everything else.
//
// The facts' sheet records (sheet_rows, migration 0024) are deferred with their full
// text: flushDeferred writes the records of the current facts from from_seq on, after
// the references the transaction recorded to them, instead of a trigger writing each
// record and another rewriting it for each reference.

var (
	qDeferFTS = `UPDATE fts_defer SET from_seq = (SELECT coalesce(max(seq), 0) + 1 FROM facts)
		RETURNING from_seq`
	// qFlushFTS indexes what the triggers index (migration 0023): a fact's terms
	// in place of its texts when it has them.
	qFlushFTS = `INSERT INTO facts_fts (rowid, text, key, value, u)
		SELECT seq, coalesce(terms, text), iif(terms IS NULL, key, ''), iif(terms IS NULL, value, ''), 'fbu' || u FROM facts
		WHERE seq >= ? AND (current = 1 OR superseded_by <> '')`
	qFlushSheetRows = `INSERT INTO sheet_rows (u, fact, rec) SELECT u, fact, rec FROM sheet_rows_def WHERE fact >= ?`
	qUndeferFTS     = `UPDATE fts_defer SET from_seq = ?`

	ftsQueries = []string{qDeferFTS, qFlushFTS, qFlushSheetRows, qUndeferFTS}
)

// noDefer is fts_defer.from_seq outside a transaction that defers: every fact is
// below it.
const noDefer = math.MaxInt64

// beforeInsert counts the facts the transaction inserts one at a time and, at its
// second, leaves the full text and sheet records of the facts it inserts from then on
// to flushDeferred.
func (t *tx) beforeInsert(ctx context.Context) error {
	t.inserts++
	if t.inserts != 2 {
		return nil
	}
	return t.deferDerived(ctx)
}

// deferDerived leaves the full text and sheet records of the facts the transaction
// inserts from now on to flushDeferred, unless it does already.
func (t *tx) deferDerived(ctx context.Context) error {
	if t.ftsFrom != 0 {
		return nil
	}
	return mapErr("defer full text", t.queryRow(ctx, qDeferFTS).Scan(&t.ftsFrom))
}

// flushDeferred indexes the full text and writes the sheet records the transaction
// deferred; Update calls it before commit.
func (t *tx) flushDeferred(ctx context.Context) error {
	if t.ftsFrom == 0 {
		return nil
	}
	if _, err := t.exec(ctx, qFlushFTS, t.ftsFrom); err != nil {
		return mapErr("index full text", err)
	}
	if _, err := t.exec(ctx, qFlushSheetRows, t.ftsFrom); err != nil {
		return mapErr("sheet records", err)
	}
	if _, err := t.exec(ctx, qUndeferFTS, int64(noDefer)); err != nil {
		return mapErr("index full text", err)
	}
	t.ftsFrom = 0
	return nil
}
