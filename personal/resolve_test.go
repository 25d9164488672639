package personal

import (
	"strings"
	"testing"

	"github.com/factbase/factbase"
)

func TestResolve(t *testing.T) {
	colleague := factbase.Entity{ID: "c", Name: "Martin", Role: factbase.RoleColleague, Relation: "colleague"}
	accountant := factbase.Entity{ID: "a", Name: "Martin", Role: factbase.RoleService, Relation: "accountant"}
	friendOfSon := factbase.Entity{ID: "f", Name: "Martin", Role: factbase.RoleOther, Relation: "son's friend", Attributes: map[string]string{"age": "8"}}
	wife := factbase.Entity{ID: "w", Name: "Sarah", Role: factbase.RolePartner, Relation: "wife", Aliases: []string{"Sally"}}
	son := factbase.Entity{ID: "s", Name: "", Role: factbase.RoleChild, Relation: "son"}
	merged := factbase.Entity{ID: "m", Name: "Tom", Role: factbase.RoleSibling, Relation: "brother", MergedInto: "x"}
	cases := []struct {
		name    string
		mention Mention
		known   []factbase.Entity
		want    string // entity id, "new" or "skip"
		minConf float64
		reason  string
	}{
		{name: "name only, one match", mention: Mention{Name: "Martin"}, known: []factbase.Entity{colleague}, want: "c", minConf: 0.8},
		{name: "name and relation", mention: Mention{Name: "Martin", Relation: "colleague", Role: factbase.RoleColleague}, known: []factbase.Entity{colleague, accountant}, want: "c", minConf: 1},
		{name: "two martins no cue", mention: Mention{Name: "Martin"}, known: []factbase.Entity{colleague, accountant}, want: "skip", reason: "ambiguous"},
		{name: "age cue picks the child", mention: Mention{Name: "Martin", Age: "8"}, known: []factbase.Entity{colleague, friendOfSon}, want: "f", minConf: 0.8},
		{name: "age contradicts the accountant", mention: Mention{Name: "Martin", Age: "8"}, known: []factbase.Entity{accountant}, want: "new", reason: "contradicts"},
		{name: "relation contradicts", mention: Mention{Name: "Martin", Relation: "brother", Role: factbase.RoleSibling}, known: []factbase.Entity{colleague}, want: "new", reason: "contradicts"},
		{name: "alias", mention: Mention{Name: "sally"}, known: []factbase.Entity{wife}, want: "w", minConf: 0.8},
		{name: "unique relation other name", mention: Mention{Name: "Anna", Relation: "wife", Role: factbase.RolePartner, Unique: true}, known: []factbase.Entity{wife}, want: "skip", reason: "your wife is Sarah"},
		{name: "relation only", mention: Mention{Relation: "son", Role: factbase.RoleChild, Owner: User}, known: []factbase.Entity{son}, want: "s", minConf: 0.8},
		{name: "named son fills unnamed", mention: Mention{Name: "Leo", Relation: "son", Role: factbase.RoleChild, Owner: User}, known: []factbase.Entity{son}, want: "s", minConf: 0.8},
		{name: "generic relation fits", mention: Mention{Relation: "child", Role: factbase.RoleChild, Owner: User}, known: []factbase.Entity{son}, want: "s"},
		{name: "daughter is not the son", mention: Mention{Relation: "daughter", Role: factbase.RoleChild, Owner: User}, known: []factbase.Entity{son}, want: "new"},
		{name: "merged entities are ignored", mention: Mention{Name: "Tom"}, known: []factbase.Entity{merged}, want: "new"},
		{name: "nothing known", mention: Mention{Name: "Nina"}, want: "new", minConf: 1},
		{name: "gender contradicts", mention: Mention{Name: "Sarah", Gender: "male", Relation: "husband", Role: factbase.RolePartner}, known: []factbase.Entity{wife}, want: "new"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := Resolve([]Mention{tc.mention}, tc.known)[0]
			got := r.EntityID
			switch {
			case r.New:
				got = "new"
			case r.Skip:
				got = "skip"
			}
			if got != tc.want {
				t.Fatalf("Resolve(%+v) = %s (%.2f, %s), want %s", tc.mention, got, r.Confidence, r.Reason, tc.want)
			}
			if r.Confidence < tc.minConf {
				t.Errorf("confidence %.2f, want at least %.2f", r.Confidence, tc.minConf)
			}
			if tc.want == "skip" && r.Confidence >= MinConfidence {
				t.Errorf("skipped with confidence %.2f, want below %.2f", r.Confidence, MinConfidence)
			}
			if tc.reason != "" && !strings.Contains(r.Reason, tc.reason) {
				t.Errorf("reason %q, want it to mention %q", r.Reason, tc.reason)
			}
		})
	}
}

