package ranked

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/normalize"
)

func TestReplay(t *testing.T) {
	ev := func(a factbase.Action, v string, from, to int) factbase.ListEvent {
		return factbase.ListEvent{Action: a, Value: v, From: from, To: to}
	}
	tests := []struct {
		name   string
		events []factbase.ListEvent
		want   []string
	}{
		{name: "no events", events: nil, want: nil},
		{
			name:   "appends",
			events: []factbase.ListEvent{ev(factbase.Append, "A", 0, 1), ev(factbase.Append, "B", 0, 2)},
			want:   []string{"A", "B"},
		},
		{
			name:   "append of a present value by another spelling",
			events: []factbase.ListEvent{ev(factbase.Append, "BTC", 0, 1), ev(factbase.Append, "btc.", 0, 2)},
			want:   []string{"BTC"},
		},
		{
			name:   "insert at top",
			events: []factbase.ListEvent{ev(factbase.Append, "A", 0, 1), ev(factbase.Insert, "B", 0, 1)},
			want:   []string{"B", "A"},
		},
		{
			name:   "insert past end clamps",
			events: []factbase.ListEvent{ev(factbase.Append, "A", 0, 1), ev(factbase.Insert, "B", 0, 9)},
			want:   []string{"A", "B"},
		},
		{
			name:   "insert below 1 clamps",
			events: []factbase.ListEvent{ev(factbase.Append, "A", 0, 1), ev(factbase.Insert, "B", 0, 0)},
			want:   []string{"B", "A"},
		},
		{
			name:   "insert of a present value does nothing",
			events: []factbase.ListEvent{ev(factbase.Append, "A", 0, 1), ev(factbase.Append, "B", 0, 2), ev(factbase.Insert, "b", 0, 1)},
			want:   []string{"A", "B"},
		},
		{
			name: "move by value keeps first spelling",
			events: []factbase.ListEvent{
				ev(factbase.Append, "A", 0, 1), ev(factbase.Append, "B", 0, 2), ev(factbase.Append, "Dune", 0, 3),
				ev(factbase.Move, "DUNE", 3, 1),
			},
			want: []string{"Dune", "A", "B"},
		},
		{
			name:   "move past end clamps to last",
			events: []factbase.ListEvent{ev(factbase.Append, "A", 0, 1), ev(factbase.Append, "B", 0, 2), ev(factbase.Move, "A", 1, 5)},
			want:   []string{"B", "A"},
		},
		{
			name:   "move of an absent value inserts",
			events: []factbase.ListEvent{ev(factbase.Append, "A", 0, 1), ev(factbase.Move, "B", 2, 1)},
			want:   []string{"B", "A"},
		},
		{
			name:   "move of an absent value past end appends",
			events: []factbase.ListEvent{ev(factbase.Append, "A", 0, 1), ev(factbase.Move, "B", 4, 7)},
			want:   []string{"A", "B"},
		},
		{
			name:   "remove by value",
			events: []factbase.ListEvent{ev(factbase.Append, "A", 0, 1), ev(factbase.Append, "B", 0, 2), ev(factbase.Remove, "a!", 1, 0)},
			want:   []string{"B"},
		},
		{
			name:   "remove of an absent value does nothing",
			events: []factbase.ListEvent{ev(factbase.Append, "A", 0, 1), ev(factbase.Remove, "Z", 3, 0)},
			want:   []string{"A"},
		},
		{
			name:   "noop and unknown actions do nothing",
			events: []factbase.ListEvent{ev(factbase.Append, "A", 0, 1), ev(factbase.NoOp, "B", 1, 1), ev("RENAME", "C", 1, 1)},
			want:   []string{"A"},
		},
		{
			name: "erased member's events leave the others in order",
			// The live list was A, X, B, C with X at 2; X's events were erased.
			events: []factbase.ListEvent{
				ev(factbase.Append, "A", 0, 1), ev(factbase.Append, "B", 0, 3), ev(factbase.Append, "C", 0, 4),
				ev(factbase.Move, "C", 4, 2),
			},
			want: []string{"A", "C", "B"},
		},
		{
			name: "re-added after removal",
			events: []factbase.ListEvent{
				ev(factbase.Append, "A", 0, 1), ev(factbase.Remove, "A", 1, 0), ev(factbase.Append, "a", 0, 1),
			},
			want: []string{"a"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Replay(tc.events); !slices.Equal(got, tc.want) {
				t.Errorf("Replay = %q, want %q", got, tc.want)
			}
		})
	}
}

