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

// TestAppositiveReadsOn: an appositive opening with an article, or a "whose" clause,
// is skipped, so the name before it reads on into its verb.
func TestAppositiveReadsOn(t *testing.T) {
	cases := []struct{ msg, want string }{
		{"My neighbor Tom, a retired pilot, lives in Lyon.", "Tom: relation=neighbor, home.city=Lyon"},
		{"Martin, my accountant, lives in Boston.", "Martin: relation=accountant, home.city=Boston"},
		{"My cousin Ana, whose husband is a chef, lives in Quito.", "Ana: relation=cousin, home.city=Quito"},
		{"I like Rome, the sea, and pasta.", ": likes=Rome, likes=the sea, likes=pasta"},
	}
	for _, tc := range cases {
		ex := Extract(tc.msg, Options{Now: time.Now()})
		var fs []string
		name := ""
		for _, f := range ex.Facts {
			if f.About >= 0 {
				name = ex.Mentions[f.About].Name
			}
			fs = append(fs, f.Key+"="+f.Value)
		}
		if got := name + ": " + strings.Join(fs, ", "); got != tc.want {
			t.Errorf("Extract(%q) = %q, want %q", tc.msg, got, tc.want)
		}
	}
}
