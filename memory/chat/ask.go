package chat

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/normalize"
	"github.com/factbase/factbase/personal"
	"github.com/factbase/factbase/question"
	"github.com/factbase/factbase/router"
)

// Ask answers a question about the user from what is stored, deterministically: the
// one answer path of the CLI's ask, POST /questions, MCP's ask and the web page. The
// rules place the question (package question, then the router's reads) and the
// answer comes from the read that fits: a ranked list's count, membership or least
// favorite; the user's basics and favorites (the router's reads); earlier values
// (history); the facts about the user, the people they name, a group of them or a
// time window (recall, filtered to whom and what the question asks); episodes (the
// hybrid query); a configured model's plan. It never guesses: when nothing stored
// answers, it says so and has no items. Items carry the ids of the facts they came
// from. The question's time is the message time in ctx (people.WithMessage), else now.
func (s *Service) Ask(ctx context.Context, user factbase.UserID, q string) (AskResult, error) {
	p, err := parse(user, q)
	if err != nil {
		return AskResult{}, err
	}
	out := AskResult{Route: p.Route, Items: []AskItem{}}
	plan, placed := question.Of(q)
	if placed {
		out.Plan = &plan
	}
	answered := func(a AskResult, ok bool, err error) bool { return err != nil || ok }
	switch plan.Kind {
	case question.ListCount, question.ListMember, question.ListLeast:
		a, err := s.askList(ctx, user, plan, out)
		return a, err
	case question.History:
		if a, ok, err := s.askHistory(ctx, user, q, plan, out); answered(a, ok, err) {
			return a, err
		}
	}
	if p.Route == router.RouteRead && len(p.Queries) > 0 {
		return s.askRouter(ctx, user, p, out)
	}
	if placed {
		if a, ok, err := s.askFacts(ctx, user, q, plan, out); answered(a, ok, err) {
			return a, err
		}
	}
	if a, ok, err := s.askEpisodes(ctx, user, q, out); answered(a, ok, err) {
		return a, err
	}
	if a, ok, err := s.askPlanner(ctx, user, q, p); answered(a, ok, err) { // planner.go: the model's fallback
		a.Plan, a.Source = out.Plan, "model"
		return a, err
	}
	out.Reply = "I don't know: nothing I have stored answers that."
	if p.Clarify != "" {
		out.Reply = p.Clarify
	}
	return out, nil
}

// finish sets out's reply and items from answers, marks the facts used in an answer
// (reference.go) and returns out.
func (s *Service) finish(ctx context.Context, user factbase.UserID, out AskResult, source string, answers ...Answer) (AskResult, error) {
	if err := s.referenceAnswers(ctx, user, answers); err != nil {
		return AskResult{}, err
	}
	out.Source = source
	out.Key, out.Items = answers[0].Key, answers[0].Items
	var replies []string
	for _, a := range answers {
		replies = append(replies, a.Reply)
	}
	out.Reply = strings.Join(replies, " ")
	if len(answers) > 1 {
		out.Answers = answers
	}
	return out, nil
}

// askRouter answers the reads the router found: the user's basics and favorites.
func (s *Service) askRouter(ctx context.Context, user factbase.UserID, p router.Result, out AskResult) (AskResult, error) {
	var answers []Answer
	for _, q := range p.Queries {
		a, err := s.answer(ctx, user, q)
		if err != nil {
			return AskResult{}, err
		}
		answers = append(answers, a)
	}
	return s.finish(ctx, user, out, "list", answers...)
}

// askList answers a count, a membership or a least favorite of a favorites list.
func (s *Service) askList(ctx context.Context, user factbase.UserID, plan question.Plan, out AskResult) (AskResult, error) {
	c, err := s.TopicKey(ctx, user, plan.Topic)
	if err != nil {
		return AskResult{}, err
	}
	noun := topicNoun(c.Key)
	a := Answer{Key: c.Key, Items: []AskItem{}}
	switch plan.Kind {
	case question.ListLeast:
		key := factbase.LeastFavoritePrefix + strings.TrimPrefix(c.Key, factbase.FavoritesPrefix)
		a.Key = key
		facts, err := s.core.Get(ctx, user, factbase.SubjectUser, key, nil)
		if err != nil {
			return AskResult{}, err
		}
		if len(facts) == 0 && plan.Last {
			// no least favorite stored: the bottom of the favorites list
			n, err := s.core.List(ctx, user, factbase.SubjectUser, c.Key, 0, 1, nil)
			if err != nil {
				return AskResult{}, err
			}
			if n.Total > 1 { // the last of one favorite is no least favorite
				p, err := s.core.List(ctx, user, factbase.SubjectUser, c.Key, n.Total-1, 1, nil)
				if err != nil {
					return AskResult{}, err
				}
				f := p.Items[0]
				a.Key, a.Total = c.Key, n.Total
				a.Items = append(a.Items, AskItem{Rank: f.Rank, Value: f.Value, ID: f.ID, Key: c.Key, About: factbase.SubjectUser})
				a.Reply = fmt.Sprintf("Of your %d favorite %s, %s (#%d) is the one you rank last.", n.Total, plural(noun), f.Value, f.Rank)
				break
			}
		}
		if len(facts) == 0 {
			a.Reply = fmt.Sprintf("I don't know your least favorite %s.", noun)
			break
		}
		for _, f := range facts {
			a.Items = append(a.Items, AskItem{Value: f.Value, ID: f.ID, Key: key, About: factbase.SubjectUser})
		}
		a.Reply = fmt.Sprintf("Your least favorite %s is %s.", noun, joinAnd(itemValues(a.Items)))
	case question.ListCount:
		p, err := s.core.List(ctx, user, factbase.SubjectUser, c.Key, 0, 10, nil)
		if err != nil {
			return AskResult{}, err
		}
		a.Total = p.Total
		if p.Total == 0 {
			a.Reply = fmt.Sprintf("I don't know of any favorite %s of yours.", plural(noun))
			break
		}
		var parts []string
		for _, f := range p.Items {
			a.Items = append(a.Items, AskItem{Rank: f.Rank, Value: f.Value, ID: f.ID, Key: c.Key, About: factbase.SubjectUser})
			parts = append(parts, fmt.Sprintf("#%d %s", f.Rank, f.Value))
		}
		n := fmt.Sprintf("%d favorite %s", p.Total, plural(noun))
		if p.Total == 1 {
			n = "1 favorite " + noun
		}
		a.Reply = fmt.Sprintf("You have %s: %s", n, strings.Join(parts, ", "))
		if p.Total > len(p.Items) {
			a.Reply += fmt.Sprintf(" and %d more", p.Total-len(p.Items))
		}
		a.Reply += "."
	case question.ListMember:
		want := memberNorm(plan.Value)
		total := 0
		for off := 0; ; off += core.MaxPageSize {
			p, err := s.core.List(ctx, user, factbase.SubjectUser, c.Key, off, core.MaxPageSize, nil)
			if err != nil {
				return AskResult{}, err
			}
			total = p.Total
			for _, f := range p.Items {
				if memberNorm(f.Value) == want {
					a.Items = append(a.Items, AskItem{Rank: f.Rank, Value: f.Value, ID: f.ID, Key: c.Key, About: factbase.SubjectUser})
				}
			}
			if len(a.Items) > 0 || off+core.MaxPageSize >= p.Total {
				break
			}
		}
		a.Total = total
		switch {
		case len(a.Items) > 0 && plan.Rank > 0 && a.Items[0].Rank > plan.Rank:
			a.Reply = fmt.Sprintf("No: %s is #%d of your favorite %s, not in your top %d.", a.Items[0].Value, a.Items[0].Rank, plural(noun), plan.Rank)
		case len(a.Items) > 0:
			a.Reply = fmt.Sprintf("Yes: %s is #%d of your %d favorite %s.", a.Items[0].Value, a.Items[0].Rank, total, plural(noun))
		case total == 0:
			a.Reply = fmt.Sprintf("I don't know your favorite %s yet.", plural(noun))
		default:
			a.Reply = fmt.Sprintf("No: %s is not one of your %d favorite %s.", plan.Value, total, plural(noun))
		}
	}
	return s.finish(ctx, user, out, "list", a)
}

