package postgres

import (
	"context"
	"errors"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/export"
	"github.com/factbase/factbase/internal/listpos"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/storeerr"
)

// tx implements factbase.Tx over one PostgreSQL transaction scoped to one user. Every
// statement names the user's id, so a tx never sees another user's rows.
type tx struct {
	s      *Store
	q      *conn
	user   factbase.UserID
	now    time.Time
	writes int // rows inserted, for the statistics (analyze.go)

	export.Reads // the export reads but ExportVectors (export.go)
}

var _ factbase.Tx = (*tx)(nil)

// Now returns the transaction's time.
func (t *tx) Now() time.Time { return t.now }

const factColumns = `id, subject, key, cardinality, value, value_type, rank, text, type, category,
	confidence, scope, durability, sensitivity, said_by, temporal, anchor, source_kind, source_id,
	extractor, recorded_at, valid_from, valid_to, supersedes, superseded_by, current`

// factColumnsF is factColumns qualified with the alias f.
const factColumnsF = `f.id, f.subject, f.key, f.cardinality, f.value, f.value_type, f.rank, f.text, f.type,
	f.category, f.confidence, f.scope, f.durability, f.sensitivity, f.said_by, f.temporal, f.anchor,
	f.source_kind, f.source_id, f.extractor, f.recorded_at, f.valid_from, f.valid_to, f.supersedes,
	f.superseded_by, f.current`

// The static statements; pgx prepares each once per connection and caches it.
const (
	qLockUser   = "SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE"
	qUserInsert = "INSERT INTO users (id, created_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING"
	qFact       = "SELECT " + factColumns + " FROM facts WHERE u = $1 AND id = $2"
	qMember     = "SELECT " + factColumns + ` FROM facts
		WHERE u = $1 AND subject = $2 AND key = $3 AND norm = $4 AND current AND cardinality <> 'one'`
	qCurrent = "SELECT " + factColumns + ` FROM facts
		WHERE u = $1 AND subject = $2 AND key = $3 AND current AND cardinality = 'one'`
	// qListPage reads from the page's first position (ranks.go: a current member's
	// rank column holds its position in the list).
	qListPage = "SELECT " + factColumns + ` FROM facts
		WHERE u = $1 AND subject = $2 AND key = $3 AND current AND cardinality = 'ranked'
		AND rank >= $4 ORDER BY rank LIMIT $5`
	// The list's length is the member count the database keeps (list_sizes).
	qMaxRank = `SELECT members FROM list_sizes WHERE u = $1 AND subject = $2 AND key = $3`
	// qKeyStats: ranks are derived from positions (ranks.go), so the lowest is 1 when
	// the list has a member (read as "ORDER BY rank LIMIT 1", so that the planner
	// reads one end of the positions' index instead of scanning the key's history)
	// and the highest is the member count; the unique index on positions keeps one
	// member per rank.
	qKeyStats = `SELECT
		(SELECT count(*) FROM facts WHERE u = $1 AND subject = $2 AND key = $3 AND current AND cardinality = 'one'),
		coalesce((SELECT members FROM list_sizes WHERE u = $1 AND subject = $2 AND key = $3), 0),
		coalesce((SELECT 1 FROM facts WHERE u = $1 AND subject = $2 AND key = $3 AND current AND cardinality = 'ranked'
			ORDER BY rank LIMIT 1), 0),
		(SELECT count(*) FROM facts WHERE u = $1 AND subject = $2 AND key = $3 AND current AND cardinality <> 'one' AND norm = $4)`
	qListEvents = `SELECT at, action, fact_id, value, from_rank, to_rank FROM list_events
		WHERE u = $1 AND subject = $2 AND key = $3 AND at <= $4 ORDER BY at, seq`
	qInsert = `INSERT INTO facts (id, u, subject, key, cardinality, value, norm, value_type,
		rank, text, type, category, confidence, scope, durability, sensitivity, said_by, temporal, anchor,
		source_kind, source_id, extractor, recorded_at, valid_from, valid_to, supersedes, superseded_by, current, fts, terms)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
		$21, $22, $23, $24, $25, $26, $27, $28, ` + factFTS + `, $32)`
	// qEnd: a ranked member leaving its list keeps the rank it had (derived from its
	// position, ranks.go) as history.
	qEnd = `UPDATE facts SET current = false, valid_to = $1, superseded_by = $2,
		rank = CASE WHEN cardinality = 'ranked' THEN (SELECT count(*) FROM facts m
			WHERE m.u = facts.u AND m.subject = facts.subject AND m.key = facts.key AND m.current
			AND m.cardinality = 'ranked' AND m.rank <= facts.rank) END
		WHERE u = $3 AND id = $4 AND current`
	qEraseEvents = "DELETE FROM list_events WHERE u = $1 AND fact_id = $2"
	qEraseFact   = "DELETE FROM facts WHERE u = $1 AND id = $2"
	qAddEvent    = `INSERT INTO list_events (u, subject, key, at, action, fact_id, value, from_rank, to_rank)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`
	qKeysFrom = `SELECT DISTINCT key FROM facts WHERE u = $1 AND subject = $2 AND key >= $3 AND current
		ORDER BY key`
	qKeysRange = `SELECT DISTINCT key FROM facts WHERE u = $1 AND subject = $2 AND key >= $3 AND key < $4 AND current
		ORDER BY key`
)

