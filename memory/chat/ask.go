package chat

import (
	"context"
	"fmt"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
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
	case question.ListMember:
		if plan.Topic != "" {
			return s.askList(ctx, user, plan, out)
		}
		if a, ok, err := s.askLiked(ctx, user, plan, out); answered(a, ok, err) {
			return a, err
		}
		plan.Kind = question.YesNo // "Do I like hiking?": what the user likes
	case question.ListCount, question.ListLeast, question.ListTop:
		return s.askList(ctx, user, plan, out)
	case question.History:
		if a, ok, err := s.askHistory(ctx, user, q, plan, out); answered(a, ok, err) {
			return a, err
		}
	}
	if plan.Until {
		a, _, err := s.askUntil(ctx, user, plan, out)
		return a, err
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
