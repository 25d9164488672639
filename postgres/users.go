package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// The erasure deletes in this order first, so that the per-row triggers on facts
// (which scrub saved sheets and conflicts one fact at a time) find nothing left to
// scrub; then every other table of the store's schema with a user column u, found in
// the catalog, so that a table added later is erased without a change here.
var eraseFirst = []struct{ table, query string }{
	{"sheets", "DELETE FROM sheets WHERE u = $1"}, // sheet_facts cascade
	{"fact_references", "DELETE FROM fact_references WHERE u = $1"},
	{"conflicts", "DELETE FROM conflicts WHERE u = $1"},
	{"embeddings", "DELETE FROM embeddings WHERE u = $1"}, // its trigger counts into embedding_deletes
	{"facts", "DELETE FROM facts WHERE u = $1"},
}

// userTables lists the tables of the store's schema with a column u, the owner's id.
// embedding_deletes is left out: it holds no data, only the count of deleted vectors
// that tells the in-memory vector copies to rebuild; the erasure raises it.
func (t *tx) userTables(ctx context.Context) ([]string, error) {
	rows, err := t.q.Query(ctx, `SELECT c.table_name FROM information_schema.columns AS c
		JOIN information_schema.tables AS tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
		WHERE c.table_schema = current_schema() AND c.column_name = 'u' AND tb.table_type = 'BASE TABLE'
		AND c.table_name <> 'embedding_deletes'
		ORDER BY c.table_name`)
	if err != nil {
		return nil, mapErr("user tables", err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, mapErr("user tables", err)
	}
	return names, nil
}

// EraseUser deletes every row the user owns. The users row stays, holding only the
// UUID, as in the SQLite store. Deleted rows stay in the table files until VACUUM
// reclaims them (autovacuum does, or an operator's VACUUM).
func (t *tx) EraseUser(ctx context.Context) (map[string]int64, error) {
	removed := map[string]int64{}
	count := func(table string, n int64) {
		if n > 0 {
			removed[table] += n
		}
	}
	for _, d := range eraseFirst {
		tag, err := t.q.Exec(ctx, d.query, string(t.user))
		if err != nil {
			return nil, mapErr("erase user: "+d.table, err)
		}
		count(d.table, tag.RowsAffected())
	}
	tables, err := t.userTables(ctx)
	if err != nil {
		return nil, err
	}
	for _, table := range tables {
		tag, err := t.q.Exec(ctx, "DELETE FROM "+pgx.Identifier{table}.Sanitize()+" WHERE u = $1", string(t.user))
		if err != nil {
			return nil, mapErr("erase user: "+table, err)
		}
		count(table, tag.RowsAffected())
	}
	for _, table := range []string{"jobs", "api_keys"} {
		tag, err := t.q.Exec(ctx, "DELETE FROM "+table+" WHERE user_id = $1", string(t.user))
		if err != nil {
			return nil, mapErr("erase user: "+table, err)
		}
		count(table, tag.RowsAffected())
	}
	return removed, nil
}

// UserRows counts the rows the user still owns in every table with a user column, and
// the user's jobs and API keys. Tables with none are left out.
func (t *tx) UserRows(ctx context.Context) (map[string]int64, error) {
	left := map[string]int64{}
	add := func(table, query string) error {
		var n int64
		if err := t.q.QueryRow(ctx, query, string(t.user)).Scan(&n); err != nil {
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
	for _, table := range tables {
		if err := add(table, "SELECT count(*) FROM "+pgx.Identifier{table}.Sanitize()+" WHERE u = $1"); err != nil {
			return nil, err
		}
	}
	for _, table := range []string{"jobs", "api_keys"} {
		if err := add(table, "SELECT count(*) FROM "+table+" WHERE user_id = $1"); err != nil {
			return nil, err
		}
	}
	return left, nil
}
