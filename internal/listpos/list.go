package listpos

import (
	"context"

	"github.com/factbase/factbase"
)

// List is one ranked list of a store, read and written by position inside a
// transaction. Its methods return the store's own errors.
type List interface {
	Positions
	// Len returns the number of current members.
	Len(ctx context.Context) (int, error)
	// Tail returns the number of current members and the last one's position (0
	// when the list is empty).
	Tail(ctx context.Context) (n int, last int64, err error)
	// At returns the current member at position p, its rank not yet set.
	At(ctx context.Context, p int64) (factbase.Fact, error)
	// Page returns up to limit current members from position p on, in order, their
	// ranks not yet set.
	Page(ctx context.Context, p int64, limit int) ([]factbase.Fact, error)
	// SetPosition gives the current member id position p; ok is false if id is not
	// a current member of the list.
	SetPosition(ctx context.Context, id string, p int64) (ok bool, err error)
}

// PositionAt returns the position of the member at rank r; ok is false if there is
// none.
func PositionAt(ctx context.Context, p Positions, r int) (int64, bool, error) {
	if r < 1 {
		return 0, false, nil
	}
	pos, err := p.From(ctx, r)
	if err != nil || len(pos) == 0 {
		return 0, false, err
	}
	return pos[0], true, nil
}

// AtRank returns the current member at rank r; ok is false if there is none.
func AtRank(ctx context.Context, l List, r int) (f factbase.Fact, ok bool, err error) {
	p, ok, err := PositionAt(ctx, l, r)
	if !ok || err != nil {
		return factbase.Fact{}, false, err
	}
	if f, err = l.At(ctx, p); err != nil {
		return f, false, err
	}
	f.Rank = r
	return f, true, nil
}

// Page returns the current members with ranks in [offset+1, offset+limit], in rank
// order, and the list's length.
func Page(ctx context.Context, l List, offset, limit int) ([]factbase.Fact, int, error) {
	n, err := l.Len(ctx)
	if err != nil {
		return nil, 0, err
	}
	first, ok, err := PositionAt(ctx, l, offset+1)
	if !ok || err != nil || limit <= 0 {
		return nil, n, err
	}
	page, err := l.Page(ctx, first, limit)
	if err != nil {
		return nil, 0, err
	}
	for i := range page {
		page[i].Rank = offset + i + 1
	}
	return page, n, nil
}

// Insert returns the position at which a new member takes rank r (at most the
// list's length plus one): after the last member when r is past the end, else
// between the members now at ranks r-1 and r.
func Insert(ctx context.Context, l List, gap int64, r int) (int64, error) {
	n, last, err := l.Tail(ctx)
	if err != nil {
		return 0, err
	}
	if r > n && n > 0 {
		if p, ok := Between(last, true, 0, false, gap); ok {
			return p, nil
		}
	}
	return Place(ctx, l, gap, min(r, n+1), 0)
}

// Move gives member id of list key, now at rank from, rank to: it takes a position
// between its new neighbours, and only its row changes. ENOTFOUND if id is not a
// current member.
func Move(ctx context.Context, l List, gap int64, key, id string, from, to int) error {
	if from == to {
		return nil
	}
	p, err := Place(ctx, l, gap, to, from)
	if err != nil {
		return err
	}
	ok, err := l.SetPosition(ctx, id, p)
	if err == nil && !ok {
		err = factbase.Errorf(factbase.ENOTFOUND, "no current member %q in %s", id, key)
	}
	return err
}

// DeriveMemberRanks is DeriveRank for every fact of members, read by value: a key
// declared many may hold a ranked list.
func DeriveMemberRanks(members map[factbase.MemberKey]factbase.Fact, rankOf func(subject, key string, pos int64) (int, error)) error {
	for k, f := range members {
		if err := DeriveRank(&f, rankOf); err != nil {
			return err
		}
		members[k] = f
	}
	return nil
}
