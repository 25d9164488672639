package chat

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/router"
)

// askPlanner is Ask's fallback for a question the rules did not understand (no
// query, no clarification): with a Planner configured it asks the model which of the
// user's keys the question is about and answers from that key, deterministically.
// ok is false when there is no planner, when the rules understood the message, or
// when the model says the question is not about the user's facts. A model failure is
// returned as the error (a *factbase.ModelError), not hidden behind a canned reply.
func (s *Service) askPlanner(ctx context.Context, user factbase.UserID, question string, p router.Result) (AskResult, bool, error) {
	pl := s.opts.Planner
	if pl == nil || p.Route == router.RouteWrite || len(p.Queries) > 0 || p.Clarify != "" {
		return AskResult{}, false, nil
	}
	keys, err := s.core.Keys(ctx, user, factbase.SubjectUser, "")
	if err != nil {
		return AskResult{}, false, err
	}
	plan, err := pl.Plan(ctx, question, keys)
	if err != nil {
		return AskResult{}, false, err
	}
	if plan.Kind == factbase.PlanNone {
		return AskResult{}, false, nil
	}
	out := AskResult{Route: router.RouteRead, Items: []AskItem{}, Planned: pl.Model(), Key: plan.Key}
	known := slices.Contains(keys, plan.Key)
	list := strings.HasPrefix(plan.Key, factbase.FavoritesPrefix)
	var a Answer
	switch {
	case factbase.ValidateKey(plan.Key) != nil || list != (plan.Kind != factbase.PlanFact):
		// A plan whose key does not fit its kind is not used: say so.
		out.Reply = "I could not tell which of your facts that question is about."
		return out, true, nil
	case !known:
		a = Answer{Key: plan.Key, Items: []AskItem{}, Reply: fmt.Sprintf("I don't know your %s yet.", planNoun(plan.Key))}
	case list:
		q := router.Query{Kind: router.QueryList, Topic: topicNoun(plan.Key), Span: question}
		if plan.Kind == factbase.PlanRank {
			q.Kind, q.Rank = router.QueryRank, plan.Rank
		}
		if a, err = s.answer(ctx, user, q); err != nil {
			return AskResult{}, false, err
		}
	default:
		facts, err := s.core.Facts(ctx, user, factbase.FactFilter{Subject: factbase.SubjectUser, Key: plan.Key})
		if err != nil {
			return AskResult{}, false, err
		}
		a = Answer{Key: plan.Key, Items: []AskItem{}}
		var vals []string
		for _, f := range facts {
			a.Items = append(a.Items, AskItem{Value: f.Value, ID: f.ID})
			vals = append(vals, f.Value)
		}
		a.Reply = fmt.Sprintf("Your %s: %s.", planNoun(plan.Key), joinAnd(vals))
	}
	if err := s.referenceAnswers(ctx, user, []Answer{a}); err != nil {
		return AskResult{}, false, err
	}
	out.Key, out.Items, out.Reply = a.Key, a.Items, a.Reply
	return out, true, nil
}

// planNoun renders a key for a reply: "work.employer" -> "employer",
// "home.city" -> "home city", "favorites.movie" -> "favorite movies".
func planNoun(key string) string {
	if strings.HasPrefix(key, factbase.FavoritesPrefix) {
		return "favorite " + plural(topicNoun(key))
	}
	if info, ok := personalKeys[key]; ok {
		return info.noun
	}
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		key = key[i+1:]
	}
	return strings.ReplaceAll(key, "_", " ")
}
