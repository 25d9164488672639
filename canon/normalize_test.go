package canon

import "testing"

func TestSingular(t *testing.T) {
	tests := []struct {
		word, want string
	}{
		// Regular plurals.
		{"movies", "movie"}, {"books", "book"}, {"colors", "color"}, {"days", "day"},
		{"keys", "key"}, {"games", "game"}, {"apples", "apple"}, {"sports", "sport"},
		{"destinations", "destination"}, {"pizzas", "pizza"}, {"tacos", "taco"},
		{"cafés", "café"}, {"houses", "house"}, {"horses", "horse"}, {"cheeses", "cheese"},
		{"olives", "olive"}, {"grooves", "groove"}, {"gloves", "glove"}, {"moves", "move"},
		// -ies.
		{"cryptocurrencies", "cryptocurrency"}, {"cities", "city"}, {"countries", "country"},
		{"berries", "berry"}, {"babies", "baby"}, {"cookies", "cookie"}, {"zombies", "zombie"},
		{"smoothies", "smoothie"}, {"pies", "pie"}, {"ties", "tie"}, {"hoodies", "hoodie"},
		// -es after sibilants.
		{"dishes", "dish"}, {"boxes", "box"}, {"foxes", "fox"}, {"classes", "class"},
		{"dresses", "dress"}, {"addresses", "address"}, {"churches", "church"},
		{"sandwiches", "sandwich"}, {"beaches", "beach"}, {"peaches", "peach"},
		{"coaches", "coach"}, {"watches", "watch"}, {"waltzes", "waltz"}, {"buzzes", "buzz"},
		{"quizzes", "quiz"}, {"prizes", "prize"}, {"niches", "niche"}, {"quiches", "quiche"},
		{"headaches", "headache"}, {"caches", "cache"}, {"avalanches", "avalanche"},
		// -uses, -ses.
		{"buses", "bus"}, {"bonuses", "bonus"}, {"viruses", "virus"}, {"campuses", "campus"},
		{"causes", "cause"}, {"excuses", "excuse"}, {"fuses", "fuse"}, {"analyses", "analysis"},
		{"hypotheses", "hypothesis"}, {"theses", "thesis"}, {"crises", "crisis"},
		{"diagnoses", "diagnosis"}, {"roses", "rose"}, {"phases", "phase"}, {"gases", "gas"},
		{"lenses", "lens"}, {"responses", "response"},
		// -oes.
		{"potatoes", "potato"}, {"tomatoes", "tomato"}, {"heroes", "hero"}, {"mangoes", "mango"},
		{"shoes", "shoe"}, {"horseshoes", "horseshoe"}, {"canoes", "canoe"}, {"toes", "toe"},
		// -ves and other irregulars.
		{"wolves", "wolf"}, {"werewolves", "werewolf"}, {"knives", "knife"}, {"wives", "wife"},
		{"leaves", "leaf"}, {"shelves", "shelf"}, {"bookshelves", "bookshelf"}, {"lives", "life"},
		{"people", "person"}, {"salespeople", "salesperson"}, {"children", "child"},
		{"grandchildren", "grandchild"}, {"men", "man"}, {"women", "woman"}, {"mice", "mouse"},
		{"geese", "goose"}, {"teeth", "tooth"}, {"cacti", "cactus"}, {"criteria", "criterion"},
		{"phenomena", "phenomenon"}, {"indices", "index"}, {"superheroes", "superhero"},
		// -is.
		{"kiwis", "kiwi"}, {"taxis", "taxi"}, {"martinis", "martini"},
		// -ics.
		{"comics", "comic"}, {"lyrics", "lyric"}, {"classics", "classic"},
		// Words that must not change.
		{"news", "news"}, {"series", "series"}, {"species", "species"}, {"chess", "chess"},
		{"physics", "physics"}, {"mathematics", "mathematics"}, {"politics", "politics"},
		{"sushi", "sushi"}, {"tennis", "tennis"}, {"jeans", "jeans"}, {"clothes", "clothes"},
		{"glasses", "glasses"}, {"sunglasses", "sunglasses"}, {"glass", "glass"},
		{"bus", "bus"}, {"gas", "gas"}, {"yes", "yes"}, {"his", "his"}, {"sheep", "sheep"},
		{"fish", "fish"}, {"deer", "deer"}, {"analysis", "analysis"}, {"basis", "basis"},
		{"arthritis", "arthritis"}, {"axis", "axis"}, {"iris", "iris"}, {"octopus", "octopus"},
		{"hummus", "hummus"}, {"asparagus", "asparagus"}, {"status", "status"},
		{"chaos", "chaos"}, {"christmas", "christmas"}, {"atlas", "atlas"},
		{"pajamas", "pajamas"}, {"scissors", "scissors"}, {"athletics", "athletics"},
		{"90s", "90s"}, {"movie", "movie"}, {"cryptocurrency", "cryptocurrency"},
		{"data", "data"}, {"media", "media"}, {"pumice", "pumice"}, {"dice", "dice"},
	}
	for _, tc := range tests {
		if got := singular(tc.word); got != tc.want {
			t.Errorf("singular(%q) = %q, want %q", tc.word, got, tc.want)
		}
		// Singular forms are fixed points.
		if got := singular(tc.want); got != tc.want {
			t.Errorf("singular(%q) = %q, want it unchanged", tc.want, got)
		}
	}
	if len(tests) < 60 {
		t.Errorf("only %d words in the table, want 60 or more", len(tests))
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		raw, want string
	}{
		{"movies", "movie"},
		{"  Movies  ", "movie"},
		{"My favorite movies", "movie"},
		{"my favourite Films.", "film"},
		{"favorites", ""},
		{"my favourite", ""},
		{"kinds of films", "kind of film"},
		{"types of TV Shows", "type of tv show"},
		{"Vacation Destinations", "vacation destination"},
		{"vacation   destinations!", "vacation destination"},
		{"book genres", "book genre"},
		{"Cryptocurrencies", "cryptocurrency"},
		{"the Beatles songs", "beatles song"},
		{"TV shows", "tv show"},
		{"places to visit", "place to visit"},
		{"types of tea", "type of tea"},
		{"genres of music", "music genre"},
		{"genre of books", "book genre"},
		{"movies from the 90s", "movie from the 90s"},
		{"all-time favorite bands", "band"},
		{"all time favorite bands", "band"},
		{"top cities", "city"},
		{"movie list", "movie"},
		{"“Dishes”", "dish"},
		{"ＭＯＶＩＥＳ", "movie"},
		{"the", "the"},
		{"my", ""},
		{"", ""},
		{"   ", ""},
		{"...", ""},
		{"rock and roll songs", "rock and roll song"},
		{"news", "news"},
		{"TV Series", "tv series"},
		{"people", "person"},
	}
	for _, tc := range tests {
		got := Normalize(tc.raw)
		if got != tc.want {
			t.Errorf("Normalize(%q) = %q, want %q", tc.raw, got, tc.want)
		}
		if again := Normalize(got); again != got {
			t.Errorf("Normalize(Normalize(%q)) = %q, want %q (idempotent)", tc.raw, again, got)
		}
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"movies", "my favorite vacation destinations", "genres of books",
		"kind of the movies", "  ", "the the", "glasses", "wolves", "\xff", "a b c of d", "'s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		n := Normalize(raw)
		if again := Normalize(n); again != n {
			t.Errorf("Normalize(%q) = %q but Normalize(%q) = %q, want idempotent", raw, n, n, again)
		}
		if len(n) > 3*len(raw)+8 {
			t.Errorf("Normalize(%q) = %q, longer than the bound", raw, n)
		}
	})
}
