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
	from  string   // the table aliased t, joined to its owner's users row aliased us
	keys  []string // the columns of t it is ordered and paged by, a unique key
	ints  int      // how many of keys, from the first, are integers
	user  string   // the owner's user id
	row   string   // the id the texts are bound to (factbase.SealedRow.Row)
	sheet bool     // the one text column holds a saved sheet's entries (their texts are passed)
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
	"sheets":              {from: "sheets t JOIN users us ON us.seq = t.u", keys: []string{"seq"}, ints: 1, user: "us.id", row: "t.id", sheet: true},
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

// resealRow is a row as ResealRows read it: its key, its texts as fn sees them, and
// for a sheet the entries column the texts come from.
type resealRow struct {
	key     []string
	entries string
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
	var fromArgs []any
	for i, v := range from {
		if i < rt.ints {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return "", 0, factbase.Errorf(factbase.EINVALID, "%q is not a position of this table's rows", after)
			}
			fromArgs = append(fromArgs, n)
		} else {
			fromArgs = append(fromArgs, v)
		}
	}
	if s.gate.Closed() {
		return "", 0, storeerr.ErrClosed
	}

	q := rt.query(cols, len(from) > 0, limit+1)
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return "", 0, s.staticErr("reseal", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, q, fromArgs...)
	if err != nil {
		return "", 0, s.staticErr("reseal", err)
	}
	var (
		read   []resealRow
		sealed []factbase.SealedRow
	)
	for rows.Next() {
		var (
			r    = resealRow{key: make([]string, len(rt.keys))}
			sr   = factbase.SealedRow{Texts: make([]string, len(cols))}
			user string
			dest []any
		)
		for i := range r.key {
			dest = append(dest, &r.key[i])
		}
		dest = append(dest, &user, &sr.Row)
		for i := range sr.Texts {
			dest = append(dest, &sr.Texts[i])
		}
		if err := rows.Scan(dest...); err != nil {
			rows.Close()
			return "", 0, s.staticErr("reseal", err)
		}
		sr.User = factbase.UserID(user)
		if rt.sheet {
			r.entries = sr.Texts[0]
			if sr.Texts, err = rowcodec.SheetTexts([]byte(r.entries)); err != nil {
				rows.Close()
				return "", 0, factbase.Errorf(factbase.EINTERNAL, "sqlite: reseal sheet %s: %v", sr.Row, err)
			}
		}
		read, sealed = append(read, r), append(sealed, sr)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", 0, s.staticErr("reseal", err)
	}
	next := ""
	if len(read) > limit {
		read, sealed = read[:limit], sealed[:limit]
		next = sealdb.Position(read[limit-1].key...)
	}
	if len(read) == 0 {
		return "", 0, nil
	}

	changed, err := sealdb.Changed(table, sealed, fn)
	if err != nil {
		return "", 0, err
	}
	set := strings.Join(cols, " = ?, ") + " = ?"
	if rt.sheet {
		set = "entries = ?"
	}
	update := "UPDATE " + table + " SET " + set + " WHERE " + strings.Join(rt.keys, " = ? AND ") + " = ?"
	for _, i := range changed {
		var args []any
		if rt.sheet {
			entries, err := rowcodec.WithSheetTexts([]byte(read[i].entries), sealed[i].Texts)
			if err != nil {
				return "", 0, factbase.Errorf(factbase.EINTERNAL, "sqlite: reseal sheet %s: %v", sealed[i].Row, err)
			}
			args = append(args, entries)
		} else {
			for _, t := range sealed[i].Texts {
				args = append(args, t)
			}
		}
		for j, k := range read[i].key {
			if j < rt.ints {
				n, _ := strconv.ParseInt(k, 10, 64) // read from the column: an integer
				args = append(args, n)
			} else {
				args = append(args, k)
			}
		}
		if _, err := tx.ExecContext(ctx, update, args...); err != nil {
			return "", 0, s.staticErr("reseal", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return "", 0, s.staticErr("reseal", err)
	}
	return next, len(changed), nil
}