// memberNorm is a value as membership compares it: normalised, without a leading
// article.
func memberNorm(v string) string {
	n := normalize.Value(v)
	for _, a := range []string{"the ", "a ", "an "} {
		n = strings.TrimPrefix(n, a)
	}
	return n
}

func itemValues(items []AskItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Value
	}
	return out
}

// askHistory answers from the versions of the key the question asks about: "where
// did I live before Oslo?", "what was my email in 2024?", "where did Ben use to
// work?", "when did I move to Oslo?", "did I ever live in Rome?", "which cities have
// I lived in?", and a favorites list as of a year. ok is false when the question
// names no key; a question about a time or value no version has is answered "I
// don't know".
func (s *Service) askHistory(ctx context.Context, user factbase.UserID, q string, plan question.Plan, out AskResult) (AskResult, bool, error) {
	if plan.Topic != "" && plan.When {
		return s.askListAdded(ctx, user, plan, out)
	}
	if plan.Topic != "" {
		return s.askListAsOf(ctx, user, plan, out)
	}
	subject, about := factbase.SubjectUser, "you"
	if !plan.Self {
		ens, err := s.people.LiveEntities(ctx, user)
		if err != nil {
			return out, false, err
		}
		if named, _ := namedPeople(ens, recallWords(q)); len(named) > 0 {
			subject, about = named[0].Subject(), personal.Label(named[0])
		}
	}
	versions, err := s.historyOf(ctx, user, subject, q)
	if err != nil || len(versions) == 0 {
		return out, false, err
	}
	key := versions[0].Key
	noun := planNoun(key)
	owner := "Your"
	if subject != factbase.SubjectUser {
		owner = about + "'s"
	}
	dontKnow := func(reply string) (AskResult, bool, error) {
		out.Source, out.Key, out.Reply = "history", key, reply
		return out, true, nil
	}
	item := func(f factbase.Fact) AskItem {
		return AskItem{Value: f.Value, ID: f.ID, Key: key, About: aboutOf(subject, about)}
	}
	a := Answer{Key: key, Items: []AskItem{}}
	want := memberNorm(plan.Value)
	at := slices.IndexFunc(versions, func(f factbase.Fact) bool {
		return plan.Value != "" && valueMentions(f.Value, plan.Value) && memberNorm(f.Value) != ""
	})
	if at >= 0 && memberNorm(versions[at].Value) != want {
		// prefer an exact value over one that only mentions it
		if i := slices.IndexFunc(versions, func(f factbase.Fact) bool { return memberNorm(f.Value) == want }); i >= 0 {
			at = i
		}
	}
	switch {
	case plan.When:
		if at < 0 {
			return dontKnow(fmt.Sprintf("I don't know: %s was never your %s as far as I know.", plan.Value, noun))
		}
		f := versions[at]
		// the earliest version of that value in an unbroken run
		for at+1 < len(versions) && memberNorm(versions[at+1].Value) == memberNorm(f.Value) {
			at++
			f = versions[at]
		}
		it := item(f)
		it.Value = f.ValidFrom.Format("January 2, 2006") // the answer is the date; the fact is cited
		a.Items = append(a.Items, it)
		a.Reply = fmt.Sprintf("Since %s: %s %s became %s.", f.ValidFrom.Format("January 2, 2006"), strings.ToLower(owner[:1])+owner[1:], noun, f.Value)
	case plan.Always:
		if at < 0 {
			return dontKnow(fmt.Sprintf("No: your %s is %s.", noun, versions[0].Value))
		}
		if len(versions) == 1 || !slices.ContainsFunc(versions, func(f factbase.Fact) bool { return memberNorm(f.Value) != memberNorm(versions[at].Value) }) {
			a.Items = append(a.Items, item(versions[at]))
			a.Reply = fmt.Sprintf("Yes, as far as I know: %s %s has always been %s.", owner, noun, versions[at].Value)
			break
		}
		for _, f := range versions {
			if memberNorm(f.Value) != memberNorm(versions[at].Value) {
				a.Items = append(a.Items, item(f))
			}
		}
		a.Reply = fmt.Sprintf("No: %s %s was also %s.", owner, noun, joinAnd(itemValues(a.Items)))
	case plan.Ever:
		if at < 0 {
			return dontKnow(fmt.Sprintf("I don't know: %s is not among the %ss I have stored.", plan.Value, noun))
		}
		a.Items = append(a.Items, item(versions[at]))
		a.Reply = fmt.Sprintf("Yes: %s %s was %s%s.", owner, noun, versions[at].Value, during(versions[at]))
	case plan.All:
		seen := map[string]bool{}
		for i := len(versions) - 1; i >= 0; i-- {
			if n := memberNorm(versions[i].Value); !seen[n] {
				seen[n] = true
				a.Items = append(a.Items, item(versions[i]))
			}
		}
		a.Reply = fmt.Sprintf("%s %ss, oldest first: %s.", owner, noun, joinAnd(itemValues(a.Items)))
	case plan.Year > 0:
		start := time.Date(plan.Year, 1, 1, 0, 0, 0, 0, time.UTC)
		end := start.AddDate(1, 0, 0)
		for _, f := range versions { // newest first: the last value that held in the year
			if f.ValidFrom.Before(end) && (f.ValidTo == nil || f.ValidTo.After(start)) {
				a.Items = append(a.Items, item(f))
				a.Reply = fmt.Sprintf("In %d %s %s was %s%s.", plan.Year, strings.ToLower(owner[:1])+owner[1:], noun, f.Value, during(f))
				break
			}
		}
		if len(a.Items) == 0 {
			return dontKnow(fmt.Sprintf("I don't know your %s in %d: the earliest I have is from %s.", noun, plan.Year,
				versions[len(versions)-1].ValidFrom.Format("January 2006")))
		}
	case plan.Value != "":
		switch {
		case at < 0: // "before" names no value of the key: not this read's question
			return out, false, nil
		case at+1 < len(versions):
			f := versions[at+1]
			a.Items = append(a.Items, item(f))
			a.Reply = fmt.Sprintf("Before %s, %s %s was %s%s.", versions[at].Value, strings.ToLower(owner[:1])+owner[1:], noun, f.Value, during(f))
		default:
			return dontKnow(fmt.Sprintf("I don't know: %s is the earliest %s I have stored.", versions[at].Value, noun))
		}
	default: // "used to": the latest value that no longer holds
		i := slices.IndexFunc(versions, func(f factbase.Fact) bool { return !f.Current })
		if i < 0 {
			return dontKnow(fmt.Sprintf("I don't know: %s is the only %s I have stored.", versions[0].Value, noun))
		}
		a.Items = append(a.Items, item(versions[i]))
		a.Reply = fmt.Sprintf("%s %s was %s%s.", owner, noun, versions[i].Value, during(versions[i]))
	}
	res, err := s.finish(ctx, user, out, "history", a)
	return res, true, err
}

