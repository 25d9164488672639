package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/export"
	"github.com/factbase/factbase/internal/listpos"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/storeerr"
)

// tx implements factbase.Tx over one SQL transaction scoped to one user.
type tx struct {
	q     *sql.Tx
	cache *stmtCache
	users *sync.Map
	u     int64 // users.seq; 0 = the user has no rows yet
	user  factbase.UserID
	now   time.Time

	inserts int            // facts inserted through Insert (fts.go)
	ftsFrom int64          // the first seq whose full text and sheet record flushDeferred writes; 0: none deferred
	vecPuts map[vecPut]int // vectors stored, by model and dimension (warm.go)

	export.Reads // the export reads but ExportVectors (export.go)
}

var _ factbase.Tx = (*tx)(nil)

// Now returns the transaction's time.
func (t *tx) Now() time.Time { return t.now }

// The static statements, prepared once per connection (see stmtCache).
var (
	qFact = "SELECT " + factColumns + " FROM facts WHERE u = ? AND id = ?"
	// qMember finds a member by its normalised value; qFactAt reads it. A write
	// mostly asks for a value that is absent, so it asks for the seq alone (the
	// driver charges every column it returns) and reads the row only when the value
	// is present (BenchmarkApplyRankedAppend measures it).
	qMember = `SELECT seq FROM facts
		WHERE u = ? AND subject = ? AND key = ? AND norm = ? AND current = 1 AND cardinality <> 'one'`
	qFactAt  = "SELECT " + factColumns + " FROM facts WHERE seq = ?"
	qCurrent = "SELECT " + factColumns + ` FROM facts
		WHERE u = ? AND subject = ? AND key = ? AND current = 1 AND cardinality = 'one'`
	// The member at a position (ranks.go: a current member's rank column holds its
	// position in the list).
	qAtPosition = "SELECT " + factColumns + ` FROM facts
		WHERE u = ? AND subject = ? AND key = ? AND rank = ? AND current = 1 AND cardinality = 'ranked'`
	// qListPage is completed with a literal LIMIT (rankedList.Page).
	qListPage = "SELECT " + factColumns + ` FROM facts
		WHERE u = ? AND subject = ? AND key = ? AND current = 1 AND cardinality = 'ranked'
		AND rank >= ? ORDER BY rank`
	qMaxRank = `SELECT coalesce((SELECT members FROM list_sizes WHERE u = ? AND subject = ? AND key = ?), 0)`
	// qKeyStats: ranks are derived from positions (ranks.go), so the lowest is 1 when
	// the list has a first member (an index seek) and the highest is the member count
	// the database keeps; the unique index on positions keeps one member per rank.
	qKeyStats = `SELECT
		(SELECT count(*) FROM facts WHERE u = ?1 AND subject = ?2 AND key = ?3 AND current = 1 AND cardinality = 'one'),
		coalesce((SELECT members FROM list_sizes WHERE u = ?1 AND subject = ?2 AND key = ?3), 0),
		coalesce((SELECT 1 FROM facts WHERE u = ?1 AND subject = ?2 AND key = ?3 AND current = 1 AND cardinality = 'ranked' LIMIT 1), 0),
		(SELECT count(*) FROM facts WHERE u = ?1 AND subject = ?2 AND key = ?3 AND current = 1 AND cardinality <> 'one' AND norm = ?4)`
	qListEvents = `SELECT at, action, fact_id, value, from_rank, to_rank FROM list_events
		WHERE u = ? AND subject = ? AND key = ? AND at <= ? ORDER BY at, seq`
	qInsert = `INSERT INTO facts (id, u, subject, key, cardinality, value, norm, value_type,
		rank, text, type, category, confidence, scope, durability, sensitivity, said_by, temporal, anchor,
		source_kind, source_id, extractor, recorded_at, valid_from, valid_to, supersedes, superseded_by, current, terms)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	// qEnd: a ranked member leaving its list keeps the rank it had (derived from its
	// position, ranks.go) as history.
	qEnd = `UPDATE facts SET current = 0, valid_to = ?, superseded_by = ?,
		rank = CASE WHEN cardinality = 'ranked' THEN (SELECT count(*) FROM facts m
			WHERE m.u = facts.u AND m.subject = facts.subject AND m.key = facts.key AND m.current = 1
			AND m.cardinality = 'ranked' AND m.rank <= facts.rank) END
		WHERE u = ? AND id = ? AND current = 1`
	// qEraseEvents finds a fact's list events through list_events_key with the fact's
	// subject and key (migration 0017); run it before the fact's row goes.
	qEraseEvents = `DELETE FROM list_events WHERE u = ?1
		AND subject = (SELECT subject FROM facts WHERE u = ?1 AND id = ?2)
		AND key = (SELECT key FROM facts WHERE u = ?1 AND id = ?2) AND fact_id = ?2`
	qEraseFact = "DELETE FROM facts WHERE u = ? AND id = ?"
	qAddEvent  = `INSERT INTO list_events (u, subject, key, at, action, fact_id, value, from_rank, to_rank)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
	qFactKeys = `SELECT DISTINCT key FROM facts WHERE u = ? AND key >= ? AND key < ? AND subject = ? AND current = 1
		ORDER BY key`
	qUserSeq    = "SELECT seq FROM users WHERE id = ?"
	qUserInsert = "INSERT INTO users (id, created_at) VALUES (?, ?)"

	staticQueries = []string{qFact, qMember, qFactAt, qCurrent, qAtPosition, qMaxRank, qKeyStats, qListEvents,
		qInsert, qEnd, qEraseEvents, qEraseFact, qAddEvent, qUserSeq, qUserInsert, qFactKeys}
)

