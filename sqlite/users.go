package sqlite

import (
	"context"
	"strings"

	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/storeerr"
)

// The erasure deletes in this order first, so that the per-row triggers on facts
// (which scrub saved sheets, references and conflicts one fact at a time) find nothing
// left to scrub; then every other table with a user column, found in the schema, so
// that a table added later is erased without a change here.
var eraseFirst = []struct{ table, query string }{
	{"sheets", "DELETE FROM sheets WHERE u = ?"}, // its trigger deletes sheet_facts
	{"fact_references", "DELETE FROM fact_references WHERE u = ?"},
	{"conflicts", "DELETE FROM conflicts WHERE u = ?"},
	{"embeddings", "DELETE FROM embeddings WHERE u = ?"}, // its trigger counts into embedding_deletes
	{"facts", "DELETE FROM facts WHERE u = ?"},           // its triggers delete the full-text entries
}

// userTables lists the ordinary tables (not virtual or shadow tables) with a column
// named u, the users.seq of the row's owner. embedding_deletes is left out: it holds
// no data, only a count of deleted vectors that tells the in-memory vector copies to
// rebuild, and the erasure must raise it, not reset it.
func (t *tx) userTables(ctx context.Context) ([]string, error) {
	rows, err := t.q.QueryContext(ctx, `SELECT l.name FROM pragma_table_list AS l
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

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// EraseUser deletes every row the user owns. The writer connection runs with
// secure_delete on and the full-text tables with FTS5's secure-delete option, so the
// deleted content is overwritten in the file, not only unlinked. The users row stays as a tombstone
// holding only the UUID: its number is never given to another user.
func (t *tx) EraseUser(ctx context.Context) (map[string]int64, error) {
	removed := map[string]int64{}
	count := func(table string, n int64) {
		if n > 0 {
			removed[table] += n
		}
	}
	for _, d := range eraseFirst {
		res, err := t.q.ExecContext(ctx, d.query, t.u)
		if err != nil {
			return nil, mapErr("erase user: "+d.table, err)
		}
		n, _ := res.RowsAffected()
		count(d.table, n)
	}
	tables, err := t.userTables(ctx)
	if err != nil {
		return nil, err
	}
	for _, table := range tables {
		res, err := t.q.ExecContext(ctx, "DELETE FROM "+quoteIdent(table)+" WHERE u = ?", t.u)
		if err != nil {
			return nil, mapErr("erase user: "+table, err)
		}
		n, _ := res.RowsAffected()
		count(table, n)
	}
	for _, table := range []string{"jobs", "api_keys"} {
		res, err := t.q.ExecContext(ctx, "DELETE FROM "+table+" WHERE user_id = ?", string(t.user))
		if err != nil {
			return nil, mapErr("erase user: "+table, err)
		}
		n, _ := res.RowsAffected()
		count(table, n)
	}
	return removed, nil
}

// UserRows counts the rows the user still owns in every table with a user column, its
// jobs and API keys, and the sheet links left without their sheet. Tables with none
// are left out.
func (t *tx) UserRows(ctx context.Context) (map[string]int64, error) {
	left := map[string]int64{}
	add := func(table, query string, args ...any) error {
		var n int64
		if err := t.q.QueryRowContext(ctx, query, args...).Scan(&n); err != nil {
			return mapErr("user rows: "+table, err)
		}
		if n > 0 {
			left[table] += n
		}
		return nil
	}
	tables, err := t.userTables(ctx)
	if err != nil {
		return nil, err
	}
	if t.u != 0 {
		for _, table := range tables {
			if err := add(table, "SELECT count(*) FROM "+quoteIdent(table)+" WHERE u = ?", t.u); err != nil {
				return nil, err
			}
		}
		if err := add("sheet_facts", `SELECT count(*) FROM sheet_facts
			WHERE sheet NOT IN (SELECT seq FROM sheets)`); err != nil {
			return nil, err
		}
	}
	for _, table := range []string{"jobs", "api_keys"} {
		if err := add(table, "SELECT count(*) FROM "+table+" WHERE user_id = ?", string(t.user)); err != nil {
			return nil, err
		}
	}
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
