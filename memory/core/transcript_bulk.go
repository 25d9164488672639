package core

import (
	"github.com/factbase/factbase"
)

// minBulkOps is the fewest ops that take the bulk set insert. Below it the per-op
// statements cost no more than the bulk ones, which a smaller write would prepare
// for its own size.
const minBulkOps = 32

// applyOps executes the prepared ops in order. A write of nothing but set members
// (OpSet of cardinality many), such as a batch of transcript facts, takes
// addMembers: the same result and the same rows as one addMember per op, in a few
// statements instead of three per op.
func (w *Writer) applyOps(ops []factbase.Op, norms []string) error {
	if len(ops) >= minBulkOps && allMembers(ops) {
		return w.addMembers(ops, norms)
	}
	for i, op := range ops {
		if err := w.apply(op, norms[i]); err != nil {
			return err
		}
	}
	return nil
}

func allMembers(ops []factbase.Op) bool {
	for _, op := range ops {
		if op.Kind != factbase.OpSet || op.Fact.Cardinality != factbase.Many {
			return false
		}
	}
	return true
}

// addMembers is addMember for each op, norms[i] being ops[i]'s value normalised, in
// bulk: one look-up of every value already present, then one insert of the new
// facts. An op whose value an earlier op of the same write added is its duplicate,
// as it would be one op at a time. The values are checked (at most one current
// member each) with the other invariants, by checkMembers.
func (w *Writer) addMembers(ops []factbase.Op, norms []string) error {
	keys := make([]factbase.MemberKey, 0, len(ops))
	seen := make(map[factbase.MemberKey]bool, len(ops))
	for i, op := range ops {
		k := factbase.MemberKey{Subject: op.Fact.Subject, Key: op.Fact.Key, Norm: norms[i]}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	present, err := w.tx.Members(w.ctx, keys)
	if err != nil {
		return err
	}
	var (
		news     = make([]factbase.Fact, 0, len(ops))
		newNorms = make([]string, 0, len(ops))
	)
	for i, op := range ops {
		k := factbase.MemberKey{Subject: op.Fact.Subject, Key: op.Fact.Key, Norm: norms[i]}
		if m, ok := present[k]; ok {
			w.duplicate(m, 0)
			continue
		}
		nf := w.newFact(op.Fact)
		news, newNorms = append(news, nf), append(newNorms, norms[i])
		w.res.Facts = append(w.res.Facts, nf)
		present[k] = asRead(nf, w.user) // what Member would return for a later op
	}
	if err := w.tx.InsertFacts(w.ctx, news, newNorms); err != nil {
		return err
	}
	w.res.Stored += len(news)
	w.members = append(w.members, keys...)
	return nil
}

// asRead returns f as the store reads it back: with its user, and its times in UTC.
func asRead(f factbase.Fact, user factbase.UserID) factbase.Fact {
	f.User = user
	f.RecordedAt, f.ValidFrom = f.RecordedAt.UTC(), f.ValidFrom.UTC()
	if f.Anchor != nil {
		a := f.Anchor.UTC()
		f.Anchor = &a
	}
	if f.ValidTo != nil {
		v := f.ValidTo.UTC()
		f.ValidTo = &v
	}
	return f
}

// checkMembers verifies that each value addMembers wrote is held by at most one
// current member, in one query per few hundred values.
func (w *Writer) checkMembers() error {
	if len(w.members) == 0 {
		return nil
	}
	counts, err := w.tx.MemberCounts(w.ctx, w.members)
	if err != nil {
		return err
	}
	for i, n := range counts {
		if n > 1 {
			w.e.metrics.invariantViolation()
			k := w.members[i]
			return factbase.Errorf(factbase.EINVARIANT, "invariant violated for %s: the value %q appears %d times", k.Key, k.Norm, n)
		}
	}
	return nil
}
