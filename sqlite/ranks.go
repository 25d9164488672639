package sqlite

import (
	"context"
	"strconv"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/listpos"
	"github.com/factbase/factbase/internal/rowcodec"
)

// A ranked list keeps its order as sparse positions and derives ranks on read
// (internal/listpos holds the arithmetic both stores share). The rank column of
// a current member holds its position, unique in the list (the partial unique index
// facts_rank_current). A member that leaves its list (End) keeps the rank it had, as
// history.
//
// Deriving a rank counts the members before a position. list_blocks (migration
// 0016, kept by triggers) holds the member count of each block of 2^blockShift
// positions, 64 members written in order: a rank is the sum of the blocks before
// the position's (a row per 64 members) plus a walk within its block, and the
// member at a rank is found the same way. A write changes one block row, or two.
//
// Positions never leave this file's callers: every read derives ranks (fixRanks,
// ListPage, AtRank) before a Fact leaves the package.

// rankGap is listpos.Gap, a variable so that tests can make respacing frequent.
var rankGap = listpos.Gap

// blockShift makes blocks of 2^38 positions; migration 0016's triggers use it too.
const blockShift = 38

var (
	// qRankOf: the members of the blocks before position ?4's, and those of its
	// block up to it.
	qRankOf = `SELECT coalesce((SELECT sum(members) FROM list_blocks
			WHERE u = ?1 AND subject = ?2 AND key = ?3 AND block < (?4 >> 38)), 0)
		+ (SELECT count(*) FROM facts WHERE u = ?1 AND subject = ?2 AND key = ?3 AND current = 1
			AND cardinality = 'ranked' AND rank >= ((?4 >> 38) << 38) AND rank <= ?4)`
	// qBlocks reads a list's blocks in order; blockOf stops at the one that holds a
	// rank (a window function summing them in SQL took eight times as long).
	qBlocks = `SELECT block, members FROM list_blocks
		WHERE u = ? AND subject = ? AND key = ? AND members > 0 ORDER BY block`
	qPositions = `SELECT rank FROM facts
		WHERE u = ? AND subject = ? AND key = ? AND current = 1 AND cardinality = 'ranked' ORDER BY rank`
	// qPositionsFrom reads up to three positions from a block's start on, skipping
	// ? of them: the OFFSET walks the partial index alone, which holds the positions.
	qPositionsFrom = `SELECT rank FROM facts
		WHERE u = ? AND subject = ? AND key = ? AND current = 1 AND cardinality = 'ranked' AND rank >= ?
		ORDER BY rank LIMIT 3 OFFSET ?`
	qTail = `SELECT coalesce((SELECT members FROM list_sizes WHERE u = ?1 AND subject = ?2 AND key = ?3), 0),
		coalesce((SELECT max(rank) FROM facts
			WHERE u = ?1 AND subject = ?2 AND key = ?3 AND current = 1 AND cardinality = 'ranked'), 0)`
	qSetPosition = `UPDATE facts SET rank = ? WHERE u = ? AND id = ? AND current = 1 AND cardinality = 'ranked'`
	// respace writes every member's new position negated (rank order times rankGap),
	// so that no intermediate state collides in the unique index, then flips them.
	qRespaceNegate = `UPDATE facts SET rank = -o.n * ? FROM (
			SELECT seq, row_number() OVER (ORDER BY rank) AS n FROM facts
			WHERE u = ? AND subject = ? AND key = ? AND current = 1 AND cardinality = 'ranked') AS o
		WHERE facts.seq = o.seq`
	qRespaceFlip = `UPDATE facts SET rank = -rank
		WHERE u = ? AND subject = ? AND key = ? AND current = 1 AND cardinality = 'ranked' AND rank < 0`

	rankQueries = []string{qRankOf, qBlocks, qPositions, qPositionsFrom, qTail, qSetPosition,
		qRespaceNegate, qRespaceFlip, qAtPosition}
)

// fixRanksBatch is the most members of one list whose ranks fixRanks derives with a
// count each; for more it reads the list's positions once.
const fixRanksBatch = 8

