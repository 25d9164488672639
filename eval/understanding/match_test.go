package understanding

import (
	"slices"
	"testing"
)

func mustLabel(t *testing.T, s string) Label {
	t.Helper()
	l, err := ParseLabel(s)
	if err != nil {
		t.Fatalf("ParseLabel(%q): %v", s, err)
	}
	return l
}

func TestLabelMatches(t *testing.T) {
	ben := Who{Name: "Ben", Relation: "husband"}
	tests := []struct {
		label string
		who   Who
		want  bool
	}{
		{"user", Who{User: true}, true},
		{"user", ben, false},
		{"assistant", Who{Assistant: true}, true},
		{"assistant", Who{User: true}, false},
		{"Ben (husband)", ben, true},
		{"ben (HUSBAND)", ben, true},
		{"Ben", ben, true},
		{"(husband)", ben, true},
		{"Ben (husband)", Who{Relation: "husband"}, true}, // the name not yet known
		{"Ben (husband)", Who{Name: "Ben"}, true},         // the relation not yet known
		{"Ben (husband)", Who{Name: "Ben", Relation: "brother"}, false},
		{"Ben (husband)", Who{Name: "Tom", Relation: "husband"}, false},
		{"Ben (husband)", Who{Name: "Benjamin", Aliases: []string{"Ben"}, Relation: "husband"}, true},
		{"(brother)", Who{Name: "Sami", Relation: "brother"}, true},
		{"(brother)", Who{}, false},
		{"Ben", Who{Relation: "husband"}, false},
		{"Ben", Who{User: true}, false},
		{"User", Who{User: true}, false}, // a person named User is not the user
		{"User", Who{Name: "User"}, true},
		{"(mother)", Who{Relation: "mom"}, true},
		{"(grandma)", Who{Relation: "grandmother"}, true},
		{"(coworker)", Who{Relation: "colleague"}, true},
		{"(older brother)", Who{Relation: "brother"}, true},
		{"(Ana's husband|cousin's husband)", Who{Relation: "cousin's husband"}, true},
		{"(Ana's husband|cousin's husband)", Who{Relation: "husband"}, false},
		{"(neighbour's dog)", Who{Relation: "neighbor's dog"}, true},
		{"Mom (mom)", Who{Name: "Mom"}, true},
		{"Mom (mom)", Who{Relation: "mom"}, true},
	}
	for _, tc := range tests {
		if got := mustLabel(t, tc.label).Matches(tc.who); got != tc.want {
			t.Errorf("Label(%q).Matches(%+v) = %v, want %v", tc.label, tc.who, got, tc.want)
		}
	}
}

func TestLabelString(t *testing.T) {
	for _, s := range []string{"user", "assistant", "Ben (husband)", "Ben", "(husband)", "A|B (x|y)"} {
		if got := mustLabel(t, s).String(); got != s {
			t.Errorf("ParseLabel(%q).String() = %q", s, got)
		}
	}
}

func TestNormValue(t *testing.T) {
	tests := []struct{ a, b string }{
		{"Oslo", "  oslo. "},
		{"a dentist appointment on Friday", "Dentist appointment on friday"},
		{"The Wire", "wire"},
		{"St. Mary’s", "st. mary's"},
	}
	for _, tc := range tests {
		if !sameValue(tc.a, tc.b) {
			t.Errorf("sameValue(%q, %q) = false, want true", tc.a, tc.b)
		}
	}
	for _, tc := range []struct{ a, b string }{{"Oslo", "Oslo now"}, {"a", ""}, {"the", "a"}, {"rice", "rice more than pasta"}} {
		if sameValue(tc.a, tc.b) {
			t.Errorf("sameValue(%q, %q) = true, want false", tc.a, tc.b)
		}
	}
}