// lockUser takes the user's write lock, creating the user's row on the first write.
// The lock is held until the transaction ends.
func (t *tx) lockUser(ctx context.Context) error {
	for i := 0; i < 2; i++ {
		rows, err := t.q.Query(ctx, qLockUser, string(t.user))
		if err != nil {
			return mapErr("lock user", err)
		}
		found := rows.Next()
		rows.Close()
		if err := rows.Err(); err != nil {
			return mapErr("lock user", err)
		}
		if found {
			return nil
		}
		if _, err := t.q.Exec(ctx, qUserInsert, string(t.user), t.now.UnixNano()); err != nil {
			return mapErr("user", err)
		}
	}
	return factbase.Errorf(factbase.EINTERNAL, "user row for %s vanished while locking it", t.user)
}

// queryAll reads every row of the result of q with scan (rowcodec.All); its errors
// are the driver's, for the caller to map.
func queryAll[T any](ctx context.Context, t *tx, scan func(rowcodec.Scanner) (T, error), q string, args ...any) ([]T, error) {
	rows, err := t.q.Query(ctx, q, args...)
	if err == nil {
		return rowcodec.All(rows, scan)
	}
	return nil, err
}

// execCount runs q and returns how many rows it changed; its error is mapped naming
// op.
func (t *tx) execCount(ctx context.Context, op, q string, args ...any) (int, error) {
	tag, err := t.q.Exec(ctx, q, args...)
	if err != nil {
		return 0, mapErr(op, err)
	}
	return int(tag.RowsAffected()), nil
}

// byID reads with scan the row of the user's what (entity, conflict, ...) id that q
// selects (its parameters: the user, id): ENOTFOUND if there is none, other errors
// mapped naming what.
func byID[T any](ctx context.Context, t *tx, what, q, id string, scan func(rowcodec.Scanner) (T, error)) (T, error) {
	v, err := scan(t.q.QueryRow(ctx, q, string(t.user), id))
	return v, mapErr(what, storeerr.NotFoundIf(err, pgx.ErrNoRows, what, id))
}

// put runs the upsert q of v with the arguments that args (a rowcodec encoder, which
// validates v) makes of it for the user. An encoder's error is returned as it is,
// the statement's is mapped naming op.
func put[T any](ctx context.Context, t *tx, op, q string, args func(any, T, time.Time) ([]any, error), v T) error {
	a, err := args(string(t.user), v, t.now)
	if err != nil {
		return err
	}
	_, err = t.q.Exec(ctx, q, a...)
	return mapErr(op, err)
}

