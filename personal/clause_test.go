package personal

import (
	"strings"
	"testing"
	"time"
)

// TestLikesStopAtAClause: a like's list ends where a new clause starts, so the clause
// is never stored as a liked thing (it used to store likes = "my email is ...").
func TestLikesStopAtAClause(t *testing.T) {
	cases := []struct{ msg, want string }{
		{"I'm allergic to peanuts, I love hiking and my email is ann@example.com", "hiking"},
		{"I love hiking and I work at Acme", "hiking"},
		{"I love pizza and my garden", "pizza|my garden"},
		{"I love hiking, chess and jazz", "hiking|chess|jazz"},
	}
	for _, tc := range cases {
		var likes []string
		for _, f := range Extract(tc.msg, Options{Now: time.Now()}).Facts {
			if f.Key == "likes" {
				likes = append(likes, f.Value)
			}
		}
		if got := strings.Join(likes, "|"); got != tc.want {
			t.Errorf("Extract(%q) likes = %q, want %q", tc.msg, got, tc.want)
		}
	}
}
