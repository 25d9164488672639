package people

import (
	"sort"
	"strings"

	"github.com/factbase/factbase"
)

// moveOps plans moving facts to subject to: each is written under to (a
// single-valued fact only if it is newer than to's current value) and retracted from
// where it was, which keeps it in history there.
func entityMoveOps(facts []factbase.Fact, to string, current map[string]factbase.Fact) []factbase.Op {
	var ops []factbase.Op
	sort.SliceStable(facts, func(i, j int) bool { return facts[i].Rank < facts[j].Rank })
	for _, f := range facts {
		ops = append(ops, factbase.Op{Kind: factbase.OpRetract, ID: f.ID})
		if cur, ok := current[f.Key]; ok && f.Cardinality == factbase.One && !f.RecordedAt.After(cur.RecordedAt) {
			continue // the destination's value is newer: it stays current
		}
		nf := f
		nf.ID, nf.Subject, nf.Current = "", to, false
		nf.Supersedes, nf.SupersededBy, nf.ValidTo = "", "", nil
		if nf.Cardinality == factbase.Ranked {
			nf.Rank = 0 // appended to the destination's list
		}
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: nf})
	}
	return ops
}

// moreSpecific reports whether relation a says more than b about the same tie: b is
// empty, or a ends with b after more words ("best friend" and "friend", "older
// brother" and "brother").
func moreSpecific(a, b string) bool {
	a, b = strings.ToLower(strings.TrimSpace(a)), strings.ToLower(strings.TrimSpace(b))
	switch {
	case a == "" || a == b:
		return false
	case b == "":
		return true
	}
	return strings.HasSuffix(a, " "+b)
}
