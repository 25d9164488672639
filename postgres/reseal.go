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
	types []string // their types: a bigint's value is bound as an integer (keyArg)
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
}

// Tables with a user are paged by the user and then the row's seq or its primary
// key: the key of each per-user table once the schema is shardable by user (every
// primary key leads with u), and new rows take larger seqs. The job queue is not
// per user (user_id is only a column): by seq.
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
		texts: []string{"entries::text"}, set: []string{"$1::jsonb"}},
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
		batch  = sealdb.NewBatch(table)
		extras [][]any // each row's extra columns
	)
	for rows.Next() {
		var (
			key       = make([]string, len(rt.keys))
			user, row string
			texts     = make([]string, len(rt.texts))
			extra     []any
			dest      []any
		)
		for i := range key {
			dest = append(dest, &key[i])
		}
		dest = append(dest, &user, &row)
		for i := range texts {
			dest = append(dest, &texts[i])
		}
		for _, e := range rt.extra {
			extra = append(extra, extraDest(e))
		}
		if err = rows.Scan(append(dest, extra...)...); err == nil {
			err = batch.Add(key, user, row, texts)
		}
		if err != nil {
			rows.Close()
			return "", 0, err
		}
		extras = append(extras, extra)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", 0, err
	}
	next, changed, err := batch.Run(limit, fn)
	if err != nil {
		return "", 0, err
	}
	plain := rt.updateSQL(table)
	for _, i := range changed {
		vals, err := batch.Columns(i)
		if err != nil {
			return "", 0, err
		}
		q, args := plain, make([]any, 0, len(vals)+len(rt.keys))
		if rt.update != nil {
			q, args = rt.update(vals, extras[i])
		} else {
			for _, v := range vals {
				args = append(args, v)
			}
		}
		for j, k := range batch.Key(i) {
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
