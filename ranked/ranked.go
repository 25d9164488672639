// Package ranked plans changes to ranked lists. Its plans are pure: they read no
// list and write nothing, and a store executes a Plan. The stores keep a list's
// order as sparse positions (positions.go): Place finds a new member's or a moved
// member's position among the few its store reads for it.
//
// A ranked list of length n has its members at ranks exactly 1..n, one value per rank.
// Every change is described by a Plan: the value moves from rank From to rank To (0 for
// "not in the list"), and the other members with ranks in [Lo, Hi] shift by Delta, which
// is +1, -1, or 0 for "nobody shifts". A Plan is computed in constant time from the
// list's length n, the value's current rank cur (0 when absent) and the rank asked for,
// without loading the list.
//
// Placing a value at a rank (Set):
//
//   - A rank below 1 is refused as invalid.
//   - An absent value asked for at a rank inside the list (1..n) is INSERTed there: the
//     members from that rank to the end move down by one.
//   - An absent value asked for at a rank past the end (n+1 or more) is APPENDed at n+1;
//     nobody moves. So "put X at #10" on a list of three makes X #4, never leaving a gap.
//   - A present value asked for past the end is treated as asked for at n, the last rank.
//   - A present value asked for at its own rank is a NOOP.
//   - A present value asked for at a better (smaller) rank MOVEs up: the members between
//     the new rank and its old one move down by one.
//   - A present value asked for at a worse (larger) rank MOVEs down: the members after
//     its old rank up to the new one move up by one.
//
// Adding a value without a rank (Add) APPENDs it at n+1, unless it is already present:
// then nothing changes and the caller reports it as a duplicate with its current rank.
//
// Removing a value (Remove) takes it out; the members after it move up by one, so the
// ranks stay 1..n-1.
//
// Check verifies the invariant (ranks exactly 1..n) on ranks read back from a store, and
// Replay rebuilds a list's order from its event log, matching members by their
// normalised value so that erasing one member's history leaves the others consistent.
package ranked

import (
	"github.com/factbase/factbase"
)

// Plan is one mutation of a list of length N. When no other member shifts (APPEND,
// NOOP, REMOVE of the last member), Lo, Hi and Delta are all 0.
type Plan struct {
	Action factbase.Action // factbase.Move, Insert, NoOp, Append, Remove
	From   int             // current rank of the value; 0 when it was not in the list
	To     int             // rank after; 0 when it left the list
	Lo, Hi int             // other members with ranks in [Lo,Hi] shift by Delta (Delta 0: no shift)
	Delta  int
}

// Shifted returns how many members other than the value change rank: the size of
// [Lo, Hi] when Delta is not 0, else 0. It is the Shifted count of a factbase.Mutation.
func (p Plan) Shifted() int {
	if p.Delta == 0 || p.Hi < p.Lo {
		return 0
	}
	return p.Hi - p.Lo + 1
}

// Set places a value at rank target in a list of length n, where cur is the value's
// current rank (0: absent). It returns an EINVALID error when target is below 1, and
// when n is negative or cur is outside 0..n, which is a bug in the caller.
func Set(n, cur, target int) (Plan, error) {
	if err := checkList(n, cur); err != nil {
		return Plan{}, err
	}
	if target < 1 {
		return Plan{}, factbase.Errorf(factbase.EINVALID, "rank must be at least 1, got %d", target)
	}
	if cur == 0 {
		if target > n {
			return Plan{Action: factbase.Append, To: n + 1}, nil
		}
		return Plan{Action: factbase.Insert, To: target, Lo: target, Hi: n, Delta: 1}, nil
	}
	target = min(target, n)
	switch {
	case target == cur:
		return Plan{Action: factbase.NoOp, From: cur, To: cur}, nil
	case target < cur:
		return Plan{Action: factbase.Move, From: cur, To: target, Lo: target, Hi: cur - 1, Delta: 1}, nil
	default:
		return Plan{Action: factbase.Move, From: cur, To: target, Lo: cur + 1, Hi: target, Delta: -1}, nil
	}
}

// Add appends a value without a rank: absent -> Append at n+1; present -> dup == true
// and Plan{Action: NoOp, From: cur, To: cur}. Add trusts n >= 0 and 0 <= cur <= n, as
// the store's own counts guarantee; it never fails.
func Add(n, cur int) (p Plan, dup bool) {
	if cur > 0 {
		return Plan{Action: factbase.NoOp, From: cur, To: cur}, true
	}
	return Plan{Action: factbase.Append, To: max(n, 0) + 1}, false
}

// Remove takes the member at cur out; later members close up. It returns an ENOTFOUND
// error when cur is outside 1..n (the value is not in the list), and an EINVALID error
// when n is negative.
func Remove(n, cur int) (Plan, error) {
	if n < 0 {
		return Plan{}, factbase.Errorf(factbase.EINVALID, "list length must not be negative, got %d", n)
	}
	if cur < 1 || cur > n {
		return Plan{}, factbase.Errorf(factbase.ENOTFOUND, "no member at rank %d of a list of %d", cur, n)
	}
	if cur == n {
		return Plan{Action: factbase.Remove, From: cur}, nil
	}
	return Plan{Action: factbase.Remove, From: cur, Lo: cur + 1, Hi: n, Delta: -1}, nil
}

// checkList refuses a negative length and a current rank outside 0..n.
func checkList(n, cur int) error {
	if n < 0 {
		return factbase.Errorf(factbase.EINVALID, "list length must not be negative, got %d", n)
	}
	if cur < 0 || cur > n {
		return factbase.Errorf(factbase.EINVALID, "current rank %d is outside a list of %d", cur, n)
	}
	return nil
}
