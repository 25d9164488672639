package listpos

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/factbase/factbase"
)

func TestBetween(t *testing.T) {
	cases := []struct {
		left, right           int64
		hasLeft, hasRight, ok bool
		want                  int64
	}{
		{0, 0, false, false, true, 100},
		{500, 0, true, false, true, 600},
		{1<<63 - 50, 0, true, false, false, 0},
		{0, 500, false, true, true, 400},
		{0, 100, false, true, true, 50},
		{0, 1, false, true, false, 0},
		{0, 2, false, true, true, 1},
		{10, 20, true, true, true, 15},
		{10, 11, true, true, false, 0},
		{10, 12, true, true, true, 11},
	}
	for _, c := range cases {
		got, ok := Between(c.left, c.hasLeft, c.right, c.hasRight, 100)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("between(%d %v, %d %v) = %d %v, want %d %v", c.left, c.hasLeft, c.right, c.hasRight, got, ok, c.want, c.ok)
		}
	}
}

// memPositions is a list's positions in memory, for Place.
type memPositions struct {
	pos      []int64
	respaced int
	fail     error
}

func (m *memPositions) From(_ context.Context, r int) ([]int64, error) {
	if m.fail != nil {
		return nil, m.fail
	}
	if r < 1 || r > len(m.pos) {
		return nil, nil
	}
	return m.pos[r-1 : min(len(m.pos), r+2)], nil
}

func (m *memPositions) Respace(_ context.Context, gap int64) error {
	for i := range m.pos {
		m.pos[i] = int64(i+1) * gap
	}
	m.respaced++
	return nil
}

// TestPlace places members at every rank of lists of positions, with and without a
// moving member, and checks that the position falls between the right neighbours,
// respacing only when they are adjacent.
func TestPlace(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name     string
		pos      []int64
		r, skip  int
		want     int64
		respaced int
	}{
		{"empty list", nil, 1, 0, 100, 0},
		{"front", []int64{100, 200}, 1, 0, 50, 0},
		{"front of a far first", []int64{500, 600}, 1, 0, 400, 0},
		{"middle", []int64{100, 200, 300}, 2, 0, 150, 0},
		{"end", []int64{100, 200}, 3, 0, 300, 0},
		{"adjacent: respace", []int64{100, 101}, 2, 0, 150, 1},
		{"front at 1: respace", []int64{1, 2}, 1, 0, 50, 1},
		{"move #3 to #1", []int64{100, 200, 300}, 1, 3, 50, 0},
		{"move #1 to #3", []int64{100, 200, 300}, 3, 1, 400, 0},
		{"move #1 to #2", []int64{100, 200, 300}, 2, 1, 250, 0},
		{"move #3 to #2", []int64{100, 200, 300}, 2, 3, 150, 0},
		{"move #2 to #3 of 4", []int64{100, 200, 300, 400}, 3, 2, 350, 0},
	}
	for _, c := range cases {
		m := &memPositions{pos: slices.Clone(c.pos)}
		got, err := Place(ctx, m, 100, c.r, c.skip)
		if err != nil || got != c.want || m.respaced != c.respaced {
			t.Errorf("%s: %d %v, respaced %d; want %d, respaced %d", c.name, got, err, m.respaced, c.want, c.respaced)
		}
	}
	m := &memPositions{pos: []int64{1, 2}}
	if _, err := Place(ctx, m, 1, 2, 0); factbase.ErrorCode(err) != factbase.EINTERNAL {
		t.Errorf("no room even after respacing: %v, want internal", err)
	}
	boom := errors.New("boom")
	if _, err := Place(ctx, &memPositions{fail: boom}, 100, 1, 0); !errors.Is(err, boom) {
		t.Errorf("a read error: %v", err)
	}
}

func TestDeriveRanks(t *testing.T) {
	pos := []int64{10, 20, 30, 40, 50}
	var counts, reads int
	rankOf := func(_, _ string, p int64) (int, error) {
		counts++
		i, _ := slices.BinarySearch(pos, p)
		return i + 1, nil
	}
	all := func(_, _ string) ([]int64, error) { reads++; return pos, nil }
	member := func(p int64, current bool) factbase.Fact {
		return factbase.Fact{Subject: "user", Key: "favorites.x", Cardinality: factbase.Ranked, Rank: int(p), Current: current}
	}
	facts := []factbase.Fact{member(30, true), member(7, false), {Key: "contact.email", Cardinality: factbase.One, Current: true}}
	if err := DeriveRanks(facts, 2, rankOf, all); err != nil || facts[0].Rank != 3 || facts[1].Rank != 7 || counts != 1 || reads != 0 {
		t.Fatalf("few: %+v %v, %d counts %d reads", facts, err, counts, reads)
	}
	facts = []factbase.Fact{member(50, true), member(10, true), member(40, true)}
	if err := DeriveRanks(facts, 2, rankOf, all); err != nil || facts[0].Rank != 5 || facts[1].Rank != 1 || facts[2].Rank != 4 || reads != 1 {
		t.Fatalf("many: %+v %v, %d reads", facts, err, reads)
	}
	facts = []factbase.Fact{member(15, true), member(10, true), member(40, true)}
	if err := DeriveRanks(facts, 2, rankOf, all); factbase.ErrorCode(err) != factbase.EINTERNAL {
		t.Fatalf("a position not in the list: %v", err)
	}
}
