package memory_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/personal"
	"github.com/factbase/factbase/storetest"
)

// peopleNow is a Wednesday morning.
var peopleNow = time.Date(2026, time.March, 4, 9, 30, 0, 0, time.UTC)

func peopleEngine(t *testing.T, o memory.Options) *memory.Engine {
	t.Helper()
	people.DeclarePeopleKeys(&o.Cardinalities)
	return newEngine(t, o)
}

func peopleSay(t *testing.T, e *memory.Engine, u factbase.UserID, msg string) chat.SayResult {
	t.Helper()
	ctx := people.WithMessage(t.Context(), people.MessageInfo{Time: peopleNow})
	res, err := e.Chat.Say(ctx, u, msg)
	if err != nil {
		t.Fatalf("Say(%q): %v", msg, err)
	}
	return res
}

// peopleEntity returns the live entity with name and relation.
func peopleEntity(t *testing.T, e *memory.Engine, u factbase.UserID, name, relation string) factbase.Entity {
	t.Helper()
	es, err := e.People.Entities(t.Context(), u, false, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range es.Entities {
		if en.Name == name && en.Relation == relation {
			return en
		}
	}
	t.Fatalf("no entity %s (%s) among %+v", name, relation, es)
	return factbase.Entity{}
}

func peopleCurrent(t *testing.T, e *memory.Engine, u factbase.UserID, subject, key string) []string {
	t.Helper()
	return values(t, e, u, factbase.FactFilter{Subject: subject, Key: key})
}

// TestPeopleMustShow is the first scenario, through Say and Recall.
func TestPeopleMustShow(t *testing.T) {
	e := peopleEngine(t, memory.Options{})
	u := storetest.NewUser()
	ctx := t.Context()
	res := peopleSay(t, e, u, "My son Leo is 8 and loves dinosaurs. My colleague Martin is vegetarian.")
	if res.Result.Stored != 5 {
		t.Fatalf("stored %d facts, want 5 (two relations, age, likes, diet): %+v", res.Result.Stored, res)
	}
	if !strings.Contains(res.Reply, "Noted for Leo (son): age 8, likes dinosaurs.") || !strings.Contains(res.Reply, "Martin (colleague): diet vegetarian") {
		t.Errorf("reply = %q", res.Reply)
	}
	leo := peopleEntity(t, e, u, "Leo", "son")
	colleague := peopleEntity(t, e, u, "Martin", "colleague")
	if leo.Role != factbase.RoleChild || colleague.Role != factbase.RoleColleague || leo.Attributes["age"] != "8" {
		t.Errorf("entities: %+v, %+v", leo, colleague)
	}
	if got := peopleCurrent(t, e, u, colleague.Subject(), "diet"); len(got) != 1 || got[0] != "vegetarian" {
		t.Errorf("Martin's diet = %v", got)
	}
	if got := peopleCurrent(t, e, u, leo.Subject(), "likes"); len(got) != 1 || got[0] != "dinosaurs" {
		t.Errorf("Leo's likes = %v", got)
	}

	rec, err := e.Chat.Recall(ctx, u, "What does Martin eat?", chat.RecallOptions{Now: peopleNow})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Hits) == 0 || rec.Hits[0].Key != "diet" || rec.Hits[0].Value != "vegetarian" || rec.Hits[0].About != "Martin" || rec.Hits[0].Role != "colleague" {
		t.Fatalf("recall hits = %+v, want Martin's vegetarian diet first", rec.Hits)
	}
	for _, h := range rec.Hits {
		if h.Fact.Subject == leo.Subject() {
			t.Errorf("recall returned a fact about Leo: %+v", h)
		}
	}
	if !strings.Contains(rec.Prompt, "vegetarian") || strings.Contains(rec.Prompt, "dinosaurs") {
		t.Errorf("prompt = %q", rec.Prompt)
	}

	res = peopleSay(t, e, u, "Martin, my son's friend, is allergic to nuts")
	friend := peopleEntity(t, e, u, "Martin", "son's friend")
	if friend.ID == colleague.ID {
		t.Fatalf("the son's friend was attached to the colleague")
	}
	if got := peopleCurrent(t, e, u, friend.Subject(), "allergy"); len(got) != 1 || got[0] != "nuts" {
		t.Errorf("friend's allergy = %v (reply %q)", got, res.Reply)
	}
	if got := peopleCurrent(t, e, u, colleague.Subject(), "allergy"); len(got) != 0 {
		t.Errorf("colleague's allergy = %v, want none", got)
	}

	// now "Martin" alone is ambiguous: skipped, reported, nothing stored
	res = peopleSay(t, e, u, "Martin is allergic to cats")
	if res.Result.Stored != 0 || len(res.Skipped) == 0 || !strings.Contains(res.Skipped[0], "ambiguous") {
		t.Errorf("ambiguous Martin: stored %d, skipped %q, reply %q", res.Result.Stored, res.Skipped, res.Reply)
	}
}