// during says when a version held: " (from April 2023 until June 2025)".
func during(f factbase.Fact) string {
	if f.ValidTo == nil {
		return fmt.Sprintf(" (since %s)", f.ValidFrom.Format("January 2006"))
	}
	from, to := f.ValidFrom.Format("January 2006"), f.ValidTo.Format("January 2006")
	if from == to {
		return ""
	}
	return fmt.Sprintf(" (from %s until %s)", from, to)
}

// historyOf returns the versions, newest first, of the single-valued key of subject
// the question asks about: by its words' intents, else the key of the episode fact
// the hybrid query finds ("What was the NEXUS version before 2.3.1?").
func (s *Service) historyOf(ctx context.Context, user factbase.UserID, subject, q string) ([]factbase.Fact, error) {
	var versions []factbase.Fact
	for _, p := range askIntents(q) {
		fs, err := s.core.Facts(ctx, user, factbase.FactFilter{Subject: subject, KeyPrefix: p, History: true, NewestFirst: true, Limit: core.MaxPageSize})
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			if recallKeyMatches(f.Key, []string{p}) && f.Cardinality == factbase.One {
				versions = append(versions, f)
			}
		}
		if len(versions) > 0 {
			break
		}
	}
	if len(versions) == 0 && subject == factbase.SubjectUser {
		qa, err := s.retrieve.Query(ctx, user, q, retrieve.QueryOptions{Prefer: retrieve.PreferFact, Now: people.Message(ctx).Time})
		if err != nil || qa.Source != retrieve.SourceFact {
			return nil, err
		}
		fs, err := s.core.Facts(ctx, user, factbase.FactFilter{Subject: subject, Key: qa.Fact.Key, History: true, NewestFirst: true, Limit: core.MaxPageSize})
		if err != nil {
			return nil, err
		}
		versions = fs
	}
	if len(versions) == 0 {
		return nil, nil
	}
	// the key the question names ("my email", not the phone of the same prefix), else
	// the one changed last
	key, best := versions[0].Key, 0
	have := recallStems(recallWords(q))
	for _, f := range versions {
		n := 0
		for _, w := range recallWords(strings.NewReplacer(".", " ", "_", " ").Replace(f.Key)) {
			if have[stemOf(w)] {
				n++
			}
		}
		if n > best {
			key, best = f.Key, n
		}
	}
	return slices.DeleteFunc(versions, func(f factbase.Fact) bool { return f.Key != key }), nil
}

// askListAdded answers when a value joined a favorites list: "When did I add SOL to
// my favorite cryptos?".
func (s *Service) askListAdded(ctx context.Context, user factbase.UserID, plan question.Plan, out AskResult) (AskResult, bool, error) {
	c, err := s.TopicKey(ctx, user, plan.Topic)
	if err != nil {
		return out, false, err
	}
	fs, err := s.core.Facts(ctx, user, factbase.FactFilter{Subject: factbase.SubjectUser, Key: c.Key, History: true, Limit: core.MaxPageSize})
	if err != nil {
		return out, false, err
	}
	want := memberNorm(plan.Value)
	for _, f := range fs { // oldest first
		if memberNorm(f.Value) == want {
			a := Answer{Key: c.Key, Items: []AskItem{{Value: f.ValidFrom.Format("January 2, 2006"), ID: f.ID, Key: c.Key, About: factbase.SubjectUser}}}
			a.Reply = fmt.Sprintf("You added %s to your favorite %s on %s.", f.Value, plural(topicNoun(c.Key)), f.ValidFrom.Format("January 2, 2006"))
			res, err := s.finish(ctx, user, out, "history", a)
			return res, true, err
		}
	}
	out.Source, out.Key = "history", c.Key
	out.Reply = fmt.Sprintf("I don't know: %s was never among your favorite %s as far as I know.", plan.Value, plural(topicNoun(c.Key)))
	return out, true, nil
}

