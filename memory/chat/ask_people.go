package chat

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/personal"
	"github.com/factbase/factbase/question"
)

// groupRoles are the roles of the people in each group a question may name.
var groupRoles = map[string][]factbase.Role{
	"family":     {factbase.RolePartner, factbase.RoleChild, factbase.RoleParent, factbase.RoleSibling},
	"children":   {factbase.RoleChild},
	"parents":    {factbase.RoleParent},
	"siblings":   {factbase.RoleSibling},
	"friends":    {factbase.RoleFriend},
	"colleagues": {factbase.RoleColleague},
	"pets":       {factbase.RolePet},
}

// familyWords are relations of the family that may carry the role "other".
var familyWords = []string{"cousin", "aunt", "uncle", "grandma", "grandmother", "grandpa", "grandfather", "niece",
	"nephew", "in-law", "stepson", "stepdaughter", "grandson", "granddaughter", "twin"}

// groupRelations narrow a group to the relations that name it, where a role is wider
// than the word ("my colleagues" are not my boss).
var groupRelations = map[string][]string{
	"colleagues": {"colleague", "coworker", "co-worker", "teammate"},
	"dogs":       {"dog", "puppy"},
	"cats":       {"cat", "kitten"},
}

// inGroup reports whether en belongs to group.
func inGroup(en factbase.Entity, group string) bool {
	rel := strings.ToLower(en.Relation)
	if words, ok := groupRelations[group]; ok {
		return slices.ContainsFunc(words, func(w string) bool { return rel == w || strings.HasSuffix(rel, " "+w) && !strings.Contains(rel, "'s") })
	}
	switch group {
	case "anyone":
		return true
	case "family":
		for _, w := range familyWords {
			if strings.Contains(rel, w) {
				return true
			}
		}
	}
	return slices.Contains(groupRoles[group], en.Role)
}

// relationWords are the relations that answer a relation asked about.
var relationWords = map[string][]string{
	"child": {"son", "daughter", "child", "kid"}, "kid": {"son", "daughter", "child", "kid"},
	"spouse":  {"husband", "wife", "spouse", "partner"},
	"partner": {"husband", "wife", "spouse", "partner", "boyfriend", "girlfriend", "fiance", "fiancé", "fiancee"},
	"parent":  {"mother", "father", "mom", "dad", "mum", "parent"}, "mom": {"mother", "mom", "mum"},
	"mother": {"mother", "mom", "mum"}, "mum": {"mother", "mom", "mum"}, "dad": {"father", "dad"}, "father": {"father", "dad"},
	"sibling": {"brother", "sister", "sibling"}, "coworker": {"colleague", "coworker"}, "colleague": {"colleague", "coworker"},
	"grandma": {"grandma", "grandmother", "granny", "nana"}, "grandmother": {"grandma", "grandmother", "granny", "nana"},
	"grandpa": {"grandpa", "grandfather", "granddad", "grandad"}, "grandfather": {"grandpa", "grandfather", "granddad", "grandad"},
	"manager": {"manager", "boss"}, "boss": {"boss", "manager"}, "neighbour": {"neighbor", "neighbour"}, "neighbor": {"neighbor", "neighbour"},
}

// relationMatches reports whether an entity's relation answers the relation asked.
func relationMatches(have, asked string) bool {
	have, asked = strings.ToLower(have), strings.ToLower(asked)
	if have == asked || have == "" {
		return have == asked && have != ""
	}
	for _, w := range relationWords[asked] {
		if have == w || strings.HasSuffix(have, " "+w) && !strings.Contains(have, "'s") {
			return true
		}
	}
	return strings.HasSuffix(have, " "+asked) && !strings.Contains(have, "'s") // "best friend" answers "friend"
}

// peopleItems turns an answer's items into the people the facts are about ("Is anyone
// in my family allergic to nuts?" → Lea), each citing the fact that answered.
func peopleItems(a Answer, hits []RecallHit, ens []factbase.Entity) Answer {
	bySubject := map[string]factbase.Entity{}
	for _, en := range ens {
		bySubject[en.Subject()] = en
	}
	for i, h := range hits {
		if en, ok := bySubject[h.Fact.Subject]; ok && en.Name != "" {
			a.Items[i].Value = en.Name
		}
	}
	return a
}

