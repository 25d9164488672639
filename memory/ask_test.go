package memory_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/storetest"
)

// TestAskAnswersEverydayQuestions: the questions issue #24 saw fail, asked after the
// facts were stored, answer from the right facts and cite them; a question nothing
// stored answers says so with no items.
func TestAskAnswersEverydayQuestions(t *testing.T) {
	c := &clock{t: peopleNow.Add(-48 * time.Hour)}
	o := memory.Options{NoSheetRegen: true}
	people.DeclarePeopleKeys(&o.Cardinalities)
	e := memory.New(openStore(t, "", c.Now), o)
	u := storetest.NewUser()
	ctx := people.WithMessage(t.Context(), people.MessageInfo{Time: peopleNow})
	say := func(msg string) {
		t.Helper()
		if _, err := e.Chat.Say(ctx, u, msg); err != nil {
			t.Fatalf("Say(%q): %v", msg, err)
		}
	}
	say("I live in Bergen.")
	c.Add(time.Hour)
	for _, msg := range []string{"I moved to Oslo.", "My husband Ben works at Figma.", "My son Kai was born on May 4, 2018.",
		"My brother Tom works at Siemens.", "My son Max is 7.", "We have a dog named Rex.", "My daughter Lea is allergic to nuts.",
		"My favorite podcasts are Radiolab and Serial.", "My favorite books are Dune and Emma.", "I speak Spanish and German."} {
		say(msg)
	}
	friday := time.Date(2026, time.March, 6, 10, 0, 0, 0, time.UTC)
	monday := time.Date(2026, time.March, 9, 0, 0, 0, 0, time.UTC)
	if _, err := e.Apply(t.Context(), u, []factbase.Op{
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: factbase.KeyPlan, Value: "dentist appointment", Text: "The user has a dentist appointment on Friday at 10am", Anchor: &friday}},
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: factbase.KeyPlan, Value: "haircut", Text: "The user has a haircut on Monday", Anchor: &monday}},
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "least_favorite.vegetable", Value: "okra"}},
	}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		q     string
		items []string // values the answer's items must hold, in order
		reply string   // a piece of the reply
	}{
		{"Who is my husband?", []string{"Ben"}, "Your husband is Ben"},
		{"Who does Ben work for?", []string{"Figma"}, "Figma"},
		{"What's my little brother's name?", []string{"Tom"}, "Tom"},
		{"When is Kai's birthday?", []string{"May 4, 2018"}, "May 4"},
		{"Where does my brother work?", []string{"Siemens"}, "Siemens"},
		{"How old is Max?", []string{"7"}, "7"},
		{"Do we have any pets?", []string{"Rex"}, "Yes"},
		{"Is anyone in my family allergic to nuts?", []string{"Lea"}, "Yes: Lea"},
		{"What do I have on Friday?", []string{"dentist appointment"}, "dentist"},
		{"When's my dentist appointment?", []string{"dentist appointment"}, "Friday"},
		{"Where did I live before Oslo?", []string{"Bergen"}, "Bergen"},
		{"How many favorite podcasts do I have?", []string{"Radiolab", "Serial"}, "You have 2 favorite podcasts"},
		{"Is Dune one of my favorite books?", []string{"Dune"}, "Yes: Dune is #1"},
		{"Is Ulysses one of my favorite books?", nil, "No: Ulysses is not"},
		{"Where is Emma on my list of favorite books?", []string{"Emma"}, "Emma is #2 of your 2 favorite books"},
		{"Do I like Emma?", []string{"Emma"}, "Yes: Emma is #2 of your 2 favorite books"},
		{"Which book is last on my list?", []string{"Emma"}, "Emma (#2)"},
		{"Do I like Ulysses?", nil, "I don't know"},
		{"Where does Ulysses rank in my favorite books?", nil, "Ulysses is not on your list"},
		{"Top 1 podcasts?", []string{"Radiolab"}, "Radiolab"},
		{"How many podcasts are on my favorites list?", []string{"Radiolab", "Serial"}, "You have 2 favorite podcasts"},
		{"What's my least favorite vegetable?", []string{"okra"}, "okra"},
		{"What is my blood type?", nil, "I don't know"},
		{"Does Tom have any allergies?", nil, "I don't know"},
		{"Do I speak German?", []string{"German"}, "Yes"},
		{"Do I speak French?", []string{"Spanish", "German"}, "No, not as far as I know"},
		{"Tell me about Lea.", []string{"nuts"}, "Lea (daughter) is allergic to nuts"},
		{"Where did I live before?", []string{"Bergen"}, "Bergen"},
		{"Did I ever live in Paris?", nil, "No, not as far as I know: your home cities were Bergen and Oslo."},
		{"Who is my youngest son?", []string{"Kai", "Max"}, "Kai (son) (born May 4, 2018) and Max (son) are the youngest: 7."},
		{"Which of my kids is the oldest?", []string{"Kai", "Max"}, "are the oldest: 7. (I don't know the age of 1 of them.)"},
	} {
		res, err := e.Chat.Ask(ctx, u, tc.q)
		if err != nil {
			t.Fatalf("Ask(%q): %v", tc.q, err)
		}
		if !strings.Contains(res.Reply, tc.reply) || len(res.Items) != len(tc.items) {
			t.Errorf("Ask(%q) = %q with %d items %+v; want %q with %q", tc.q, res.Reply, len(res.Items), res.Items, tc.reply, tc.items)
			continue
		}
		for i, it := range res.Items {
			if it.Value != tc.items[i] {
				t.Errorf("Ask(%q) item %d = %q, want %q", tc.q, i, it.Value, tc.items[i])
			}
			checkCited(t, e, u, tc.q, it)
		}
	}
}

