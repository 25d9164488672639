package router

import (
	"context"
	"strings"
	"testing"

	"github.com/factbase/factbase/canon"
	"github.com/factbase/factbase/normalize"
)

// memory is a toy store for the round-trip test: ranked lists by canonical topic, and
// personal facts by key, with the write semantics of the design (append unless
// present, place at a rank, remove and close up, latest wins).
type memory struct {
	lists map[string][]string
	facts map[string]string
	c     *canon.Canonicalizer
}

func newMemory() *memory {
	return &memory{lists: map[string][]string{}, facts: map[string]string{}, c: canon.New(canon.Options{})}
}

func (m *memory) topic(t *testing.T, raw string) string {
	t.Helper()
	known := make([]string, 0, len(m.lists))
	for k := range m.lists {
		known = append(known, k)
	}
	d, err := m.c.Canonicalize(context.Background(), raw, known)
	if err != nil {
		t.Fatalf("Canonicalize(%q): %v", raw, err)
	}
	return d.Topic
}

func index(list []string, v string) int {
	for i, x := range list {
		if normalize.Value(x) == normalize.Value(v) {
			return i
		}
	}
	return -1
}

func (m *memory) apply(t *testing.T, s Statement) {
	t.Helper()
	if s.Kind == Set {
		m.facts[s.Key] = s.Values[0]
		return
	}
	topic := m.topic(t, s.Topic)
	list := m.lists[topic]
	switch s.Kind {
	case Add:
		for _, v := range s.Values {
			if index(list, v) < 0 {
				list = append(list, v)
			}
		}
	case SetRank:
		for k, v := range s.Values {
			if i := index(list, v); i >= 0 {
				list = append(list[:i], list[i+1:]...)
			}
			at := min(s.Rank-1+k, len(list))
			list = append(list[:at], append([]string{v}, list[at:]...)...)
		}
	case Remove:
		for _, v := range s.Values {
			if i := index(list, v); i >= 0 {
				list = append(list[:i], list[i+1:]...)
			}
		}
	case Replace:
		if i := index(list, s.Values[0]); i >= 0 {
			list[i] = s.Values[1]
		} else {
			list = append(list, s.Values[1])
		}
	}
	m.lists[topic] = list
}

func (m *memory) answer(t *testing.T, q Query) string {
	t.Helper()
	switch q.Kind {
	case QueryFact:
		return m.facts[q.Key]
	case QueryRank:
		list := m.lists[m.topic(t, q.Topic)]
		if q.Rank <= len(list) {
			return list[q.Rank-1]
		}
		return ""
	}
	list := m.lists[m.topic(t, q.Topic)]
	if q.Limit > 0 && q.Limit < len(list) {
		list = list[:q.Limit]
	}
	return strings.Join(list, ", ")
}

