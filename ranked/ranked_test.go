package ranked

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/factbase/factbase"
)

// members returns the list m1..mn.
func members(n int) []string {
	list := make([]string, n)
	for i := range list {
		list[i] = fmt.Sprintf("m%d", i+1)
	}
	return list
}

// naive is the model Apply is checked against: take the value out of its rank if
// present, then put it in at the target rank, clamped to the list.
func naive(list []string, cur, target int, value string) []string {
	out := slices.Clone(list)
	if cur > 0 {
		value = out[cur-1]
		out = slices.Delete(out, cur-1, cur)
	}
	i := min(target, len(out)+1) - 1
	return slices.Insert(out, i, value)
}

// afterRanks returns the rank after p of every member of a list of n (0 when it left),
// computed with the shift rule alone, and the rank of a joining value (0 if none).
func afterRanks(p Plan, n int) (ranks []int, joined int) {
	ranks = make([]int, n)
	for r := 1; r <= n; r++ {
		if r == p.From {
			ranks[r-1] = p.To
		} else {
			ranks[r-1] = p.rankAfter(r)
		}
	}
	if p.From == 0 {
		joined = p.To
	}
	return ranks, joined
}

// TestSetExhaustive checks every Set on lists of 0..8 members: the Plan's Apply against
// the naive model, the invariant on the ranks the shift produces, that [Lo, Hi] covers
// exactly the members whose rank changed besides the value, and the Action.
func TestSetExhaustive(t *testing.T) {
	for n := 0; n <= 8; n++ {
		list := members(n)
		for cur := 0; cur <= n; cur++ {
			for target := 1; target <= n+3; target++ {
				name := fmt.Sprintf("n=%d cur=%d target=%d", n, cur, target)
				p, err := Set(n, cur, target)
				if err != nil {
					t.Fatalf("Set(%d, %d, %d) error = %v", n, cur, target, err)
				}
				got := p.Apply(list, "new")
				want := naive(list, cur, target, "new")
				if !slices.Equal(got, want) {
					t.Errorf("%s: Apply(%+v) = %q, want %q", name, p, got, want)
				}

				ranks, joined := afterRanks(p, n)
				all := slices.DeleteFunc(append(slices.Clone(ranks), joined), func(r int) bool { return r == 0 })
				if err := Check(all); err != nil {
					t.Errorf("%s: ranks after %+v: %v", name, p, err)
				}
				if len(all) != len(want) {
					t.Errorf("%s: %d members after %+v, want %d", name, len(all), p, len(want))
				}

				// The shift range is exactly the members that moved, besides the value.
				wantRank := make(map[string]int)
				for i, v := range want {
					wantRank[v] = i + 1
				}
				changed := 0
				for r := 1; r <= n; r++ {
					if r == cur {
						continue
					}
					after := wantRank[list[r-1]]
					inRange := p.Delta != 0 && p.Lo <= r && r <= p.Hi
					if moved := after != r; moved != inRange {
						t.Errorf("%s: member at %d goes to %d, but in shift range [%d,%d] delta %d is %v", name, r, after, p.Lo, p.Hi, p.Delta, inRange)
					}
					if after != r {
						changed++
						if after-r != p.Delta {
							t.Errorf("%s: member at %d goes to %d, want shift by delta %d", name, r, after, p.Delta)
						}
					}
				}
				if got := p.Shifted(); got != changed {
					t.Errorf("%s: Shifted() = %d, want %d", name, got, changed)
				}
				if p.Delta == 0 && (p.Lo != 0 || p.Hi != 0) {
					t.Errorf("%s: Plan %+v has a range with no delta", name, p)
				}

				// The Action, From and To follow the product's rules.
				var wantAction factbase.Action
				switch {
				case cur == 0 && target <= n:
					wantAction = factbase.Insert
				case cur == 0:
					wantAction = factbase.Append
				case min(target, n) == cur:
					wantAction = factbase.NoOp
				default:
					wantAction = factbase.Move
				}
				if p.Action != wantAction {
					t.Errorf("%s: Action = %s, want %s", name, p.Action, wantAction)
				}
				if p.From != cur {
					t.Errorf("%s: From = %d, want %d", name, p.From, cur)
				}
				if valueRank := slices.Index(want, valueAt(list, cur, "new")) + 1; p.To != valueRank {
					t.Errorf("%s: To = %d, want %d", name, p.To, valueRank)
				}
			}
		}
	}
}

// valueAt returns the member at rank cur, or value when cur is 0.
func valueAt(list []string, cur int, value string) string {
	if cur == 0 {
		return value
	}
	return list[cur-1]
}

