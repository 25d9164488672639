package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/listpos"
)

// A ranked list keeps its order as sparse positions and derives ranks on read, as
// the SQLite store does (ranked/positions.go holds the arithmetic they share): the
// rank column of a current member holds its position, unique in the list (the
// partial unique index facts_rank_current), and a MOVE or an INSERT writes one row.
// Migration 0008 widened the column to bigint and spread the dense ranks before it.
// A member that leaves its list (End) keeps the rank it had, as history.
//
// A rank is counted on the partial index (members at or before the position), and
// the member at a rank is read with an OFFSET on it: a walk of the list up to the
// rank, which PostgreSQL does in about 0.1 µs a member. Every read derives ranks
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
		WHERE f.seq = o.seq`
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

// positionAt returns the position of the member at rank r; ok is false if there is
// none.
func (t *tx) positionAt(ctx context.Context, subject, key string, r int) (int64, bool, error) {
	if r < 1 {
		return 0, false, nil
	}
	pos, err := t.positionRows(ctx, qPositionsFrom, string(t.user), subject, key, r-1)
	if err != nil || len(pos) == 0 {
		return 0, false, err
	}
	return pos[0], true, nil
}

// listPositions is one list's positions for listpos.Place.
type listPositions struct {
	t            *tx
	subject, key string
}

func (l listPositions) From(ctx context.Context, r int) ([]int64, error) {
	return l.t.positionRows(ctx, qPositionsFrom, string(l.t.user), l.subject, l.key, r-1)
}

// Respace renumbers the list gap, 2·gap, ... in order: two set-based statements.
func (l listPositions) Respace(ctx context.Context, gap int64) error {
	_, err := l.t.q.ExecAll(ctx,
		queued{sql: qRespaceNegate, args: []any{gap, string(l.t.user), l.subject, l.key}},
		queued{sql: qRespaceFlip, args: []any{string(l.t.user), l.subject, l.key}})
	return mapErr("respace", err)
}

// insertPosition returns the position at which a new member takes rank r: after
// the last member when r is past the end, else between the members now at ranks
// r-1 and r.
func (t *tx) insertPosition(ctx context.Context, subject, key string, r int) (int64, error) {
	var (
		n    int
		last int64
	)
	if err := t.q.QueryRow(ctx, qTail, string(t.user), subject, key).Scan(&n, &last); err != nil {
		return 0, mapErr("list tail", err)
	}
	if r > n && n > 0 {
		if p, ok := listpos.Between(last, true, 0, false, rankGap); ok {
			return p, nil
		}
	}
	return listpos.Place(ctx, listPositions{t, subject, key}, rankGap, min(r, n+1), 0)
}

// move gives member id, now at rank from, rank to: one row changes.
func (t *tx) move(ctx context.Context, subject, key, id string, from, to int) error {
	if from == to {
		return nil
	}
	p, err := listpos.Place(ctx, listPositions{t, subject, key}, rankGap, to, from)
	if err != nil {
		return err
	}
	tag, err := t.q.Exec(ctx, qSetPosition, p, string(t.user), id)
	if err != nil {
		return mapErr("move", err)
	}
	if tag.RowsAffected() != 1 {
		return factbase.Errorf(factbase.ENOTFOUND, "no current member %q in %s", id, key)
	}
	return nil
}
