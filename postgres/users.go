package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase/internal/erasure"
)

// userTables is the user's rows of the transaction, for the erasure's order and
// tally (internal/erasure). Rows of sheet_facts go with their sheet (ON DELETE
// CASCADE), before the erasure reaches the table.
type userTables struct{ t *tx }

// Owned lists the tables of the store's schema with a column u, the owner's id.
// embedding_deletes is left out: it holds no data, only the count of deleted vectors
// that tells the in-memory vector copies to rebuild; the erasure raises it.
func (ut userTables) Owned(ctx context.Context) ([]string, error) {
	rows, err := ut.t.q.Query(ctx, `SELECT c.table_name FROM information_schema.columns AS c
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

// from returns the FROM clause of table's rows of the user; both columns hold the
// user's id.
func from(table string, byID bool) string {
	if byID {
		return " FROM " + pgx.Identifier{table}.Sanitize() + " WHERE user_id = $1"
	}
	return " FROM " + pgx.Identifier{table}.Sanitize() + " WHERE u = $1"
}

func (ut userTables) Delete(ctx context.Context, table string, byID bool) (int64, error) {
	tag, err := ut.t.q.Exec(ctx, "DELETE"+from(table, byID), string(ut.t.user))
	return tag.RowsAffected(), mapErr("erase user: "+table, err)
}

func (ut userTables) Count(ctx context.Context, table string, byID bool) (int64, error) {
	var n int64
	err := ut.t.q.QueryRow(ctx, "SELECT count(*)"+from(table, byID), string(ut.t.user)).Scan(&n)
	return n, mapErr("user rows: "+table, err)
}

// DeleteSome deletes at most limit of the user's rows of table.
func (ut userTables) DeleteSome(ctx context.Context, table string, limit int) (int64, error) {
	t := pgx.Identifier{table}.Sanitize()
	tag, err := ut.t.q.Exec(ctx, "DELETE FROM "+t+" WHERE ctid IN (SELECT ctid FROM "+t+" WHERE u = $1 LIMIT $2)",
		string(ut.t.user), limit)
	return tag.RowsAffected(), mapErr("erase user: "+table, err)
}

// EraseUserSome deletes a batch of the user's rows (internal/erasure.EraseSome).
func (t *tx) EraseUserSome(ctx context.Context, limit int) (map[string]int64, bool, error) {
	return erasure.EraseSome(ctx, userTables{t}, limit)
}

// EraseUser deletes every row the user owns. The users row stays, holding only the
// UUID, as in the SQLite store. Deleted rows stay in the table files until Purge
// vacuums or rewrites the tables (purge.go).
func (t *tx) EraseUser(ctx context.Context) (map[string]int64, error) {
	return erasure.Erase(ctx, userTables{t})
}

// UserRows counts the rows the user still owns in every table with a user column, and
// the user's jobs and API keys. Tables with none are left out.
func (t *tx) UserRows(ctx context.Context) (map[string]int64, error) {
	return erasure.Rows(ctx, userTables{t})
}
