package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/listpos"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/ranked"
)

// RankedModel drives one list of up to 40 values through steps random appends,
// moves (a fifth of them to the front), inserts, ranks past the end and removals
// (of absent values too: not found), and compares every state (ListState), every
// mutation and shift count, every duplicate's rank and every removed member's
// history rank with the pure model. hook, if not nil, runs
// before (done false) and after (done true) each write, for a store's own checks.
func RankedModel(t *testing.T, s factbase.Store, steps int, hook func(t *testing.T, u factbase.UserID, key string, done bool)) {
	e, u := newEngine(s)
	ctx := context.Background()
	const key = "favorites.model"
	r := rand.New(rand.NewPCG(3, 4))
	var model []string
	for step := 0; step < steps; step++ {
		v := fmt.Sprintf("v%02d", r.IntN(40))
		cur := slices.Index(model, v) + 1
		op := factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: key, Value: v}}
		var plan ranked.Plan
		switch k := r.IntN(5); {
		case k < 2:
			target := 1 + r.IntN(len(model)+3) // past the end too
			if k == 0 {
				target = 1 // crowd the front
			}
			op.Fact.Rank = target
			var err error
			if plan, err = ranked.Set(len(model), cur, target); err != nil {
				t.Fatal(err)
			}
		case k < 4:
			plan, _ = ranked.Add(len(model), cur)
		default:
			op.Kind = factbase.OpRemove
			if cur == 0 {
				if _, err := e.Apply(ctx, u, []factbase.Op{op}); factbase.ErrorCode(err) != factbase.ENOTFOUND {
					t.Fatalf("step %d remove absent %s: %v, want not found", step, v, err)
				}
				continue
			}
			plan, _ = ranked.Remove(len(model), cur)
		}
		if hook != nil {
			hook(t, u, key, false)
		}
		res, err := e.Apply(ctx, u, []factbase.Op{op})
		if err != nil {
			t.Fatalf("step %d %s %s: %v", step, op.Kind, v, err)
		}
		if op.Kind == factbase.OpRemove {
			if len(res.Facts) != 1 || res.Facts[0].Rank != cur {
				t.Fatalf("step %d: removed %+v, want rank %d", step, res.Facts, cur)
			}
			h, err := e.Facts(ctx, u, factbase.FactFilter{ID: res.Facts[0].ID, History: true})
			if err != nil || len(h) != 1 || h[0].Current || h[0].Rank != cur {
				t.Fatalf("step %d: history of removed %s: %+v %v, want rank %d", step, v, h, err, cur)
			}
		}
		if cur != 0 && op.Fact.Rank == 0 && op.Kind == factbase.OpSet {
			if len(res.Duplicates) != 1 || res.Duplicates[0].Rank != cur {
				t.Fatalf("step %d: duplicate %+v, want rank %d", step, res.Duplicates, cur)
			}
		} else {
			model = plan.Apply(model, v)
			if len(res.Mutations) != 1 || res.Mutations[0].Action != plan.Action ||
				res.Mutations[0].Shifted != plan.Shifted() {
				t.Fatalf("step %d %s %s: mutations %+v, plan %+v", step, op.Kind, v, res.Mutations, plan)
			}
		}
		if got := ListState(t, e, u, key); !slices.Equal(got, model) {
			t.Fatalf("step %d: store %v, model %v", step, got, model)
		}
		if hook != nil {
			hook(t, u, key, true)
		}
	}
}

// ListState reads a list's members every way the store can: the page read, each
// rank, and the filtered read; all must agree on ranks 1..N. It returns the values
// in rank order.
func ListState(t *testing.T, e *memory.Engine, u factbase.UserID, key string) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	total := 0
	for off := 0; off == 0 || off < total; off += core.MaxPageSize {
		p, err := e.List(ctx, u, "", key, off, core.MaxPageSize, nil)
		if err != nil {
			t.Fatal(err)
		}
		total = p.Total
		for i, f := range p.Items {
			if f.Rank != off+i+1 {
				t.Fatalf("page item %d (%s) has rank %d", off+i, f.Value, f.Rank)
			}
			out = append(out, f.Value)
		}
		if len(p.Items) == 0 {
			break
		}
	}
	if total != len(out) {
		t.Fatalf("list total %d, %d items read", total, len(out))
	}
	facts, err := e.Facts(ctx, u, factbase.FactFilter{Key: key})
	if err != nil {
		t.Fatal(err)
	}
	byRank := make([]string, len(out))
	for _, f := range facts {
		if f.Rank < 1 || f.Rank > len(out) || byRank[f.Rank-1] != "" {
			t.Fatalf("filtered read: %s at rank %d of %d", f.Value, f.Rank, len(out))
		}
		byRank[f.Rank-1] = f.Value
	}
	if !slices.Equal(byRank, out) {
		t.Fatalf("filtered read %v, page %v", byRank, out)
	}
	for _, r := range []int{1, len(out) / 2, len(out)} {
		if r < 1 {
			continue
		}
		f, ok, err := e.AtRank(ctx, u, "", key, r, nil)
		if err != nil || !ok || f.Value != out[r-1] || f.Rank != r {
			t.Fatalf("rank %d: %+v %v %v, want %s", r, f, ok, err, out[r-1])
		}
	}
	return out
}

// Positions reads the positions of list key's current members by fact id, in a
// store's own SQL, for the tests of positions below.
type Positions func(t *testing.T, u factbase.UserID, key string) map[string]int64

// Changed counts the members present in both maps whose position differs.
func Changed(before, after map[string]int64) int {
	n := 0
	for id, p := range before {
		if q, ok := after[id]; ok && q != p {
			n++
		}
	}
	return n
}

