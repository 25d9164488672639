package router

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

func TestParseTooLong(t *testing.T) {
	msg := "My favorite color is blue. " + strings.Repeat("x", MaxMessage)
	r, err := Parse(msg)
	if code := factbase.ErrorCode(err); code != factbase.EINVALID {
		t.Fatalf("Parse(%d bytes) error = %v (code %q), want %q", len(msg), err, code, factbase.EINVALID)
	}
	if r.Route != RouteNone || len(r.Statements) != 0 {
		t.Errorf("Parse(%d bytes) = %+v, want nothing", len(msg), r)
	}
	// Exactly MaxMessage bytes is accepted.
	if _, err := Parse(strings.Repeat("a", MaxMessage)); err != nil {
		t.Errorf("Parse(MaxMessage bytes) error = %v, want nil", err)
	}
}

func TestParseInvalidUTF8(t *testing.T) {
	r, err := Parse("My favorite color is bl\xffue")
	if err != nil {
		t.Fatalf("Parse(invalid UTF-8) error = %v, want nil (sanitised)", err)
	}
	if len(r.Statements) != 1 || r.Statements[0].Values[0] != "bl\uFFFDue" {
		t.Errorf("Parse(invalid UTF-8) = %+v, want one value %q", r.Statements, "bl\uFFFDue")
	}
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		msg  string
		want string // normalised words joined by "|"
	}{
		{"My favourite colour's blue", "my|favorite|colour|blue"},
		{"What's my e-mail?", "what|is|my|email|?"},
		{"I'm here, isn't it", "i|am|here|,|is|not|it"},
		{"I don't, can't, won't", "i|do|not|,|can|not|,|will|not"},
		{"my #4 fav", "my|#|4|favorite"},
		{"all-time second-favorite", "all|time|second|favorite"},
		{"Jay-Z and AC/DC on node.js", "jay-z|and|ac/dc|on|node.js"},
		{"my parents' car", "my|parents|car"},
		{`My song is "Is This Love"!`, "my|song|is|is this love|!"},
		{"my song is 'Up' and Don't", "my|song|is|up|and|do|not"},
		{"whats im dont", "what|is|i|am|do|not"},
		{"Let's go", "let|us|go"},
		{"Dr. No", "dr|.|no"},
		{"emoji 🙂!", "emoji|🙂|!"},
		{"line\nbreak", "line|\n|break"},
	}
	for _, tc := range tests {
		var words []string
		for _, tk := range tokenize(tc.msg) {
			words = append(words, tk.w)
		}
		if got := strings.Join(words, "|"); got != tc.want {
			t.Errorf("tokenize(%q) = %q, want %q", tc.msg, got, tc.want)
		}
	}
}

func TestTokenizePossessive(t *testing.T) {
	toks := tokenize("Anna's sister's it's")
	if len(toks) != 4 || !toks[0].poss || !toks[1].poss || toks[2].poss || toks[3].w != "is" {
		t.Errorf("tokenize = %+v, want two possessives, then it + is", toks)
	}
}

func TestRanks(t *testing.T) {
	tests := []struct {
		msg  string
		rank int
	}{
		{"My #7 favorite movie is X", 7},
		{"My 7th favorite movie is X", 7},
		{"My seventh favorite movie is X", 7},
		{"My number 7 favorite movie is X", 7},
		{"My number seven favorite movie is X", 7},
		{"My no. 7 favorite movie is X", 7},
		{"My 1st favorite movie is X", 1},
		{"My 2nd favorite movie is X", 2},
		{"My 3rd favorite movie is X", 3},
		{"My 11th favorite movie is X", 11},
		{"My 12th favorite movie is X", 12},
		{"My 13th favorite movie is X", 13},
		{"My 22nd favorite movie is X", 22},
		{"My 23rd favorite movie is X", 23},
		{"My twelfth favorite movie is X", 12},
		{"My nineteenth favorite movie is X", 19},
		{"My twentieth favorite movie is X", 20},
		{"My twenty-second favorite movie is X", 22},
		{"My thirty third favorite movie is X", 33},
		{"My number twenty one favorite movie is X", 21},
		{"My #1000 favorite movie is X", 1000},
		{"My #1001 favorite movie is X", 0},
		{"My #0 favorite movie is X", 0},
		{"X is my ninth favorite movie", 9},
		{"Move X to #12 in my favorite movies", 12},
		{"Move X to the 5th spot in my favorite movies", 5},
		{"Put X in fourth place in my favorite movies", 4},
	}
	for _, tc := range tests {
		r, err := Parse(tc.msg)
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		if len(r.Statements) == 1 && r.Statements[0].Kind == SetRank {
			got = r.Statements[0].Rank
		}
		if got != tc.rank {
			t.Errorf("Parse(%q) rank = %d (%+v), want %d", tc.msg, got, r.Statements, tc.rank)
		}
	}
}

