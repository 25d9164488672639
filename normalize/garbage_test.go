package normalize

import (
	"strings"
	"testing"
)

func TestGarbage(t *testing.T) {
	bad := []struct{ value, reason string }{
		// the values issue #23 saw on main
		{"Quito and her husband is a chef", "second clause"},
		{"Bari, her birthday is", "function word"},
		{"I love Go, it's", "function word"},
		{"it's my favorite language", "holds a clause"},
		{"rice more than pasta", "comparison"},
		{"Globex now", "trailing adverb"},
		{"Fridays Fridays", "repeated word"},
		{"oolong --json", "flag"},
		// more of each rule
		{"Lisbon and", "function word"},
		{"a trip to the", "function word"},
		{"Bari, her birthday is March 3", "second clause"},
		{"Leeds and his wife is a midwife", "second clause"},
		{"Oakland and works in San Francisco", "second clause"},
		{"Quito and she loves the city", "second clause"},
		{"Portland, where it rains", "second clause"},
		{"she loves Lisbon", "holds a clause"},
		{"I love Lisbon", "holds a clause"},
		{"cats better than dogs", "comparison"},
		{"tea rather than coffee", "comparison"},
		{"the the beatles", "repeated word"},
		{"fridays Fridays", "repeated word"},
		{"Uber these days", "trailing adverb"},
		{"IBM anymore", "trailing adverb"},
		{"Kraków still", "trailing adverb"},
		{"jazz too", "trailing adverb"},
		{"popcorn -j", "flag"},
		{"Porto --time=2026", "flag"},
		{"--json", "flag"},
		{"  ", "empty"},
	}
	for _, tc := range bad {
		if got := Garbage(tc.value); !strings.Contains(got, tc.reason) {
			t.Errorf("Garbage(%q) = %q, want a %q", tc.value, got, tc.reason)
		}
	}
	clean := []string{
		"Quito", "Oak Hill Elementary", "swim class on Mondays", "a dentist appointment on Friday at 10am",
		"flying to Tokyo next Friday", "St. Mary's", "lead designer", "Toyota Corolla", "Korean",
		"salt and pepper", "Pride and Prejudice", "Tom and I", "Dune, Emma", "June 9, 2018",
		"Let It Be", "Apocalypse Now", "It's a Wonderful Life", "More Than a Feeling", "Bora Bora",
		"Walla Walla", "And Then There Were None", "gluten-free", "T-shirts", "5-year-old",
		"99% Invisible", "Riese & Müller", "visiting us on Saturday", "Mexico City", "IT",
		"turns 9 on April 11", "piano on Tuesdays after school", "Blue Bottle", "VP of Engineering",
		"jamal.k@fastmail.com", "555-0199", "-5 degrees",
	}
	for _, v := range clean {
		if got := Garbage(v); got != "" {
			t.Errorf("Garbage(%q) = %q, want clean", v, got)
		}
	}
}

func TestConstituent(t *testing.T) {
	for _, tc := range []struct {
		in, clean string
		bad, trim bool
	}{
		{"Globex now", "Globex", false, true},
		{"Globex, at the moment", "Globex", false, true},
		{"Apocalypse Now", "Apocalypse Now", false, false},
		{"Lisbon", "Lisbon", false, false},
		{"rice more than pasta", "rice more than pasta", true, false},
		{"Quito and her husband is a chef", "Quito and her husband is a chef", true, false},
		{"now", "now", true, false},
		{"oolong --json", "oolong --json", true, false},
		{"Lisbon 🎉", "Lisbon", false, false},
		{"Globex now 👍🏽", "Globex", false, true},
		{"C++", "C++", false, false},
	} {
		clean, why, trimmed := Constituent(tc.in)
		if clean != tc.clean || (why != "") != tc.bad || trimmed != tc.trim {
			t.Errorf("Constituent(%q) = %q, %q, %v; want %q, bad %v, trimmed %v", tc.in, clean, why, trimmed, tc.clean, tc.bad, tc.trim)
		}
	}
}