// MoveWritesOneRow moves the member at #1501 of a 2,000-member list to #1 and
// checks the mutation, that one position changed, and the ranks around both ends of
// the move.
func MoveWritesOneRow(t *testing.T, s factbase.Store, positions Positions) {
	e, u := newEngine(s)
	ctx := context.Background()
	var ops []factbase.Op
	for i := 0; i < 2000; i++ {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.big", Value: fmt.Sprintf("m%04d", i)}})
	}
	if _, err := e.Apply(ctx, u, ops); err != nil {
		t.Fatal(err)
	}
	before := positions(t, u, "favorites.big")
	res, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.big", Value: "m1500", Rank: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if m := res.Mutations[0]; m.Action != factbase.Move || m.From != 1501 || m.To != 1 || m.Shifted != 1500 {
		t.Fatalf("mutation %+v, want MOVE 1501 → 1 shifting 1500", m)
	}
	if n := Changed(before, positions(t, u, "favorites.big")); n != 1 {
		t.Fatalf("%d positions changed, want 1", n)
	}
	for _, c := range []struct {
		rank  int
		value string
	}{{1, "m1500"}, {2, "m0000"}, {1501, "m1499"}, {1502, "m1501"}, {2000, "m1999"}} {
		f, ok, err := e.AtRank(ctx, u, "", "favorites.big", c.rank, nil)
		if err != nil || !ok || f.Value != c.value {
			t.Errorf("rank %d: %s %v %v, want %s", c.rank, f.Value, ok, err, c.value)
		}
	}
	p, err := e.List(ctx, u, "", "favorites.big", 1499, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rankValues(p.Items), "1500:m1498 1501:m1499 1502:m1501"; got != want {
		t.Errorf("page %q, want %q", got, want)
	}
}

// DuplicatePositionRefused provokes the position invariant: corrupt, run in the
// write transaction before the checks, puts member C of favorites.x (A, B, C) at
// A's position, as a bug in placing would; the write must fail with EINVARIANT
// naming the rank, and the store keep its positions.
func DuplicatePositionRefused(t *testing.T, s factbase.Store, positions Positions, corrupt func(ctx context.Context, tx factbase.Tx) error) {
	u := NewUser()
	ctx := context.Background()
	if _, err := memory.New(s, memory.Options{NoSheetRegen: true}).Apply(ctx, u, []factbase.Op{add("favorites.x", "A"), add("favorites.x", "B"), add("favorites.x", "C")}); err != nil {
		t.Fatal(err)
	}
	before := positions(t, u, "favorites.x")
	_, err := memory.New(s, memory.Options{BeforeCheck: corrupt, NoSheetRegen: true}).Apply(ctx, u, []factbase.Op{add("favorites.x", "D")})
	if factbase.ErrorCode(err) != factbase.EINVARIANT || !strings.Contains(err.Error(), "same rank") {
		t.Fatalf("a duplicate position: %v, want an invariant error naming the rank", err)
	}
	if after := positions(t, u, "favorites.x"); len(after) != 3 || Changed(before, after) != 0 {
		t.Fatalf("positions %v after a refused write, were %v", after, before)
	}
}

// PositionTests runs MoveWritesOneRow and DuplicatePositionRefused, each on a store
// from open: positions reads a list's positions from the store, corrupt is
// DuplicatePositionRefused's.
func PositionTests[S factbase.Store](t *testing.T, open func(testing.TB) S,
	positions func(t *testing.T, s S, u factbase.UserID, key string) map[string]int64,
	corrupt func(ctx context.Context, tx factbase.Tx) error) {
	of := func(s S) Positions {
		return func(t *testing.T, u factbase.UserID, key string) map[string]int64 { return positions(t, s, u, key) }
	}
	t.Run("MoveWritesOneRow", func(t *testing.T) {
		s := open(t)
		MoveWritesOneRow(t, s, of(s))
	})
	t.Run("DuplicatePositionRefused", func(t *testing.T) {
		s := open(t)
		DuplicatePositionRefused(t, s, of(s), corrupt)
	})
}

// CheckSpread checks the list key of user u in s after a migration spread its dense
// ranks into positions. The list holds the n members FillList wrote, in reverse
// order (a test writes the dense ranks reversed, so that the order the migration
// keeps differs from the order of insertion); positions, read after the migration,
// must be multiples of listpos.Gap from Gap to n·Gap. It returns an engine over s
// for the test's further checks.
func CheckSpread(t *testing.T, s factbase.Store, u factbase.UserID, key string, n int, positions map[string]int64) *memory.Engine {
	t.Helper()
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	got := ListState(t, e, u, key)
	if len(got) != n || got[0] != fmt.Sprintf("member-%05d", n-1) || got[n-1] != "member-00000" {
		t.Fatalf("dense list after the migration: %d members %v, want member-%05d to member-00000", len(got), got, n-1)
	}
	for id, p := range positions {
		if p%listpos.Gap != 0 || p < listpos.Gap || p > int64(n)*listpos.Gap {
			t.Fatalf("member %s at position %d, want a multiple of 2^32 up to %d·2^32", id, p, n)
		}
	}
	return e
}

// InsertAt adds value to the list key of user u at rank r and checks that it is
// there.
func InsertAt(t *testing.T, e *memory.Engine, u factbase.UserID, key, value string, r int) {
	t.Helper()
	ctx := context.Background()
	if _, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: key, Value: value, Rank: r}}}); err != nil {
		t.Fatal(err)
	}
	if f, ok, err := e.AtRank(ctx, u, "", key, r, nil); err != nil || !ok || f.Value != value {
		t.Errorf("rank %d: %+v %v %v, want %s", r, f, ok, err, value)
	}
}