func TestClarify(t *testing.T) {
	tests := []struct {
		msg, want string
		route     Route
	}{
		{"My favorite color is", "What is your favorite color?", RouteWrite},
		{"My favorite colors are", "What are your favorite colors?", RouteWrite},
		{"My 3rd favorite city is", "What is your 3rd favorite city?", RouteWrite},
		{"My top 3 books are", "What are your top 3 books?", RouteWrite},
		{"Add sushi to my favorites", "Which list should I add sushi to?", RouteWrite},
		{"Remove the sushi from my favorites", "Which list should I remove the sushi from?", RouteWrite},
		{"Sushi is my favorite!", "Which list should I add Sushi to?", RouteWrite},
		{"Add to my favorite books", "What should I add to your favorite books?", RouteWrite},
		{"My email is", "What is your email address?", RouteWrite},
		{"My birthday is", "When is your birthday?", RouteWrite},
		{"I live in", "Where do you live?", RouteWrite},
		{"I work as a", "What do you do for work?", RouteWrite},
		{"What are my favorites?", "Which of your favorites do you mean?", RouteRead},
		{"My favorite color is blue and my favorite food is", "What is your favorite food?", RouteWrite},
	}
	for _, tc := range tests {
		r, err := Parse(tc.msg)
		if err != nil {
			t.Fatal(err)
		}
		if r.Clarify != tc.want || r.Route != tc.route {
			t.Errorf("Parse(%q) = route %s, clarify %q, want %s, %q", tc.msg, r.Route, r.Clarify, tc.route, tc.want)
		}
	}
}

func TestParseMixed(t *testing.T) {
	r, err := Parse("My favorite color is blue. What is my email? Thanks!")
	if err != nil {
		t.Fatal(err)
	}
	if r.Route != RouteWrite || len(r.Statements) != 1 || len(r.Queries) != 1 {
		t.Errorf("Parse(write and read) = %+v, want route write with one statement and one query", r)
	}
	if got, want := r.Statements[0].Span, "My favorite color is blue"; got != want {
		t.Errorf("span = %q, want %q", got, want)
	}
}

func TestOrdinalAndPlural(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 102: "102nd", 111: "111th"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", n, got, want)
		}
	}
	for topic, want := range map[string]bool{"movies": true, "movie": false, "tv shows": true, "places to visit": true,
		"city in japan": false, "series": false, "glass": false, "bus": false, "people": true, "news": false} {
		if got := plural(topic); got != want {
			t.Errorf("plural(%q) = %v, want %v", topic, got, want)
		}
	}
}

// checkResult asserts the invariants every Result holds; it is shared by the fuzz test.
func checkResult(t *testing.T, msg string, r Result) {
	t.Helper()
	clean := strings.ToValidUTF8(msg, "\uFFFD")
	switch r.Route {
	case RouteWrite, RouteRead, RouteNone:
	default:
		t.Fatalf("Parse(%q).Route = %q, not a route", msg, r.Route)
	}
	if r.Route == RouteNone && (len(r.Statements) > 0 || len(r.Queries) > 0 || r.Clarify != "") {
		t.Errorf("Parse(%q) = %+v: route none with output", msg, r)
	}
	if r.Route == RouteRead && len(r.Statements) > 0 {
		t.Errorf("Parse(%q) = %+v: route read with statements", msg, r)
	}
	size := len(r.Clarify)
	if len(r.Statements)+len(r.Queries) > len(msg)+1 {
		t.Errorf("Parse(%q): %d statements and %d queries, more than the input allows", msg, len(r.Statements), len(r.Queries))
	}
	for _, s := range r.Statements {
		size += len(s.Topic) + len(s.Key) + len(s.Span)
		if !strings.Contains(clean, s.Span) || s.Span == "" {
			t.Errorf("Parse(%q): span %q is not part of the message", msg, s.Span)
		}
		if len(s.Values) == 0 {
			t.Errorf("Parse(%q): statement %+v has no values", msg, s)
		}
		for _, v := range s.Values {
			size += len(v)
			if v == "" || !strings.Contains(clean, v) || !utf8.ValidString(v) {
				t.Errorf("Parse(%q): value %q is empty or not part of the message", msg, v)
			}
		}
		switch s.Kind {
		case Add, Remove, SetRank, Replace, Swap, Shift:
			// Only a move, swap or remove may leave its list to the caller ("move
			// Dune to the bottom", "remove pizza from my favorites").
			if s.Topic == "" && (s.Kind == Add || s.Kind == Replace) || s.Key != "" || s.Least {
				t.Errorf("Parse(%q): list statement %+v needs a topic and no key", msg, s)
			}
			switch {
			case s.Kind == Shift:
				if s.Rank == 0 || s.Rank > MaxRank || s.Rank < -MaxRank || len(s.Values) != 1 {
					t.Errorf("Parse(%q): shift %+v needs a distance and one value", msg, s)
				}
			case (s.Kind == SetRank) != (s.Rank > 0 || s.Rank == Last) || s.Rank > MaxRank:
				t.Errorf("Parse(%q): statement %+v has a bad rank", msg, s)
			}
			if (s.Kind == Replace || s.Kind == Swap) && len(s.Values) != 2 {
				t.Errorf("Parse(%q): %s %+v needs two values", msg, s.Kind, s)
			}
		case Set:
			if (s.Key == "") == (s.Topic == "") || s.Least != (s.Topic != "") || len(s.Values) != 1 || s.Rank != 0 {
				t.Errorf("Parse(%q): set statement %+v needs a key (or a least favorite topic) and one value", msg, s)
			}
		default:
			t.Errorf("Parse(%q): statement kind %q unknown", msg, s.Kind)
		}
	}
	for _, q := range r.Queries {
		size += len(q.Topic) + len(q.Key) + len(q.Span)
		switch q.Kind {
		case QueryList:
			if q.Topic == "" || q.Rank != 0 {
				t.Errorf("Parse(%q): list query %+v", msg, q)
			}
		case QueryRank:
			if q.Topic == "" || q.Rank < 1 || q.Rank > MaxRank {
				t.Errorf("Parse(%q): rank query %+v", msg, q)
			}
		case QueryFact:
			if (q.Key == "") == (q.Topic == "") || q.Least != (q.Topic != "") {
				t.Errorf("Parse(%q): fact query %+v", msg, q)
			}
		default:
			t.Errorf("Parse(%q): query kind %q unknown", msg, q.Kind)
		}
	}
	// Every string in the output comes from the input (values, spans, topics), or is a
	// short fixed text; a statement's span and topic can repeat for each of its values'
	// statements, and a topic's words are re-joined with single spaces.
	if limit := 4*len(clean) + 200*(len(r.Statements)+len(r.Queries)) + 256; size > limit {
		t.Errorf("Parse(%q): output of %d bytes, more than the bound %d", msg, size, limit)
	}
}

