package postgres

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/sealdb"
	"github.com/factbase/factbase/internal/storeerr"
)

// resealTable says how ResealRows reads and writes one of factbase.SealedTables.
type resealTable struct {
	keys  []string // the columns it is ordered and paged by, a unique key
	types []string // their types, for the position's parameters
	user  string   // the owner's user id, as text
	row   string   // the id the texts are bound to (factbase.SealedRow.Row)
	// texts are the expressions that read the factbase.SealedTables columns as text;
	// set, those that write them from a parameter ("" for the plain one).
	texts, set []string
	// extra are more columns the write back needs, after the texts.
	extra []string
	// update, when set, writes a row back: its statement and its arguments from the
	// row's new texts and its extra columns (a fact's and an episode's tsvector
	// follow their texts unless they index terms). Unset, the texts are written as
	// they are.
	update func(texts []string, extra []any) (string, []any)
	sheet  bool // the one text column holds a saved sheet's entries (their texts are passed)
}

// Tables with a user are paged by the user and then the row's seq or primary key:
// the table's key in a schema sharded by user (migration 0021), and new rows take
// larger seqs. The job queue is not per user (user_id is only a column): by seq.
var resealTables = map[string]resealTable{
	"facts": {keys: []string{"u", "seq"}, types: []string{"uuid", "bigint"}, user: "u::text", row: "id",
		texts: []string{"value", "text"}, extra: []string{"key", "terms IS NOT NULL"}, update: resealFact},
	"list_events": {keys: []string{"u", "seq"}, types: []string{"uuid", "bigint"}, user: "u::text", row: "fact_id",
		texts: []string{"value"}},
	"episodes": {keys: []string{"u", "seq"}, types: []string{"uuid", "bigint"}, user: "u::text", row: "id",
		texts: []string{"content", "metadata::text"}, extra: []string{"tags", "terms IS NOT NULL"}, update: resealEpisode},
	"entities": {keys: []string{"u", "id"}, types: []string{"uuid", "text"}, user: "u::text", row: "id",
		texts: []string{"name", "aliases", "attributes"}},
	"conflicts": {keys: []string{"u", "id"}, types: []string{"uuid", "text"}, user: "u::text", row: "id",
		texts: []string{"current_value", "proposed", "reason"}},
	"transcript_sessions": {keys: []string{"u", "id", "file"}, types: []string{"uuid", "text", "text"}, user: "u::text", row: "id",
		texts: []string{"cwd", "git_branch", "summary"}},
	"sheets": {keys: []string{"u", "seq"}, types: []string{"uuid", "bigint"}, user: "u::text", row: "id",
		texts: []string{"entries::text"}, set: []string{"$1::jsonb"}, sheet: true},
	"jobs": {keys: []string{"seq"}, types: []string{"bigint"}, user: "user_id", row: "id",
		texts: []string{"input", "result", "error"}},
}

// The write backs of a fact and an episode: a row without terms indexes the new
// texts (factFTS, episodeFTS); one with terms keeps its tsvector.
var (
	qResealFact = `UPDATE facts SET value = $1, text = $2, fts = CASE WHEN terms IS NULL THEN ` +
		strings.NewReplacer("$29", "$3", "$30", "$4", "$31", "$5").Replace(factFTS) +
		` ELSE fts END WHERE u = $6 AND seq = $7`
	qResealEpisode = `UPDATE episodes SET content = $1, metadata = $2::jsonb, fts = CASE WHEN terms IS NULL THEN ` +
		strings.NewReplacer("$9", "$3", "$10", "$4").Replace(episodeFTS) +
		` ELSE fts END WHERE u = $5 AND seq = $6`
)

func resealFact(texts []string, extra []any) (string, []any) {
	key, sealed := *extra[0].(*string), *extra[1].(*bool)
	fts := [3]string{}
	if !sealed {
		fts = factFTSArgs(texts[1], key, texts[0], "")
	}
	return qResealFact, []any{texts[0], texts[1], fts[0], fts[1], fts[2]}
}

func resealEpisode(texts []string, extra []any) (string, []any) {
	tags, sealed := *extra[0].(*[]string), *extra[1].(*bool)
	fts := [2]string{}
	if !sealed {
		fts = episodeFTSArgs(texts[0], tags, "")
	}
	return qResealEpisode, []any{texts[0], texts[1], fts[0], fts[1]}
}

// extraDest returns the scan destination of an extra column.
func extraDest(column string) any {
	switch column {
	case "tags":
		return new([]string)
	case "terms IS NOT NULL":
		return new(bool)
	}
	return new(string)
}

// query returns the statement that reads, and locks, a batch of at most limit rows
// of table, from its first row or (after) from the row after a position: the key's
// values, bound as parameters.
func (rt resealTable) query(table string, after bool, limit int) string {
	// The key is read as text, but ordered and compared as itself: qualified, not by
	// the name of the text column read.
	keys := rowcodec.Prefixed("t.", strings.Join(rt.keys, ", "))
	var b strings.Builder
	b.WriteString("SELECT ")
	for _, k := range rt.keys {
		b.WriteString("t." + k + "::text, ")
	}
	b.WriteString("t." + rt.user + ", t." + rt.row + ", " + rowcodec.Prefixed("t.", strings.Join(rt.texts, ", ")))
	for _, e := range rt.extra {
		b.WriteString(", t." + e)
	}
	b.WriteString(" FROM " + table + " t")
	if after {
		params := make([]string, len(rt.keys))
		for i := range rt.keys {
			params[i] = "$" + strconv.Itoa(i+1)
		}
		b.WriteString(" WHERE (" + keys + ") > (" + strings.Join(params, ", ") + ")")
	}
	b.WriteString(" ORDER BY " + keys + " LIMIT " + strconv.Itoa(limit) + " FOR UPDATE")
	return b.String()
}

