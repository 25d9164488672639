package listpos

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/factbase/factbase"
)

// memList is a list in memory: values in rank order at positions pos.
type memList struct {
	memPositions
	values []string
}

func newMemList(gap int64, values ...string) *memList {
	l := &memList{values: values}
	for i := range values {
		l.pos = append(l.pos, int64(i+1)*gap)
	}
	return l
}

func (l *memList) Len(context.Context) (int, error) { return len(l.pos), nil }

func (l *memList) Tail(context.Context) (int, int64, error) {
	if len(l.pos) == 0 {
		return 0, 0, nil
	}
	return len(l.pos), l.pos[len(l.pos)-1], nil
}

func (l *memList) fact(i int) factbase.Fact {
	return factbase.Fact{ID: l.values[i], Value: l.values[i], Rank: int(l.pos[i])}
}

func (l *memList) At(_ context.Context, p int64) (factbase.Fact, error) {
	i, ok := slices.BinarySearch(l.pos, p)
	if !ok {
		return factbase.Fact{}, factbase.Errorf(factbase.ENOTFOUND, "no member at %d", p)
	}
	return l.fact(i), nil
}

func (l *memList) Page(_ context.Context, p int64, limit int) ([]factbase.Fact, error) {
	i, _ := slices.BinarySearch(l.pos, p)
	var out []factbase.Fact
	for ; i < len(l.pos) && len(out) < limit; i++ {
		out = append(out, l.fact(i))
	}
	return out, nil
}

func (l *memList) SetPosition(_ context.Context, id string, p int64) (bool, error) {
	i := slices.Index(l.values, id)
	if i < 0 {
		return false, nil
	}
	v := l.values[i]
	l.values, l.pos = slices.Delete(l.values, i, i+1), slices.Delete(l.pos, i, i+1)
	j, _ := slices.BinarySearch(l.pos, p)
	l.values, l.pos = slices.Insert(l.values, j, v), slices.Insert(l.pos, j, p)
	return true, nil
}

func (l *memList) insert(p int64, v string) {
	j, _ := slices.BinarySearch(l.pos, p)
	l.values, l.pos = slices.Insert(l.values, j, v), slices.Insert(l.pos, j, p)
}

func TestListReads(t *testing.T) {
	ctx := context.Background()
	l := newMemList(100, "A", "B", "C", "D")
	if f, ok, err := AtRank(ctx, l, 3); err != nil || !ok || f.Value != "C" || f.Rank != 3 {
		t.Errorf("AtRank(3) = %+v, %v, %v; want C at rank 3", f, ok, err)
	}
	for _, r := range []int{0, 5} {
		if _, ok, err := AtRank(ctx, l, r); ok || err != nil {
			t.Errorf("AtRank(%d) = %v, %v; want none", r, ok, err)
		}
	}
	page, n, err := Page(ctx, l, 1, 2)
	if err != nil || n != 4 || len(page) != 2 || page[0].Value != "B" || page[0].Rank != 2 || page[1].Rank != 3 {
		t.Errorf("Page(1, 2) = %+v, %d, %v; want B and C at ranks 2 and 3 of 4", page, n, err)
	}
	if page, n, err := Page(ctx, l, 4, 2); page != nil || n != 4 || err != nil {
		t.Errorf("Page past the end = %+v, %d, %v; want none of 4", page, n, err)
	}
}

func TestListWrites(t *testing.T) {
	ctx := context.Background()
	l := newMemList(100, "A", "B", "C")
	for _, c := range []struct {
		value string
		rank  int
		want  string
	}{
		{"D", 4, "ABCD"},  // past the end: after the tail
		{"E", 9, "ABCDE"}, // beyond: still after the tail
		{"F", 1, "FABCDE"},
		{"G", 3, "FAGBCDE"},
	} {
		p, err := Insert(ctx, l, 100, c.rank)
		if err != nil {
			t.Fatal(err)
		}
		l.insert(p, c.value)
		if got := strings.Join(l.values, ""); got != c.want {
			t.Errorf("insert %s at %d: %s, want %s", c.value, c.rank, got, c.want)
		}
	}
	if err := Move(ctx, l, 100, "favorites.x", "B", 4, 1); err != nil || strings.Join(l.values, "") != "BFAGCDE" {
		t.Errorf("move B 4 → 1: %s, %v; want BFAGCDE", strings.Join(l.values, ""), err)
	}
	if err := Move(ctx, l, 100, "favorites.x", "Z", 2, 1); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("move of a non-member: %v, want ENOTFOUND", err)
	}
	if err := Move(ctx, l, 100, "favorites.x", "Z", 2, 2); err != nil {
		t.Errorf("a move to the same rank: %v, want nothing done", err)
	}
	if p, err := Insert(ctx, newMemList(100), 100, 1); err != nil || p != 100 {
		t.Errorf("Insert into an empty list = %d, %v; want 100", p, err)
	}
}

func TestDeriveMemberRanks(t *testing.T) {
	k := factbase.MemberKey{Subject: "user", Key: "favorites.x", Norm: "c"}
	members := map[factbase.MemberKey]factbase.Fact{
		k: {Subject: "user", Key: "favorites.x", Cardinality: factbase.Ranked, Current: true, Rank: 300},
		{Subject: "user", Key: "tags", Norm: "a"}: {Cardinality: factbase.Many, Current: true},
	}
	rankOf := func(_, _ string, p int64) (int, error) { return int(p / 100), nil }
	if err := DeriveMemberRanks(members, rankOf); err != nil || members[k].Rank != 3 {
		t.Errorf("DeriveMemberRanks() = %v, rank %d; want 3", err, members[k].Rank)
	}
}