// TestAskKeepsToWhatIsAsked: a fact of the right person or kind but not the one asked
// about does not answer: the other Martin's city, where someone is from for where they
// live, a birthday for where, a haircut for whom, every plan for one.
func TestAskKeepsToWhatIsAsked(t *testing.T) {
	c := &clock{t: peopleNow}
	o := memory.Options{NoSheetRegen: true}
	people.DeclarePeopleKeys(&o.Cardinalities)
	e := memory.New(openStore(t, "", c.Now), o)
	u := storetest.NewUser()
	ctx := people.WithMessage(t.Context(), people.MessageInfo{Time: peopleNow})
	for _, msg := range []string{"I was born on 12 November 1988.", "I live in Lisbon.", "I'm from Nairobi.",
		"My colleague Martin is vegetarian.", "Martin, my accountant, lives in Boston.", "My friend Sophie is from Lyon.",
		"I have a haircut on Friday at 10am.", "I have a job interview on March 20.", "I have a meeting with Laura tomorrow at 3pm.",
		"I have dinner with Sara on Saturday.", "I have a doctor's appointment on Monday at 2pm.", "Our anniversary is March 14.",
		"My sister Ana is visiting us on Sunday.", "I work from home on Tuesdays."} {
		if _, err := e.Chat.Say(ctx, u, msg); err != nil {
			t.Fatalf("Say(%q): %v", msg, err)
		}
	}
	for _, tc := range []struct {
		q     string
		items []string
		reply string
	}{
		{"Where was I born?", nil, "I don't know"},
		{"Where did I live before Lisbon?", nil, "Lisbon is the earliest"},
		{"Where does my colleague Martin live?", nil, "I don't know"},
		{"Where does my accountant Martin live?", []string{"Boston"}, "Boston"},
		{"Where is my accountant based?", []string{"Boston"}, "Boston"},
		{"Who lives in Lyon?", nil, "I don't know"},
		{"Where is Sophie from?", []string{"Lyon"}, "Lyon"},
		{"Who am I meeting on Friday?", nil, "I don't know of anyone then"},
		{"What time is my job interview?", []string{"a job interview on March 20"}, "March 20"},
		{"Who am I having dinner with on Saturday?", []string{"Sara"}, "dinner with Sara"},
		{"When is my doctor's appointment?", []string{"a doctor's appointment on Monday at 2pm"}, "Monday"},
		{"When is my dentist appointment?", nil, "I don't know"},
		{"When is Sara's birthday?", nil, "I don't know"},
		{"Is anything happening on March 14?", []string{"your anniversary (March 14)"}, "Yes"},
		{"Am I free on Friday?", []string{"a haircut on Friday at 10am"}, "No: "},
		{"Am I free on Wednesday?", nil, "Yes, as far as I know: nothing is planned then."},
		{"How many days until my job interview?", []string{"a job interview on March 20"}, "16 days, on Friday, March 20: "},
		{"How long until our anniversary?", []string{"March 14"}, "10 days, on Saturday, March 14: "},
		{"What's happening on Sunday?", []string{"Ana: visiting us on Sunday"}, "Ana"},
		{"Do I work from home on Tuesdays?", []string{"work from home on Tuesdays"}, "Yes"},
	} {
		res, err := e.Chat.Ask(ctx, u, tc.q)
		if err != nil {
			t.Fatalf("Ask(%q): %v", tc.q, err)
		}
		if !strings.Contains(res.Reply, tc.reply) || len(res.Items) != len(tc.items) {
			t.Errorf("Ask(%q) = %q with %d items %+v; want %q with %q", tc.q, res.Reply, len(res.Items), res.Items, tc.reply, tc.items)
			continue
		}
		for i, it := range res.Items {
			if it.Value != tc.items[i] {
				t.Errorf("Ask(%q) item %d = %q, want %q", tc.q, i, it.Value, tc.items[i])
			}
		}
	}
}