// pool holds values with several spellings of the same comparison form, so that the
// property tests exercise matching by normalize.Value.
var pool = []string{"BTC", "btc", "Btc.", "ETH", "eth!", "XMR", "Dune", "DUNE", "Ｄｕｎｅ", "Emma", "Straße", "STRASSE"}

// simulate runs the operations encoded in ops (three bytes each: kind, value, rank) on an
// empty list with Plans, as the store does, and returns the list and the events the
// Plans generate.
func simulate(t *testing.T, ops []byte) ([]string, []factbase.ListEvent) {
	t.Helper()
	var list []string
	var events []factbase.ListEvent
	for len(ops) >= 3 {
		kind, v, target := ops[0]%3, pool[int(ops[1])%len(pool)], int(ops[2]%12)
		ops = ops[3:]
		norm := normalize.Value(v)
		cur := slices.IndexFunc(list, func(m string) bool { return normalize.Value(m) == norm }) + 1
		var p Plan
		switch kind {
		case 0:
			var err error
			p, err = Set(len(list), cur, target)
			if target < 1 {
				if factbase.ErrorCode(err) != factbase.EINVALID {
					t.Fatalf("Set(%d, %d, %d) error = %v, want EINVALID", len(list), cur, target, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("Set(%d, %d, %d) error = %v", len(list), cur, target, err)
			}
		case 1:
			var dup bool
			p, dup = Add(len(list), cur)
			if dup != (cur > 0) {
				t.Fatalf("Add(%d, %d) dup = %v, want %v", len(list), cur, dup, cur > 0)
			}
		case 2:
			var err error
			p, err = Remove(len(list), cur)
			if cur == 0 {
				if factbase.ErrorCode(err) != factbase.ENOTFOUND {
					t.Fatalf("Remove(%d, 0) error = %v, want ENOTFOUND", len(list), err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("Remove(%d, %d) error = %v", len(list), cur, err)
			}
		}
		list = p.Apply(list, v)
		events = append(events, factbase.ListEvent{Action: p.Action, Value: v, From: p.From, To: p.To})
		if err := checkValues(list); err != "" {
			t.Fatalf("after %+v of %q: %s", p, v, err)
		}
	}
	return list, events
}

// checkValues reports two members with the same comparison form, or "".
func checkValues(list []string) string {
	seen := make(map[string]string)
	for _, m := range list {
		n := normalize.Value(m)
		if prev, ok := seen[n]; ok {
			return "members " + prev + " and " + m + " compare equal"
		}
		seen[n] = m
	}
	return ""
}

// checkReplay asserts that replaying the events gives the live list, and that replaying
// them without one value's events gives the live list's other members.
func checkReplay(t *testing.T, ops []byte) {
	t.Helper()
	list, events := simulate(t, ops)
	if got := Replay(events); !slices.Equal(got, list) {
		t.Fatalf("Replay(%v) = %q, want %q (ops %v)", events, got, list, ops)
	}
	for _, erased := range list {
		norm := normalize.Value(erased)
		kept := slices.DeleteFunc(slices.Clone(events), func(e factbase.ListEvent) bool { return normalize.Value(e.Value) == norm })
		want := slices.DeleteFunc(slices.Clone(list), func(m string) bool { return m == erased })
		got := Replay(kept)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("Replay without %q's events has members %q, want %q (ops %v)", erased, got, want, ops)
		}
	}
}

// TestReplayMatchesPlans is the property test run on every go test: random sequences of
// Set, Add and Remove applied with Plans equal the Replay of their events.
func TestReplayMatchesPlans(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for range 2000 {
		ops := make([]byte, 3*rng.IntN(40))
		for i := range ops {
			ops[i] = byte(rng.IntN(256))
		}
		checkReplay(t, ops)
	}
}

func FuzzReplay(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 0, 0, 1, 3, 0, 0, 6, 1, 2, 1, 0})
	f.Add([]byte{0, 0, 5, 0, 3, 5, 0, 5, 1, 0, 1, 2, 2, 3, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		checkReplay(t, ops)
	})
}

var sinkList []string

func BenchmarkReplay(b *testing.B) {
	var events []factbase.ListEvent
	var n int
	rng := rand.New(rand.NewPCG(3, 5))
	for range 1000 {
		v := pool[rng.IntN(len(pool))] + string(rune('a'+rng.IntN(26)))
		events = append(events, factbase.ListEvent{Action: factbase.Insert, Value: v, To: rng.IntN(n+1) + 1})
		n++
	}
	b.ReportAllocs()
	for b.Loop() {
		sinkList = Replay(events)
	}
}