func TestCorpusInvariants(t *testing.T) {
	for _, c := range loadCorpus(t) {
		r, err := Parse(c.Msg)
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, c.Msg, r)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"My favorite color is blue", "Blue is my favorite color", "My #4 favorite movie is Heat",
		"My top 3 movies are A, B and C", "Add Y and Z to my favorite X", "Move Y to #2 in my favorite X",
		"What's my second favorite movie?", "My email is a@b.c", "I'm a nurse at St. Mary's",
		`My favorite songs are "Is This Love", 'Up' and “Heat”`, "Hi, I'm Sam.", "Replace A with B in my favorite X",
		"my favorite ", "#", "'", "\"", "my my my favorite favorite is is", "\xff\xfe", "a, and, b, and my x is y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		r, err := Parse(msg)
		if len(msg) > MaxMessage {
			if factbase.ErrorCode(err) != factbase.EINVALID {
				t.Fatalf("Parse(%d bytes) error = %v, want EINVALID", len(msg), err)
			}
			return
		}
		if err != nil {
			t.Fatalf("Parse(%q) error = %v", msg, err)
		}
		checkResult(t, msg, r)
	})
}

// TestParseRandom runs the invariants of checkResult over messages assembled at random
// (fixed seed) from words the grammar reacts to, punctuation and quotes: a property
// test that does not depend on the fuzzing engine.
func TestParseRandom(t *testing.T) {
	pieces := []string{
		"my", "favorite", "favourites", "is", "are", "isn't", "not", "no", "longer", "anymore",
		"add", "to", "remove", "from", "move", "put", "at", "the", "top", "of", "#", "2", "3rd",
		"second", "top", "number", "one", "what", "what's", "which", "do", "i", "like", "most",
		"email", "name", "live", "in", "work", "as", "a", "for", "call", "me", "born", "on",
		"and", ",", ".", "?", "!", ";", ":", "-", "\"", "'", "“", "”", "(", ")", "\n",
		"movies", "color", "Heat", "Up", "St.", "Dr.", "J.", "bob@x.com", "555-123-4567",
		"anna's", "sister's", "if", "maybe", "used", "was", "list", "show", "tell", "replace",
		"with", "make", "in that order", "thanks", "please", "hi", "I'm", "Sam", "\xff", "é",
		"🙂", "   ", "all-time", "twenty-first", "no.", "1000", "1001", "0", "me at",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for k := rng.IntN(24); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			if rng.IntN(4) > 0 {
				b.WriteByte(' ')
			}
		}
		msg := b.String()
		r, err := Parse(msg)
		if err != nil {
			t.Fatalf("Parse(%q) error = %v", msg, err)
		}
		checkResult(t, msg, r)
	}
}
