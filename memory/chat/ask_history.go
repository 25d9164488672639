package chat

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/personal"
	"github.com/factbase/factbase/question"
)

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
	if plan.Topic != "" && plan.Before {
		return s.askListBefore(ctx, user, plan, out)
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
	versions, err := s.historyOf(ctx, user, subject, historyQuestion(q, plan), plan.Value)
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
		if versions[0].Source.Kind == factbase.SourceEpisode {
			// An episode's words may tell more than its extracted facts ("Upgraded
			// Airflow from 2.7.3 to 2.9.1" stores 2.9.1 only): the episodes answer.
			return out, false, nil
		}
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
			// what is stored bears on it: the values the key had
			var had []string
			for i := len(versions) - 1; i >= 0; i-- {
				if !slices.Contains(had, versions[i].Value) {
					had = append(had, versions[i].Value)
				}
			}
			return dontKnow(fmt.Sprintf("No, not as far as I know: %s %s %s %s.", strings.ToLower(owner[:1])+owner[1:],
				plural(noun), map[bool]string{true: "was", false: "were"}[len(had) == 1], joinAnd(had)))
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
		a.Reply = fmt.Sprintf("%s %s, oldest first: %s.", owner, plural(noun), joinAnd(itemValues(a.Items)))
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
// historyQuestion is q without the value it names and the words of time that place
// it ("What was the NEXUS version before 2.3.1?" looks for the NEXUS version): what
// identifies the key whose history is asked.
func historyQuestion(q string, plan question.Plan) string {
	if plan.Value != "" {
		if i := strings.Index(strings.ToLower(q), strings.ToLower(plan.Value)); i >= 0 {
			q = q[:i] + " " + q[i+len(plan.Value):]
		}
	}
	var kept []string
	for _, w := range strings.Fields(q) {
		switch strings.ToLower(strings.Trim(w, "?.,!")) {
		case "before", "after", "until", "since", "prior", "to":
			continue
		}
		kept = append(kept, w)
	}
	return strings.Join(kept, " ")
}

func (s *Service) historyOf(ctx context.Context, user factbase.UserID, subject, q, value string) ([]factbase.Fact, error) {
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
	// the one that had the value it names ("before Lisbon": the home city, not the
	// home town), else the one changed last
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
	if i := slices.IndexFunc(versions, func(f factbase.Fact) bool { return value != "" && valueMentions(f.Value, value) }); best == 0 && i >= 0 {
		key = versions[i].Key
	}
	return slices.DeleteFunc(versions, func(f factbase.Fact) bool { return f.Key != key }), nil
}

func aboutOf(subject, label string) string {
	if subject == factbase.SubjectUser {
		return factbase.SubjectUser
	}
	return label
}