// TestAttributeOrphans: a fact about a skipped mention is not planned and the skip
// says why; the speaker's facts carry its said-by.
func TestAttributeOrphans(t *testing.T) {
	known := []factbase.Entity{
		{ID: "c", Name: "Martin", Role: factbase.RoleColleague, Relation: "colleague"},
		{ID: "a", Name: "Martin", Role: factbase.RoleService, Relation: "accountant"},
	}
	ex := Extract("Martin is vegetarian and I'm allergic to nuts.", Options{Known: known})
	p := Attribute(ex, Resolve(ex.Mentions, known), known, PlanOptions{Speaker: SpeakerUser})
	if len(p.Facts) != 1 || p.Facts[0].Fact.Subject != "user" || p.Facts[0].Fact.Key != factbase.KeyAllergy || p.Facts[0].Fact.SaidBy != "user" {
		t.Fatalf("facts = %+v", p.Facts)
	}
	if len(p.Skips) != 1 || !strings.HasPrefix(p.Skips[0].Reason, "orphan:") || !strings.Contains(p.Skips[0].Reason, "ambiguous") {
		t.Fatalf("skips = %+v", p.Skips)
	}
	if len(p.Create) != 0 || len(p.Update) != 0 {
		t.Errorf("an orphan created or updated entities: %+v %+v", p.Create, p.Update)
	}
}

// TestExtractFields checks what the rules set on a fact besides key and value.
func TestExtractFields(t *testing.T) {
	ex := Extract("Sarah is allergic to shellfish and has asthma.", Options{})
	if len(ex.Facts) != 2 {
		t.Fatalf("facts = %+v", ex.Facts)
	}
	for _, f := range ex.Facts {
		if f.Confidence < 0.9 || f.Category != factbase.Core || f.About != 0 || f.SaidBy != User || f.Rule == "" || f.Span == "" {
			t.Errorf("fact %+v", f)
		}
	}
	if ex.Facts[1].Sensitivity != factbase.High || ex.Facts[1].Type != "health" {
		t.Errorf("health fact = %+v", ex.Facts[1])
	}
	if got := ex.Facts[0].Text("Sarah"); got != "Sarah is allergic to shellfish" {
		t.Errorf("text = %q", got)
	}
	// no clock: markers are kept as said, with no anchor
	ex = Extract("I fly to Lisbon next Friday.", Options{})
	if len(ex.Facts) != 0 {
		t.Errorf("without a clock a travel marker is not found: %+v", ex.Facts)
	}
	// a message over the limit is read up to it
	long := strings.Repeat("x ", MaxMessage) + "I'm allergic to peanuts."
	if ex := Extract(long, Options{}); len(ex.Facts) != 0 {
		t.Errorf("read past MaxMessage: %+v", ex.Facts)
	}
	for key := range specs {
		typ, card, _, _, sens, conf, ok := Spec(key)
		if !ok || typ == "" || !card.Valid() || conf <= 0 || conf > 1 {
			t.Errorf("Spec(%s) = %s %s %v %v", key, typ, card, conf, ok)
		}
		if (typ == "health" || typ == "medical") && sens != factbase.High || (typ == "allergy" || typ == "medical" || typ == "health") && conf < 0.9 {
			t.Errorf("Spec(%s): type %s sensitivity %s confidence %v", key, typ, sens, conf)
		}
	}
}

// TestResolveKeepsPeopleApart: two people of one message whom only the relation ties
// to one unnamed entity ("our twins Lea and Tim", the user's unnamed daughter known)
// are new entities, not both the daughter; a mention that matched by name keeps its
// entity beside a new name.
func TestResolveKeepsPeopleApart(t *testing.T) {
	daughter := factbase.Entity{ID: "d", Role: factbase.RoleChild, Relation: "daughter"}
	kid := func(name string) Mention {
		return Mention{Name: name, Relation: "child", Role: factbase.RoleChild, Owner: User}
	}
	rs := Resolve([]Mention{kid("Lea"), kid("Tim")}, []factbase.Entity{daughter})
	for i, r := range rs {
		if !r.New || r.EntityID != "" || !strings.Contains(r.Reason, "one of 2 people") {
			t.Errorf("mention %d = %+v, want a new entity", i, r)
		}
	}
	// One of them alone names the daughter.
	if r := Resolve([]Mention{kid("Lea")}, []factbase.Entity{daughter})[0]; r.EntityID != "d" {
		t.Errorf("Lea alone = %+v, want the daughter", r)
	}
	// Named Lea is known: she keeps her entity, and Tim, tied to her by the relation
	// alone, is new.
	lea := factbase.Entity{ID: "l", Name: "Lea", Role: factbase.RoleChild, Relation: "daughter"}
	rs = Resolve([]Mention{kid("Lea"), kid("Tim")}, []factbase.Entity{lea})
	if rs[0].EntityID != "l" || !rs[1].New {
		t.Errorf("Lea known = %+v, want Lea's entity and a new Tim", rs)
	}
}