// queryAll runs q and reads every row of its result with scan (rowcodec.All). Its
// errors are the driver's, for the caller to map.
func queryAll[T any](ctx context.Context, t *tx, scan func(rowcodec.Scanner) (T, error), q string, args ...any) ([]T, error) {
	rows, err := t.query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return rowcodec.All(rows, scan)
}

// queryFacts runs a query of factColumns and reads its facts (scanFacts).
func (t *tx) queryFacts(ctx context.Context, q string, args ...any) ([]factbase.Fact, error) {
	rows, err := t.query(ctx, q, args...)
	return t.scanFacts(ctx, rows, err)
}

// scanFacts reads facts from rows and derives the ranks of current ranked members
// (ranks.go).
func (t *tx) scanFacts(ctx context.Context, rows *sql.Rows, err error) ([]factbase.Fact, error) {
	var facts []factbase.Fact
	if err == nil {
		facts, err = rowcodec.All(rows, t.scanFact)
	}
	if err == nil {
		err = t.fixRanks(ctx, facts)
	}
	if err != nil {
		return nil, mapErr("query", err)
	}
	return facts, nil
}

// scanFact reads a fact selected with factColumns (factrec.go).
func (t *tx) scanFact(r rowcodec.Scanner) (factbase.Fact, error) {
	var (
		f   factbase.Fact
		rec string
	)
	if err := r.Scan(&rec, &f.Confidence); err != nil {
		return f, mapErr("scan", err)
	}
	if err := parseFactRecord(rec, &f); err != nil {
		return f, factbase.Errorf(factbase.EINTERNAL, "sqlite: a fact record: %v", err)
	}
	f.User = t.user
	return f, nil
}

// Fact returns one fact by id.
func (t *tx) Fact(ctx context.Context, id string) (factbase.Fact, error) {
	f, err := t.scanFact(t.queryRow(ctx, qFact, t.u, id))
	if err != nil {
		return f, storeerr.NotFoundIf(err, sql.ErrNoRows, "fact", id)
	}
	err = t.fixRank(ctx, &f)
	return f, err
}

// Facts returns the facts matching f.
func (t *tx) Facts(ctx context.Context, f factbase.FactFilter) ([]factbase.Fact, error) {
	q, args := t.factsQuery(f)
	return t.queryFacts(ctx, q, args...)
}

// factsQuery builds the statement of Facts.
func (t *tx) factsQuery(f factbase.FactFilter) (string, []any) {
	var (
		where = []string{"u = ?"}
		args  = []any{t.u}
	)
	where, args = eq(where, args, "id", f.ID)
	where, args = eq(where, args, "key", f.Key)
	subject := f.Subject
	if len(f.Subjects) > 0 {
		subject = ""
		where = append(where, "subject IN ("+strings.TrimSuffix(strings.Repeat("?, ", len(f.Subjects)), ", ")+")")
		for _, s := range f.Subjects {
			args = append(args, s)
		}
	}
	where, args = factConds{subject, f.KeyPrefix, f.Type, f.Category, f.MinConfidence}.add(where, args, "")
	switch {
	case f.AsOf != nil:
		at := f.AsOf.UnixNano()
		where = append(where, "recorded_at <= ? AND valid_from <= ? AND (valid_to IS NULL OR valid_to > ?)")
		args = append(args, at, at, at)
	case !f.History:
		where = append(where, "current = 1")
	}
	order := " ORDER BY recorded_at, seq"
	if f.NewestFirst {
		order = " ORDER BY recorded_at DESC, seq DESC"
	}
	page, args := literalLimit(f.Limit, f.Offset, args)
	return "SELECT " + factColumns + " FROM facts WHERE " + strings.Join(where, " AND ") + order + page, args
}

