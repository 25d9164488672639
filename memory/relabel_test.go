package memory_test

import (
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/sheet"
)

// TestNamesRenderedAtReadTime: facts keep the entity's id; the sheet's prompt block,
// recall and the entity's view name the person as they are named now, after a
// rename, a merge and a split.
func TestNamesRenderedAtReadTime(t *testing.T) {
	ctx := t.Context()
	e := peopleEngine(t, memory.Options{})
	u := factbase.UserID("0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c01")
	peopleSay(t, e, u, "My dentist is in Oak Street.")
	peopleSay(t, e, u, "My sister Maria lives in Porto.")
	dentist := peopleEntity(t, e, u, "", "dentist")
	maria := peopleEntity(t, e, u, "Maria", "sister")
	if _, err := e.People.RenameEntity(ctx, u, dentist.ID, "Dr. Patel"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.People.RenameEntity(ctx, u, maria.ID, "Maria Lopez"); err != nil {
		t.Fatal(err)
	}
	block, err := e.SheetPrompt(ctx, u, sheet.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Dr. Patel (dentist) is the user's dentist", "Maria Lopez (sister)"} {
		if !strings.Contains(block.Text, want) {
			t.Errorf("sheet block lacks %q:\n%s", want, block.Text)
		}
	}
	for _, stale := range []string{"User's dentist is", "Maria (sister)"} {
		if strings.Contains(block.Text, stale) {
			t.Errorf("sheet block still names %q:\n%s", stale, block.Text)
		}
	}
	rec, err := e.Chat.Recall(ctx, u, "Where does Maria live?", chat.RecallOptions{Now: peopleNow})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, h := range rec.Hits {
		found = found || strings.HasPrefix(h.Text, "Maria Lopez (sister) lives in Porto")
		if strings.HasPrefix(h.Text, "Maria (sister)") {
			t.Errorf("recall hit names the old label: %q", h.Text)
		}
	}
	if !found {
		t.Errorf("recall hits %+v, want Maria Lopez (sister) lives in Porto", rec.Hits)
	}
	view, err := e.People.Entity(ctx, u, maria.ID, false, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range view.Facts {
		if f.Key == "home.city" && !strings.HasPrefix(f.Text, "Maria Lopez (sister)") {
			t.Errorf("entity view text %q, want the current name", f.Text)
		}
	}

	// A merge keeps the most specific relation, and the moved facts take its name.
	peopleSay(t, e, u, "My best friend Sam lives in Lyon.")
	peopleSay(t, e, u, "My friend Samuel works at Globex.")
	best := peopleEntity(t, e, u, "Sam", "best friend")
	friend := peopleEntity(t, e, u, "Samuel", "friend")
	res, err := e.People.MergeEntities(ctx, u, friend.ID, best.ID)
	if err != nil {
		t.Fatal(err)
	}
	if res.Entity.Relation != "best friend" {
		t.Errorf("merged relation %q, want the more specific \"best friend\"", res.Entity.Relation)
	}
	if got := peopleCurrent(t, e, u, friend.Subject(), factbase.KeyRelation); strings.Join(got, ",") != "best friend" {
		t.Errorf("merged relation fact %v, want best friend", got)
	}
	view, err = e.People.Entity(ctx, u, friend.ID, false, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range view.Facts {
		if f.Key == "home.city" && f.Text != "Samuel (best friend) lives in Lyon" {
			t.Errorf("moved fact's text %q, want it to name Samuel (best friend)", f.Text)
		}
	}

	// A split takes the aliases that name the new entity away from the old one.
	if _, err := e.People.AddAlias(ctx, u, maria.ID, "Mari"); err != nil {
		t.Fatal(err)
	}
	fs := values(t, e, u, factbase.FactFilter{Subject: maria.Subject(), Key: "home.city"})
	if len(fs) != 1 {
		t.Fatalf("Maria's home.city = %v", fs)
	}
	facts, err := e.Facts(ctx, u, factbase.FactFilter{Subject: maria.Subject(), Key: "home.city"})
	if err != nil || len(facts) != 1 {
		t.Fatalf("facts %v %v", facts, err)
	}
	split, err := e.People.SplitEntity(ctx, u, maria.ID, []string{facts[0].ID},
		factbase.Entity{Name: "Mari", Role: factbase.RoleFriend, Relation: "friend"})
	if err != nil {
		t.Fatal(err)
	}
	if split.Other == nil || slicesHas(split.Other.Aliases, "Mari") {
		t.Errorf("after the split the source keeps the alias Mari: %+v", split.Other)
	}
	if !slicesHas(split.Other.Aliases, "Maria") {
		t.Errorf("after the split the source lost its own alias: %+v", split.Other)
	}
}

func slicesHas(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestEndedStates: a statement that something no longer holds retracts the current
// fact that holds it (kept in history), and only that: a hypothesis, a denial, or an
// ending that matches nothing stored changes nothing.
func TestEndedStates(t *testing.T) {
	e := peopleEngine(t, memory.Options{})
	u := factbase.UserID("0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c02")
	for _, m := range []string{"I'm vegetarian.", "I drive a Ford Focus.", "I work at Globex.",
		"I have a dentist appointment on Friday at 10am.", "I live in Lyon."} {
		peopleSay(t, e, u, m)
	}
	for _, m := range []string{"If I sold my car I would take the bus.", "I'm not vegan anymore.", "Should I leave Globex?"} {
		if res := peopleSay(t, e, u, m); res.Result.Retracted != 0 {
			t.Errorf("%q retracted %d facts, want none", m, res.Result.Retracted)
		}
	}
	cases := []struct{ msg, key, reply string }{
		{"I'm not vegetarian anymore.", "diet", "vegetarian is no longer your diet"},
		{"I sold the Focus.", "vehicle", "Ford Focus is no longer your vehicle"},
		{"The dentist appointment got cancelled.", "plan", "is cancelled"},
		{"I no longer work at Globex.", "work.employer", "Globex is no longer your employer"},
	}
	for _, tc := range cases {
		res := peopleSay(t, e, u, tc.msg)
		if res.Result.Retracted != 1 || !strings.Contains(res.Reply, tc.reply) {
			t.Errorf("%q: retracted %d, reply %q; want 1 and %q", tc.msg, res.Result.Retracted, res.Reply, tc.reply)
		}
		if got := peopleCurrent(t, e, u, factbase.SubjectUser, tc.key); len(got) != 0 {
			t.Errorf("after %q, %s = %v, want none current", tc.msg, tc.key, got)
		}
		hist, err := e.Facts(t.Context(), u, factbase.FactFilter{Key: tc.key, History: true})
		if err != nil || len(hist) == 0 {
			t.Errorf("after %q, %s has no history: %v %v", tc.msg, tc.key, hist, err)
		}
	}
	if got := peopleCurrent(t, e, u, factbase.SubjectUser, "home.city"); strings.Join(got, ",") != "Lyon" {
		t.Errorf("home.city = %v, want Lyon untouched", got)
	}
	// Changing and ending in one message: the new value stands.
	peopleSay(t, e, u, "I'm vegetarian.")
	res := peopleSay(t, e, u, "I'm not vegetarian anymore, I'm vegan now.")
	if got := peopleCurrent(t, e, u, factbase.SubjectUser, "diet"); strings.Join(got, ",") != "vegan" {
		t.Errorf("diet after a change = %v (reply %q), want vegan", got, res.Reply)
	}
	peopleSay(t, e, u, "I work at Oracle.")
	res = peopleSay(t, e, u, "I quit Oracle last week, I'm at Datadog now.")
	if got := peopleCurrent(t, e, u, factbase.SubjectUser, "work.employer"); strings.Join(got, ",") != "Datadog" ||
		strings.Contains(res.Reply, "no longer") {
		t.Errorf("employer after quitting for another = %v (reply %q), want Datadog and no ending", got, res.Reply)
	}
}