func TestWantMatches(t *testing.T) {
	user := Who{User: true}
	tests := []struct {
		want Want
		s    Stored
		ok   bool
	}{
		{Want{About: Label{User: true}, Key: "home.city", Values: []string{"Lyon"}}, Stored{About: user, Key: "home.city", Value: "lyon"}, true},
		{Want{About: Label{User: true}, Key: "home.city", Values: []string{"Lyon"}}, Stored{About: user, Key: "home.origin", Value: "Lyon"}, false},
		{Want{About: Label{User: true}, Key: "home.city", Values: []string{"Lyon"}}, Stored{About: Who{Name: "User"}, Key: "home.city", Value: "Lyon"}, false},
		{Want{About: Label{User: true}, Key: "likes", Values: []string{"Go", "golang"}}, Stored{About: user, Key: "likes", Value: "Golang"}, true},
		{Want{About: Label{User: true}, Key: "favorites.book", Values: []string{"Dune"}, Rank: 2}, Stored{About: user, Key: "favorites.book", Value: "Dune", Rank: 1}, false},
		{Want{About: Label{User: true}, Key: "favorites.book", Values: []string{"Dune"}, Rank: 2}, Stored{About: user, Key: "favorites.book", Value: "Dune", Rank: 2}, true},
		{Want{About: Label{User: true}, Key: "*", Values: []string{"*"}}, Stored{About: user, Key: "vehicle", Value: "x"}, true},
		{Want{About: Label{Relations: []string{"mother"}}, Key: "relation", Values: []string{"mother"}}, Stored{About: Who{Relation: "mom"}, Key: "relation", Value: "mom"}, true},
		{Want{About: Label{User: true}, Key: "work.role", Values: []string{"mother"}}, Stored{About: user, Key: "work.role", Value: "mom"}, false},
	}
	for _, tc := range tests {
		if got := tc.want.Matches(tc.s); got != tc.ok {
			t.Errorf("%v.Matches(%v) = %v, want %v", tc.want, tc.s, got, tc.ok)
		}
	}
}

func TestMatch(t *testing.T) {
	user := Who{User: true}
	ben := Who{Name: "Ben", Relation: "husband"}
	stored := []Stored{
		{About: ben, Key: "relation", Value: "husband"},
		{About: user, Key: "likes", Value: "rice more than pasta"},
		{About: user, Key: "favorites.tea", Value: "oolong", Rank: 1},
		{About: user, Key: "favorites.tea", Value: "sencha", Rank: 2},
		{About: Who{Name: "User"}, Key: "likes", Value: "short answers"},
	}
	want := []Want{
		{About: mustLabel(t, "Ben (husband)"), Key: "relation", Values: []string{"husband"}},
		{About: Label{User: true}, Key: "likes", Values: []string{"rice"}},
		{About: Label{User: true}, Key: "favorites.tea", Values: []string{"sencha"}, Rank: 1},
		{About: Label{User: true}, Key: "favorites.tea", Values: []string{"oolong"}, Rank: 1},
		{About: Label{User: true}, Key: "favorites.tea", Values: []string{"oolong"}, Rank: 1}, // a fact matches once
	}
	not := []Want{{About: mustLabel(t, "User"), Key: "*", Values: []string{"*"}}}
	m := Match(stored, want, not)
	if got, wantPairs := m.Pairs, map[int]int{0: 0, 3: 2}; len(got) != len(wantPairs) || got[0] != 0 || got[3] != 2 {
		t.Errorf("Pairs = %v, want %v", got, wantPairs)
	}
	if !slices.Equal(m.Missing, []int{1, 2, 4}) {
		t.Errorf("Missing = %v, want [1 2 4]", m.Missing)
	}
	if !slices.Equal(m.Extra, []int{1, 3, 4}) {
		t.Errorf("Extra = %v, want [1 3 4]", m.Extra)
	}
	if !slices.Equal(m.Forbidden, []int{4}) {
		t.Errorf("Forbidden = %v, want [4]", m.Forbidden)
	}
}