// TestPeopleConflicts: a change of a confirmation type queues a conflict; confirm
// applies it with history; reject leaves the old value; an explicit correction
// applies directly.
func TestPeopleConflicts(t *testing.T) {
	e := peopleEngine(t, memory.Options{})
	u := storetest.NewUser()
	ctx := t.Context()
	peopleSay(t, e, u, "My wife Sarah works at Google.")
	sarah := peopleEntity(t, e, u, "Sarah", "wife")
	res := peopleSay(t, e, u, "Sarah works at Apple.")
	if res.Result.Stored != 0 || !strings.Contains(res.Reply, "until you confirm") {
		t.Fatalf("change: stored %d, reply %q", res.Result.Stored, res.Reply)
	}
	if got := peopleCurrent(t, e, u, sarah.Subject(), "work.employer"); len(got) != 1 || got[0] != "Google" {
		t.Fatalf("employer after the proposal = %v, want Google", got)
	}
	pending, err := conflicts(e, u, factbase.ConflictPending)
	if err != nil || len(pending) != 1 {
		t.Fatalf("pending = %+v, %v", pending, err)
	}
	c := pending[0]
	if c.CurrentValue != "Google" || c.Proposed.Value != "Apple" || c.Subject != sarah.Subject() || c.Proposed.SaidBy != "user" || c.CreatedAt.IsZero() {
		t.Errorf("conflict = %+v", c)
	}
	// the same proposal again does not queue a second conflict
	peopleSay(t, e, u, "Sarah works at Apple.")
	if again, _ := conflicts(e, u, factbase.ConflictPending); len(again) != 1 {
		t.Errorf("pending after repeating = %d, want 1", len(again))
	}
	cr, err := e.People.ConfirmConflict(ctx, u, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if cr.Result.Updated != 1 || cr.Conflict.Status != factbase.ConflictConfirmed || cr.Conflict.ResultID == "" {
		t.Errorf("confirm = %+v", cr)
	}
	page, err := e.History(ctx, u, sarah.Subject(), "work.employer", 0, 0)
	hist := page.Versions
	if err != nil || len(hist) != 2 || hist[0].Value != "Apple" || !hist[0].Current || hist[1].Value != "Google" || hist[1].Current || hist[0].Supersedes != hist[1].ID {
		t.Fatalf("history = %+v, %v", hist, err)
	}
	if _, err := e.People.ConfirmConflict(ctx, u, c.ID); factbase.ErrorCode(err) != factbase.ECONFLICT {
		t.Errorf("confirming twice: %v, want conflict", err)
	}

	peopleSay(t, e, u, "Sarah works at Microsoft.")
	pending, _ = conflicts(e, u, factbase.ConflictPending)
	if len(pending) != 1 {
		t.Fatalf("pending = %+v", pending)
	}
	rej, err := e.People.RejectConflict(ctx, u, pending[0].ID)
	if err != nil || rej.Status != factbase.ConflictRejected || rej.ResolvedAt == nil {
		t.Fatalf("reject = %+v, %v", rej, err)
	}
	if got := peopleCurrent(t, e, u, sarah.Subject(), "work.employer"); len(got) != 1 || got[0] != "Apple" {
		t.Errorf("employer after the rejection = %v, want Apple", got)
	}
	if all, _ := conflicts(e, u, ""); len(all) != 3-1 && len(all) != 2 {
		t.Errorf("all conflicts = %d, want 2 (confirmed, rejected)", len(all))
	}

	// an explicit correction applies directly
	res = peopleSay(t, e, u, "Sarah now works at Netflix.")
	if res.Result.Updated != 1 {
		t.Errorf("correction: updated %d, reply %q", res.Result.Updated, res.Reply)
	}
	if got := peopleCurrent(t, e, u, sarah.Subject(), "work.employer"); len(got) != 1 || got[0] != "Netflix" {
		t.Errorf("employer after the correction = %v", got)
	}
	// a type that needs no confirmation changes directly
	peopleSay(t, e, u, "Sarah is vegetarian.")
	peopleSay(t, e, u, "Sarah is vegan.")
	if got := peopleCurrent(t, e, u, sarah.Subject(), "diet"); len(got) != 1 || got[0] != "vegan" {
		t.Errorf("diet = %v, want vegan", got)
	}
	// the router's own statements about the user are explicit: no conflict
	peopleSay(t, e, u, "I work at Acme.")
	peopleSay(t, e, u, "I work at Initech.")
	if got := peopleCurrent(t, e, u, factbase.SubjectUser, "work.employer"); len(got) != 1 || got[0] != "Initech" {
		t.Errorf("user employer = %v", got)
	}
}

// TestPeopleConflictPolicy checks the policy's settings: types configured away, and
// a less trusted source.
func TestPeopleConflictPolicy(t *testing.T) {
	ctx := t.Context()
	e := peopleEngine(t, memory.Options{People: people.Options{ConfirmTypes: []string{}}})
	u := storetest.NewUser()
	peopleSay(t, e, u, "My wife Sarah works at Google.")
	peopleSay(t, e, u, "Sarah works at Apple.")
	sarah := peopleEntity(t, e, u, "Sarah", "wife")
	if got := peopleCurrent(t, e, u, sarah.Subject(), "work.employer"); len(got) != 1 || got[0] != "Apple" {
		t.Errorf("with no confirmation types the change applies: %v", got)
	}
	// the assistant restating a different diet is less trusted than the user
	peopleSay(t, e, u, "Sarah is vegan.")
	p, err := e.People.PlanPersonal(ctx, u, "Your wife Sarah is vegetarian.", people.MessageInfo{Time: peopleNow, Speaker: personal.SpeakerAssistant}, factbase.Source{Kind: factbase.SourceMessage})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Conflicts) != 1 || !strings.Contains(p.Conflicts[0].Reason, "less trusted") || p.Conflicts[0].Proposed.SaidBy != "assistant" {
		t.Fatalf("assistant's change: conflicts %+v", p.Conflicts)
	}
	if _, err := e.ApplyWith(ctx, u, p.Ops, p.With); err != nil {
		t.Fatal(err)
	}
	if got := peopleCurrent(t, e, u, sarah.Subject(), "diet"); len(got) != 1 || got[0] != "vegan" {
		t.Errorf("diet after the assistant's proposal = %v, want vegan", got)
	}
}

