package personal

import (
	"strings"
	"testing"
)

func TestEndings(t *testing.T) {
	cases := []struct {
		msg  string
		want string // "words|keys" of each ending, "; "-separated; "" for none
	}{
		{"I'm not vegetarian anymore.", "vegetarian|"},
		{"I am no longer a smoker.", "smoker|"},
		{"Actually, I'm not vegan any more.", "vegan|"},
		{"I'm not vegetarian.", ""}, // a plain denial, no change: nothing ends
		{"I no longer work at Globex.", "globex|work.employer"},
		{"I don't work for Initech anymore, I'm at Hooli now.", "initech|work.employer"},
		{"I left Globex last month.", "globex|work.employer"},
		{"I don't live in Lyon anymore.", "lyon|home.city"},
		{"I sold the Focus.", "focus|"},
		{"We got rid of our old piano.", "old piano|"},
		{"I cancelled the dentist appointment.", "dentist appointment|plan,schedule,travel"},
		{"My dentist appointment got cancelled.", "dentist appointment|plan,schedule,travel"},
		{"The trip to Rome has been called off.", "trip to rome|plan,schedule,travel"},
		{"If I sold my car I would take the bus.", ""},
		{"Should I sell the Focus?", ""},
		{"Did I tell you I left Globex?", ""},
		{"Maybe I'm not vegetarian anymore.", ""},
		{"My sister sold her car.", ""},
		{"Tom left Globex.", ""},
		{"The dentist cancelled, so Friday is free now.", "dentist|plan,schedule,travel"},
		{"My trainer canceled on me.", "trainer|plan,schedule,travel"},
		{"Actually, it's Norwegian, not Danish.", "danish|"},
		{"Sorry, I meant almonds, not peanuts.", "peanuts|"},
		{"Oops, it's 7, not 6.", ""},                   // digits only: too common to end anything
		{"Sorry, I meant Basel.", ""},                  // no old value named
		{"It's Norwegian, not Danish.", ""},            // no correction cue
		{"Actually, it's not Danish, it's Norse.", ""}, // not the "X, not Y" shape
	}
	for _, tc := range cases {
		var got []string
		for _, e := range Endings(tc.msg) {
			got = append(got, strings.Join(e.Words, " ")+"|"+strings.Join(e.Keys, ","))
		}
		if g := strings.Join(got, "; "); g != tc.want {
			t.Errorf("Endings(%q) = %q, want %q", tc.msg, g, tc.want)
		}
	}
}