// eq appends to where the condition that column equals v, and v to args, if v is
// set (not "").
func eq(where []string, args []any, column, v string) ([]string, []any) {
	if v == "" {
		return where, args
	}
	return append(where, column+" = ?"), append(args, v)
}

// literalLimit returns the LIMIT and OFFSET clause of a page of a statement that the
// statement cache keeps, and args with its argument appended. The limit is a
// literal, not a parameter: SQLite's planner reads a bound LIMIT, so a statement
// with "LIMIT ?" is re-prepared on every run (see stmtCache). OFFSET may stay a
// parameter. A limit of 0 is none.
func literalLimit(limit, offset int, args []any) (string, []any) {
	switch {
	case limit > 0:
		return " LIMIT " + strconv.Itoa(limit) + " OFFSET ?", append(args, offset)
	case offset > 0:
		return " LIMIT -1 OFFSET ?", append(args, offset)
	}
	return "", args
}

// factConds are the conditions on facts that a FactFilter and a SearchFilter share.
type factConds struct {
	subject, keyPrefix, typ string
	category                factbase.Category
	minConfidence           float64
}

// add appends the conditions that are set to where and their arguments to args,
// over the columns of facts qualified with p ("" or "f.").
func (c factConds) add(where []string, args []any, p string) ([]string, []any) {
	where, args = eq(where, args, p+"subject", c.subject)
	if c.keyPrefix != "" {
		where, args = append(where, p+"key >= ? AND "+p+"key < ?"), append(args, c.keyPrefix, prefixEnd(c.keyPrefix))
	}
	where, args = eq(where, args, p+"category", string(c.category))
	if c.typ != "" {
		// "type <> ''" lets SQLite use the partial index facts_type (migration 0017).
		where, args = append(where, p+"type = ? AND "+p+"type <> ''"), append(args, c.typ)
	}
	if c.minConfidence > 0 {
		where, args = append(where, p+"confidence >= ?"), append(args, c.minConfidence)
	}
	return where, args
}

// prefixEnd returns the smallest string greater than every string with prefix p.
func prefixEnd(p string) string {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1])
		}
	}
	return string(append([]byte(p), 0xff))
}

// one reads the fact q selects, if any, with its rank.
func (t *tx) one(ctx context.Context, q string, args ...any) (factbase.Fact, bool, error) {
	f, ok, err := rowcodec.One(t.queryRow(ctx, q, args...), sql.ErrNoRows, t.scanFact)
	if ok {
		err = t.fixRank(ctx, &f)
	}
	return f, ok && err == nil, err
}

// Member returns the current member of (subject, key) whose normalised value is norm.
func (t *tx) Member(ctx context.Context, subject, key, norm string) (factbase.Fact, bool, error) {
	var seq int64
	switch err := t.queryRow(ctx, qMember, t.u, subject, key, norm).Scan(&seq); {
	case errors.Is(err, sql.ErrNoRows):
		return factbase.Fact{}, false, nil
	case err != nil:
		return factbase.Fact{}, false, mapErr("member", err)
	}
	return t.one(ctx, qFactAt, seq)
}

// Current returns the current fact of a single-valued key.
func (t *tx) Current(ctx context.Context, subject, key string) (factbase.Fact, bool, error) {
	return t.one(ctx, qCurrent, t.u, subject, key)
}

// AtRank returns the current member at rank.
func (t *tx) AtRank(ctx context.Context, subject, key string, rank int) (factbase.Fact, bool, error) {
	return listpos.AtRank(ctx, rankedList{t, subject, key}, rank)
}

// ListPage returns members with ranks in [offset+1, offset+limit] and the list length.
func (t *tx) ListPage(ctx context.Context, subject, key string, offset, limit int) ([]factbase.Fact, int, error) {
	return listpos.Page(ctx, rankedList{t, subject, key}, offset, limit)
}

// Keys returns the distinct current keys of subject starting with prefix.
func (t *tx) Keys(ctx context.Context, subject, prefix string) ([]string, error) {
	keys, err := queryAll(ctx, t, rowcodec.String, qFactKeys, t.u, prefix, prefixEnd(prefix), subject)
	return keys, mapErr("keys", err)
}