// TestPreferencePromotion: a communication preference stated in three sessions is
// promoted from session to durable.
func TestPreferencePromotion(t *testing.T) {
	e := peopleEngine(t, memory.Options{})
	u := storetest.NewUser()
	sayIn := func(session, msg string) chat.SayResult {
		ctx := people.WithMessage(t.Context(), people.MessageInfo{Time: peopleNow, Session: session})
		res, err := e.Chat.Say(ctx, u, msg)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	durability := func() factbase.Durability {
		fs, err := e.Facts(t.Context(), u, factbase.FactFilter{Subject: "user", Key: "comm.length"})
		if err != nil || len(fs) != 1 {
			t.Fatalf("comm.length facts = %+v, %v", fs, err)
		}
		return fs[0].Durability
	}
	sayIn("s1", "Please keep answers short.")
	if d := durability(); d != factbase.Short {
		t.Fatalf("after one session: %s, want short", d)
	}
	sayIn("s1", "Keep it brief.")
	sayIn("s2", "Be concise.")
	if d := durability(); d != factbase.Short {
		t.Fatalf("after two sessions: %s, want short", d)
	}
	sayIn("s3", "Please keep answers short.")
	if d := durability(); d != factbase.Durable {
		t.Fatalf("after three sessions: %s, want durable", d)
	}
	hist, _ := e.History(t.Context(), u, "user", "comm.length", 0, 0)
	if len(hist.Versions) != 2 {
		t.Errorf("history = %d versions, want 2 (session, durable)", len(hist.Versions))
	}
	sayIn("s4", "Please keep answers short.")
	if hist, _ := e.History(t.Context(), u, "user", "comm.length", 0, 0); len(hist.Versions) != 2 {
		t.Errorf("a fourth session changed the preference again: %d versions", len(hist.Versions))
	}
}

// TestEntityOperations covers create, rename, alias, merge (facts move, history
// kept), split and delete (erased).
func TestEntityOperations(t *testing.T) {
	e := peopleEngine(t, memory.Options{})
	u := storetest.NewUser()
	ctx := t.Context()
	peopleSay(t, e, u, "My colleague Jon loves climbing and is allergic to cats.")
	peopleSay(t, e, u, "Jonathan is vegetarian.")
	jon := peopleEntity(t, e, u, "Jon", "colleague")
	jonathan := peopleEntity(t, e, u, "Jonathan", "")
	merged, err := e.People.MergeEntities(ctx, u, jon.ID, jonathan.ID)
	if err != nil {
		t.Fatal(err)
	}
	if merged.Other.MergedInto != jon.ID || !slices.Contains(merged.Entity.Aliases, "Jonathan") {
		t.Errorf("merge = %+v", merged)
	}
	if got := peopleCurrent(t, e, u, jon.Subject(), "diet"); len(got) != 1 || got[0] != "vegetarian" {
		t.Errorf("merged diet = %v", got)
	}
	if got := peopleCurrent(t, e, u, jonathan.Subject(), ""); len(got) != 0 {
		t.Errorf("the merged entity still has current facts: %v", got)
	}
	view, err := e.People.Entity(ctx, u, jon.ID, true, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var oldDiet bool
	for _, f := range view.Facts {
		oldDiet = oldDiet || f.Subject == jonathan.Subject() && f.Key == "diet" && !f.Current
	}
	if !oldDiet || len(view.Merged) != 1 {
		t.Errorf("history of the merge lost: %+v", view)
	}
	if live, _ := e.People.Entities(ctx, u, false, 0, 0); len(live.Entities) != 1 {
		t.Errorf("live entities after merge = %d, want 1", len(live.Entities))
	}
	// "Jonathan" now resolves to Jon through the alias
	peopleSay(t, e, u, "Jonathan hates olives.")
	if got := peopleCurrent(t, e, u, jon.Subject(), "dislikes"); len(got) != 1 {
		t.Errorf("alias did not resolve: %v", got)
	}

	// split the cat allergy off to a new entity
	fs, _ := e.Facts(ctx, u, factbase.FactFilter{Subject: jon.Subject(), Key: "allergy"})
	split, err := e.People.SplitEntity(ctx, u, jon.ID, []string{fs[0].ID}, factbase.Entity{Name: "Joan", Role: "colleague", Relation: "colleague"})
	if err != nil {
		t.Fatal(err)
	}
	if got := peopleCurrent(t, e, u, split.Entity.Subject(), "allergy"); len(got) != 1 || got[0] != "cats" {
		t.Errorf("split allergy = %v", got)
	}
	if got := peopleCurrent(t, e, u, jon.Subject(), "allergy"); len(got) != 0 {
		t.Errorf("allergy still on Jon: %v", got)
	}

	ren, err := e.People.RenameEntity(ctx, u, jon.ID, "Jon Smith")
	if err != nil || ren.Name != "Jon Smith" || !slices.Contains(ren.Aliases, "Jon") {
		t.Errorf("rename = %+v, %v", ren, err)
	}
	al, err := e.People.AddAlias(ctx, u, jon.ID, "JS")
	if err != nil || !slices.Contains(al.Aliases, "JS") {
		t.Errorf("alias = %+v, %v", al, err)
	}
	if f, err := e.People.FindEntity(ctx, u, "js"); err != nil || f.ID != jon.ID {
		t.Errorf("FindEntity(js) = %+v, %v", f, err)
	}

	del, err := e.People.DeleteEntity(ctx, u, jon.ID)
	if err != nil {
		t.Fatal(err)
	}
	if del.Result.Deleted == 0 {
		t.Errorf("delete erased no facts: %+v", del)
	}
	all, _ := e.Facts(ctx, u, factbase.FactFilter{History: true})
	for _, f := range all {
		if f.Subject == jon.Subject() || f.Subject == jonathan.Subject() {
			t.Errorf("fact survived the delete: %+v", f)
		}
	}
	if _, err := e.People.Entity(ctx, u, jonathan.ID, false, 0, 0); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("the merged entity survived the delete: %v", err)
	}
	if _, err := e.People.Entity(ctx, u, split.Entity.ID, false, 0, 0); err != nil {
		t.Errorf("the split entity was deleted too: %v", err)
	}
}

func TestEntityValidation(t *testing.T) {
	e := peopleEngine(t, memory.Options{})
	u := storetest.NewUser()
	ctx := t.Context()
	cases := []struct {
		name string
		in   factbase.Entity
		code string
	}{
		{name: "empty", in: factbase.Entity{}, code: factbase.EINVALID},
		{name: "bad role", in: factbase.Entity{Name: "A", Role: "boss"}, code: factbase.EINVALID},
		{name: "control", in: factbase.Entity{Name: "A\x00"}, code: factbase.EINVALID},
		{name: "long", in: factbase.Entity{Name: strings.Repeat("a", 201)}, code: factbase.EINVALID},
		{name: "ok", in: factbase.Entity{Name: "Ann", Role: "friend", Relation: "friend"}, code: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.People.CreateEntity(ctx, u, tc.in)
			if got := factbase.ErrorCode(err); got != tc.code {
				t.Errorf("CreateEntity(%+v) = %v, want code %q", tc.in, err, tc.code)
			}
		})
	}
	if _, err := e.People.MergeEntities(ctx, u, "x", "x"); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("self merge: %v", err)
	}
	if _, err := e.People.RenameEntity(ctx, u, "nope", "A"); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("rename unknown: %v", err)
	}
	if _, err := e.People.ConfirmConflict(ctx, u, "nope"); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("confirm unknown: %v", err)
	}
	if _, err := e.People.Entities(ctx, "bad", false, 0, 0); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("bad user: %v", err)
	}
}

