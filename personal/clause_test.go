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

// TestAsides: an appositive opening with an article, or a "whose" clause, is read
// apart, so the name before it reads on into its verb and what it says is about the
// name ("Tom is a retired pilot", "Ana's husband is a chef").
func TestAsides(t *testing.T) {
	cases := []struct{ msg, want string }{
		{"My neighbor Tom, a retired pilot, lives in Lyon.",
			"Tom work.role=retired pilot, Tom relation=neighbor, Tom home.city=Lyon"},
		{"Martin, my accountant, lives in Boston.", "Martin relation=accountant, Martin home.city=Boston"},
		{"My cousin Ana, whose husband is a chef, lives in Quito.",
			"Ana's husband relation=Ana's husband, Ana's husband work.role=chef, Ana relation=cousin, Ana home.city=Quito"},
		{"My cousin Ana, whose daughter is a chef, lives in Quito. She is a doctor.",
			"Ana's daughter relation=Ana's daughter, Ana's daughter work.role=chef, Ana relation=cousin, Ana home.city=Quito, Ana work.role=doctor"},
		{"I like Rome, the sea, and pasta.", "I likes=Rome, I likes=the sea, I likes=pasta"},
	}
	for _, tc := range cases {
		ex := Extract(tc.msg, Options{Now: time.Now()})
		var fs []string
		for _, f := range ex.Facts {
			who := "I"
			if f.About >= 0 {
				if who = ex.Mentions[f.About].Name; who == "" {
					who = ex.Mentions[f.About].Relation
				}
			}
			fs = append(fs, who+" "+f.Key+"="+f.Value)
		}
		if got := strings.Join(fs, ", "); got != tc.want {
			t.Errorf("Extract(%q) = %q, want %q", tc.msg, got, tc.want)
		}
	}
}