// poolAll runs q, a read of no user's transaction, on a pooled connection and reads
// every row of its result with scan (rowcodec.All: nil when there is none); its
// errors are mapped naming op. A closed store returns storeerr.ErrClosed.
func poolAll[T any](ctx context.Context, s *Store, op, q string, scan func(rowcodec.Scanner) (T, error), args ...any) ([]T, error) {
	if s.gate.Closed() {
		return nil, storeerr.ErrClosed
	}
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, mapErr(op, err)
	}
	all, err := rowcodec.All(rows, scan)
	return all, mapErr(op, err)
}

// queryFacts runs a query of factColumns and reads its facts, deriving the ranks of
// current ranked members (ranks.go) once the rows are closed.
func (t *tx) queryFacts(ctx context.Context, q string, args ...any) ([]factbase.Fact, error) {
	facts, err := queryAll(ctx, t, t.scanFact, q, args...)
	if err != nil {
		return nil, mapErr("query", err)
	}
	if err := t.fixRanks(ctx, facts); err != nil {
		return nil, err
	}
	return facts, nil
}

func (t *tx) scanFact(r rowcodec.Scanner) (factbase.Fact, error) {
	var (
		f                        factbase.Fact
		card, vt, cat, dur, sens string
		rank                     *int64
		anchor, validTo          *int64
		recordedAt, validFrom    int64
	)
	err := r.Scan(&f.ID, &f.Subject, &f.Key, &card, &f.Value, &vt, &rank, &f.Text, &f.Type, &cat,
		&f.Confidence, &f.Scope, &dur, &sens, &f.SaidBy, &f.Temporal, &anchor, &f.Source.Kind, &f.Source.ID,
		&f.Extractor, &recordedAt, &validFrom, &validTo, &f.Supersedes, &f.SupersededBy, &f.Current)
	if err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return f, err
		}
		return f, mapErr("scan", err)
	}
	f.User = t.user
	f.Cardinality = factbase.Cardinality(card)
	f.ValueType = factbase.ValueType(vt)
	f.Category = factbase.Category(cat)
	f.Durability = factbase.Durability(dur)
	f.Sensitivity = factbase.Sensitivity(sens)
	if rank != nil {
		f.Rank = int(*rank)
	}
	f.Anchor, f.ValidTo = rowcodec.TimePtr(anchor), rowcodec.TimePtr(validTo)
	f.RecordedAt, f.ValidFrom = rowcodec.Time(recordedAt), rowcodec.Time(validFrom)
	return f, nil
}

// Fact returns one fact by id.
func (t *tx) Fact(ctx context.Context, id string) (factbase.Fact, error) {
	f, err := t.scanFact(t.q.QueryRow(ctx, qFact, string(t.user), id))
	if err == nil {
		err = t.fixRank(ctx, &f)
	}
	return f, storeerr.NotFoundIf(err, pgx.ErrNoRows, "fact", id)
}

// Facts returns the facts matching f.
func (t *tx) Facts(ctx context.Context, f factbase.FactFilter) ([]factbase.Fact, error) {
	var w where
	w.add("u = " + w.arg(string(t.user)))
	w.eq("id", f.ID)
	w.eq("key", f.Key)
	subject := f.Subject
	if len(f.Subjects) > 0 {
		subject = ""
		w.add("subject = ANY(" + w.arg(f.Subjects) + "::text[])")
	}
	w.facts("", factConds{subject, f.KeyPrefix, f.Type, f.Category, f.MinConfidence})
	switch {
	case f.AsOf != nil:
		at := w.arg(f.AsOf.UnixNano())
		w.add("recorded_at <= " + at + " AND valid_from <= " + at + " AND (valid_to IS NULL OR valid_to > " + at + ")")
	case !f.History:
		w.add("current")
	}
	q := "SELECT " + factColumns + " FROM facts WHERE " + w.String() + " ORDER BY recorded_at, seq"
	if f.NewestFirst {
		q = "SELECT " + factColumns + " FROM facts WHERE " + w.String() + " ORDER BY recorded_at DESC, seq DESC"
	}
	return t.queryFacts(ctx, q+w.page(f.Limit, f.Offset), w.args...)
}