// TestRecallTemporal: facts anchored in the asked-for window are recalled, birthdays
// recur yearly, weekly schedules weekly, and facts outside the window are not.
func TestRecallTemporal(t *testing.T) {
	e := peopleEngine(t, memory.Options{})
	u := storetest.NewUser()
	ctx := t.Context()
	for _, m := range []string{
		"I fly to Lisbon next Friday.",              // 2026-03-13: next week
		"My sister Anna was born on 12 March 1990.", // birthday next week
		"My son Leo has piano on Tuesdays.",         // weekly
		"I have a job interview on June 15th.",      // far away
		"My wife's birthday is on June 2.",          // not upcoming
	} {
		peopleSay(t, e, u, m)
	}
	rec, err := e.Chat.Recall(ctx, u, "What is happening next week?", chat.RecallOptions{Now: peopleNow})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Window == nil || rec.Window.From.Format("2006-01-02") != "2026-03-09" {
		t.Fatalf("window = %+v", rec.Window)
	}
	got := map[string]string{}
	for _, h := range rec.Hits {
		if h.When != nil {
			got[h.Key+" "+h.Value] = h.When.Format("2006-01-02")
		}
	}
	want := map[string]string{
		"travel fly to Lisbon next Friday": "2026-03-13",
		"birthday 12 March 1990":           "2026-03-12",
		"schedule piano on Tuesdays":       "2026-03-10",
	}
	for k, d := range want {
		if got[k] != d {
			t.Errorf("next week: %q on %q, want %q (hits %+v)", k, got[k], d, got)
		}
	}
	for _, h := range rec.Hits {
		if strings.Contains(h.Value, "interview") || strings.Contains(h.Value, "June 2") {
			t.Errorf("recalled a fact outside the window: %+v", h)
		}
	}
	rec, err = e.Chat.Recall(ctx, u, "upcoming birthdays", chat.RecallOptions{Now: peopleNow})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Hits) == 0 || rec.Hits[0].Key != "birthday" || rec.Hits[0].About != "Anna" {
		t.Fatalf("upcoming birthdays = %+v", rec.Hits)
	}
	for _, h := range rec.Hits {
		if h.Key == "birthday" && h.About != "Anna" {
			t.Errorf("a birthday outside 30 days: %+v", h)
		}
	}
	// a year later the same birthday recurs
	rec, _ = e.Chat.Recall(ctx, u, "upcoming birthdays", chat.RecallOptions{Now: peopleNow.AddDate(1, 0, 0)})
	if len(rec.Hits) == 0 || rec.Hits[0].When == nil || rec.Hits[0].When.Format("2006-01-02") != "2027-03-12" {
		t.Errorf("next year's birthdays = %+v", rec.Hits)
	}
}