func TestRemoveExhaustive(t *testing.T) {
	for n := 0; n <= 8; n++ {
		list := members(n)
		for cur := 1; cur <= n; cur++ {
			p, err := Remove(n, cur)
			if err != nil {
				t.Fatalf("Remove(%d, %d) error = %v", n, cur, err)
			}
			want := slices.Delete(slices.Clone(list), cur-1, cur)
			if got := p.Apply(list, ""); !slices.Equal(got, want) {
				t.Errorf("Remove(%d, %d) = %+v; Apply = %q, want %q", n, cur, p, got, want)
			}
			ranks, _ := afterRanks(p, n)
			ranks = slices.DeleteFunc(ranks, func(r int) bool { return r == 0 })
			if err := Check(ranks); err != nil {
				t.Errorf("Remove(%d, %d) = %+v: ranks after: %v", n, cur, p, err)
			}
			if got, want := p.Shifted(), n-cur; got != want {
				t.Errorf("Remove(%d, %d).Shifted() = %d, want %d", n, cur, got, want)
			}
			if p.Action != factbase.Remove || p.From != cur || p.To != 0 {
				t.Errorf("Remove(%d, %d) = %+v, want Action REMOVE From %d To 0", n, cur, p, cur)
			}
		}
	}
}

func TestSet(t *testing.T) {
	tests := []struct {
		name             string
		n, cur, target   int
		want             Plan
		list, wantList   []string
		wantShiftedCount int
	}{
		{
			name: "move up", n: 5, cur: 4, target: 2,
			want:     Plan{Action: factbase.Move, From: 4, To: 2, Lo: 2, Hi: 3, Delta: 1},
			wantList: []string{"m1", "m4", "m2", "m3", "m5"}, wantShiftedCount: 2,
		},
		{
			name: "move to top", n: 3, cur: 3, target: 1,
			want:     Plan{Action: factbase.Move, From: 3, To: 1, Lo: 1, Hi: 2, Delta: 1},
			wantList: []string{"m3", "m1", "m2"}, wantShiftedCount: 2,
		},
		{
			name: "move down", n: 5, cur: 2, target: 4,
			want:     Plan{Action: factbase.Move, From: 2, To: 4, Lo: 3, Hi: 4, Delta: -1},
			wantList: []string{"m1", "m3", "m4", "m2", "m5"}, wantShiftedCount: 2,
		},
		{
			name: "move down past end clamps to last", n: 3, cur: 1, target: 10,
			want:     Plan{Action: factbase.Move, From: 1, To: 3, Lo: 2, Hi: 3, Delta: -1},
			wantList: []string{"m2", "m3", "m1"}, wantShiftedCount: 2,
		},
		{
			name: "noop same rank", n: 3, cur: 2, target: 2,
			want:     Plan{Action: factbase.NoOp, From: 2, To: 2},
			wantList: []string{"m1", "m2", "m3"},
		},
		{
			name: "noop last asked past end", n: 3, cur: 3, target: 7,
			want:     Plan{Action: factbase.NoOp, From: 3, To: 3},
			wantList: []string{"m1", "m2", "m3"},
		},
		{
			name: "noop single member", n: 1, cur: 1, target: 1,
			want:     Plan{Action: factbase.NoOp, From: 1, To: 1},
			wantList: []string{"m1"},
		},
		{
			name: "insert at 1", n: 3, cur: 0, target: 1,
			want:     Plan{Action: factbase.Insert, To: 1, Lo: 1, Hi: 3, Delta: 1},
			wantList: []string{"new", "m1", "m2", "m3"}, wantShiftedCount: 3,
		},
		{
			name: "insert in the middle", n: 4, cur: 0, target: 3,
			want:     Plan{Action: factbase.Insert, To: 3, Lo: 3, Hi: 4, Delta: 1},
			wantList: []string{"m1", "m2", "new", "m3", "m4"}, wantShiftedCount: 2,
		},
		{
			name: "insert at n", n: 3, cur: 0, target: 3,
			want:     Plan{Action: factbase.Insert, To: 3, Lo: 3, Hi: 3, Delta: 1},
			wantList: []string{"m1", "m2", "new", "m3"}, wantShiftedCount: 1,
		},
		{
			name: "n+1 appends", n: 3, cur: 0, target: 4,
			want:     Plan{Action: factbase.Append, To: 4},
			wantList: []string{"m1", "m2", "m3", "new"},
		},
		{
			name: "beyond end appends", n: 3, cur: 0, target: 10,
			want:     Plan{Action: factbase.Append, To: 4},
			wantList: []string{"m1", "m2", "m3", "new"},
		},
		{
			name: "empty list at 1 appends", n: 0, cur: 0, target: 1,
			want:     Plan{Action: factbase.Append, To: 1},
			wantList: []string{"new"},
		},
		{
			name: "empty list at 5 appends at 1", n: 0, cur: 0, target: 5,
			want:     Plan{Action: factbase.Append, To: 1},
			wantList: []string{"new"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Set(tc.n, tc.cur, tc.target)
			if err != nil {
				t.Fatalf("Set(%d, %d, %d) error = %v", tc.n, tc.cur, tc.target, err)
			}
			if got != tc.want {
				t.Errorf("Set(%d, %d, %d) = %+v, want %+v", tc.n, tc.cur, tc.target, got, tc.want)
			}
			if list := got.Apply(members(tc.n), "new"); !slices.Equal(list, tc.wantList) {
				t.Errorf("Apply = %q, want %q", list, tc.wantList)
			}
			if s := got.Shifted(); s != tc.wantShiftedCount {
				t.Errorf("Shifted() = %d, want %d", s, tc.wantShiftedCount)
			}
		})
	}
}

