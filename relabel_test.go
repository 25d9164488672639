package factbase

import (
	"testing"
	"time"
)

func TestRelabeler(t *testing.T) {
	ens := []Entity{
		{ID: "a", Name: "Maria Lopez", Relation: "sister", Aliases: []string{"Maria"}},
		{ID: "b", Name: "Sam", Relation: "best friend", MergedInto: "c"},
		{ID: "c", Name: "Samuel", Relation: "best friend"},
		{ID: "d", Name: "Dr. Patel", Relation: "dentist", CreatedAt: time.Unix(1, 0), UpdatedAt: time.Unix(2, 0)}, // renamed
		{ID: "e", Name: "Ana", Relation: "cousin"},                                                                // never renamed
	}
	r := NewRelabeler(ens)
	cases := []struct {
		f    Fact
		want string
	}{
		{Fact{Subject: "entity:a", Key: "home.city", Text: "Maria (sister) lives in Porto"}, "Maria Lopez (sister) lives in Porto"},
		{Fact{Subject: "entity:a", Key: "home.city", Text: "Mariana (sister) lives in Porto"}, "Mariana (sister) lives in Porto"},
		{Fact{Subject: "entity:a", Key: "home.city", Text: "Maria Lopez (sister) lives in Porto"}, "Maria Lopez (sister) lives in Porto"},
		{Fact{Subject: "entity:c", Key: "home.city", Text: "Sam (best friend) lives in Lyon"}, "Samuel (best friend) lives in Lyon"},
		{Fact{Subject: "entity:d", Key: KeyRelation, Value: "dentist", Text: "User's dentist is the user's dentist"},
			"Dr. Patel (dentist) is the user's dentist"},
		{Fact{Subject: "entity:d", Key: "office", Text: "User's dentist office: Oak Street"}, "Dr. Patel (dentist) office: Oak Street"},
		{Fact{Subject: "entity:e", Key: "home.city", Text: "Ana (cousin) lives in Quito"}, "Ana (cousin) lives in Quito"},
		{Fact{Subject: "user", Key: "home.city", Text: "Maria (sister) lives in Porto"}, "Maria (sister) lives in Porto"},
	}
	for _, tc := range cases {
		if got := r.Text(tc.f); got != tc.want {
			t.Errorf("Text(%q about %s) = %q, want %q", tc.f.Text, tc.f.Subject, got, tc.want)
		}
	}
	if got := (*Relabeler)(nil).Text(Fact{Text: "x"}); got != "x" {
		t.Errorf("a nil relabeler changed a text: %q", got)
	}
	stale := r.Stale()
	if len(stale) != 3 || stale[0] != "entity:a" || stale[1] != "entity:c" || stale[2] != "entity:d" {
		t.Errorf("Stale() = %v, want the three entities named otherwise before", stale)
	}
}
