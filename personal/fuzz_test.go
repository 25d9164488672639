package personal

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

// FuzzExtract checks the extractor's output invariants on any input: it never
// panics; indexes are in range; values are non-empty, valid UTF-8 and found in the
// message; the plan never puts a fact about a skipped mention under any subject.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"My son Leo is 8 and loves dinosaurs. My colleague Martin is vegetarian.",
		"Martin, my son's friend, is allergic to nuts", "I fly to Lisbon next Friday.",
		"If my wife were vegan", "She is allergic to cats.", "Please keep answers short, answer in German.",
		"My wife's email is a@b.co.", "I have two kids, Ella and Max.", "Tom's wife's brother's dog Rex is 3",
		"my son leo, who is 8, has piano on Tuesdays and swimming on Thursdays", "(((", "my my my", "Leo's",
	} {
		f.Add(s)
	}
	now := time.Date(2026, 3, 4, 9, 30, 0, 0, time.UTC)
	known := []factbase.Entity{{ID: "c", Name: "Martin", Role: factbase.RoleColleague, Relation: "colleague"},
		{ID: "a", Name: "Martin", Role: factbase.RoleService, Relation: "accountant"}}
	f.Fuzz(func(t *testing.T, msg string) {
		ex := Extract(msg, Options{Now: now, Known: known})
		valid := strings.ToValidUTF8(msg, "\uFFFD")
		for _, fa := range ex.Facts {
			if fa.About < User || fa.About >= len(ex.Mentions) || fa.SaidBy < User || fa.SaidBy >= len(ex.Mentions) {
				t.Fatalf("Extract(%q): fact %+v indexes out of %d mentions", msg, fa, len(ex.Mentions))
			}
			if strings.TrimSpace(fa.Value) == "" || !utf8.ValidString(fa.Value) {
				t.Fatalf("Extract(%q): bad value %q", msg, fa.Value)
			}
			if !canonicalKey(fa.Key) && !strings.Contains(strings.ToLower(valid), strings.ToLower(firstWord(fa.Value))) {
				t.Fatalf("Extract(%q): value %q is not in the message", msg, fa.Value)
			}
			if _, ok := specs[fa.Key]; !ok {
				t.Fatalf("Extract(%q): unknown key %q", msg, fa.Key)
			}
		}
		res := Resolve(ex.Mentions, known)
		n := 0
		p := Attribute(ex, res, known, PlanOptions{NewID: func() string { n++; return "n" + string(rune('a'+n%26)) }})
		skipped := map[string]bool{}
		for _, r := range res {
			if r.Skip && r.EntityID != "" {
				t.Fatalf("a skipped resolution names entity %s", r.EntityID)
			}
		}
		for _, pf := range p.Facts {
			if pf.Fact.Subject == "" || skipped[pf.Fact.Subject] || len([]rune(pf.Fact.Text)) > factbase.MaxTextLen {
				t.Fatalf("Extract(%q): planned fact %+v", msg, pf)
			}
		}
	})
}

// canonicalKey reports keys whose values are canonical words rather than cut from
// the message ("child" for "kid", "short" for "brief", "2" for "two-year-old").
func canonicalKey(key string) bool {
	return strings.HasPrefix(key, factbase.CommPrefix) || key == factbase.KeyCondition || key == factbase.KeySpeaks || key == factbase.KeyDiet ||
		key == factbase.KeyRelation || key == factbase.KeyAge || key == factbase.KeyRole
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return strings.Trim(f[0], ".,;:!?\"'()")
	}
	return s
}
