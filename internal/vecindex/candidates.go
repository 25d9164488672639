package vecindex

import (
	"context"
	"time"

	"github.com/factbase/factbase"
)

// Rows is what Candidates reads of a query's result; *sql.Rows and pgx.Rows have it.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// Collect runs Search with resolve, which turns a batch of hits into the live
// candidates the caller's filter passes, in order, until q.Limit candidates are
// found or the hits run out, and returns the first q.Limit, ranked from 1. It
// returns the first error of src or resolve.
func (x *Index) Collect(ctx context.Context, src Source, q Query, resolve func([]Hit) ([]factbase.Candidate, error)) ([]factbase.Candidate, error) {
	var out []factbase.Candidate
	err := x.Search(ctx, src, q, func(hits []Hit) (bool, error) {
		found, err := resolve(hits)
		out = append(out, found...)
		return len(out) >= q.Limit, err
	})
	if err != nil {
		return nil, err
	}
	return Top(out, q.Limit), nil
}

// Top returns the first limit candidates of cs, ranked from 1.
func Top(cs []factbase.Candidate, limit int) []factbase.Candidate {
	cs = cs[:min(len(cs), max(limit, 0))]
	for i := range cs {
		cs[i].Rank = i + 1
	}
	return cs
}

// Seqs returns the seqs of hits, in order.
func Seqs(hits []Hit) []int64 {
	out := make([]int64, len(hits))
	for i, h := range hits {
		out[i] = h.Seq
	}
	return out
}

// Candidates reads the live items a store has joined to hits, rows of (seq, id,
// time in Unix nanoseconds, subject, importance), and returns them as candidates of
// kind in the order of hits, each scored by its hit; a hit without a row is left
// out. It does not close rows, and returns the driver's error as it is.
func Candidates(kind string, hits []Hit, rows Rows) ([]factbase.Candidate, error) {
	found := make(map[int64]factbase.Candidate, len(hits))
	for rows.Next() {
		var (
			seq, at int64
			c       = factbase.Candidate{Kind: kind}
		)
		if err := rows.Scan(&seq, &c.ID, &at, &c.Subject, &c.Importance); err != nil {
			return nil, err
		}
		c.Time = time.Unix(0, at).UTC()
		found[seq] = c
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]factbase.Candidate, 0, len(found))
	for _, h := range hits {
		if c, ok := found[h.Seq]; ok {
			c.Score = float64(h.Score)
			out = append(out, c)
		}
	}
	return out, nil
}