// MaxRank returns the highest current rank of the list (an index seek).
func (t *tx) MaxRank(ctx context.Context, subject, key string) (int, error) {
	var n int
	err := t.queryRow(ctx, qMaxRank, t.u, subject, key).Scan(&n)
	return n, mapErr("max rank", err)
}

// KeyStats summarises the current facts of (subject, key).
func (t *tx) KeyStats(ctx context.Context, subject, key, norm string) (factbase.KeyStats, error) {
	var s factbase.KeyStats
	err := t.queryRow(ctx, qKeyStats, t.u, subject, key, norm).Scan(&s.Current, &s.Members, &s.MinRank, &s.NormCount)
	s.MaxRank = s.Members // derived ranks are 1..members
	return s, mapErr("key stats", err)
}

// ListEvents returns the list's events up to until, oldest first.
func (t *tx) ListEvents(ctx context.Context, subject, key string, until time.Time) ([]factbase.ListEvent, error) {
	events, err := queryAll(ctx, t, rowcodec.ListEvent(subject, key), qListEvents, t.u, subject, key, until.UnixNano())
	return events, mapErr("list events", err)
}

// Insert writes a new fact row. A current ranked member takes a position that gives
// it rank f.Rank: the members from that rank on move down one (ranks.go).
func (t *tx) Insert(ctx context.Context, f factbase.Fact, norm string) error {
	var rank any
	if f.Cardinality == factbase.Ranked {
		rank = f.Rank
		if f.Current {
			p, err := listpos.Insert(ctx, rankedList{t, f.Subject, f.Key}, rankGap, f.Rank)
			if err != nil {
				return err
			}
			rank = p
		}
	}
	cur := 0
	if f.Current {
		cur = 1
	}
	if err := t.beforeInsert(ctx); err != nil {
		return err
	}
	_, err := t.exec(ctx, qInsert,
		f.ID, t.u, f.Subject, f.Key, string(f.Cardinality), f.Value, norm, string(f.ValueType),
		rank, f.Text, f.Type, string(f.Category), f.Confidence, f.Scope, string(f.Durability),
		string(f.Sensitivity), f.SaidBy, f.Temporal, rowcodec.Nanos(f.Anchor), f.Source.Kind, f.Source.ID,
		f.Extractor, f.RecordedAt.UnixNano(), f.ValidFrom.UnixNano(), rowcodec.Nanos(f.ValidTo),
		f.Supersedes, f.SupersededBy, cur, indexTerms(f.Index))
	return mapErr("insert", err)
}

// indexTerms is the terms column of a row whose index text is index (factbase.Fact.Index,
// factbase.Episode.Index): NULL when it has none, so that the row indexes its own
// texts (migration 0023).
func indexTerms(index string) any {
	if index == "" {
		return nil
	}
	return index
}

// End marks a current fact no longer current.
func (t *tx) End(ctx context.Context, id string, at time.Time, by string) error {
	n, err := t.execCount(ctx, "end", qEnd, at.UnixNano(), by, t.u, id)
	if err != nil {
		return err
	}
	if n != 1 {
		return factbase.Errorf(factbase.ENOTFOUND, "no current fact %q", id)
	}
	return nil
}

// MoveTo gives member m rank to. Ranks are derived from positions (ranks.go), so
// only m's row changes: it takes a position between its new neighbours, and the
// members in between shift by the derivation.
func (t *tx) MoveTo(ctx context.Context, m factbase.Fact, to int) error {
	return listpos.Move(ctx, rankedList{t, m.Subject, m.Key}, rankGap, m.Key, m.ID, m.Rank, to)
}

// fixRank replaces the position of f, if a current ranked member read in this
// transaction, by its rank.
func (t *tx) fixRank(ctx context.Context, f *factbase.Fact) error {
	return listpos.DeriveRank(f, func(subject, key string, pos int64) (int, error) { return t.rankOf(ctx, subject, key, pos) })
}

// Erase deletes a fact row and its list events.
func (t *tx) Erase(ctx context.Context, id string) (int, error) {
	if _, err := t.exec(ctx, qEraseEvents, t.u, id); err != nil {
		return 0, mapErr("erase", err)
	}
	return t.execCount(ctx, "erase", qEraseFact, t.u, id)
}

// AddListEvent records a list change.
func (t *tx) AddListEvent(ctx context.Context, e factbase.ListEvent) error {
	_, err := t.exec(ctx, qAddEvent, t.u, e.Subject, e.Key, e.At.UnixNano(), string(e.Action), e.FactID, e.Value, e.From, e.To)
	return mapErr("list event", err)
}
