// Package listpos is the position arithmetic both stores share for ranked lists.
//
// A store keeps a ranked list's order as sparse positions and derives ranks on read:
// a current member's rank column holds an integer position, unique in its list, at
// least 1 and Gap apart when the list is written in order, and its rank is one more
// than the number of members before it. A MOVE or an INSERT then writes one row: the
// member takes a position between its new neighbours. The store reads the positions;
// this package decides which to take.
package listpos

import (
	"context"
	"math"
	"slices"

	"github.com/factbase/factbase"
)

// Gap is the distance between the positions of members written in order: 32
// halvings of one gap before a list must be respaced.
const Gap int64 = 1 << 32

// Positions reads and renumbers one list's positions inside a write transaction.
type Positions interface {
	// From returns up to three positions, in order, from the member at rank r on.
	From(ctx context.Context, r int) ([]int64, error)
	// Respace renumbers the list's positions gap, 2·gap, ... in order.
	Respace(ctx context.Context, gap int64) error
}

// Place returns a free position at which a member takes rank r, with the member at
// rank skip (0: none; the one that moves) left out of the order. It respaces the
// list once when the would-be neighbours are adjacent.
func Place(ctx context.Context, p Positions, gap int64, r, skip int) (int64, error) {
	// The neighbours are the members at ranks r-1 and r of the order without skip:
	// ranks at or after skip in that order are one more in the stored order.
	stored := func(k int) int {
		if skip > 0 && k >= skip {
			return k + 1
		}
		return k
	}
	lo, hi := stored(r-1), stored(r)
	first := max(lo, 1)
	for attempt := 0; ; attempt++ {
		pos, err := p.From(ctx, first)
		if err != nil {
			return 0, err
		}
		at := func(k int) (int64, bool) {
			if k < 1 || k-first >= len(pos) {
				return 0, false
			}
			return pos[k-first], true
		}
		left, hasLeft := at(lo)
		right, hasRight := at(hi)
		if q, ok := Between(left, hasLeft, right, hasRight, gap); ok {
			return q, nil
		}
		if attempt > 0 {
			return 0, factbase.Errorf(factbase.EINTERNAL, "no free position at rank %d after respacing the list", r)
		}
		if err := p.Respace(ctx, gap); err != nil {
			return 0, err
		}
	}
}

// Between returns a position strictly between left and right (either may be
// absent): gap beyond a lone neighbour while there is room, else the midpoint. ok is
// false when there is no free integer of at least 1.
func Between(left int64, hasLeft bool, right int64, hasRight bool, gap int64) (int64, bool) {
	switch {
	case !hasLeft && !hasRight:
		return gap, true
	case !hasRight:
		if left > math.MaxInt64-gap {
			return 0, false
		}
		return left + gap, true
	case !hasLeft:
		left = 0
		if right > gap {
			return right - gap, true
		}
	}
	if right-left < 2 {
		return 0, false
	}
	return left + (right-left)/2, true
}

// DeriveRanks replaces the position of every current ranked member in facts by its
// rank: with rankOf for each of at most few members of a list, else by a binary
// search in the list's positions, read once with all.
func DeriveRanks(facts []factbase.Fact, few int,
	rankOf func(subject, key string, pos int64) (int, error),
	all func(subject, key string) ([]int64, error)) error {
	type list struct{ subject, key string }
	var groups map[list][]int
	for i, f := range facts {
		if f.Current && f.Cardinality == factbase.Ranked {
			if groups == nil {
				groups = make(map[list][]int)
			}
			l := list{f.Subject, f.Key}
			groups[l] = append(groups[l], i)
		}
	}
	for l, idx := range groups {
		if len(idx) <= few {
			for _, i := range idx {
				r, err := rankOf(l.subject, l.key, int64(facts[i].Rank))
				if err != nil {
					return err
				}
				facts[i].Rank = r
			}
			continue
		}
		pos, err := all(l.subject, l.key)
		if err != nil {
			return err
		}
		for _, i := range idx {
			r, ok := slices.BinarySearch(pos, int64(facts[i].Rank))
			if !ok {
				return factbase.Errorf(factbase.EINTERNAL, "member %s of %s is not in its list", facts[i].ID, l.key)
			}
			facts[i].Rank = r + 1
		}
	}
	return nil
}

// DeriveRank is DeriveRanks for one fact.
func DeriveRank(f *factbase.Fact, rankOf func(subject, key string, pos int64) (int, error)) error {
	if !f.Current || f.Cardinality != factbase.Ranked {
		return nil
	}
	r, err := rankOf(f.Subject, f.Key, int64(f.Rank))
	f.Rank = r
	return err
}