// keyArg returns the parameter of the value v of key column i, read as text: a
// bigint is bound as an integer.
func (rt resealTable) keyArg(i int, v string) (any, error) {
	if rt.types[i] == "bigint" {
		return strconv.ParseInt(v, 10, 64)
	}
	return v, nil
}

// updateSQL returns the plain write back of table: its texts, then its key, as
// parameters.
func (rt resealTable) updateSQL(table string) string {
	cols := factbase.SealedTables[table]
	set := make([]string, len(cols))
	for i, c := range cols {
		v := "$" + strconv.Itoa(i+1)
		if rt.set != nil && rt.set[i] != "" {
			v = rt.set[i]
		}
		set[i] = c + " = " + v
	}
	where := make([]string, len(rt.keys))
	for i, k := range rt.keys {
		where[i] = k + " = $" + strconv.Itoa(len(cols)+i+1)
	}
	return "UPDATE " + table + " SET " + strings.Join(set, ", ") + " WHERE " + strings.Join(where, " AND ")
}

// resealRow is a row as ResealRows read it.
type resealRow struct {
	key     []string
	entries string // a sheet's entries column
	extra   []any
}

// ResealRows reads, and locks, a batch of table's rows of every user after the
// position after, passes them to fn and writes back the rows whose texts fn changed,
// in one transaction: a writer of one of the rows waits for it, and its write is not
// lost. It returns the number of rows written back. A deadlock with a writer (which
// locks the rows it writes in its own order) reruns the batch, fn included, as
// Update does.
func (s *Store) ResealRows(ctx context.Context, table, after string, limit int, fn func([]factbase.SealedRow) error) (string, int, error) {
	if err := sealdb.CheckReseal(table, limit); err != nil {
		return "", 0, err
	}
	rt := resealTables[table]
	from, err := sealdb.ParsePosition(after, len(rt.keys))
	if err != nil {
		return "", 0, err
	}
	args := make([]any, len(from))
	for i, v := range from {
		if args[i], err = rt.keyArg(i, v); err != nil {
			return "", 0, factbase.Errorf(factbase.EINVALID, "%q is not a position of this table's rows", after)
		}
	}
	// fn's own error is returned as it is, never retried.
	var fnErr error
	call := func(rows []factbase.SealedRow) error {
		fnErr = fn(rows)
		return fnErr
	}
	for attempt := 0; ; attempt++ {
		if s.gate.Closed() {
			return "", 0, storeerr.ErrClosed
		}
		fnErr = nil
		next, n, err := s.reseal(ctx, table, rt, args, limit, call)
		if fnErr != nil {
			return "", 0, fnErr
		}
		if err == nil || !retryable(err) || ctx.Err() != nil {
			return next, n, mapErr("reseal", err)
		}
		if attempt >= s.retries {
			return "", 0, &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "store is busy; try again", Err: err}
		}
		select {
		case <-ctx.Done():
			return "", 0, mapErr("reseal", ctx.Err())
		case <-time.After(time.Duration(1<<attempt) * 5 * time.Millisecond):
		}
	}
}

// reseal runs one attempt of ResealRows; its driver errors are returned unmapped.
func (s *Store) reseal(ctx context.Context, table string, rt resealTable, from []any, limit int, fn func([]factbase.SealedRow) error) (string, int, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return "", 0, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	rows, err := tx.Query(ctx, rt.query(table, len(from) > 0, limit+1), from...)
	if err != nil {
		return "", 0, err
	}
	var (
		read   []resealRow
		sealed []factbase.SealedRow
	)
	for rows.Next() {
		var (
			r    = resealRow{key: make([]string, len(rt.keys))}
			sr   = factbase.SealedRow{Texts: make([]string, len(rt.texts))}
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
		for _, e := range rt.extra {
			r.extra = append(r.extra, extraDest(e))
		}
		if err := rows.Scan(append(dest, r.extra...)...); err != nil {
			rows.Close()
			return "", 0, err
		}
		sr.User = factbase.UserID(user)
		if rt.sheet {
			r.entries = sr.Texts[0]
			if sr.Texts, err = rowcodec.SheetTexts([]byte(r.entries)); err != nil {
				rows.Close()
				return "", 0, factbase.Errorf(factbase.EINTERNAL, "postgres: reseal sheet %s: %v", sr.Row, err)
			}
		}
		read, sealed = append(read, r), append(sealed, sr)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", 0, err
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
	plain := rt.updateSQL(table)
	for _, i := range changed {
		var (
			q    = plain
			args []any
		)
		switch {
		case rt.update != nil:
			q, args = rt.update(sealed[i].Texts, read[i].extra)
		case rt.sheet:
			entries, err := rowcodec.WithSheetTexts([]byte(read[i].entries), sealed[i].Texts)
			if err != nil {
				return "", 0, factbase.Errorf(factbase.EINTERNAL, "postgres: reseal sheet %s: %v", sealed[i].Row, err)
			}
			args = append(args, entries)
		default:
			for _, t := range sealed[i].Texts {
				args = append(args, t)
			}
		}
		for j, k := range read[i].key {
			a, err := rt.keyArg(j, k)
			if err != nil {
				return "", 0, err
			}
			args = append(args, a)
		}
		if _, err := tx.Exec(ctx, q, args...); err != nil {
			return "", 0, err
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return "", 0, err
	}
	return next, len(changed), nil
}
