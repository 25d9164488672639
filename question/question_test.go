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
		{"What's my least favorite vegetable?", Plan{Kind: ListLeast, Topic: "vegetable", Self: true, Last: true}},
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
	for _, tc := range []struct {
		q    string
		want Plan
	}{
		{"What's my sister's name?", Plan{Kind: Who, Relation: "sister"}},
		{"What are our dogs called?", Plan{Kind: Group, Group: "dogs", Many: true}},
		{"Who works at Spotify?", Plan{Kind: WhoHas, Value: "Spotify", Many: true}},
		{"Who is flying to Munich with me?", Plan{Kind: WhoHas, Value: "Munich", Many: true}},
		{"Who's coming to the party with us?", Plan{Kind: WhoHas, Value: "party", Many: true}},
		{"How many kids do we have?", Plan{Kind: Group, Group: "children", Relation: "child", Count: true, Many: true}},
		{"Which of my kids is 12?", Plan{Kind: Group, Group: "children", Many: true, Value: "12"}},
		{"When did I move to Oslo?", Plan{Kind: History, When: true, Value: "Oslo", Self: true}},
		{"Did I ever live in Rome?", Plan{Kind: History, Ever: true, Value: "Rome", Self: true}},
		{"Have I always lived in Oslo?", Plan{Kind: History, Always: true, Value: "Oslo", Self: true}},
		{"What were my favorite cryptos in 2024?", Plan{Kind: History, Topic: "cryptos", Year: 2024, Self: true, Many: true}},
		{"Which tea is last on my list of favorites?", Plan{Kind: ListLeast, Topic: "tea", Self: true, Last: true}},
		{"What was my job before I became a senior data scientist?", Plan{Kind: History, Before: true, Value: "senior data scientist", Self: true}},
	} {
		if got, ok := Of(tc.q); !ok || got != tc.want {
			t.Errorf("Of(%q) = %+v, %v; want %+v", tc.q, got, ok, tc.want)
		}
	}
	if p, _ := Of("My top 3 cuisines"); p.Kind == ListTop {
		t.Error(`Of("My top 3 cuisines") is a list read; without its "?" it is no question`)
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

func TestOfVariants(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want Plan
	}{
		{"Who's my dentist?", Plan{Kind: Who, Relation: "dentist"}},
		{"Is Alien in my top 3 movies?", Plan{Kind: ListMember, Value: "Alien", Topic: "movies", Rank: 3, Self: true}},
		{"Is Mexican in my top three cuisines?", Plan{Kind: ListMember, Value: "Mexican", Topic: "cuisines", Rank: 3, Self: true}},
		{"Where does Paddington 2 rank among my favorite movies?", Plan{Kind: ListMember, Value: "Paddington 2", Topic: "movies", Self: true, Position: true}},
		{"Where is Bach on my list of favorite composers?", Plan{Kind: ListMember, Value: "Bach", Topic: "composers", Self: true, Position: true}},
		{"Where's Kyoto in my favourite cities?", Plan{Kind: ListMember, Value: "Kyoto", Topic: "cities", Self: true, Position: true}},
		{"What number is Heat on my movie list?", Plan{Kind: ListMember, Value: "Heat", Topic: "movie", Self: true, Position: true}},
		{"How high is Azul on my list of favorite board games?", Plan{Kind: ListMember, Value: "Azul", Topic: "board games", Self: true, Position: true}},
		{"How many cuisines do I have in my favorites?", Plan{Kind: ListCount, Topic: "cuisines", Self: true}},
		{"How many movies are on my favorites list?", Plan{Kind: ListCount, Topic: "movies", Self: true}},
		{"Top 3 cuisines?", Plan{Kind: ListTop, Topic: "cuisines", Rank: 3, Self: true}},
		{"My top five songs?", Plan{Kind: ListTop, Topic: "songs", Rank: 5, Self: true}},
		{"Favorite color?", Plan{Kind: ListTop, Topic: "color", Self: true}},
		{"Where does Anna work?", Plan{Kind: Facts}},
		{"Which fruit is last on my list?", Plan{Kind: ListLeast, Topic: "fruit", Self: true, Last: true}},
		{"Which season do I like least?", Plan{Kind: ListLeast, Topic: "season", Self: true, Last: true}},
		{"How many beers are on my list?", Plan{Kind: ListCount, Topic: "beers", Self: true}},
		{"Do I like Haskell?", Plan{Kind: ListMember, Value: "Haskell", Self: true}},
		{"Which of our pets is the oldest?", Plan{Kind: Group, Group: "pets", Most: "oldest"}},
		{"Who's the youngest of my kids?", Plan{Kind: Group, Group: "children", Most: "youngest"}},
		{"Who is my eldest son?", Plan{Kind: Group, Group: "anyone", Relation: "son", Most: "oldest"}},
		{"Which of our dogs is older?", Plan{Kind: Group, Group: "dogs", Most: "oldest"}},
		{"How many days until my job interview?", Plan{Kind: Facts, Until: true, Value: "my job interview", Self: true}},
		{"How long until Ivy's birthday?", Plan{Kind: Facts, Until: true, Value: "Ivy's birthday"}},
		{"What was my favorite band before?", Plan{Kind: History, Topic: "band", Before: true, Self: true}},
		{"What was my favourite tea before jasmine?", Plan{Kind: History, Topic: "tea", Before: true, Value: "jasmine", Self: true}},
		{"What was my previous favorite author?", Plan{Kind: History, Topic: "author", Before: true, Self: true}},
		{"Do I have any siblings?", Plan{Kind: Group, Group: "siblings", Many: true}},
		{"Do I have a brother?", Plan{Kind: Group, Group: "anyone", Relation: "brother", Many: true}},
		{"Who is Greta?", Plan{Kind: Who, Value: "Greta"}},
		{"Who is Lena's manager?", Plan{Kind: Facts}},
	} {
		if got, ok := Of(tc.q); !ok || got != tc.want {
			t.Errorf("Of(%q) = %+v, %v; want %+v", tc.q, got, ok, tc.want)
		}
	}
}

func TestOfMore(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want Plan
	}{
		{"Tell me about Luis.", Plan{Kind: Facts, About: true, Many: true}},
		{"How long have I lived in Berlin?", Plan{Kind: History, When: true, Value: "Berlin", Self: true}},
		{"Where did I work before?", Plan{Kind: History, Before: true, Self: true}},
	} {
		if got, ok := Of(tc.q); !ok || got != tc.want {
			t.Errorf("Of(%q) = %+v, %v; want %+v", tc.q, got, ok, tc.want)
		}
	}
}
