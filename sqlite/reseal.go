package sqlite

import (
	"context"
	"strconv"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/sealdb"
	"github.com/factbase/factbase/internal/storeerr"
)

// resealTable says how ResealRows reads and writes one of factbase.SealedTables.
type resealTable struct {
	from string   // the table aliased t, joined to its owner's users row aliased us
	keys []string // the columns of t it is ordered and paged by, a unique key
	ints int      // how many of keys, from the first, are integers
	user string   // the owner's user id
	row  string   // the id the texts are bound to (factbase.SealedRow.Row)
}

// resealTables are the sealed tables, by name. Tables with a seq are paged by it
// (new rows take larger ones); the others by their primary key.
var resealTables = map[string]resealTable{
	"facts":               {from: "facts t JOIN users us ON us.seq = t.u", keys: []string{"seq"}, ints: 1, user: "us.id", row: "t.id"},
	"list_events":         {from: "list_events t JOIN users us ON us.seq = t.u", keys: []string{"seq"}, ints: 1, user: "us.id", row: "t.fact_id"},
	"episodes":            {from: "episodes t JOIN users us ON us.seq = t.u", keys: []string{"seq"}, ints: 1, user: "us.id", row: "t.id"},
	"entities":            {from: "entities t JOIN users us ON us.seq = t.u", keys: []string{"u", "id"}, ints: 1, user: "us.id", row: "t.id"},
	"conflicts":           {from: "conflicts t JOIN users us ON us.seq = t.u", keys: []string{"u", "id"}, ints: 1, user: "us.id", row: "t.id"},
	"transcript_sessions": {from: "transcript_sessions t JOIN users us ON us.seq = t.u", keys: []string{"u", "id", "file"}, ints: 1, user: "us.id", row: "t.id"},
	"sheets":              {from: "sheets t JOIN users us ON us.seq = t.u", keys: []string{"seq"}, ints: 1, user: "us.id", row: "t.id"},
	"jobs":                {from: "jobs t", keys: []string{"seq"}, ints: 1, user: "t.user_id", row: "t.id"},
}

// query returns the statement that reads a batch of at most limit rows of the
// table, with texts cols, from its first row or (after) from the row after a
// position: the key's values, bound as parameters.
func (rt resealTable) query(cols []string, after bool, limit int) string {
	keys := rowcodec.Prefixed("t.", strings.Join(rt.keys, ", "))
	texts := rowcodec.Prefixed("t.", strings.Join(cols, ", "))
	q := "SELECT " + keys + ", " + rt.user + ", " + rt.row + ", " + texts + " FROM " + rt.from
	if after {
		q += " WHERE (" + keys + ") > (" + strings.TrimSuffix(strings.Repeat("?, ", len(rt.keys)), ", ") + ")"
	}
	return q + " ORDER BY " + keys + " LIMIT " + strconv.Itoa(limit)
}

// keyArgs returns the parameters of a key's values: integers bound as integers.
func (rt resealTable) keyArgs(key []string) ([]any, error) {
	args := make([]any, len(key))
	for i, v := range key {
		args[i] = v
		if i < rt.ints {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return nil, err
			}
			args[i] = n
		}
	}
	return args, nil
}

// ResealRows reads a batch of table's rows of every user after the position after,
// passes them to fn and writes back the rows whose texts fn changed, in one
// immediate transaction on the writer, so that no write comes between the read and
// the write back. It returns the number of rows written back. Writing a fact's
// texts re-indexes its full text only when the indexed values change (migration
// 0023): a fact with terms keeps its entry.
func (s *Store) ResealRows(ctx context.Context, table, after string, limit int, fn func([]factbase.SealedRow) error) (string, int, error) {
	if err := sealdb.CheckReseal(table, limit); err != nil {
		return "", 0, err
	}
	rt := resealTables[table]
	cols := factbase.SealedTables[table]
	from, err := sealdb.ParsePosition(after, len(rt.keys))
	if err != nil {
		return "", 0, err
	}
	fromArgs, err := rt.keyArgs(from)
	if err != nil {
		return "", 0, factbase.Errorf(factbase.EINVALID, "%q is not a position of this table's rows", after)
	}
	if s.gate.Closed() {
		return "", 0, storeerr.ErrClosed
	}

	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return "", 0, s.staticErr("reseal", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, rt.query(cols, len(from) > 0, limit+1), fromArgs...)
	if err != nil {
		return "", 0, s.staticErr("reseal", err)
	}
	batch := sealdb.NewBatch(table)
	for rows.Next() {
		var (
			key       = make([]string, len(rt.keys))
			user, row string
			texts     = make([]string, len(cols))
			dest      []any
		)
		for i := range key {
			dest = append(dest, &key[i])
		}
		dest = append(dest, &user, &row)
		for i := range texts {
			dest = append(dest, &texts[i])
		}
		if err = rows.Scan(dest...); err == nil {
			err = batch.Add(key, user, row, texts)
		}
		if err != nil {
			rows.Close()
			return "", 0, s.staticErr("reseal", err)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", 0, s.staticErr("reseal", err)
	}
	next, changed, err := batch.Run(limit, fn)
	if err != nil {
		return "", 0, err
	}
	update := "UPDATE " + table + " SET " + strings.Join(cols, " = ?, ") + " = ? WHERE " + strings.Join(rt.keys, " = ? AND ") + " = ?"
	for _, i := range changed {
		vals, err := batch.Columns(i)
		if err != nil {
			return "", 0, err
		}
		key, err := rt.keyArgs(batch.Key(i))
		if err != nil {
			return "", 0, s.staticErr("reseal", err)
		}
		args := make([]any, 0, len(vals)+len(key))
		for _, v := range vals {
			args = append(args, v)
		}
		if _, err := tx.ExecContext(ctx, update, append(args, key...)...); err != nil {
			return "", 0, s.staticErr("reseal", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return "", 0, s.staticErr("reseal", err)
	}
	return next, len(changed), nil
}
