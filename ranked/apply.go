package ranked

import (
	"cmp"
	"slices"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/normalize"
)

// rankAfter returns the rank after p of the member at rank r before it, where r is not
// p.From: shifted by Delta when r is in [Lo, Hi], else unchanged.
func (p Plan) rankAfter(r int) int {
	if p.Delta != 0 && p.Lo <= r && r <= p.Hi {
		return r + p.Delta
	}
	return r
}

// Apply applies p to a list (index 0 = rank 1) for value; the reference model used by
// tests and by replay. It does what a store does: the member at rank p.From (if any) is
// pinned to p.To, or leaves when p.To is 0; every other member at a rank in [Lo, Hi]
// shifts by Delta; value joins at p.To when p.From is 0. The result is a new slice in
// order of the new ranks; list is not modified. Apply never panics: a Plan that does not
// fit the list (two members at one rank) still gives every member once, ties in their
// old order with a joining value last.
func (p Plan) Apply(list []string, value string) []string {
	type member struct {
		rank  int
		value string
	}
	ms := make([]member, 0, len(list)+1)
	for i, v := range list {
		r := i + 1
		switch {
		case r == p.From && p.To == 0:
			continue
		case r == p.From:
			ms = append(ms, member{p.To, v})
		default:
			ms = append(ms, member{p.rankAfter(r), v})
		}
	}
	if p.From == 0 && p.To > 0 {
		ms = append(ms, member{p.To, value})
	}
	slices.SortStableFunc(ms, func(a, b member) int { return cmp.Compare(a.rank, b.rank) })
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.value
	}
	return out
}

// Check reports whether ranks (in any order) are exactly 1..len(ranks); the error says
// what is wrong (a rank < 1, a duplicate, a gap) and is a factbase EINVARIANT error. When
// several things are wrong it reports the first rank below 1, else the first duplicate,
// else the smallest missing rank.
func Check(ranks []int) error {
	n := len(ranks)
	for _, r := range ranks {
		if r < 1 {
			return factbase.Errorf(factbase.EINVARIANT, "ranked list: rank %d is below 1", r)
		}
	}
	seen := make([]bool, n+1)
	var beyond map[int]bool // ranks past n, rare: only in a broken list
	for _, r := range ranks {
		if r > n {
			if beyond[r] {
				return factbase.Errorf(factbase.EINVARIANT, "ranked list: rank %d appears more than once", r)
			}
			if beyond == nil {
				beyond = make(map[int]bool)
			}
			beyond[r] = true
			continue
		}
		if seen[r] {
			return factbase.Errorf(factbase.EINVARIANT, "ranked list: rank %d appears more than once", r)
		}
		seen[r] = true
	}
	for r := 1; r <= n; r++ {
		if !seen[r] {
			return factbase.Errorf(factbase.EINVARIANT, "ranked list: rank %d is missing from a list of %d (a gap)", r, n)
		}
	}
	return nil
}

// Replay rebuilds a list's order from its events (oldest first), matching members BY
// VALUE (normalize.Value), not by rank, so that it stays consistent when a member's
// events were erased: Append adds at the end if absent; Insert puts the value at To
// clamped to [1, len+1] if absent; Move moves the value to To clamped to [1,len]
// (absent: insert); Remove removes it; NoOp does nothing. A member keeps the spelling of
// the event that added it. Membership of a value depends only on its own events, so
// erasing one value's events leaves exactly the other members, though their order may
// differ from the live list's where the erased member's rank took part in a shift.
// Events with another Action are ignored.
func Replay(events []factbase.ListEvent) []string {
	entries, _ := ReplayPage(events, 0, -1)
	values := make([]string, len(entries))
	for i, e := range entries {
		values[i] = e.Value
	}
	return values
}

// ReplayPage replays events as Replay does and returns the members at ranks
// [offset+1, offset+limit] (limit < 0: all from offset on), with the fact each
// member's latest event named, and the list's length. Cost: O(len(events) × √length)
// time and O(length) memory, so a read of one page of a long list as of a past time
// stays proportional to its history, not to its square.
func ReplayPage(events []factbase.ListEvent, offset, limit int) ([]Entry, int) {
	s := newSeq()
	for _, e := range events {
		norm := normalize.Value(e.Value)
		at := s.index(norm)
		switch e.Action {
		case factbase.Append:
			if at < 0 {
				s.insert(s.n, Entry{e.Value, norm, e.FactID})
			}
		case factbase.Insert:
			if at < 0 {
				s.insert(clamp(e.To, 1, s.n+1)-1, Entry{e.Value, norm, e.FactID})
			}
		case factbase.Move:
			m := Entry{e.Value, norm, e.FactID}
			if at >= 0 {
				m, _ = s.remove(norm)
				if e.FactID != "" {
					m.FactID = e.FactID
				}
			}
			s.insert(clamp(e.To, 1, s.n+1)-1, m)
		case factbase.Remove:
			s.remove(norm)
		}
	}
	if limit < 0 {
		limit = s.n
	}
	return s.page(max(offset, 0), limit), s.n
}

// clamp returns v limited to [lo, hi].
func clamp(v, lo, hi int) int {
	return max(lo, min(v, hi))
}
