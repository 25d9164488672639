package memory_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/storetest"
)

// TestSayStoresOnlyConstituents: Say stores no value that runs past its clause, holds
// a comparison or a flag, and takes a trailing "now" as the change's time, not the
// value's (issue #23's examples).
func TestSayStoresOnlyConstituents(t *testing.T) {
	e := peopleEngine(t, memory.Options{})
	u := storetest.NewUser()
	peopleSay(t, e, u, "My colleague Kim works at Initech.")
	res := peopleSay(t, e, u, "Kim works at Globex now")
	kim := peopleEntity(t, e, u, "Kim", "colleague")
	if got := peopleCurrent(t, e, u, kim.Subject(), factbase.KeyEmployer); !slices.Equal(got, []string{"Globex"}) {
		t.Errorf("Kim's employer after \"works at Globex now\" = %q (reply %q), want [Globex]", got, res.Reply)
	}
	for _, msg := range []string{"I like rice more than pasta", "My favorite tea is oolong --json"} {
		res := peopleSay(t, e, u, msg)
		for _, op := range res.Ops {
			if strings.Contains(op.Value, "more than") || strings.Contains(op.Value, "--json") {
				t.Errorf("Say(%q) stored %s = %q", msg, op.Key, op.Value)
			}
		}
	}
}

// TestSayAssistantTurn: an assistant's "my favorite" is not the user's; what it says
// about the user is.
func TestSayAssistantTurn(t *testing.T) {
	e := peopleEngine(t, memory.Options{})
	u := storetest.NewUser()
	ctx := people.WithMessage(t.Context(), people.MessageInfo{Time: peopleNow, Speaker: "assistant"})
	res, err := e.Chat.Say(ctx, u, "My favorite movie is probably 2001.")
	if err != nil {
		t.Fatal(err)
	}
	if got := peopleCurrent(t, e, u, factbase.SubjectUser, "favorites.movie"); len(got) != 0 || len(res.Ops) != 0 {
		t.Errorf("an assistant's favorite was stored as the user's: %q (ops %+v)", got, res.Ops)
	}
}