// askListAsOf answers a favorites list as it was in a year: "What were my favorite
// cryptos in 2024?", "Was XMR one of my favorite cryptos in 2024?".
func (s *Service) askListAsOf(ctx context.Context, user factbase.UserID, plan question.Plan, out AskResult) (AskResult, bool, error) {
	c, err := s.TopicKey(ctx, user, plan.Topic)
	if err != nil {
		return out, false, err
	}
	noun := topicNoun(c.Key)
	end := time.Date(plan.Year+1, 1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Nanosecond)
	p, err := s.core.List(ctx, user, factbase.SubjectUser, c.Key, 0, core.MaxPageSize, &end)
	if err != nil {
		return out, false, err
	}
	a := Answer{Key: c.Key, Items: []AskItem{}, Total: p.Total}
	switch {
	case p.Total == 0:
		out.Source, out.Key = "history", c.Key
		out.Reply = fmt.Sprintf("I don't know your favorite %s in %d.", plural(noun), plan.Year)
		return out, true, nil
	case plan.Ever:
		want := memberNorm(plan.Value)
		for _, f := range p.Items {
			if memberNorm(f.Value) == want {
				a.Items = append(a.Items, AskItem{Rank: f.Rank, Value: f.Value, ID: f.ID, Key: c.Key, About: factbase.SubjectUser})
			}
		}
		if len(a.Items) == 0 {
			a.Reply = fmt.Sprintf("No: at the end of %d %s was not one of your favorite %s.", plan.Year, plan.Value, plural(noun))
		} else {
			a.Reply = fmt.Sprintf("Yes: at the end of %d %s was #%d of your favorite %s.", plan.Year, a.Items[0].Value, a.Items[0].Rank, plural(noun))
		}
	default:
		var parts []string
		for _, f := range p.Items {
			a.Items = append(a.Items, AskItem{Rank: f.Rank, Value: f.Value, ID: f.ID, Key: c.Key, About: factbase.SubjectUser})
			parts = append(parts, fmt.Sprintf("#%d %s", f.Rank, f.Value))
		}
		a.Reply = fmt.Sprintf("At the end of %d your favorite %s were %s.", plan.Year, plural(noun), strings.Join(parts, ", "))
		if p.Total == 1 {
			a.Reply = fmt.Sprintf("At the end of %d your favorite %s was %s.", plan.Year, noun, p.Items[0].Value)
		}
	}
	res, err := s.finish(ctx, user, out, "history", a)
	return res, true, err
}

func aboutOf(subject, label string) string {
	if subject == factbase.SubjectUser {
		return factbase.SubjectUser
	}
	return label
}