// personWords are relations a question may name with "my" ("my sister").
var personWords = []string{"husband", "wife", "partner", "spouse", "boyfriend", "girlfriend", "fiance", "fiancé", "fiancee",
	"son", "daughter", "kid", "child", "brother", "sister", "mother", "father", "mom", "dad", "mum", "parents",
	"grandma", "grandmother", "grandpa", "grandfather", "aunt", "uncle", "cousin", "niece", "nephew", "friend",
	"boss", "manager", "colleague", "coworker", "neighbor", "neighbour", "doctor", "dentist", "teacher", "roommate",
	"dog", "cat", "stepson", "stepdaughter", "mother-in-law", "father-in-law", "sister-in-law", "brother-in-law"}

// namedPeople returns the people a question names: by name, alias or "my <relation>"
// (recallNamedBy), or by a relation that means the same ("my mother" for a "mom").
// missing is a relation named with "my" that no one has, when there is one.
func namedPeople(ens []factbase.Entity, words []string) (named []factbase.Entity, missing string) {
	var rels []string
	for _, en := range ens {
		if recallNamedBy(en, words) {
			named = append(named, en)
		}
	}
	for i := 0; i+1 < len(words); i++ {
		if words[i] != "my" && words[i] != "our" || !slices.Contains(personWords, words[i+1]) {
			continue
		}
		rel := words[i+1]
		if namesThing(words, i+1) {
			continue // "my dentist appointment", "my doctor's appointment": a thing, not the dentist
		}
		found := false
		for _, en := range ens {
			if relationMatches(en.Relation, rel) || relationMatches(en.Relation, singularRel(rel)) {
				found = true
				if !slices.ContainsFunc(named, func(x factbase.Entity) bool { return x.ID == en.ID }) {
					named = append(named, en)
				}
			}
		}
		if !found && missing == "" {
			missing = rel
		}
		rels = append(rels, rel)
	}
	// "my colleague Martin", "Martin, my accountant": a relation said with a name
	// narrows the name to the one of that relation, and does not add the others.
	var both []factbase.Entity
	for _, en := range ens {
		if recallNamedBy(factbase.Entity{Name: en.Name, Aliases: en.Aliases}, words) &&
			slices.ContainsFunc(rels, func(r string) bool {
				return relationMatches(en.Relation, r) || relationMatches(en.Relation, singularRel(r))
			}) {
			both = append(both, en)
		}
	}
	if len(both) > 0 {
		return both, ""
	}
	return named, missing
}

// notPerson follow a relation word in phrases that name a thing.
var notPerson = map[string]bool{"appointment": true, "appointments": true, "visit": true, "checkup": true, "check-up": true,
	"class": true, "classes": true, "lesson": true, "lessons": true, "practice": true, "office": true, "bill": true, "food": true}

func singularRel(w string) string { return strings.TrimSuffix(w, "s") }

// askWho answers "who is my husband?", "who are my sisters?" from the people whose
// relation is the one asked.
func (s *Service) askWho(ctx context.Context, user factbase.UserID, plan question.Plan, ens []factbase.Entity, out AskResult) (AskResult, bool, error) {
	var found []factbase.Entity
	if plan.Value != "" { // "Who is Greta?": who the person is to the user
		named, _ := namedPeople(ens, recallWords(plan.Value))
		if len(named) == 0 {
			out.Reply, out.Source = fmt.Sprintf("I don't know who %s is.", plan.Value), "facts"
			return out, true, nil
		}
		a, err := s.peopleAnswer(ctx, user, named)
		if err != nil {
			return out, false, err
		}
		var parts []string
		for i, en := range named {
			a.Items[i].Value = en.Relation
			if en.Relation == "" {
				a.Items[i].Value = en.Name
			}
			parts = append(parts, fmt.Sprintf("%s is your %s", en.Name, cmp.Or(en.Relation, "acquaintance")))
		}
		a.Reply = strings.Join(parts, "; ") + "."
		res, err := s.finish(ctx, user, out, "facts", a)
		return res, true, err
	}
	for _, en := range ens {
		if relationMatches(en.Relation, plan.Relation) {
			found = append(found, en)
		}
	}
	if head := relationHead(plan.Relation); len(found) == 0 && head != plan.Relation {
		// "my little sister", "my older brother": the sister, the brother
		for _, en := range ens {
			if relationMatches(en.Relation, head) {
				found = append(found, en)
			}
		}
	}
	if len(found) == 0 {
		out.Reply, out.Source = fmt.Sprintf("I don't know who your %s is.", plan.Relation), "facts"
		if plan.Many {
			out.Reply = fmt.Sprintf("I don't know of any %s of yours.", plural(plan.Relation))
		}
		return out, true, nil
	}
	found, more := firstPeople(found)
	a, err := s.peopleAnswer(ctx, user, found)
	if err != nil {
		return out, false, err
	}
	a.Reply = whoReply(found, plan.Relation) + andMore(more)
	res, err := s.finish(ctx, user, out, "facts", a)
	return res, true, err
}