// TestRoundTrip says things and asks about them, through Parse and canon, with
// phrasings that differ between the two sides.
func TestRoundTrip(t *testing.T) {
	tests := []struct {
		say  []string
		ask  string
		want string
	}{
		{[]string{"My favorite color is blue"}, "What's my favorite color?", "blue"},
		{[]string{"Blue is my favourite colour."}, "what is my favorite color", "Blue"},
		{[]string{"My favorite films are Alien, Heat and Up"}, "What are my favorite movies?", "Alien, Heat, Up"},
		{[]string{"My favorite movies are Alien, Heat and Up"}, "What's my second favorite film?", "Heat"},
		{[]string{"My favourite cryptos are BTC, ETH, and XMR"}, "List my favorite cryptocurrencies", "BTC, ETH, XMR"},
		{[]string{"My favorite vacation destinations are Paris, Tokyo and Rome"}, "What are my favorite holiday destinations?", "Paris, Tokyo, Rome"},
		{[]string{"My favorite book genres are fantasy and mystery"}, "Which book genre do I like most?", "fantasy"},
		{[]string{"My favorite TV shows are The Wire and Succession"}, "Show me my favorite shows", "The Wire, Succession"},
		{[]string{"My favorite movies are Alien, Heat", "My #1 favorite movie is Up"}, "What's my favorite movie?", "Up"},
		{[]string{"My favorite movies are Alien, Heat, Up", "Move Up to the top of my favorite films"}, "What is my number one movie?", "Up"},
		{[]string{"My top 3 books are Dune, Emma and Ulysses"}, "What's my 3rd favorite book?", "Ulysses"},
		{[]string{"My favorite books are Dune, Emma", "Add Ulysses to my favourite books"}, "Tell me my favorite books", "Dune, Emma, Ulysses"},
		{[]string{"My favorite books are Dune, Emma", "Add Ulysses as my second favorite book"}, "What are my favorite books?", "Dune, Ulysses, Emma"},
		{[]string{"My favorite foods are pizza, sushi", "Pizza is no longer one of my favorite foods"}, "What are my favorite foods?", "sushi"},
		{[]string{"My favorite foods are pizza, sushi", "Remove sushi from my favourite dishes"}, "What are my favorite foods?", "pizza"},
		{[]string{"My favorite foods are pizza, sushi", "Put sushi at number 1 in my favorite foods"}, "Which food do I like best?", "sushi"},
		{[]string{"My favorite foods are pizza, sushi", "Replace pizza with tacos in my favorite foods"}, "What's my favorite food?", "tacos"},
		{[]string{"My favorite types of tea are green and oolong"}, "What are my favorite teas?", "green, oolong"},
		{[]string{"My favorite kinds of music are jazz and blues"}, "What are my favorite music genres?", "jazz, blues"},
		{[]string{"Heat is my second favorite movie", "Alien is my favorite movie"}, "What are my favorite movies?", "Alien, Heat"},
		{[]string{"My email is bob@example.com"}, "What's my email address?", "bob@example.com"},
		{[]string{"My email is bob@example.com", "Change my email to bob@new.org"}, "What is my e-mail?", "bob@new.org"},
		{[]string{"Call me Bob"}, "What's my name?", "Bob"},
		{[]string{"Hi, I'm Sarah!"}, "Who am I?", "Sarah"},
		{[]string{"I live in Berlin"}, "Where do I live?", "Berlin"},
		{[]string{"I live in Berlin", "I moved to Lisbon last year"}, "Which city do I live in?", "Lisbon"},
		{[]string{"I work at Google as a product manager"}, "Who do I work for?", "Google"},
		{[]string{"I work at Google as a product manager"}, "What do I do for work?", "product manager"},
		{[]string{"I'm a nurse at St. Mary's"}, "Where do I work?", "St. Mary's"},
		{[]string{"My birthday is March 3"}, "When is my birthday?", "March 3"},
		{[]string{"I was born on June 1, 1985"}, "When was I born?", "June 1, 1985"},
		{[]string{"My phone number is +1 555-123-4567"}, "What's my cell number?", "+1 555-123-4567"},
		{[]string{"Hey! My name is Ann. I live in Oslo and work at Equinor."}, "Where do I work?", "Equinor"},
	}
	for _, tc := range tests {
		m := newMemory()
		for _, say := range tc.say {
			r, err := Parse(say)
			if err != nil || r.Route != RouteWrite || len(r.Statements) == 0 {
				t.Fatalf("Parse(%q) = %+v, %v, want a write", say, r, err)
			}
			for _, s := range r.Statements {
				m.apply(t, s)
			}
		}
		r, err := Parse(tc.ask)
		if err != nil || r.Route != RouteRead || len(r.Queries) != 1 {
			t.Errorf("Parse(%q) = %+v, %v, want one read", tc.ask, r, err)
			continue
		}
		if got := m.answer(t, r.Queries[0]); got != tc.want {
			t.Errorf("say %q, ask %q: answer %q, want %q", tc.say, tc.ask, got, tc.want)
		}
	}
}