// intentPrefixes are the key prefixes a question's words ask about (recallIntents).
func intentPrefixes(q string) []string {
	var out []string
	for _, w := range recallWords(q) {
		for _, p := range recallIntents[w] {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

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

// askFacts answers from the facts about the user, the people the question names, a
// group of them or a time window: recall's hits, kept to whom and what the question
// asks. ok is false when nothing stored bears on it.
func (s *Service) askFacts(ctx context.Context, user factbase.UserID, q string, plan question.Plan, out AskResult) (AskResult, bool, error) {
	now := people.Message(ctx).Time
	ens, err := s.people.LiveEntities(ctx, user)
	if err != nil {
		return out, false, err
	}
	if plan.Kind == question.Who {
		return s.askWho(ctx, user, plan, ens, out)
	}
	intents := askIntents(q)
	if plan.Kind == question.Group && (plan.Value == "" && len(intents) == 0 || plan.Count) {
		return s.askGroup(ctx, user, q, plan, ens, out)
	}
	// whom the question asks about
	subjects := map[string]bool{}
	words := recallWords(q)
	switch {
	case plan.Kind == question.Group:
		for _, en := range ens {
			if inGroup(en, plan.Group) {
				subjects[en.Subject()] = true
			}
		}
		if plan.Group == "family" {
			subjects[factbase.SubjectUser] = true
		}
		if len(subjects) == 0 {
			out.Reply, out.Source = fmt.Sprintf("I don't know of any %s of yours.", groupNoun(plan.Group)), "facts"
			return out, true, nil
		}
	case plan.Kind == question.WhoHas:
		for _, en := range ens {
			subjects[en.Subject()] = true
		}
	default:
		named, missing := namedPeople(ens, words)
		if missing != "" && len(named) == 0 {
			out.Reply, out.Source = fmt.Sprintf("I don't know of your %s.", missing), "facts"
			return out, true, nil
		}
		for _, en := range named {
			subjects[en.Subject()] = true
		}
		if len(subjects) == 0 && plan.Self {
			subjects[factbase.SubjectUser] = true
		}
	}
	// Recall's own score floor is for a prompt block; here the filters below decide.
	rec, err := s.Recall(ctx, user, q, RecallOptions{Limit: MaxRecallLimit, Now: now, MinScore: 0.001})
	content := contentWords(words, ens)
	if err != nil {
		return out, false, err
	}
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(q)), "why ") {
		return out, false, nil // a reason is in the episodes' words, not in a fact
	}
	timeOnly := len(intents) > 0 && !slices.ContainsFunc(intents, func(p string) bool {
		return p != factbase.KeyPlan && p != factbase.KeyTravel && p != factbase.KeySchedule
	}) && strings.HasPrefix(strings.ToLower(strings.TrimSpace(q)), "when ")
	// The facts of the people asked about, read directly: recall ranks what it finds
	// by the question's words and may not reach them all.
	candidates := rec.Hits
	seen := map[string]bool{}
	for _, h := range candidates {
		seen[h.Fact.ID] = true
	}
	byID := map[string]factbase.Entity{}
	for _, en := range ens {
		byID[en.ID] = en
	}
	for subject := range subjects {
		fs, err := s.core.Facts(ctx, user, factbase.FactFilter{Subject: subject, Limit: 500})
		if err != nil {
			return out, false, err
		}
		for _, f := range fs {
			if seen[f.ID] {
				continue
			}
			h := RecallHit{Key: f.Key, Value: f.Value, Text: retrieve.HitText(f), Fact: f}
			if f.Sensitivity == factbase.High && !sensitiveAsked(q) && !mentions(h, content) {
				continue // the privacy mode: a health fact only when asked about it
			}
			seen[f.ID] = true
			h.About, h.Role, h.EntityID = recallAbout(f.Subject, entitiesBySubject(ens))
			candidates = append(candidates, h)
		}
	}
	var hits []RecallHit
	for _, h := range candidates {
		switch {
		case len(subjects) > 0 && !subjects[h.Fact.Subject]:
		case h.Key == factbase.KeyRelation, strings.HasPrefix(h.Key, factbase.FavoritesPrefix):
			// who someone is answers Who; a list answers by rank, count or membership
		case len(intents) > 0 && !recallKeyMatches(h.Key, intents):
		case plan.About && h.Key != factbase.KeyRelation:
			hits = append(hits, h) // everything known about them
		case len(intents) == 0 && h.When == nil && !mentions(h, content):
			// nothing the question asks for: a named person's other facts do not answer it
		case timeOnly && !mentions(h, content):
			// "When is my performance review?" is not answered by another plan
		default:
			hits = append(hits, h)
		}
	}
	if plan.Kind == question.YesNo && plan.Value == "" && rec.Window == nil {
		// "Do I speak French?": what the question names beyond the kind of fact it asks
		// about is the value to find; without it every language would say yes.
		plan.Value = strings.Join(slices.DeleteFunc(slices.Clone(content), func(w string) bool {
			return (len(recallIntents[w]) > 0 || intentVerbs[w]) && !valueWords[w]
		}), " ")
	}
	matching := hits
	if plan.Value != "" {
		matching = slices.DeleteFunc(slices.Clone(hits), func(h RecallHit) bool { return !valueMentions(h.Value, plan.Value) })
	}
	yesNo := plan.Kind == question.YesNo || plan.Kind == question.Group && strings.HasPrefix(strings.ToLower(q), "is ") ||
		plan.Kind == question.Group && reYesNoStart(q)
	switch {
	case len(matching) > 0:
	case yesNo && len(hits) > 0 && plan.Value != "":
		res, err := s.finish(ctx, user, out, "facts", hitsAnswer(hits, "No, not as far as I know: "))
		return res, true, err
	case yesNo || plan.Kind == question.Group || plan.Kind == question.WhoHas:
		out.Reply, out.Source = "I don't know: nothing I have stored says so.", "facts"
		return out, true, nil
	default:
		return out, false, nil
	}
	if rec.Window != nil {
		// a time asks for everything in it, soonest first
		matching = slices.DeleteFunc(matching, func(h RecallHit) bool { return h.When == nil })
		if len(matching) == 0 {
			out.Reply, out.Source = "I don't know of anything then.", "facts"
			return out, true, nil
		}
	} else if !plan.Many && !yesNo {
		// one answer: the best hit and the others of its key and subject (a set)
		top := matching[0]
		matching = slices.DeleteFunc(matching, func(h RecallHit) bool {
			return h.Key != top.Key || h.Fact.Subject != top.Fact.Subject || h.Fact.Cardinality == factbase.One && h.Fact.ID != top.Fact.ID
		})
	}
	a := hitsAnswer(matching, "")
	if yesNo {
		a = hitsAnswer(matching, "Yes: ")
		if negative(matching) && !negativeAsked(q) {
			a = hitsAnswer(matching, "No: ")
		}
	}
	lq := strings.ToLower(strings.TrimSpace(q))
	if plan.Kind == question.WhoHas || plan.Kind == question.Group && (plan.Value != "" || yesNo) || strings.HasPrefix(lq, "who ") || strings.HasPrefix(lq, "which of ") {
		a = peopleItems(a, matching, ens)
	}
	res, err := s.finish(ctx, user, out, "facts", a)
	return res, true, err
}

// sensitiveAsked reports whether a question asks for high-sensitivity facts (health).
func sensitiveAsked(q string) bool {
	for _, w := range recallWords(q) {
		if recallSensitive[w] {
			return true
		}
	}
	return false
}

// entitiesBySubject maps the subjects of ens to them.
func entitiesBySubject(ens []factbase.Entity) map[string]factbase.Entity {
	m := make(map[string]factbase.Entity, len(ens))
	for _, en := range ens {
		m[en.Subject()] = en
	}
	return m
}

// yesNoQuestion reports whether a question starts as a yes/no question does.
func yesNoQuestion(q string) bool { return reYesNoStart(q) }

// reYesNoStart reports whether a question starts as a yes/no question does.
func reYesNoStart(q string) bool {
	f := strings.Fields(strings.ToLower(q))
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "do", "does", "did", "is", "are", "am", "was", "were", "has", "have", "can":
		return true
	}
	return false
}

// negativeKeys hold what someone does not do or have.
var negativeKeys = []string{factbase.KeyAvoid, factbase.KeyDislikes}

// negative reports whether every hit says what someone avoids or dislikes, so that a
// yes/no question ("Do I drink alcohol?") is answered no.
func negative(hits []RecallHit) bool {
	for _, h := range hits {
		if !slices.Contains(negativeKeys, h.Key) {
			return false
		}
	}
	return true
}