func TestSetErrors(t *testing.T) {
	tests := []struct {
		name           string
		n, cur, target int
		wantCode       string
		wantMsg        string
	}{
		{name: "rank zero", n: 3, cur: 0, target: 0, wantCode: factbase.EINVALID, wantMsg: "rank must be at least 1, got 0"},
		{name: "rank negative", n: 3, cur: 2, target: -4, wantCode: factbase.EINVALID, wantMsg: "rank must be at least 1, got -4"},
		{name: "rank zero on empty list", n: 0, cur: 0, target: 0, wantCode: factbase.EINVALID, wantMsg: "rank must be at least 1, got 0"},
		{name: "cur beyond n", n: 3, cur: 4, target: 1, wantCode: factbase.EINVALID, wantMsg: "current rank 4 is outside a list of 3"},
		{name: "cur negative", n: 3, cur: -1, target: 1, wantCode: factbase.EINVALID, wantMsg: "current rank -1 is outside a list of 3"},
		{name: "n negative", n: -1, cur: 0, target: 1, wantCode: factbase.EINVALID, wantMsg: "list length must not be negative, got -1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Set(tc.n, tc.cur, tc.target)
			if p != (Plan{}) {
				t.Errorf("Set(%d, %d, %d) = %+v with an error, want the zero Plan", tc.n, tc.cur, tc.target, p)
			}
			if code := factbase.ErrorCode(err); code != tc.wantCode {
				t.Errorf("Set(%d, %d, %d) error code = %q (%v), want %q", tc.n, tc.cur, tc.target, code, err, tc.wantCode)
			}
			if msg := factbase.ErrorMessage(err); msg != tc.wantMsg {
				t.Errorf("Set(%d, %d, %d) error = %q, want %q", tc.n, tc.cur, tc.target, msg, tc.wantMsg)
			}
		})
	}
}

func TestAdd(t *testing.T) {
	tests := []struct {
		name    string
		n, cur  int
		want    Plan
		wantDup bool
	}{
		{name: "empty list", n: 0, cur: 0, want: Plan{Action: factbase.Append, To: 1}},
		{name: "absent appends", n: 3, cur: 0, want: Plan{Action: factbase.Append, To: 4}},
		{name: "present first is a duplicate", n: 3, cur: 1, want: Plan{Action: factbase.NoOp, From: 1, To: 1}, wantDup: true},
		{name: "present last is a duplicate", n: 3, cur: 3, want: Plan{Action: factbase.NoOp, From: 3, To: 3}, wantDup: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, dup := Add(tc.n, tc.cur)
			if got != tc.want || dup != tc.wantDup {
				t.Errorf("Add(%d, %d) = %+v, %v, want %+v, %v", tc.n, tc.cur, got, dup, tc.want, tc.wantDup)
			}
			list := members(tc.n)
			want := list
			if !tc.wantDup {
				want = append(slices.Clone(list), "new")
			}
			if l := got.Apply(list, "new"); !slices.Equal(l, want) {
				t.Errorf("Add(%d, %d).Apply = %q, want %q", tc.n, tc.cur, l, want)
			}
		})
	}
}