// fixRanks replaces the position of every current ranked member in facts, read in
// this transaction, by its rank.
func (t *tx) fixRanks(ctx context.Context, facts []factbase.Fact) error {
	return listpos.DeriveRanks(facts, fixRanksBatch,
		func(subject, key string, pos int64) (int, error) { return t.rankOf(ctx, subject, key, pos) },
		func(subject, key string) ([]int64, error) { return t.positions(ctx, subject, key) })
}

func (t *tx) rankOf(ctx context.Context, subject, key string, pos int64) (int, error) {
	var r int
	err := t.queryRow(ctx, qRankOf, t.u, subject, key, pos).Scan(&r)
	return r, mapErr("rank", err)
}

// positions returns the positions of the list's members in order.
func (t *tx) positions(ctx context.Context, subject, key string) ([]int64, error) {
	return t.positionRows(ctx, qPositions, t.u, subject, key)
}

// positionRows runs a query of positions and reads them.
func (t *tx) positionRows(ctx context.Context, q string, args ...any) ([]int64, error) {
	positions, err := queryAll(ctx, t, rowcodec.Int64, q, args...)
	return positions, mapErr("positions", err)
}

// positionsFrom returns up to three positions, from the member at rank r on.
func (t *tx) positionsFrom(ctx context.Context, subject, key string, r int) ([]int64, error) {
	block, before, ok, err := t.blockOf(ctx, subject, key, r)
	if !ok || err != nil { // past the end
		return nil, err
	}
	return t.positionRows(ctx, qPositionsFrom, t.u, subject, key, block<<blockShift, int64(r)-before-1)
}

// blockOf returns the block that holds the member at rank r and the number of
// members in the blocks before it; ok is false when the list is shorter than r.
func (t *tx) blockOf(ctx context.Context, subject, key string, r int) (block, before int64, ok bool, err error) {
	rows, err := t.query(ctx, qBlocks, t.u, subject, key)
	if err != nil {
		return 0, 0, false, mapErr("blocks", err)
	}
	defer rows.Close()
	for rows.Next() {
		var members int64
		if err := rows.Scan(&block, &members); err != nil {
			return 0, 0, false, mapErr("blocks", err)
		}
		if before+members >= int64(r) {
			return block, before, true, nil
		}
		before += members
	}
	return 0, 0, false, mapErr("blocks", rows.Err())
}

// rankedList is the ranked list (subject, key) of the transaction's user, for the
// arithmetic of listpos.
type rankedList struct {
	t            *tx
	subject, key string
}

var _ listpos.List = rankedList{}

func (l rankedList) From(ctx context.Context, r int) ([]int64, error) {
	return l.t.positionsFrom(ctx, l.subject, l.key, r)
}

// Respace renumbers the list's positions to gap, 2·gap, ... in order: two set-based
// statements. It keeps every rank.
func (l rankedList) Respace(ctx context.Context, gap int64) error {
	if _, err := l.t.exec(ctx, qRespaceNegate, gap, l.t.u, l.subject, l.key); err != nil {
		return mapErr("respace", err)
	}
	_, err := l.t.exec(ctx, qRespaceFlip, l.t.u, l.subject, l.key)
	return mapErr("respace", err)
}

func (l rankedList) Len(ctx context.Context) (int, error) { return l.t.MaxRank(ctx, l.subject, l.key) }

// Tail reads the list's length and its last member's position: two index seeks.
func (l rankedList) Tail(ctx context.Context) (n int, last int64, err error) {
	err = l.t.queryRow(ctx, qTail, l.t.u, l.subject, l.key).Scan(&n, &last)
	return n, last, mapErr("list tail", err)
}

func (l rankedList) At(ctx context.Context, p int64) (factbase.Fact, error) {
	return l.t.scanFact(l.t.queryRow(ctx, qAtPosition, l.t.u, l.subject, l.key, p))
}

// Page reads a page with a literal LIMIT (see Facts).
func (l rankedList) Page(ctx context.Context, p int64, limit int) ([]factbase.Fact, error) {
	page, err := queryAll(ctx, l.t, l.t.scanFact, qListPage+" LIMIT "+strconv.Itoa(limit), l.t.u, l.subject, l.key, p)
	return page, mapErr("list page", err)
}

func (l rankedList) SetPosition(ctx context.Context, id string, p int64) (bool, error) {
	n, err := l.t.execCount(ctx, "move", qSetPosition, p, l.t.u, id)
	return n == 1, err
}