// factConds are the conditions on facts that a FactFilter and a SearchFilter share.
type factConds struct {
	subject, keyPrefix, typ string
	category                factbase.Category
	minConfidence           float64
}

// facts adds the conditions of c that are set, over the columns of facts qualified
// with p ("" or "f."). A key prefix is a range, so that the key's index serves it.
func (w *where) facts(p string, c factConds) {
	w.eq(p+"subject", c.subject)
	if c.keyPrefix != "" {
		cond := p + "key >= " + w.arg(c.keyPrefix)
		if end, ok := prefixEnd(c.keyPrefix); ok {
			cond += " AND " + p + "key < " + w.arg(end)
		}
		w.add(cond)
	}
	w.eq(p+"category", string(c.category))
	w.eq(p+"type", c.typ)
	if c.minConfidence > 0 {
		w.add(p + "confidence >= " + w.arg(c.minConfidence))
	}
}

// prefixEnd returns the smallest valid UTF-8 string greater, in bytewise order, than
// every string that starts with p, and false if there is none (p is all U+10FFFF).
// The key column sorts bytewise (COLLATE "C"), which is UTF-8 code point order.
func prefixEnd(p string) (string, bool) {
	for len(p) > 0 {
		r, size := utf8.DecodeLastRuneInString(p)
		p = p[:len(p)-size]
		if r == utf8.RuneError && size <= 1 || r == utf8.MaxRune {
			continue
		}
		r++
		if r >= 0xD800 && r <= 0xDFFF { // surrogates are not valid in UTF-8
			r = 0xE000
		}
		return p + string(r), true
	}
	return "", false
}

// one reads the fact q selects, if any, and derives its rank.
func (t *tx) one(ctx context.Context, q string, args ...any) (factbase.Fact, bool, error) {
	f, found, err := rowcodec.One(t.q.QueryRow(ctx, q, args...), pgx.ErrNoRows, t.scanFact)
	if !found {
		return f, false, err
	}
	err = t.fixRank(ctx, &f)
	return f, err == nil, err
}

// Member returns the current member of (subject, key) whose normalised value is norm.
func (t *tx) Member(ctx context.Context, subject, key, norm string) (factbase.Fact, bool, error) {
	return t.one(ctx, qMember, string(t.user), subject, key, norm)
}

// Current returns the current fact of a single-valued key.
func (t *tx) Current(ctx context.Context, subject, key string) (factbase.Fact, bool, error) {
	return t.one(ctx, qCurrent, string(t.user), subject, key)
}

// AtRank returns the current member at rank.
func (t *tx) AtRank(ctx context.Context, subject, key string, rank int) (factbase.Fact, bool, error) {
	return listpos.AtRank(ctx, rankedList{t, subject, key}, rank)
}

// ListPage returns members with ranks in [offset+1, offset+limit] and the list length.
func (t *tx) ListPage(ctx context.Context, subject, key string, offset, limit int) ([]factbase.Fact, int, error) {
	return listpos.Page(ctx, rankedList{t, subject, key}, offset, limit)
}

// Keys returns the distinct current keys of subject starting with prefix, sorted
// bytewise.
func (t *tx) Keys(ctx context.Context, subject, prefix string) ([]string, error) {
	q, args := qKeysFrom, []any{string(t.user), subject, prefix}
	if end, ok := prefixEnd(prefix); ok {
		q, args = qKeysRange, append(args, end)
	}
	keys, err := queryAll(ctx, t, rowcodec.String, q, args...)
	return keys, mapErr("keys", err)
}

// MaxRank returns the highest current rank of the list, its length (a row of
// list_sizes), 0 if empty.
func (t *tx) MaxRank(ctx context.Context, subject, key string) (int, error) {
	var n int
	err := t.q.QueryRow(ctx, qMaxRank, string(t.user), subject, key).Scan(&n)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	return n, mapErr("max rank", err)
}