// negativeAsked reports whether the question itself asks about avoiding ("Do I avoid
// gluten?", "Does Ben hate olives?").
func negativeAsked(q string) bool {
	for _, w := range recallWords(q) {
		switch w {
		case "avoid", "avoids", "hate", "hates", "dislike", "dislikes", "allergic", "intolerant", "can't", "cannot", "not", "doesn't", "don't":
			return true
		}
	}
	return false
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

// askIntents are the key prefixes a question asks about: its words' intents
// (recallIntents), narrowed where a verb says more than a noun ("What food do I hate?":
// dislikes, not diet) and widened for phrasings recall does not weigh ("what does Eli
// do": the job; "when is ...": dated facts).
func askIntents(q string) []string {
	l := " " + strings.ToLower(strings.TrimRight(strings.TrimSpace(q), "?!.")) + " "
	words := recallWords(q)
	switch {
	case reNotLike.MatchString(l):
		return []string{factbase.KeyDislikes}
	case strings.Contains(l, " do for a living ") || strings.Contains(l, " do for work ") || strings.HasPrefix(l, " what does ") && strings.HasSuffix(l, " do ") ||
		l == " what do i do ":
		return []string{factbase.KeyRole}
	case strings.Contains(l, " move to ") || strings.Contains(l, " moved to ") || strings.Contains(l, " move ") && strings.HasPrefix(l, " when "):
		return []string{"home."}
	case strings.Contains(l, " become ") || strings.Contains(l, " became ") || strings.Contains(l, " promoted "):
		return []string{factbase.KeyRole}
	case strings.Contains(l, " worked at ") || strings.Contains(l, " work at ") || strings.Contains(l, " worked for ") ||
		strings.Contains(l, " work for ") || strings.Contains(l, " join ") || strings.Contains(l, " joined ") ||
		strings.Contains(l, " start at ") || strings.Contains(l, " started at ") || strings.Contains(l, " start working "):
		return []string{factbase.KeyEmployer}
	case !strings.HasPrefix(l, " when ") && (slices.Contains(words, "job") || slices.Contains(words, "title") || slices.Contains(words, "position") || slices.Contains(words, "role")):
		return []string{factbase.KeyRole}
	case strings.HasPrefix(l, " where ") && (slices.Contains(words, "work") || slices.Contains(words, "works") || slices.Contains(words, "worked") || slices.Contains(words, "working")):
		return []string{factbase.KeyEmployer}
	case strings.Contains(l, " living in ") || strings.Contains(l, " live in ") || strings.Contains(l, " lived in ") || strings.HasPrefix(l, " where ") && (slices.Contains(words, "live") || slices.Contains(words, "lives")):
		return []string{"home."}
	case strings.HasPrefix(l, " how long ") && (slices.Contains(words, "answers") || slices.Contains(words, "replies")):
		return []string{factbase.KeyLength}
	}
	strong := map[string]bool{"hate": true, "hates": true, "dislike": true, "dislikes": true, "allergic": true,
		"afraid": true, "scared": true, "speak": true, "speaks": true, "birthday": true, "age": true}
	if strings.Contains(l, " how old ") {
		return []string{factbase.KeyAge}
	}
	for _, w := range words {
		switch w {
		case "school", "study", "studies", "studying", "major", "degree", "university", "college", "grade":
			return []string{"education."}
		case "car", "cars", "drive", "drives", "vehicle", "bike", "motorcycle":
			return []string{"vehicle"}
		case "breed":
			return []string{"breed"}
		case "learning", "learn":
			return []string{"languages.learning"}
		case "activities", "activity", "hobbies", "hobby":
			return []string{factbase.KeySchedule, "hobby", factbase.KeyLikes}
		case "trips", "trip", "travel", "travels", "travelling", "traveling", "flights", "vacation", "vacations", "holiday", "holidays":
			return []string{factbase.KeyTravel}
		}
	}
	var out []string
	for _, w := range words {
		if strong[w] {
			for _, p := range recallIntents[w] {
				if !slices.Contains(out, p) {
					out = append(out, p)
				}
			}
		}
	}
	if len(out) == 0 {
		out = slices.DeleteFunc(intentPrefixes(q), func(p string) bool {
			return p == factbase.KeyRelation || p == factbase.KeyAge && !strings.Contains(l, " age ")
		})
	}
	if strings.HasPrefix(l, " when ") && !slices.Contains(out, factbase.KeyBirthday) {
		out = append(out, factbase.KeyPlan, factbase.KeyTravel, factbase.KeySchedule)
	}
	return out
}

// reNotLike asks what someone does not like: "What doesn't Mia like?".
var reNotLike = regexp.MustCompile(`\b(?:doesn't|don't|does not|do not|didn't)\b(?: [a-z]+){0,2} (?:like|enjoy|eat)\b`)

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
		if i+2 < len(words) && notPerson[words[i+2]] {
			continue // "my dentist appointment": a thing, not the dentist
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
	}
	return named, missing
}

// notPerson follow a relation word in phrases that name a thing.
var notPerson = map[string]bool{"appointment": true, "appointments": true, "visit": true, "checkup": true, "check-up": true,
	"class": true, "classes": true, "lesson": true, "lessons": true, "practice": true, "office": true, "bill": true, "food": true}

func singularRel(w string) string { return strings.TrimSuffix(w, "s") }

