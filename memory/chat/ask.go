package chat

import (
	"context"
	"fmt"
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
		key := "least_favorite." + strings.TrimPrefix(c.Key, factbase.FavoritesPrefix)
		a.Key = key
		facts, err := s.core.Get(ctx, user, factbase.SubjectUser, key, nil)
		if err != nil {
			return AskResult{}, err
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

// askHistory answers "where did I live before Oslo?", "what was my email in 2024?",
// "where did Ben use to work?" from the versions of the key the question asks about.
// ok is false when the question names no key or no version answers.
func (s *Service) askHistory(ctx context.Context, user factbase.UserID, q string, plan question.Plan, out AskResult) (AskResult, bool, error) {
	prefixes := intentPrefixes(q)
	if len(prefixes) == 0 {
		return out, false, nil
	}
	subject, about := factbase.SubjectUser, "you"
	if !plan.Self {
		ens, err := s.people.Entities(ctx, user, false)
		if err != nil {
			return out, false, err
		}
		words := recallWords(q)
		for _, en := range ens {
			if recallNamedBy(en, words) {
				subject, about = en.Subject(), personal.Label(en)
				break
			}
		}
	}
	var versions []factbase.Fact
	for _, p := range prefixes {
		fs, err := s.core.Facts(ctx, user, factbase.FactFilter{Subject: subject, KeyPrefix: p, History: true, NewestFirst: true, Limit: core.MaxPageSize})
		if err != nil {
			return out, false, err
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
	if len(versions) == 0 {
		return out, false, nil
	}
	key := versions[0].Key
	versions = slices.DeleteFunc(versions, func(f factbase.Fact) bool { return f.Key != key })
	var hit *factbase.Fact
	switch {
	case plan.Year > 0:
		end := time.Date(plan.Year+1, 1, 1, 0, 0, 0, 0, time.UTC)
		start := time.Date(plan.Year, 1, 1, 0, 0, 0, 0, time.UTC)
		for i, f := range versions { // newest first: the last value that held in the year
			if f.ValidFrom.Before(end) && (f.ValidTo == nil || f.ValidTo.After(start)) {
				hit = &versions[i]
				break
			}
		}
	case plan.Value != "":
		want := memberNorm(plan.Value)
		i := slices.IndexFunc(versions, func(f factbase.Fact) bool { return memberNorm(f.Value) == want })
		switch {
		case i < 0: // "before" names no value of the key: not this read's question
		case i+1 < len(versions):
			hit = &versions[i+1]
		default:
			out.Source = "history"
			out.Key = key
			out.Reply = fmt.Sprintf("I don't know: %s is the earliest %s I have stored.", versions[i].Value, planNoun(key))
			return out, true, nil
		}
	default: // "used to": the latest value that no longer holds
		for i, f := range versions {
			if !f.Current {
				hit = &versions[i]
				break
			}
		}
	}
	if hit == nil {
		return out, false, nil
	}
	owner := "Your"
	if subject != factbase.SubjectUser {
		owner = about + "'s"
	}
	a := Answer{Key: key, Items: []AskItem{{Value: hit.Value, ID: hit.ID, Key: key, About: aboutOf(subject, about)}}}
	a.Reply = fmt.Sprintf("%s %s was %s", owner, planNoun(key), hit.Value)
	if hit.ValidTo != nil && hit.ValidFrom.Format("January 2006") != hit.ValidTo.Format("January 2006") {
		a.Reply += fmt.Sprintf(" (from %s until %s)", hit.ValidFrom.Format("January 2006"), hit.ValidTo.Format("January 2006"))
	}
	a.Reply += "."
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

// inGroup reports whether en belongs to group.
func inGroup(en factbase.Entity, group string) bool {
	if slices.Contains(groupRoles[group], en.Role) {
		return true
	}
	if group == "family" {
		for _, w := range familyWords {
			if strings.Contains(en.Relation, w) {
				return true
			}
		}
	}
	return false
}

// relationWords are the relations that answer a relation asked about.
var relationWords = map[string][]string{
	"child": {"son", "daughter", "child", "kid"}, "kid": {"son", "daughter", "child", "kid"},
	"spouse":  {"husband", "wife", "spouse", "partner"},
	"partner": {"husband", "wife", "spouse", "partner", "boyfriend", "girlfriend", "fiance", "fiancé", "fiancee"},
	"parent":  {"mother", "father", "mom", "dad", "mum", "parent"}, "mom": {"mother", "mom", "mum"},
	"mother": {"mother", "mom", "mum"}, "mum": {"mother", "mom", "mum"}, "dad": {"father", "dad"}, "father": {"father", "dad"},
	"sibling": {"brother", "sister", "sibling"}, "coworker": {"colleague", "coworker"}, "colleague": {"colleague", "coworker"},
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
// group of them or a time window: recall's hits, filtered to whom and what the
// question asks. ok is false when nothing stored answers.
func (s *Service) askFacts(ctx context.Context, user factbase.UserID, q string, plan question.Plan, out AskResult) (AskResult, bool, error) {
	now := people.Message(ctx).Time
	ens, err := s.people.Entities(ctx, user, false)
	if err != nil {
		return out, false, err
	}
	if plan.Kind == question.Who {
		return s.askWho(ctx, user, plan, ens, out)
	}
	rec, err := s.Recall(ctx, user, q, RecallOptions{Limit: MaxRecallLimit, Now: now})
	if err != nil {
		return out, false, err
	}
	intents := intentPrefixes(q)
	// whom the question asks about
	subjects := map[string]bool{}
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
	case len(rec.Entities) > 0:
		for _, id := range rec.Entities {
			subjects[factbase.EntitySubject(id)] = true
		}
	case plan.Self:
		subjects[factbase.SubjectUser] = true
	}
	if plan.Kind == question.Group && plan.Value == "" {
		return s.askGroup(ctx, user, plan, ens, out)
	}
	var hits []RecallHit
	for _, h := range rec.Hits {
		if len(subjects) > 0 && !subjects[h.Fact.Subject] {
			continue
		}
		if len(intents) > 0 && !recallKeyMatches(h.Key, intents) && h.When == nil {
			continue
		}
		if len(intents) == 0 && h.When == nil && !slices.ContainsFunc(h.Why, func(w string) bool { return strings.HasPrefix(w, "words") }) {
			continue // nothing the question asks for: a named person's other facts do not answer it
		}
		if h.Key == factbase.KeyRelation && len(intents) > 0 && !slices.Contains(intents, factbase.KeyRelation) {
			continue
		}
		if strings.HasPrefix(h.Key, factbase.FavoritesPrefix) {
			continue // a list answers by rank, count or membership (askList, the router), not as loose facts
		}
		hits = append(hits, h)
	}
	matching := hits
	if plan.Value != "" {
		matching = slices.DeleteFunc(slices.Clone(hits), func(h RecallHit) bool { return !valueMentions(h.Value, plan.Value) })
	}
	yesNo := plan.Kind == question.YesNo || plan.Kind == question.Group
	switch {
	case len(matching) > 0:
	case yesNo && len(hits) > 0 && plan.Value != "":
		a := hitsAnswer(hits, "No, not as far as I know: ")
		res, err := s.finish(ctx, user, out, "facts", a)
		return res, true, err
	case yesNo:
		out.Reply = "Not that I know of: nothing I have stored says so."
		if plan.Kind == question.YesNo && len(intents) > 0 && plan.Self {
			out.Reply = "None that I know of: I have nothing stored about that."
		}
		out.Source = "facts"
		return out, true, nil
	default:
		return out, false, nil
	}
	if !plan.Many && !yesNo {
		// one answer: the best hit and the others of its key and subject (a set)
		top := matching[0]
		matching = slices.DeleteFunc(matching, func(h RecallHit) bool {
			return h.Key != top.Key || h.Fact.Subject != top.Fact.Subject || h.Fact.Cardinality == factbase.One && h.Fact.ID != top.Fact.ID
		})
	}
	prefix := ""
	if yesNo {
		prefix = "Yes: "
	}
	res, err := s.finish(ctx, user, out, "facts", hitsAnswer(matching, prefix))
	return res, true, err
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
		if !recallStop[w] && have[stemOf(w)] {
			return true
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
	for _, en := range ens {
		if relationMatches(en.Relation, plan.Relation) {
			found = append(found, en)
		}
	}
	if len(found) == 0 {
		return out, false, nil
	}
	a, err := s.peopleAnswer(ctx, user, found)
	if err != nil {
		return out, false, err
	}
	a.Reply = whoReply(found, plan.Relation)
	res, err := s.finish(ctx, user, out, "facts", a)
	return res, true, err
}

// askGroup answers "do we have any pets?", "who are my kids?" with the group's people.
func (s *Service) askGroup(ctx context.Context, user factbase.UserID, plan question.Plan, ens []factbase.Entity, out AskResult) (AskResult, bool, error) {
	var found []factbase.Entity
	for _, en := range ens {
		if inGroup(en, plan.Group) {
			found = append(found, en)
		}
	}
	if len(found) == 0 {
		out.Reply = fmt.Sprintf("Not that I know of: I have no %s of yours stored.", groupNoun(plan.Group))
		out.Source = "facts"
		return out, true, nil
	}
	a, err := s.peopleAnswer(ctx, user, found)
	if err != nil {
		return out, false, err
	}
	var labels []string
	for _, en := range found {
		labels = append(labels, personal.Label(en))
	}
	a.Reply = fmt.Sprintf("Yes: %s.", joinAnd(labels))
	if plan.Group != "pets" {
		a.Reply = fmt.Sprintf("Your %s: %s.", groupNoun(plan.Group), joinAnd(labels))
	}
	res, err := s.finish(ctx, user, out, "facts", a)
	return res, true, err
}

func groupNoun(g string) string {
	switch g {
	case "children":
		return "kids"
	case "family":
		return "family members"
	}
	return g
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
	for _, v := range [][2]string{{"You is", "You are"}, {"you is", "you are"}, {"You has", "You have"}, {"you has", "you have"},
		{"You was", "You were"}, {"you was", "you were"}, {"You lives", "You live"}, {"You works", "You work"},
		{"You likes", "You like"}, {"You loves", "You love"}, {"You speaks", "You speak"}, {"You drives", "You drive"},
		{"You hates", "You hate"}, {"You prefers", "You prefer"}, {"You wants", "You want"}} {
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
	if qa.Source == retrieve.SourceFact && qa.Fact.Episode == "" {
		// A fact of the user's own, not of an episode: the reads above placed the
		// question and found it does not answer it ("What is Anna's favorite color?").
		return out, false, nil
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
