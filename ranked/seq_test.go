package ranked

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/normalize"
)

// naiveReplay is the reference Replay: a slice searched and shifted on every event.
func naiveReplay(events []factbase.ListEvent) []string {
	var list []string
	for _, e := range events {
		at := slices.IndexFunc(list, func(v string) bool { return normalize.Value(v) == normalize.Value(e.Value) })
		switch e.Action {
		case factbase.Append:
			if at < 0 {
				list = append(list, e.Value)
			}
		case factbase.Insert:
			if at < 0 {
				list = slices.Insert(list, clamp(e.To, 1, len(list)+1)-1, e.Value)
			}
		case factbase.Move:
			v := e.Value
			if at >= 0 {
				v = list[at]
				list = slices.Delete(list, at, at+1)
			}
			list = slices.Insert(list, clamp(e.To, 1, len(list)+1)-1, v)
		case factbase.Remove:
			if at >= 0 {
				list = slices.Delete(list, at, at+1)
			}
		}
	}
	return list
}

// TestReplayLongLists checks Replay and ReplayPage against the reference on lists long
// enough that the sequence splits and empties its blocks many times.
func TestReplayLongLists(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	actions := []factbase.Action{factbase.Append, factbase.Append, factbase.Insert, factbase.Move, factbase.Remove, factbase.NoOp}
	for round := range 4 {
		universe := 500 + round*1500
		var events []factbase.ListEvent
		for i := range 6000 {
			events = append(events, factbase.ListEvent{
				Action: actions[rng.IntN(len(actions))],
				Value:  fmt.Sprintf("Value %d", rng.IntN(universe)),
				FactID: fmt.Sprintf("f%d", i),
				To:     rng.IntN(universe) - 5,
			})
			if round == 3 && i == 3000 { // then empty the list from the front
				for _, v := range naiveReplay(events) {
					events = append(events, factbase.ListEvent{Action: factbase.Remove, Value: v})
				}
			}
		}
		want := naiveReplay(events)
		if got := Replay(events); !slices.Equal(got, want) {
			t.Fatalf("round %d: Replay differs from the reference (%d vs %d members)", round, len(got), len(want))
		}
		for _, pg := range [][2]int{{0, 10}, {len(want) / 2, 50}, {len(want) - 3, 10}, {len(want) + 5, 10}} {
			page, n := ReplayPage(events, pg[0], pg[1])
			if n != len(want) {
				t.Fatalf("round %d: ReplayPage length %d, want %d", round, n, len(want))
			}
			lo, hi := min(pg[0], len(want)), min(pg[0]+pg[1], len(want))
			var got []string
			for _, e := range page {
				got = append(got, e.Value)
			}
			if !slices.Equal(got, want[lo:hi]) {
				t.Fatalf("round %d: page %v = %q, want %q", round, pg, got, want[lo:hi])
			}
		}
	}
}

// TestReplayPageFactIDs: a member carries the fact of its latest event.
func TestReplayPageFactIDs(t *testing.T) {
	events := []factbase.ListEvent{
		{Action: factbase.Append, Value: "Dune", FactID: "a"},
		{Action: factbase.Append, Value: "Emma", FactID: "b"},
		{Action: factbase.Move, Value: "emma", FactID: "c", To: 1},
		{Action: factbase.Move, Value: "dune", To: 1},
	}
	page, n := ReplayPage(events, 0, 10)
	want := []Entry{{"Dune", "dune", "a"}, {"Emma", "emma", "c"}}
	if n != 2 || !slices.Equal(page, want) {
		t.Fatalf("ReplayPage = %v (%d), want %v", page, n, want)
	}
}

// BenchmarkReplayLong replays a list built by 100,000 appends, the red-team case of an
// as-of read that took 23 s.
func BenchmarkReplayLong(b *testing.B) {
	events := make([]factbase.ListEvent, 100_000)
	for i := range events {
		events[i] = factbase.ListEvent{Action: factbase.Append, Value: fmt.Sprintf("member %d", i), FactID: fmt.Sprint(i)}
	}
	for b.Loop() {
		if _, n := ReplayPage(events, 50_000, 50); n != len(events) {
			b.Fatal(n)
		}
	}
}
