package storetest

import (
	"context"
	"fmt"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
)

// Engine returns an engine over s and a new user, for a store's own tests and
// benchmarks: the default options but for the fact sheet, which is not regenerated
// after each write, so that a write costs what the write path does.
func Engine(s factbase.Store) (*memory.Engine, factbase.UserID) {
	// The write path alone: no sheet regeneration after each write.
	return memory.New(s, memory.Options{NoSheetRegen: true}), NewUser()
}

// FillList appends n members ("member-00000", ...) to the list key of user u, a
// thousand a write.
func FillList(tb testing.TB, e *memory.Engine, u factbase.UserID, key string, n int) {
	tb.Helper()
	for off := 0; off < n; off += 1000 {
		var ops []factbase.Op
		for i := off; i < min(n, off+1000); i++ {
			ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: key, Value: fmt.Sprintf("member-%05d", i)}})
		}
		if _, err := e.Apply(context.Background(), u, ops); err != nil {
			tb.Fatal(err)
		}
	}
}

// Bench holds the benchmarks every store runs on the engine's write path and reads,
// sized as a busy user's data: a list of 10,000 members, 10,000 single-valued keys.
// Each method prepares its data, then times b.N operations.
type Bench struct {
	Engine *memory.Engine
	User   factbase.UserID
	// Measure, when set, is called as each timed loop starts, and the function it
	// returns as the loop ends: a store reports its own metrics with it (the SQLite
	// store's CPU time per operation).
	Measure func(b *testing.B) (stop func())
}

// timed resets b's timer and starts Measure; call the function it returns when the
// timed loop ends.
func (bn Bench) timed(b *testing.B) func() {
	b.ResetTimer()
	if bn.Measure == nil {
		return func() {}
	}
	return bn.Measure(b)
}

// RankedAppend appends to a list of 10,000 members.
func (bn Bench) RankedAppend(b *testing.B) {
	FillList(b, bn.Engine, bn.User, "favorites.big", 10000)
	bn.AppendLoop(b)
}

// AppendLoop times b.N appends to the list favorites.big.
func (bn Bench) AppendLoop(b *testing.B) { bn.setLoop(b, "favorites.big", "new-%d") }

// setLoop times b.N writes of key, each of a new value: format with the write's
// number.
func (bn Bench) setLoop(b *testing.B, key, format string) {
	ctx := context.Background()
	defer bn.timed(b)()
	for i := 0; i < b.N; i++ {
		if _, err := bn.Engine.Apply(ctx, bn.User, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: key, Value: fmt.Sprintf(format, i)}}}); err != nil {
			b.Fatal(err)
		}
	}
}

// RankedMove moves a member between #5000 and #1 of a 10,000-member list: each move
// shifts 4,999 other members.
func (bn Bench) RankedMove(b *testing.B) {
	FillList(b, bn.Engine, bn.User, "favorites.big", 10000)
	ctx := context.Background()
	defer bn.timed(b)()
	for i := 0; i < b.N; i++ {
		rank := 1
		if i%2 == 1 {
			rank = 5000
		}
		res, err := bn.Engine.Apply(ctx, bn.User, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.big", Value: "member-04999", Rank: rank}}})
		if err != nil {
			b.Fatal(err)
		}
		if res.Mutations[0].Action != factbase.Move {
			b.Fatalf("action %s, want MOVE", res.Mutations[0].Action)
		}
	}
}

// OneSet sets a single-valued key to a new value each time (supersession).
func (bn Bench) OneSet(b *testing.B) { bn.setLoop(b, "contact.email", "u%d@example.com") }

// PointRead reads the current value of one key among 10,000.
func (bn Bench) PointRead(b *testing.B) {
	ctx := context.Background()
	var ops []factbase.Op
	for i := 0; i < 10000; i++ {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: fmt.Sprintf("k.%d", i), Value: "value"}})
	}
	if _, err := bn.Engine.Apply(ctx, bn.User, ops); err != nil {
		b.Fatal(err)
	}
	defer bn.timed(b)()
	for i := 0; i < b.N; i++ {
		f, err := bn.Engine.Get(ctx, bn.User, "", fmt.Sprintf("k.%d", i%10000), nil)
		if err != nil || len(f) != 1 {
			b.Fatal(err, len(f))
		}
	}
}

// ListPage reads a page of 100 from the middle of a 10,000-member list.
func (bn Bench) ListPage(b *testing.B) {
	FillList(b, bn.Engine, bn.User, "favorites.big", 10000)
	ctx := context.Background()
	defer bn.timed(b)()
	for i := 0; i < b.N; i++ {
		p, err := bn.Engine.List(ctx, bn.User, "", "favorites.big", 5000, 100, nil)
		if err != nil || len(p.Items) != 100 {
			b.Fatal(err)
		}
	}
}