// KeyStats summarises the current facts of (subject, key): every figure is an index
// seek or a row of list_sizes.
func (t *tx) KeyStats(ctx context.Context, subject, key, norm string) (factbase.KeyStats, error) {
	var s factbase.KeyStats
	err := t.q.QueryRow(ctx, qKeyStats, string(t.user), subject, key, norm).Scan(&s.Current, &s.Members, &s.MinRank, &s.NormCount)
	s.MaxRank = s.Members // derived ranks are 1..members
	return s, mapErr("key stats", err)
}

// ListEvents returns the list's events up to until, oldest first.
func (t *tx) ListEvents(ctx context.Context, subject, key string, until time.Time) ([]factbase.ListEvent, error) {
	events, err := queryAll(ctx, t, rowcodec.ListEvent(subject, key), qListEvents, string(t.user), subject, key, until.UnixNano())
	return events, mapErr("list events", err)
}

// Insert writes a new fact row with its full-text entry (of f.Index when set). A
// current ranked member takes a position that gives it rank f.Rank: the members
// from that rank on move down one (ranks.go).
func (t *tx) Insert(ctx context.Context, f factbase.Fact, norm string) error {
	var rank *int64
	if f.Cardinality == factbase.Ranked {
		r := int64(f.Rank)
		if f.Current {
			p, err := listpos.Insert(ctx, rankedList{t, f.Subject, f.Key}, rankGap, f.Rank)
			if err != nil {
				return err
			}
			r = p
		}
		rank = &r
	}
	t.writes++
	fts := factFTSArgs(f.Text, f.Key, f.Value, f.Index)
	// Queued: sent with the next statement (see pipeline.go).
	t.q.queue(queued{op: "insert", sql: qInsert, args: []any{
		f.ID, string(t.user), f.Subject, f.Key, string(f.Cardinality), f.Value, norm, string(f.ValueType),
		rank, f.Text, f.Type, string(f.Category), f.Confidence, f.Scope, string(f.Durability),
		string(f.Sensitivity), f.SaidBy, f.Temporal, rowcodec.Nanos(f.Anchor), f.Source.Kind, f.Source.ID,
		f.Extractor, f.RecordedAt.UnixNano(), f.ValidFrom.UnixNano(), rowcodec.Nanos(f.ValidTo),
		f.Supersedes, f.SupersededBy, f.Current, fts[0], fts[1], fts[2], indexTerms(f.Index)}})
	return nil
}

// End marks a current fact no longer current.
func (t *tx) End(ctx context.Context, id string, at time.Time, by string) error {
	// Queued: sent with the next statement, which reports a fact that was not current.
	t.q.queue(queued{op: "end", sql: qEnd, args: []any{at.UnixNano(), by, string(t.user), id},
		check: func(tag pgconn.CommandTag) error {
			if tag.RowsAffected() != 1 {
				return factbase.Errorf(factbase.ENOTFOUND, "no current fact %q", id)
			}
			return nil
		}})
	return nil
}

// MoveTo gives member m rank to. Ranks are derived from positions (ranks.go), so
// only m's row changes: it takes a position between its new neighbours, and the
// members in between shift by the derivation.
func (t *tx) MoveTo(ctx context.Context, m factbase.Fact, to int) error {
	return listpos.Move(ctx, rankedList{t, m.Subject, m.Key}, rankGap, m.Key, m.ID, m.Rank, to)
}

// Erase deletes a fact row and its list events; rows of other features that refer
// to the fact go with it (ON DELETE CASCADE).
func (t *tx) Erase(ctx context.Context, id string) (int, error) {
	if _, err := t.q.Exec(ctx, qEraseEvents, string(t.user), id); err != nil {
		return 0, mapErr("erase", err)
	}
	return t.execCount(ctx, "erase", qEraseFact, string(t.user), id)
}

// AddListEvent records a list change.
func (t *tx) AddListEvent(ctx context.Context, e factbase.ListEvent) error {
	t.q.queue(queued{op: "list event", sql: qAddEvent,
		args: []any{string(t.user), e.Subject, e.Key, e.At.UnixNano(), string(e.Action), e.FactID, e.Value, e.From, e.To}})
	return nil
}
