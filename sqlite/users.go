package sqlite

import (
	"context"
	"strings"

	"github.com/factbase/factbase/internal/erasure"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/storeerr"
)

// userTables is the user's rows of the transaction, for the erasure's order and
// tally (internal/erasure).
type userTables struct{ t *tx }

// Owned lists the ordinary tables (not virtual or shadow tables) with a column named
// u, the users.seq of the row's owner; none for a user with no row. embedding_deletes
// is left out: it holds no data, only a count of deleted vectors that tells the
// in-memory vector copies to rebuild, and the erasure must raise it, not reset it.
func (ut userTables) Owned(ctx context.Context) ([]string, error) {
	if ut.t.u == 0 {
		return nil, nil
	}
	rows, err := ut.t.q.QueryContext(ctx, `SELECT l.name FROM pragma_table_list AS l
		WHERE l.schema = 'main' AND l.type = 'table' AND l.name NOT LIKE 'sqlite_%'
		AND EXISTS (SELECT 1 FROM pragma_table_info(l.name) AS c WHERE c.name = 'u')
		AND l.name <> 'embedding_deletes'
		ORDER BY l.name`)
	if err != nil {
		return nil, mapErr("user tables", err)
	}
	names, err := rowcodec.All(rows, rowcodec.String)
	return names, mapErr("user tables", err)
}

// where returns the condition on table's rows of the user and its argument.
func (ut userTables) where(table string, byID bool) (string, any) {
	if byID {
		return quoteIdent(table) + " WHERE user_id = ?", string(ut.t.user)
	}
	return quoteIdent(table) + " WHERE u = ?", ut.t.u
}

func (ut userTables) Delete(ctx context.Context, table string, byID bool) (int64, error) {
	cond, arg := ut.where(table, byID)
	res, err := ut.t.q.ExecContext(ctx, "DELETE FROM "+cond, arg)
	if err != nil {
		return 0, mapErr("erase user: "+table, err)
	}
	return res.RowsAffected()
}

func (ut userTables) Count(ctx context.Context, table string, byID bool) (int64, error) {
	cond, arg := ut.where(table, byID)
	var n int64
	err := ut.t.q.QueryRowContext(ctx, "SELECT count(*) FROM "+cond, arg).Scan(&n)
	return n, mapErr("user rows: "+table, err)
}

// DeleteSome deletes at most limit of the user's rows of table, oldest first by
// rowid (every Bulky table has one).
func (ut userTables) DeleteSome(ctx context.Context, table string, limit int) (int64, error) {
	q := quoteIdent(table)
	res, err := ut.t.q.ExecContext(ctx, "DELETE FROM "+q+" WHERE rowid IN (SELECT rowid FROM "+q+" WHERE u = ? LIMIT ?)", ut.t.u, limit)
	if err != nil {
		return 0, mapErr("erase user: "+table, err)
	}
	return res.RowsAffected()
}

// EraseUserSome deletes a batch of the user's rows (internal/erasure.EraseSome).
func (t *tx) EraseUserSome(ctx context.Context, limit int) (map[string]int64, bool, error) {
	if t.u == 0 {
		return map[string]int64{}, true, nil
	}
	return erasure.EraseSome(ctx, userTables{t}, limit)
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// EraseUser deletes every row the user owns. The writer connection runs with
// secure_delete on and the full-text tables with FTS5's secure-delete option, so the
// deleted content is overwritten in the file, not only unlinked. The users row stays as a tombstone
// holding only the UUID: its number is never given to another user.
func (t *tx) EraseUser(ctx context.Context) (map[string]int64, error) {
	return erasure.Erase(ctx, userTables{t})
}

// UserRows counts the rows the user still owns in every table with a user column, its
// jobs and API keys, and the sheet links left without their sheet. Tables with none
// are left out.
func (t *tx) UserRows(ctx context.Context) (map[string]int64, error) {
	left, err := erasure.Rows(ctx, userTables{t})
	if err != nil || t.u == 0 {
		return left, err
	}
	var n int64
	if err := t.q.QueryRowContext(ctx, `SELECT count(*) FROM sheet_facts
		WHERE sheet NOT IN (SELECT seq FROM sheets)`).Scan(&n); err != nil {
		return nil, mapErr("user rows: sheet_facts", err)
	}
	left.Add("sheet_facts", n)
	return left, nil
}

// Purge checkpoints the write-ahead log into the database file and truncates it, so
// that no earlier version of an erased page is left in the log. It reports false when
// a reader still held an older snapshot (the log is then released later).
func (s *Store) Purge(ctx context.Context) (bool, error) {
	if s.gate.Closed() {
		return false, storeerr.ErrClosed
	}
	var busy, logPages, done int
	if err := s.writer.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logPages, &done); err != nil {
		return false, mapErr("purge", err)
	}
	return busy == 0, nil
}