func TestKind(t *testing.T) {
	tests := []struct{ key, value, want string }{
		{"relation", "husband", "relation"},
		{"relation", "dog", "pets"},
		{"relation", "Gus's dog", "pets"},
		{"relation", "son's friend", "relation"},
		{"home.city", "Oslo", "home"},
		{"work.role", "nurse", "work"},
		{"education.school", "MIT", "education"},
		{"person.birthday", "May 5", "birthday"},
		{"diet.avoid", "pork", "diet"},
		{"medical.medication", "insulin", "health"},
		{"favorites.movie", "Up", "favorites"},
		{"least_favorite.vegetable", "okra", "favorites"},
		{"comm.length", "short", "comm"},
		{"travel", "x", "plans"},
		{"languages.learning", "Korean", "languages"},
		{"something.else", "x", "other"},
	}
	for _, tc := range tests {
		if got := Kind(tc.key, tc.value); got != tc.want {
			t.Errorf("Kind(%q, %q) = %q, want %q", tc.key, tc.value, got, tc.want)
		}
	}
}

// TestScore checks the counts on a hand-made result.
func TestScore(t *testing.T) {
	user := Who{User: true}
	cases := []CaseResult{
		{
			Case: Case{Name: "a", Turns: []Turn{{Msg: "x"}, {Msg: "y"}}, Facts: []Want{
				{About: Label{User: true}, Key: "home.city", Values: []string{"Lyon"}, Anchor: "2026-03-06", SaidBy: &Label{Assistant: true}},
				{About: Label{User: true}, Key: "work.employer", Values: []string{"Globex"}},
			}},
			Stored: []Stored{
				{About: user, Key: "home.city", Value: "Lyon", Anchor: "2026-03-06", SaidBy: user},
				{About: user, Key: "work.role", Value: "nurse and"},
			},
			Proposed: []Stored{{About: user, Key: "work.employer", Value: "Globex now"}},
		},
		{
			Case:   Case{Name: "b", Turns: []Turn{{Msg: "z"}}, Not: []Want{{About: Label{User: true}, Key: "*", Values: []string{"*"}}}},
			Stored: []Stored{{About: user, Key: "likes", Value: "pasta"}},
		},
		{Case: Case{Name: "c", Turns: []Turn{{Msg: "q"}}}},
	}
	r := Score("t", cases)
	if r.Cases != 3 || r.Messages != 4 {
		t.Errorf("cases, messages = %d, %d, want 3, 4", r.Cases, r.Messages)
	}
	if got, want := r.Total, (KindScore{Kind: "total", Want: 2, Stored: 3, TP: 1, FP: 2, FN: 1, Precision: 1.0 / 3, Recall: 0.5}); got != want {
		t.Errorf("total = %+v, want %+v", got, want)
	}
	kinds := map[string]KindScore{}
	for _, k := range r.Kinds {
		kinds[k.Kind] = k
	}
	if k := kinds["home"]; k.TP != 1 || k.Precision != 1 || k.Recall != 1 {
		t.Errorf("home = %+v", k)
	}
	if k := kinds["work"]; k.Want != 1 || k.Stored != 1 || k.FP != 1 || k.FN != 1 || k.Precision != 0 {
		t.Errorf("work = %+v", k)
	}
	if r.Silent != 2 || r.Spurious != 1 || r.Violations != 1 {
		t.Errorf("silent %d, spurious %d, violations %d, want 2, 1, 1", r.Silent, r.Spurious, r.Violations)
	}
	if r.Anchors != (Check{Right: 1, Checked: 1}) || r.SaidBy != (Check{Right: 0, Checked: 1}) {
		t.Errorf("anchors %+v, said-by %+v", r.Anchors, r.SaidBy)
	}
	if r.Garbage != 2 || r.Scanned != 4 || r.Proposed != 1 {
		t.Errorf("garbage %d of %d (proposed %d), want 2 of 4 (1)", r.Garbage, r.Scanned, r.Proposed)
	}
	if len(r.Failures) != 2 || r.Failures[0].Case != "a" || len(r.Failures[0].Missing) != 1 || len(r.Failures[0].Unexpected) != 1 {
		t.Errorf("failures = %+v", r.Failures)
	}
}