// askGroup answers "do we have any pets?", "who are my kids?", "how many dogs do we
// have?" with the group's people.
func (s *Service) askGroup(ctx context.Context, user factbase.UserID, q string, plan question.Plan, ens []factbase.Entity, out AskResult) (AskResult, bool, error) {
	var found []factbase.Entity
	for _, en := range ens {
		if inGroup(en, plan.Group) && (plan.Relation == "" || plan.Count || relationMatches(en.Relation, plan.Relation)) {
			found = append(found, en)
		}
	}
	noun := groupNoun(plan.Group)
	if plan.Relation != "" && !plan.Count {
		noun = plural(plan.Relation)
	}
	if len(found) == 0 {
		out.Reply = fmt.Sprintf("I don't know of any %s of yours.", noun)
		out.Source = "facts"
		return out, true, nil
	}
	if plan.Most != "" {
		return s.askMost(ctx, user, plan, found, out)
	}
	found, more := firstPeople(found)
	a, err := s.peopleAnswer(ctx, user, found)
	if err != nil {
		return out, false, err
	}
	var labels []string
	for _, en := range found {
		labels = append(labels, personal.Label(en))
	}
	switch {
	case plan.Count:
		a.Total = len(found)
		a.Reply = fmt.Sprintf("%d: %s.", len(found), joinAnd(labels))
		if len(found) == 1 {
			a.Reply = fmt.Sprintf("1: %s.", labels[0])
		}
	case yesNoQuestion(q):
		a.Reply = fmt.Sprintf("Yes: %s.", joinAnd(labels))
	default:
		a.Reply = fmt.Sprintf("Your %s: %s.", groupNoun(plan.Group), joinAnd(labels))
	}
	a.Reply += andMore(more)
	res, err := s.finish(ctx, user, out, "facts", a)
	return res, true, err
}

// askMost answers the oldest or youngest of the people found, by their ages (or
// birthdays with a year): "Kiwi (parrot) is the oldest: 25."; people of the same age
// are named together. Those whose age is not known are said to be left out; none
// with an age is "I don't know".
func (s *Service) askMost(ctx context.Context, user factbase.UserID, plan question.Plan, found []factbase.Entity, out AskResult) (AskResult, bool, error) {
	now := people.Message(ctx).Time
	type aged struct {
		en  factbase.Entity
		f   factbase.Fact
		age int
	}
	var best []aged
	unknown := 0
	for _, en := range found {
		fs, err := s.core.Get(ctx, user, en.Subject(), factbase.KeyAge, nil)
		if err != nil {
			return out, false, err
		}
		var x *aged
		if len(fs) > 0 {
			if n, ok := leadingNumber(fs[0].Value); ok {
				x = &aged{en, fs[0], int(n)}
			}
		}
		if x == nil {
			// a birthday with its year ("born on May 4, 2018") gives the age too
			bs, err := s.core.Get(ctx, user, en.Subject(), factbase.KeyBirthday, nil)
			if err != nil {
				return out, false, err
			}
			if len(bs) > 0 && bs[0].Anchor != nil && bs[0].Anchor.Before(now.AddDate(-1, 0, 0)) {
				x = &aged{en, bs[0], yearsBetween(*bs[0].Anchor, now)}
			}
		}
		switch {
		case x == nil:
			unknown++
		case len(best) == 0 || plan.Most == "oldest" && x.age > best[0].age || plan.Most == "youngest" && x.age < best[0].age:
			best = []aged{*x}
		case x.age == best[0].age:
			best = append(best, *x)
		}
	}
	out.Source = "facts"
	if len(best) == 0 {
		out.Reply = fmt.Sprintf("I don't know: I have no ages of your %s.", groupNoun(cmp.Or(plural(plan.Relation), plan.Group)))
		return out, true, nil
	}
	a := Answer{Key: best[0].f.Key, Items: []AskItem{}}
	var labels []string
	for _, b := range best {
		a.Items = append(a.Items, AskItem{Value: cmp.Or(b.en.Name, b.en.Relation), ID: b.f.ID, Key: b.f.Key, About: personal.Label(b.en)})
		label := personal.Label(b.en)
		if b.f.Key == factbase.KeyBirthday {
			label += " (born " + b.f.Value + ")"
		}
		labels = append(labels, label)
	}
	if len(best) == 1 {
		a.Reply = fmt.Sprintf("%s is the %s: %d.", labels[0], plan.Most, best[0].age)
	} else {
		a.Reply = fmt.Sprintf("%s are the %s: %d.", joinAnd(labels), plan.Most, best[0].age)
	}
	if unknown > 0 {
		a.Reply += fmt.Sprintf(" (I don't know the age of %d of them.)", unknown)
	}
	res, err := s.finish(ctx, user, out, "facts", a)
	return res, true, err
}