// TestAskAnswersFromEpisodes: questions about an engineering log are answered from
// the episode that holds what they ask, with its date; a question no episode holds
// says "I don't know".
func TestAskAnswersFromEpisodes(t *testing.T) {
	c := &clock{t: time.Date(2026, time.May, 4, 9, 0, 0, 0, time.UTC)}
	e := memory.New(openStore(t, "", c.Now), memory.Options{NoSheetRegen: true})
	u := storetest.NewUser()
	for _, ep := range []struct {
		at   string
		text string
		tags []string
	}{
		{"2026-04-27T10:00:00Z", "Deployed search-api v2.6.0 to production.", []string{"search", "deploy"}},
		{"2026-04-28T15:00:00Z", "payments v4.1.0 release aborted after the smoke tests timed out; stayed on v4.0.9.", []string{"payments", "deploy"}},
		{"2026-04-29T08:00:00Z", "Outage: the login page was unavailable for 25 minutes because the session store filled its disk. Mitigated by resizing the volume.", []string{"auth", "incident"}},
		{"2026-04-30T18:00:00Z", "Reindexing the catalog is in progress: 60% of products done.", []string{"catalog"}},
		{"2026-05-03T22:00:00Z", "Weekly export finished; archive size 12 GB.", []string{"export"}},
		{"2026-05-03T23:00:00Z", "Upgraded Node from 18.19.0 to 20.11.1 on the build agents.", []string{"ci"}},
	} {
		at, err := time.Parse(time.RFC3339, ep.at)
		if err != nil {
			t.Fatal(err)
		}
		c.Set(at)
		if _, err := e.Ingest.AddEpisode(t.Context(), u, ingest.EpisodeInput{Content: ep.text, Tags: ep.tags, CreatedAt: at}); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Date(2026, time.May, 4, 9, 0, 0, 0, time.UTC)
	c.Set(now)
	ctx := people.WithMessage(t.Context(), people.MessageInfo{Time: now})
	for _, tc := range []struct {
		q     string
		reply []string // pieces of the reply
		items []string
	}{
		{"Which release failed?", []string{"payments v4.1.0 release aborted"}, nil},
		{"What version of search-api is live?", []string{"2.6.0"}, []string{"2.6.0"}},
		{"How did we fix the login outage?", []string{"Mitigated by resizing"}, nil},
		{"How long was the login page down?", []string{"25 minutes"}, nil},
		{"When did we deploy search-api?", []string{"On Monday, April 27, 2026"}, nil},
		{"Is the catalog reindexing finished?", []string{"No: on Thursday, April 30, 2026", "in progress"}, nil},
		{"How big was the export last night?", []string{"12 GB"}, nil},
		{"What did we do on Tuesday?", []string{"payments v4.1.0"}, nil},
		{"What version is the mobile app on?", []string{"I don't know"}, nil},
		{"How long did the export take?", []string{"I don't know"}, nil},
		{"How many products were reindexed?", []string{"I don't know"}, nil},
		{"What version of Node were we on before?", []string{"from 18.19.0 to 20.11.1"}, nil},
		{"Tell me about the payments release.", []string{"aborted after the smoke tests timed out"}, nil},
		{"How long did the search-api deploy take?", []string{"I don't know"}, nil},
		{"Who fixed the login outage?", []string{"I don't know"}, nil},
	} {
		res, err := e.Chat.Ask(ctx, u, tc.q)
		if err != nil {
			t.Fatalf("Ask(%q): %v", tc.q, err)
		}
		for _, r := range tc.reply {
			if !strings.Contains(res.Reply, r) {
				t.Errorf("Ask(%q) = %q, want it to hold %q", tc.q, res.Reply, r)
			}
		}
		if got := len(res.Items); got != len(tc.items) {
			t.Errorf("Ask(%q) has %d items %+v, want %q", tc.q, got, res.Items, tc.items)
			continue
		}
		for i, it := range res.Items {
			if it.Value != tc.items[i] {
				t.Errorf("Ask(%q) item %d = %q, want %q", tc.q, i, it.Value, tc.items[i])
			}
			checkCited(t, e, u, tc.q, it)
		}
	}
}

// TestAskListBefore: the favorite a list had before the one it has now.
func TestAskListBefore(t *testing.T) {
	c := &clock{t: time.Date(2024, time.January, 10, 10, 0, 0, 0, time.UTC)}
	e := memory.New(openStore(t, "", c.Now), memory.Options{NoSheetRegen: true})
	u := storetest.NewUser()
	for _, msg := range []string{"My favorite tea is oolong", "My favorite bands are Blur and Pulp", "", "My favorite tea is now jasmine",
		"My favorite band is now Suede"} {
		if msg == "" {
			c.Add(400 * 24 * time.Hour)
			continue
		}
		if _, err := e.Chat.Say(people.WithMessage(t.Context(), people.MessageInfo{Time: c.Now()}), u, msg); err != nil {
			t.Fatalf("Say(%q): %v", msg, err)
		}
	}
	ctx := people.WithMessage(t.Context(), people.MessageInfo{Time: c.Now()})
	for _, tc := range []struct{ q, item, reply string }{
		{"What was my favorite tea before?", "oolong", "Before jasmine, your favorite tea was oolong (until February 2025)."},
		{"What was my previous favorite band?", "Blur", "Before Suede, your favorite band was Blur"},
		{"Who used to be my favorite band?", "Blur", "Blur"},
		{"What was my favorite tea before oolong?", "", "I don't know of a favorite tea before oolong."},
	} {
		res, err := e.Chat.Ask(ctx, u, tc.q)
		if err != nil {
			t.Fatalf("Ask(%q): %v", tc.q, err)
		}
		var items []string
		for _, it := range res.Items {
			items = append(items, it.Value)
		}
		if !strings.Contains(res.Reply, tc.reply) || strings.Join(items, ",") != tc.item {
			t.Errorf("Ask(%q) = %q, items %q; want %q, item %q", tc.q, res.Reply, items, tc.reply, tc.item)
		}
	}
}

// checkCited asserts that an answer item names a stored fact that holds its value
// (or, for a person, the fact relating them to the user or the fact about them that
// answered).
func checkCited(t *testing.T, e *memory.Engine, u factbase.UserID, q string, it chat.AskItem) {
	t.Helper()
	fs, err := e.Facts(t.Context(), u, factbase.FactFilter{ID: it.ID, History: true})
	if err != nil || len(fs) != 1 {
		t.Errorf("Ask(%q): item %q cites fact %q, which is not stored (%v)", q, it.Value, it.ID, err)
		return
	}
	// A person answering "who" cites the fact that made them the answer.
	if f := fs[0]; f.Value != it.Value && f.Key != factbase.KeyRelation && !strings.HasPrefix(it.About, it.Value) {
		t.Errorf("Ask(%q): item %q cites %s = %q", q, it.Value, f.Key, f.Value)
	}
}

// TestAskGroupBounded: a group question names at most 100 people, and says how many
// more there are, however many the user has.
func TestAskGroupBounded(t *testing.T) {
	e := memory.New(openStore(t, "", time.Now), memory.Options{NoSheetRegen: true})
	u := storetest.NewUser()
	ctx := t.Context()
	for i := range 103 {
		if _, err := e.People.CreateEntity(ctx, u, factbase.Entity{Name: fmt.Sprintf("Friend%d", i), Role: factbase.RoleFriend, Relation: "friend"}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := e.Chat.Ask(ctx, u, "Who are my friends?")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != 100 || !strings.HasSuffix(res.Reply, "(and 3 more)") {
		t.Errorf("Ask(who are my friends?) = %d items, reply %q; want 100 and (and 3 more)", len(res.Items), res.Reply[max(0, len(res.Reply)-80):])
	}
}