func TestRemove(t *testing.T) {
	tests := []struct {
		name     string
		n, cur   int
		want     Plan
		wantCode string
	}{
		{name: "first", n: 3, cur: 1, want: Plan{Action: factbase.Remove, From: 1, Lo: 2, Hi: 3, Delta: -1}},
		{name: "middle", n: 3, cur: 2, want: Plan{Action: factbase.Remove, From: 2, Lo: 3, Hi: 3, Delta: -1}},
		{name: "last closes nothing", n: 3, cur: 3, want: Plan{Action: factbase.Remove, From: 3}},
		{name: "only member", n: 1, cur: 1, want: Plan{Action: factbase.Remove, From: 1}},
		{name: "absent", n: 3, cur: 0, wantCode: factbase.ENOTFOUND},
		{name: "beyond end", n: 3, cur: 4, wantCode: factbase.ENOTFOUND},
		{name: "empty list", n: 0, cur: 1, wantCode: factbase.ENOTFOUND},
		{name: "negative rank", n: 3, cur: -2, wantCode: factbase.ENOTFOUND},
		{name: "negative length", n: -1, cur: 1, wantCode: factbase.EINVALID},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Remove(tc.n, tc.cur)
			if code := factbase.ErrorCode(err); code != tc.wantCode {
				t.Errorf("Remove(%d, %d) error code = %q (%v), want %q", tc.n, tc.cur, code, err, tc.wantCode)
			}
			if got != tc.want {
				t.Errorf("Remove(%d, %d) = %+v, want %+v", tc.n, tc.cur, got, tc.want)
			}
		})
	}
}

func TestApplyMismatchedPlan(t *testing.T) {
	// Plans that do not fit the list must not panic, and must keep every member.
	list := []string{"a", "b", "c"}
	plans := []Plan{
		{Action: factbase.Move, From: 9, To: 1, Lo: 1, Hi: 9, Delta: 1},
		{Action: factbase.Remove, From: 7},
		{Action: factbase.Insert, To: 2},
		{Action: factbase.Move, From: 1, To: -3, Lo: -5, Hi: 5, Delta: -1},
	}
	for _, p := range plans {
		got := p.Apply(list, "x")
		for _, v := range list {
			if !slices.Contains(got, v) {
				t.Errorf("Apply(%+v) = %q lost %q", p, got, v)
			}
		}
	}
	if got, want := (Plan{Action: factbase.Remove, From: 2, Lo: 3, Hi: 3, Delta: -1}).Apply(list, ""), []string{"a", "c"}; !slices.Equal(got, want) {
		t.Errorf("Apply(remove 2) = %q, want %q", got, want)
	}
	if !slices.Equal(list, []string{"a", "b", "c"}) {
		t.Errorf("Apply modified its input: %q", list)
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name    string
		ranks   []int
		wantErr string // substring; "" for no error
	}{
		{name: "empty", ranks: nil},
		{name: "one", ranks: []int{1}},
		{name: "in order", ranks: []int{1, 2, 3}},
		{name: "any order", ranks: []int{3, 1, 4, 2}},
		{name: "zero", ranks: []int{0, 1, 2}, wantErr: "rank 0 is below 1"},
		{name: "negative", ranks: []int{1, -2}, wantErr: "rank -2 is below 1"},
		{name: "duplicate", ranks: []int{1, 2, 2}, wantErr: "rank 2 appears more than once"},
		{name: "duplicate beyond length", ranks: []int{5, 5}, wantErr: "rank 5 appears more than once"},
		{name: "gap", ranks: []int{1, 2, 4}, wantErr: "rank 3 is missing from a list of 3 (a gap)"},
		{name: "starts at 2", ranks: []int{2, 3}, wantErr: "rank 1 is missing"},
		{name: "below 1 reported before duplicate", ranks: []int{2, 2, 0}, wantErr: "rank 0 is below 1"},
		{name: "duplicate reported before gap", ranks: []int{1, 1, 5}, wantErr: "rank 1 appears more than once"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(tc.ranks)
			if tc.wantErr == "" {
				if err != nil {
					t.Errorf("Check(%v) = %v, want nil", tc.ranks, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Check(%v) = %v, want an error containing %q", tc.ranks, err, tc.wantErr)
			}
			if code := factbase.ErrorCode(err); code != factbase.EINVARIANT {
				t.Errorf("Check(%v) error code = %q, want %q", tc.ranks, code, factbase.EINVARIANT)
			}
		})
	}
}

var sinkPlan Plan

func BenchmarkSet(b *testing.B) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		p, err := Set(1000, i%1001, i%1200+1)
		if err != nil {
			b.Fatal(err)
		}
		sinkPlan = p
	}
}

func BenchmarkAdd(b *testing.B) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		sinkPlan, _ = Add(1000, i%1001)
	}
}