// TestRecallPrivacy: high-sensitivity facts are left out unless asked for.
func TestRecallPrivacy(t *testing.T) {
	e := peopleEngine(t, memory.Options{})
	u := storetest.NewUser()
	ctx := t.Context()
	peopleSay(t, e, u, "My dad Joe has diabetes and loves golf.")
	rec, err := e.Chat.Recall(ctx, u, "Tell me about Joe", chat.RecallOptions{Now: peopleNow})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Hidden != 1 || strings.Contains(rec.Prompt, "diabetes") || !strings.Contains(rec.Prompt, "golf") {
		t.Errorf("privacy mode: hidden %d, prompt %q", rec.Hidden, rec.Prompt)
	}
	if len(rec.FactsByEntity) != 1 || rec.FactsByEntity[0].About != "Joe" || rec.FactsByEntity[0].Role != "dad" {
		t.Errorf("groups = %+v", rec.FactsByEntity)
	}
	rec, _ = e.Chat.Recall(ctx, u, "What health conditions does Joe have?", chat.RecallOptions{Now: peopleNow})
	if len(rec.Hits) == 0 || rec.Hits[0].Value != "diabetes" {
		t.Errorf("asked about health: %+v", rec.Hits)
	}
	rec, _ = e.Chat.Recall(ctx, u, "Tell me about Joe", chat.RecallOptions{Now: peopleNow, IncludeSensitive: true})
	if rec.Hidden != 0 || !strings.Contains(rec.Prompt, "diabetes") {
		t.Errorf("include sensitive: hidden %d, prompt %q", rec.Hidden, rec.Prompt)
	}
	if _, err := e.Chat.Recall(ctx, u, " ", chat.RecallOptions{}); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("empty query: %v", err)
	}
	if _, err := e.Chat.Recall(ctx, u, "x", chat.RecallOptions{Limit: 1000}); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("limit: %v", err)
	}
}

// TestRecallByRelation: "my wife" names the entity with that relation.
func TestRecallByRelation(t *testing.T) {
	e := peopleEngine(t, memory.Options{})
	u := storetest.NewUser()
	peopleSay(t, e, u, "My wife Sarah is allergic to shellfish. My brother Tom is allergic to cats.")
	rec, err := e.Chat.Recall(t.Context(), u, "what is my wife allergic to?", chat.RecallOptions{Now: peopleNow})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Hits) == 0 || rec.Hits[0].Value != "shellfish" || rec.Hits[0].About != "Sarah" {
		t.Fatalf("hits = %+v", rec.Hits)
	}
	for _, h := range rec.Hits {
		if h.About == "Tom" && h.Score >= rec.Hits[0].Score {
			t.Errorf("Tom's allergy ranks with Sarah's: %+v", rec.Hits)
		}
	}
}

// conflicts returns the first page of u's conflicts with status.
func conflicts(e *memory.Engine, u factbase.UserID, status factbase.ConflictStatus) ([]factbase.Conflict, error) {
	p, err := e.People.Conflicts(context.Background(), u, status, 0, 0)
	return p.Conflicts, err
}
