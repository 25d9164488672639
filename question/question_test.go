package question

import "testing"

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want Plan
	}{
		{"Is Dune one of my favorite books?", Plan{Kind: ListMember, Value: "Dune", Topic: "books", Self: true}},
		{"Is BTC still in my favourite cryptos?", Plan{Kind: ListMember, Value: "BTC", Topic: "cryptos", Self: true}},
		{"Is Heat on my favorite movies list?", Plan{Kind: ListMember, Value: "Heat", Topic: "movies", Self: true}},
		{"How many favorite podcasts do I have?", Plan{Kind: ListCount, Topic: "podcasts", Self: true}},
		{"What's my least favorite vegetable?", Plan{Kind: ListLeast, Topic: "vegetable", Self: true}},
		{"Who is my husband?", Plan{Kind: Who, Relation: "husband"}},
		{"Who are my sisters?", Plan{Kind: Who, Relation: "sister", Many: true}},
		{"Who are my kids?", Plan{Kind: Group, Group: "children", Many: true}},
		{"Do we have any pets?", Plan{Kind: Group, Group: "pets", Many: true}},
		{"Is anyone in my family allergic to nuts?", Plan{Kind: Group, Group: "family", Many: true, Value: "nuts"}},
		{"Where did I live before Oslo?", Plan{Kind: History, Before: true, Value: "Oslo", Self: true}},
		{"What was my email in 2024?", Plan{Kind: History, Year: 2024, Self: true}},
		{"Where did Ben use to work?", Plan{Kind: History, Before: true}},
		{"Do I have any allergies?", Plan{Kind: YesNo, Self: true, Many: true}},
		{"Is Ben allergic to nuts?", Plan{Kind: YesNo, Many: true, Value: "nuts"}},
		{"When is Kai's birthday?", Plan{Kind: Facts}},
		{"What is Lea allergic to?", Plan{Kind: Facts, Many: true}},
		{"Where does my brother work?", Plan{Kind: Facts, Self: true}},
	} {
		got, ok := Of(tc.q)
		if !ok || got != tc.want {
			t.Errorf("Of(%q) = %+v, %v; want %+v", tc.q, got, ok, tc.want)
		}
	}
	if _, ok := Of("  ?"); ok {
		t.Error("an empty question was placed")
	}
}

func FuzzOf(f *testing.F) {
	for _, q := range []string{"Is Dune one of my favorite books?", "Who is my husband?", "What was my email in 2024?", "’’?"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		p, ok := Of(q)
		if !ok && p != (Plan{}) {
			t.Fatalf("Of(%q) placed nothing but returned %+v", q, p)
		}
	})
}