// contentWords are a question's words that say what it asks: not stop words, not the
// names and relations of the people it names.
func contentWords(words []string, ens []factbase.Entity) []string {
	skip := map[string]bool{}
	for _, en := range ens {
		for _, n := range append([]string{en.Name, en.Relation}, en.Aliases...) {
			for _, w := range recallWords(n) {
				skip[w] = true
			}
		}
	}
	var out []string
	for _, w := range words {
		if !recallStop[w] && !skip[w] && !slices.Contains(personWords, w) && !slices.Contains(personWords, singularRel(w)) &&
			!groupNouns[w] && (len(w) > 2 || w[0] >= '0' && w[0] <= '9') && !questionWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// intentVerbs are the verbs of yes/no questions that name the kind of fact asked
// about, not its value ("Do I speak ...", "Does Ben drive ...").
var intentVerbs = map[string]bool{"speak": true, "drive": true, "drives": true, "own": true, "owns": true,
	"study": true, "studies": true, "learn": true, "learning": true, "play": true, "plays": true, "any": true,
	"allergies": true, "pets": true, "kids": true, "children": true, "anything": true, "something": true,
	"trips": true, "trip": true, "coming": true, "upcoming": true, "plans": true, "planned": true, "appointments": true,
	"birthdays": true, "soon": true, "free": true, "busy": true}

// valueWords are intent words that are also values: "Is Sara vegan?" asks for vegan.
var valueWords = map[string]bool{"vegan": true, "vegetarian": true}

// groupNouns name a group of people, not what is asked about them.
var groupNouns = map[string]bool{"kids": true, "children": true, "family": true, "relatives": true, "friends": true,
	"colleagues": true, "coworkers": true, "parents": true, "siblings": true, "pets": true, "team": true, "anyone": true,
	"anybody": true, "someone": true, "everyone": true, "people": true}

// mentions reports whether a hit's key, value or text holds every content word of
// the question (by stem): "What school does Leo go to?" is not answered by Leo's age.
func mentions(h RecallHit, content []string) bool {
	have := recallStems(recallWords(strings.NewReplacer(".", " ", "_", " ").Replace(h.Key) + " " + h.Value + " " + h.Text))
	for _, w := range content {
		if !have[stemOf(w)] {
			return false
		}
	}
	return len(content) > 0
}

// hitsAnswer renders recall hits as an answer: their texts in the second person.
func hitsAnswer(hits []RecallHit, prefix string) Answer {
	sort.SliceStable(hits, func(i, j int) bool {
		if (hits[i].When == nil) != (hits[j].When == nil) || hits[i].When == nil {
			return false
		}
		return hits[i].When.Before(*hits[j].When)
	})
	a := Answer{Key: hits[0].Key, Items: []AskItem{}}
	var texts []string
	for _, h := range hits {
		a.Items = append(a.Items, AskItem{Value: h.Value, ID: h.Fact.ID, Key: h.Key, About: h.About})
		text := h.Fact.Text
		if strings.TrimSpace(text) == "" {
			owner := "Your"
			if h.Fact.Subject != factbase.SubjectUser {
				owner = h.About + "'s"
			}
			text = fmt.Sprintf("%s %s: %s", owner, planNoun(h.Key), h.Value)
		}
		if h.When != nil {
			text += " — on " + h.When.Format("Monday, January 2")
		}
		texts = append(texts, secondPerson(text))
	}
	a.Reply = prefix + strings.Join(texts, "; ") + "."
	return a
}

// valueMentions reports whether a stored value mentions what a question asks about:
// "tree nuts" mentions "nuts", "peanuts" mentions "nuts" (by stem), "a dog" mentions
// "dog".
func valueMentions(value, asked string) bool {
	v, a := memberNorm(value), memberNorm(asked)
	if v == a || strings.Contains(" "+v+" ", " "+a+" ") {
		return true
	}
	have := recallStems(recallWords(v))
	for _, w := range recallWords(a) {
		if recallStop[w] {
			continue
		}
		st := stemOf(w)
		if have[st] {
			return true
		}
		for h := range have { // "peanuts" mentions "nuts"
			if len(st) >= 3 && strings.HasSuffix(h, st) {
				return true
			}
		}
	}
	return false
}

func stemOf(w string) string {
	for s := range recallStems([]string{w}) {
		return s
	}
	return w
}

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
	case plan.Group == "pets" || plan.Group == "dogs" || plan.Group == "cats" || yesNoQuestion(q):
		a.Reply = fmt.Sprintf("Yes: %s.", joinAnd(labels))
	default:
		a.Reply = fmt.Sprintf("Your %s: %s.", groupNoun(plan.Group), joinAnd(labels))
	}
	a.Reply += andMore(more)
	res, err := s.finish(ctx, user, out, "facts", a)
	return res, true, err
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

// secondPerson rewrites a fact's text for the user: "the user's" becomes "your".
func secondPerson(t string) string {
	r := strings.NewReplacer("The user's", "Your", "the user's", "your", "User's", "Your", "The user", "You", "the user", "you")
	t = r.Replace(t)
	if rest, ok := strings.CutPrefix(t, "User "); ok {
		t = "You " + rest
	}
	if rest, ok := strings.CutPrefix(t, "User: "); ok {
		t = "You: " + rest
	}
	for _, v := range [][2]string{{"You is", "You are"}, {"you is", "you are"}, {"You has", "You have"}, {"you has", "you have"},
		{"You was", "You were"}, {"you was", "you were"}, {"You lives", "You live"}, {"You works", "You work"},
		{"You likes", "You like"}, {"You loves", "You love"}, {"You speaks", "You speak"}, {"You drives", "You drive"},
		{"You hates", "You hate"}, {"You prefers", "You prefer"}, {"You wants", "You want"}, {"You does", "You do"},
		{"You avoids", "You avoid"}, {"You dislikes", "You dislike"}, {"You plays", "You play"}, {"You goes", "You go"}} {
		t = strings.ReplaceAll(t, v[0], v[1])
	}
	return t
}

// askEpisodes answers from the hybrid query (a fact whose key names what is asked,
// else the best passages of episodes). ok is false when neither answers.
func (s *Service) askEpisodes(ctx context.Context, user factbase.UserID, q string, out AskResult) (AskResult, bool, error) {
	qa, err := s.retrieve.Query(ctx, user, q, retrieve.QueryOptions{Now: people.Message(ctx).Time})
	if err != nil || qa.Source == "" {
		return out, false, err
	}
	if qa.Source == retrieve.SourceFact && (qa.Fact.Episode == "" || !covers(q, qa.Fact)) {
		// A fact of the user's own, not of an episode: the reads above placed the
		// question and found it does not answer it ("What is Anna's favorite color?").
		// Or a fact that holds only some of what is asked ("What's the ORBIT uptime?"
		// is not the ORBIT version): the passages may hold the rest.
		if qa, err = s.retrieve.Query(ctx, user, q, retrieve.QueryOptions{Prefer: retrieve.PreferNarrative, Now: people.Message(ctx).Time}); err != nil || qa.Source != retrieve.SourceNarrative {
			return out, false, err
		}
	}
	a := Answer{Items: []AskItem{}}
	switch qa.Source {
	case retrieve.SourceFact:
		a.Key = qa.Fact.Key
		a.Items = append(a.Items, AskItem{Value: qa.Value, ID: qa.Fact.FactID, Key: qa.Fact.Key})
		a.Reply = fmt.Sprintf("%s: %s.", planNoun(qa.Fact.Key), qa.Value)
		a.Reply = strings.ToUpper(a.Reply[:1]) + a.Reply[1:]
	default:
		p := qa.Passages[0]
		if !passageCovers(q, p) {
			return out, false, nil // the best passage leaves part of the question open: no answer rather than a guess
		}
		a.Reply = "From your notes: " + strings.TrimSpace(p.Text)
		out.Source = "episodes"
		out.Reply = a.Reply
		// passages are not facts: no items to cite but the episode
		out.Key = ""
		return out, true, nil
	}
	res, err := s.finish(ctx, user, out, "episodes", a)
	return res, true, err
}
func (s *Service) answer(ctx context.Context, user factbase.UserID, q router.Query) (Answer, error) {
	if q.Least {
		c, err := s.TopicKey(ctx, user, q.Topic)
		if err != nil {
			return Answer{}, err
		}
		noun := topicNoun(c.Key)
		key := factbase.LeastFavoritePrefix + strings.TrimPrefix(c.Key, factbase.FavoritesPrefix)
		a := Answer{Key: key, Items: []AskItem{}}
		facts, err := s.core.Get(ctx, user, factbase.SubjectUser, key, nil)
		if err != nil {
			return a, err
		}
		if len(facts) == 0 {
			a.Reply = fmt.Sprintf("I don't know your least favorite %s yet.", noun)
			return a, nil
		}
		a.Items = append(a.Items, AskItem{Value: facts[0].Value, ID: facts[0].ID, Key: key, About: factbase.SubjectUser})
		a.Reply = fmt.Sprintf("Your least favorite %s is %s.", noun, facts[0].Value)
		return a, nil
	}
	if q.Kind == router.QueryFact {
		info := personalKeys[q.Key]
		a := Answer{Key: q.Key, Items: []AskItem{}}
		facts, err := s.core.Get(ctx, user, factbase.SubjectUser, q.Key, nil)
		if err != nil {
			return a, err
		}
		if len(facts) == 0 {
			a.Reply = fmt.Sprintf("I don't know your %s yet.", info.noun)
			return a, nil
		}
		a.Items = append(a.Items, AskItem{Value: facts[0].Value, ID: facts[0].ID})
		a.Reply = fmt.Sprintf("Your %s is %s.", info.noun, facts[0].Value)
		return a, nil
	}
	c, err := s.TopicKey(ctx, user, q.Topic)
	if err != nil {
		return Answer{}, err
	}
	noun := topicNoun(c.Key)
	a := Answer{Key: c.Key, Items: []AskItem{}}
	if q.Kind == router.QueryRank {
		p, err := s.core.List(ctx, user, factbase.SubjectUser, c.Key, q.Rank-1, 1, nil)
		if err != nil {
			return a, err
		}
		a.Total = p.Total
		switch {
		case p.Total == 0:
			a.Reply = fmt.Sprintf("I don't know your favorite %s yet.", noun)
		case len(p.Items) == 0:
			a.Reply = fmt.Sprintf("You have %d favorite %s; there is no #%d yet.", p.Total, plural(noun), q.Rank)
		default:
			f := p.Items[0]
			a.Items = append(a.Items, AskItem{Rank: f.Rank, Value: f.Value, ID: f.ID})
			if q.Rank == 1 {
				a.Reply = fmt.Sprintf("Your favorite %s is %s.", noun, f.Value)
			} else {
				a.Reply = fmt.Sprintf("Your #%d favorite %s is %s.", q.Rank, noun, f.Value)
			}
		}
		return a, nil
	}
	limit := core.DefaultPageSize
	if q.Limit > 0 && q.Limit < limit {
		limit = q.Limit
	}
	p, err := s.core.List(ctx, user, factbase.SubjectUser, c.Key, 0, limit, nil)
	if err != nil {
		return a, err
	}
	a.Total = p.Total
	if p.Total == 0 {
		a.Reply = fmt.Sprintf("I don't know your favorite %s yet.", plural(noun))
		return a, nil
	}
	var parts []string
	for _, f := range p.Items {
		a.Items = append(a.Items, AskItem{Rank: f.Rank, Value: f.Value, ID: f.ID})
		parts = append(parts, fmt.Sprintf("#%d %s", f.Rank, f.Value))
	}
	a.Reply = fmt.Sprintf("Your favorite %s: %s.", plural(noun), strings.Join(parts, ", "))
	if p.Total > len(p.Items) && q.Limit == 0 {
		a.Reply += fmt.Sprintf(" (%d more)", p.Total-len(p.Items))
	}
	return a, nil
}

// covers reports whether an episode fact holds every content word of a question
// (by stem) in its key, value or text: "What is the NEXUS version?" is covered by
// nexus.version, "What version is the billing service on?" is not.
func covers(q string, f *retrieve.LookupResult) bool {
	have := recallStems(recallWords(strings.NewReplacer(".", " ", "_", " ").Replace(f.Key) + " " + f.Value + " " + f.Text))
	for _, w := range recallWords(q) {
		if recallStop[w] || len(w) < 3 || questionWords[w] {
			continue
		}
		if !have[stemOf(w)] {
			return false
		}
	}
	return true
}

// questionWords ask; they are not what is asked about.
var questionWords = map[string]bool{"current": true, "currently": true, "now": true, "latest": true, "running": true,
	"run": true, "runs": true, "deployed": true, "status": false, "tell": true, "know": true, "value": true}

// passageCovers reports whether an episode holds every content word of a question
// (by stem): "What's the error rate?" is not answered by a success rate.
func passageCovers(q string, p retrieve.Passage) bool {
	have := recallStems(recallWords(p.Content))
	for _, w := range recallWords(q) {
		if recallStop[w] || len(w) < 3 || questionWords[w] {
			continue
		}
		if !have[stemOf(w)] {
			return false
		}
	}
	return true
}
