package chat

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/question"
)

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
	if len(intents) > 0 && asksDay(q) {
		// "Which day do I work from home?" asks when: the plans and schedules that
		// mention it answer, not the employer "work" names.
		intents = append(intents, factbase.KeySchedule, factbase.KeyPlan, factbase.KeyTravel)
	}
	if yesNoQuestion(q) && len(intents) > 0 && namesWeekday(q) {
		// "Do I work from home on Fridays?": a schedule, not only the job
		intents = append(intents, factbase.KeySchedule, factbase.KeyPlan)
	}
	if plan.Kind == question.YesNo && slices.Contains(intents, factbase.KeyLikes) && !slices.Contains(intents, factbase.KeyDislikes) {
		// "Do I enjoy cilantro?" is answered no by a dislike
		intents = append(intents, factbase.KeyDislikes)
	}
	if plan.Kind == question.Group && (plan.Value == "" && len(intents) == 0 || plan.Count) {
		return s.askGroup(ctx, user, q, plan, ens, out)
	}
	// whom the question asks about
	subjects := map[string]bool{}
	aboutNamed := false // the question names whom it is about: "Who does Hana work for?"
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
		aboutNamed = len(named) > 0
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
	if rec.Window != nil && len(intents) > 0 {
		// "Who am I having dinner with tomorrow?": a plan then, not only a diet
		for _, k := range []string{factbase.KeyPlan, factbase.KeyTravel, factbase.KeySchedule} {
			if !slices.Contains(intents, k) {
				intents = append(intents, k)
			}
		}
	}
	timeOnly := len(intents) > 0 && !slices.ContainsFunc(intents, func(p string) bool {
		return !slices.Contains(timeKeys, p)
	}) && strings.HasPrefix(lowerQuestion(q), "when ")
	if asksDay(q) {
		// "What time is my job interview?": the plan or schedule that names it, not
		// every plan ("time" names what is asked, not what it is about)
		timeOnly = true
		content = slices.DeleteFunc(content, func(w string) bool { return w == "time" || w == "day" || w == "days" || w == "date" })
	}
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
	relabel := factbase.NewRelabeler(ens)
	for subject := range subjects {
		fs, err := s.core.Facts(ctx, user, factbase.FactFilter{Subject: subject, Limit: 500})
		if err != nil {
			return out, false, err
		}
		for _, f := range fs {
			if seen[f.ID] {
				continue
			}
			f.Text = relabel.Text(f)
			h := RecallHit{Key: f.Key, Value: f.Value, Text: retrieve.HitText(f), Fact: f}
			if f.Sensitivity == factbase.High && !sensitiveAsked(q) && !mentions(h, content) {
				continue // the privacy mode: a health fact only when asked about it
			}
			seen[f.ID] = true
			h.About, h.Role, h.EntityID = recallAbout(f.Subject, entitiesBySubject(ens))
			candidates = append(candidates, h)
		}
	}
	story := readEpisodeQuestion(q, now).story
	var hits []RecallHit
	for _, h := range candidates {
		switch {
		case len(subjects) > 0 && !subjects[h.Fact.Subject]:
		case h.Key == factbase.KeyRelation, strings.HasPrefix(h.Key, factbase.FavoritesPrefix):
			// who someone is answers Who; a list answers by rank, count or membership
		case len(intents) > 0 && !recallKeyMatches(h.Key, intents):
		case h.Key == factbase.KeyOrigin && livesAsked(words):
			// "Who lives in Lyon?" is not answered by where someone is from
		case strings.HasPrefix(lowerQuestion(q), "where ") && slices.Contains(dateKeys, h.Key):
			// "Where was I born?" asks for a place, not the birthday
		case plan.About && len(subjects) == 0 && !mentions(h, content):
			// "Tell me about the auth-service rollback": what names it, or the episodes
		case plan.About && h.Key != factbase.KeyRelation:
			hits = append(hits, h) // everything known about them
		case len(intents) == 0 && h.When == nil && !mentions(h, content):
			// nothing the question asks for: a named person's other facts do not answer it
		case timeOnly && !mentions(h, content):
			// "When is my performance review?" is not answered by another plan
		case plan.Kind == question.Facts && !yesNoQuestion(q) && saysValue(q, h.Value):
			// "What did we do in session 13?" is not answered by "session: 13"
		case h.Fact.Source.Kind == factbase.SourceEpisode && story:
			// "What's the latest on ORBIT?" asks for the episode, not a value from it
		case asksDay(q) && !slices.Contains(timeKeys, h.Key) && h.Fact.Anchor == nil:
			// "What time is my job interview?" is not answered by the job
		default:
			hits = append(hits, h)
		}
	}
	if free, busy := availabilityAsked(q); rec.Window != nil && yesNoQuestion(q) && (free || busy) {
		return s.askAvailable(ctx, user, hits, free, out)
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
		plan.Kind == question.Group && yesNoQuestion(q)
	switch {
	case len(matching) > 0:
	case yesNo && len(hits) > 0 && plan.Value != "":
		res, err := s.finish(ctx, user, out, "facts", hitsAnswer(hits, "No, not as far as I know: "))
		return res, true, err
	case plan.Kind == question.YesNo && len(hits) == 0 && len(subjects) == 0:
		// Not about the user or someone they know, and no fact bears on it: the
		// episodes may ("Is the orders migration finished?").
		return out, false, nil
	case yesNo || plan.Kind == question.Group || plan.Kind == question.WhoHas:
		out.Reply, out.Source = "I don't know: nothing I have stored says so.", "facts"
		return out, true, nil
	default:
		return out, false, nil
	}
	if rec.Window != nil {
		// a time asks for everything in it, soonest first; "who" for the people in it
		matching = slices.DeleteFunc(matching, func(h RecallHit) bool { return h.When == nil })
		if strings.HasPrefix(lowerQuestion(q), "who ") {
			matching = slices.DeleteFunc(matching, func(h RecallHit) bool { return !namesSomeone(h, ens) && withName(h.Value) == "" })
		}
		if len(matching) == 0 {
			out.Reply, out.Source = "I don't know of anything then.", "facts"
			if strings.HasPrefix(lowerQuestion(q), "who ") {
				out.Reply = "I don't know of anyone then."
			}
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
	if rec.Window != nil {
		// what happens then: "Ivy's birthday (May 22)", not "May 22"
		for i, h := range matching {
			switch {
			case slices.Contains(dateKeys, h.Key):
				a.Items[i].Value = eventLabel(h)
			case h.Fact.Subject != factbase.SubjectUser:
				a.Items[i].Value = h.About + ": " + h.Value // whose plan: "Carmen: visiting us on Saturday"
			}
		}
	}
	lq := lowerQuestion(q)
	if plan.Kind == question.WhoHas || plan.Kind == question.Group && (plan.Value != "" || yesNo) ||
		(strings.HasPrefix(lq, "who ") || strings.HasPrefix(lq, "whose ")) && !aboutNamed || strings.HasPrefix(lq, "which of ") {
		a = peopleItems(a, matching, ens)
		for i, h := range matching {
			if n := withName(h.Value); n != "" && h.Fact.Subject == factbase.SubjectUser && strings.HasPrefix(lq, "who ") {
				a.Items[i].Value = n // "Who am I having dinner with?": Sara, of "dinner with Sara"
			}
		}
	}
	res, err := s.finish(ctx, user, out, "facts", a)
	return res, true, err
}

func withName(value string) string {
	if m := reWithName.FindStringSubmatch(value); m != nil {
		return m[1]
	}
	return ""
}

// eventLabel names what a dated fact is: "Ivy's birthday (May 22)", "your
// anniversary (April 9)".
func eventLabel(h RecallHit) string {
	owner := "your"
	if h.Fact.Subject != factbase.SubjectUser {
		owner = h.About + "'s"
	}
	return fmt.Sprintf("%s %s (%s)", owner, planNoun(h.Key), h.Value)
}

// saysValue reports whether a question holds a number value itself: "session 13".
func saysValue(q, value string) bool {
	return isDigits(value) && slices.Contains(recallWords(q), value)
}

// namesSomeone reports whether a hit is about someone the user knows, or its text
// names one of them: "Who am I meeting on Friday?" is not answered by a haircut.
func namesSomeone(h RecallHit, ens []factbase.Entity) bool {
	if h.Fact.Subject != factbase.SubjectUser {
		return true
	}
	words := recallWords(h.Fact.Text + " " + h.Value)
	return slices.ContainsFunc(ens, func(en factbase.Entity) bool {
		return en.Name != "" && recallNamedBy(factbase.Entity{Name: en.Name, Aliases: en.Aliases}, words)
	})
}

// timeKeys hold when something happens.
var timeKeys = []string{factbase.KeyPlan, factbase.KeyTravel, factbase.KeySchedule, factbase.KeyBirthday,
	factbase.KeyUserBirthday, factbase.KeyAnniversary}

// dateKeys hold a date or an age, never a place.
var dateKeys = []string{factbase.KeyBirthday, factbase.KeyUserBirthday, factbase.KeyAnniversary, factbase.KeyAge}

// livesAsked reports whether a question asks where someone lives (not where they
// are from).
func livesAsked(words []string) bool {
	return !slices.Contains(words, "from") && slices.ContainsFunc(words, func(w string) bool {
		switch w {
		case "live", "lives", "lived", "living", "reside", "resides", "stay", "stays", "based", "located":
			return true
		}
		return false
	})
}

// lowerQuestion is q in lower case, trimmed, with the contractions of its question
// word spelled out: "When's my dentist appointment?" is "when is my dentist
// appointment?".
func lowerQuestion(q string) string {
	l := strings.ToLower(strings.TrimSpace(strings.ReplaceAll(q, "’", "'")))
	for _, w := range []string{"when", "where", "what", "who", "how", "which"} {
		if rest, ok := strings.CutPrefix(l, w+"'s "); ok {
			return w + " is " + rest
		}
	}
	return l
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
func yesNoQuestion(q string) bool {
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

// askIntents are the key prefixes a question asks about: its words' intents
// (recallIntents), narrowed where a verb says more than a noun ("What food do I hate?":
// dislikes, not diet) and widened for phrasings recall does not weigh ("what does Eli
// do": the job; "when is ...": dated facts).
func askIntents(q string) []string {
	l := " " + strings.TrimRight(lowerQuestion(q), "?!.") + " "
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
	case strings.Contains(l, " living in ") || strings.Contains(l, " live in ") || strings.Contains(l, " lived in ") ||
		strings.HasPrefix(l, " where ") && slices.ContainsFunc(words, func(w string) bool {
			return w == "live" || w == "lives" || w == "based" || w == "located" || w == "reside" || w == "resides"
		}):
		return []string{"home."}
	case strings.HasPrefix(l, " how long ") && (slices.Contains(words, "answers") || slices.Contains(words, "replies")):
		return []string{factbase.KeyLength}
	}
	strong := map[string]bool{"hate": true, "hates": true, "dislike": true, "dislikes": true, "allergic": true,
		"afraid": true, "scared": true, "speak": true, "speaks": true, "birthday": true, "age": true}
	if strings.Contains(l, " how old ") {
		return []string{factbase.KeyAge}
	}
	when := strings.HasPrefix(l, " when ")
	for _, w := range words {
		if when {
			break // "When is Lea's school play?" asks for a date, not the school
		}
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
	if when {
		// "When am I off work?" asks for a date: of the intents, those that hold one
		out = slices.DeleteFunc(out, func(p string) bool { return !slices.Contains(timeKeys, p) })
		if !slices.Contains(out, factbase.KeyBirthday) {
			out = append(out, factbase.KeyPlan, factbase.KeyTravel, factbase.KeySchedule)
		}
	}
	return out
}

// reNotLike asks what someone does not like: "What doesn't Mia like?".
var reNotLike = regexp.MustCompile(`\b(?:doesn't|don't|does not|do not|didn't)\b(?: [a-z]+){0,2} (?:like|enjoy|eat)\b`)

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
	for i, w := range words {
		person := skip[w] || slices.Contains(personWords, w) || slices.Contains(personWords, singularRel(w))
		if person && namesThing(words, i) {
			person = false // "my dentist appointment": what is asked about
		}
		if !recallStop[w] && !person && !groupNouns[w] && (len(w) > 2 || w[0] >= '0' && w[0] <= '9') && !questionWords[w] && !lightVerbs[w] {
			out = append(out, w)
		}
	}
	return out
}

// lightVerbs say little of what is asked: "When does Rocky see the vet?" asks about
// the vet.
var lightVerbs = map[string]bool{"see": true, "sees": true, "seeing": true, "go": true, "goes": true, "going": true,
	"get": true, "gets": true, "getting": true, "take": true, "takes": true, "taking": true, "make": true, "makes": true}

// namesThing reports whether the relation word at i names a thing with the word after
// it, possessive or not: "my dentist appointment", "my doctor's appointment".
func namesThing(words []string, i int) bool {
	j := i + 1
	if j < len(words) && words[j] == "s" {
		j++
	}
	return j < len(words) && notPerson[words[j]]
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