// yearsBetween is the whole years from birth to now.
func yearsBetween(birth, now time.Time) int {
	y := now.Year() - birth.Year()
	if now.YearDay() < birth.YearDay() {
		y--
	}
	return y
}

// leadingNumber reads the number an age starts with: "7", "5 years old", "2.5".
func leadingNumber(v string) (float64, bool) {
	f := strings.Fields(v)
	if len(f) == 0 {
		return 0, false
	}
	n, err := strconv.ParseFloat(f[0], 64)
	return n, err == nil
}

// relationHead is a relation without the words that only describe it: "little
// sister" is a sister, "older brother" a brother.
func relationHead(rel string) string {
	f := strings.Fields(rel)
	for len(f) > 1 {
		switch f[0] {
		case "little", "big", "older", "younger", "baby", "elder", "eldest", "oldest", "youngest", "twin", "kid", "new", "dear":
			f = f[1:]
			continue
		}
		break
	}
	return strings.Join(f, " ")
}

func groupNoun(g string) string {
	switch g {
	case "children":
		return "kids"
	case "family":
		return "family members"
	case "anyone":
		return "people"
	}
	return g
}

// maxPeopleAnswer is the most people an answer names ("who are my friends?").
const maxPeopleAnswer = core.DefaultPageSize

// firstPeople returns the first maxPeopleAnswer of found, and how many more there are.
func firstPeople(found []factbase.Entity) ([]factbase.Entity, int) {
	if len(found) <= maxPeopleAnswer {
		return found, 0
	}
	return found[:maxPeopleAnswer], len(found) - maxPeopleAnswer
}

// andMore says how many people an answer left out, if any.
func andMore(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (and %d more)", n)
}

// peopleAnswer returns an answer whose items are the people's names (or relations),
// each with the id of the fact that relates them to the user.
func (s *Service) peopleAnswer(ctx context.Context, user factbase.UserID, found []factbase.Entity) (Answer, error) {
	a := Answer{Key: factbase.KeyRelation, Items: []AskItem{}}
	for _, en := range found {
		facts, err := s.core.Get(ctx, user, en.Subject(), factbase.KeyRelation, nil)
		if err != nil {
			return a, err
		}
		it := AskItem{Value: en.Name, Key: factbase.KeyRelation, About: personal.Label(en)}
		if it.Value == "" {
			it.Value = en.Relation
		}
		if len(facts) > 0 {
			it.ID = facts[0].ID
		}
		a.Items = append(a.Items, it)
	}
	return a, nil
}

// whoReply says who has the relation asked: "Your husband is Ben."
func whoReply(found []factbase.Entity, rel string) string {
	var names []string
	for _, en := range found {
		if en.Name == "" {
			names = append(names, "someone whose name I don't know")
			continue
		}
		n := en.Name
		if en.Relation != "" && !strings.EqualFold(en.Relation, rel) {
			n += " (" + en.Relation + ")"
		}
		names = append(names, n)
	}
	if len(found) == 1 {
		return fmt.Sprintf("Your %s is %s.", rel, names[0])
	}
	return fmt.Sprintf("Your %s: %s.", plural(rel), joinAnd(names))
}
