package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/listpos"
)

// A ranked list keeps its order as sparse positions and derives ranks on read, as
// the SQLite store does (internal/listpos holds the arithmetic they share): the
// rank column of a current member holds its position, unique in the list (the
// partial unique index facts_rank_current), and a MOVE or an INSERT writes one row.
// Migration 0008 widened the column to bigint and spread the dense ranks before it.
// A member that leaves its list (End) keeps the rank it had, as history.
//
// A rank is counted on the partial index (members at or before the position), and
// the member at a rank is read with an OFFSET on it: a walk of the index up to the
// rank, cheap per member (deep pages of long lists cost more: docs/benchmarks.md).
// Every read derives ranks
// (fixRanks, ListPage, AtRank) before a Fact leaves the package.

// rankGap is listpos.Gap, a variable so that tests can make respacing frequent.
var rankGap = listpos.Gap

const (
	qRankOf = `SELECT count(*) FROM facts
		WHERE u = $1 AND subject = $2 AND key = $3 AND current AND cardinality = 'ranked' AND rank <= $4`
	qPositions = `SELECT rank FROM facts
		WHERE u = $1 AND subject = $2 AND key = $3 AND current AND cardinality = 'ranked' ORDER BY rank`
	qPositionsFrom = `SELECT rank FROM facts
		WHERE u = $1 AND subject = $2 AND key = $3 AND current AND cardinality = 'ranked'
		ORDER BY rank LIMIT 3 OFFSET $4`
	// qTail: the list's length and its last position, read as "ORDER BY ... LIMIT 1"
	// for the reason qMaxRank gives.
	qTail = `SELECT coalesce((SELECT members FROM list_sizes WHERE u = $1 AND subject = $2 AND key = $3), 0),
		coalesce((SELECT rank FROM facts WHERE u = $1 AND subject = $2 AND key = $3 AND current
			AND cardinality = 'ranked' ORDER BY rank DESC LIMIT 1), 0)`
	qAtPosition = "SELECT " + factColumns + ` FROM facts
		WHERE u = $1 AND subject = $2 AND key = $3 AND rank = $4 AND current AND cardinality = 'ranked'`
	qSetPosition = `UPDATE facts SET rank = $1 WHERE u = $2 AND id = $3 AND current AND cardinality = 'ranked'`
	// Respacing writes every member's new position negated (rank order times the
	// gap), so that no row collides in the unique index, then flips them.
	qRespaceNegate = `UPDATE facts f SET rank = -o.n * $1 FROM (
			SELECT seq, row_number() OVER (ORDER BY rank) AS n FROM facts
			WHERE u = $2 AND subject = $3 AND key = $4 AND current AND cardinality = 'ranked') o
		WHERE f.u = $2 AND f.seq = o.seq`
	qRespaceFlip = `UPDATE facts SET rank = -rank
		WHERE u = $1 AND subject = $2 AND key = $3 AND current AND cardinality = 'ranked' AND rank < 0`
)

// fixRanksBatch is the most members of one list whose ranks fixRanks counts one by
// one; for more it reads the list's positions once.
const fixRanksBatch = 8

// fixRanks replaces the position of every current ranked member in facts, read in
// this transaction, by its rank.
func (t *tx) fixRanks(ctx context.Context, facts []factbase.Fact) error {
	return listpos.DeriveRanks(facts, fixRanksBatch,
		func(subject, key string, pos int64) (int, error) { return t.rankOf(ctx, subject, key, pos) },
		func(subject, key string) ([]int64, error) {
			return t.positionRows(ctx, qPositions, string(t.user), subject, key)
		})
}

// fixRank is fixRanks for one fact.
func (t *tx) fixRank(ctx context.Context, f *factbase.Fact) error {
	return listpos.DeriveRank(f, func(subject, key string, pos int64) (int, error) { return t.rankOf(ctx, subject, key, pos) })
}

func (t *tx) rankOf(ctx context.Context, subject, key string, pos int64) (int, error) {
	var r int
	err := t.q.QueryRow(ctx, qRankOf, string(t.user), subject, key, pos).Scan(&r)
	return r, mapErr("rank", err)
}

// positionRows runs a query of positions and reads them.
func (t *tx) positionRows(ctx context.Context, q string, args ...any) ([]int64, error) {
	rows, err := t.q.Query(ctx, q, args...)
	if err != nil {
		return nil, mapErr("positions", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	return out, mapErr("positions", err)
}

// rankedList is the ranked list (subject, key) of the transaction's user, for the
// arithmetic of listpos.
type rankedList struct {
	t            *tx
	subject, key string
}

var _ listpos.List = rankedList{}

// From reads positions with an OFFSET on the list's index.
func (l rankedList) From(ctx context.Context, r int) ([]int64, error) {
	return l.t.positionRows(ctx, qPositionsFrom, string(l.t.user), l.subject, l.key, r-1)
}

// Respace renumbers the list gap, 2·gap, ... in order: two set-based statements.
func (l rankedList) Respace(ctx context.Context, gap int64) error {
	_, err := l.t.q.ExecAll(ctx,
		queued{sql: qRespaceNegate, args: []any{gap, string(l.t.user), l.subject, l.key}},
		queued{sql: qRespaceFlip, args: []any{string(l.t.user), l.subject, l.key}})
	return mapErr("respace", err)
}

// Len reads the list's length, a row of list_sizes.
func (l rankedList) Len(ctx context.Context) (int, error) { return l.t.MaxRank(ctx, l.subject, l.key) }

// Tail reads the list's length and its last position in one statement.
func (l rankedList) Tail(ctx context.Context) (int, int64, error) {
	var (
		n    int
		last int64
	)
	err := l.t.q.QueryRow(ctx, qTail, string(l.t.user), l.subject, l.key).Scan(&n, &last)
	return n, last, mapErr("list tail", err)
}

// At reads the member at a position: an index seek.
func (l rankedList) At(ctx context.Context, p int64) (factbase.Fact, error) {
	return l.t.scanFact(l.t.q.QueryRow(ctx, qAtPosition, string(l.t.user), l.subject, l.key, p))
}

// Page reads a page with a bound LIMIT.
func (l rankedList) Page(ctx context.Context, p int64, limit int) ([]factbase.Fact, error) {
	page, err := queryAll(ctx, l.t, l.t.scanFact, qListPage, string(l.t.user), l.subject, l.key, p, limit)
	return page, mapErr("list page", err)
}

// SetPosition moves a member: one row.
func (l rankedList) SetPosition(ctx context.Context, id string, p int64) (bool, error) {
	tag, err := l.t.q.Exec(ctx, qSetPosition, p, string(l.t.user), id)
	return tag.RowsAffected() == 1, mapErr("move", err)
}
