package chat

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/normalize"
	"github.com/factbase/factbase/question"
	"github.com/factbase/factbase/router"
)

// askList answers a count, a membership, a member's rank, a least favorite or the top
// of a favorites list.
func (s *Service) askList(ctx context.Context, user factbase.UserID, plan question.Plan, out AskResult) (AskResult, error) {
	if plan.Kind == question.ListTop {
		// "Top 3 cuisines?", "My favorite movies?": the router's read of the list, as
		// if asked in full.
		q := router.Query{Kind: router.QueryList, Topic: plan.Topic, Limit: plan.Rank}
		if plan.Rank == 0 && !strings.HasSuffix(plan.Topic, "s") {
			q = router.Query{Kind: router.QueryRank, Topic: plan.Topic, Rank: 1}
		}
		a, err := s.answer(ctx, user, q)
		if err != nil {
			return AskResult{}, err
		}
		return s.finish(ctx, user, out, "list", a)
	}
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
		case plan.Position && len(a.Items) > 0:
			a.Reply = fmt.Sprintf("%s is #%d of your %d favorite %s.", a.Items[0].Value, a.Items[0].Rank, total, plural(noun))
		case plan.Position && total > 0:
			a.Reply = fmt.Sprintf("%s is not on your list of %d favorite %s.", plan.Value, total, plural(noun))
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

// askLiked answers "Do I like Haskell?" from the favorites lists that hold the value:
// yes, with its rank in each. ok is false when none does.
func (s *Service) askLiked(ctx context.Context, user factbase.UserID, plan question.Plan, out AskResult) (AskResult, bool, error) {
	keys, err := s.core.Keys(ctx, user, factbase.SubjectUser, factbase.FavoritesPrefix)
	if err != nil {
		return out, false, err
	}
	want := memberNorm(plan.Value)
	a := Answer{Items: []AskItem{}}
	var parts []string
	for _, key := range keys {
		for off := 0; ; off += core.MaxPageSize {
			p, err := s.core.List(ctx, user, factbase.SubjectUser, key, off, core.MaxPageSize, nil)
			if err != nil {
				return out, false, err
			}
			for _, f := range p.Items {
				if memberNorm(f.Value) == want {
					a.Key = cmp.Or(a.Key, key)
					a.Items = append(a.Items, AskItem{Rank: f.Rank, Value: f.Value, ID: f.ID, Key: key, About: factbase.SubjectUser})
					parts = append(parts, fmt.Sprintf("%s is #%d of your %d favorite %s", f.Value, f.Rank, p.Total, plural(topicNoun(key))))
				}
			}
			if off+core.MaxPageSize >= p.Total {
				break
			}
		}
	}
	if len(a.Items) == 0 {
		return out, false, nil
	}
	a.Reply = "Yes: " + strings.Join(parts, "; ") + "."
	res, err := s.finish(ctx, user, out, "list", a)
	return res, true, err
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

// askListBefore answers the favorite a list had before the one it has now (or before
// the value named): "What was my favorite band before?" is the #1 just before the
// last change that put the current #1 there. The times looked at are those at which
// a member was added or removed.
func (s *Service) askListBefore(ctx context.Context, user factbase.UserID, plan question.Plan, out AskResult) (AskResult, bool, error) {
	c, err := s.TopicKey(ctx, user, plan.Topic)
	if err != nil {
		return out, false, err
	}
	noun := topicNoun(c.Key)
	now, err := s.core.List(ctx, user, factbase.SubjectUser, c.Key, 0, 1, nil)
	if err != nil {
		return out, false, err
	}
	ref := plan.Value
	if ref == "" && len(now.Items) > 0 {
		ref = now.Items[0].Value
	}
	versions, err := s.core.Facts(ctx, user, factbase.FactFilter{Subject: factbase.SubjectUser, Key: c.Key, History: true, Limit: core.MaxPageSize})
	if err != nil {
		return out, false, err
	}
	var times []time.Time
	for _, f := range versions {
		times = append(times, f.ValidFrom)
		if f.ValidTo != nil {
			times = append(times, *f.ValidTo)
		}
	}
	slices.SortFunc(times, func(a, b time.Time) int { return b.Compare(a) })
	for _, t := range slices.Compact(times) {
		at := t.Add(-time.Nanosecond)
		p, err := s.core.List(ctx, user, factbase.SubjectUser, c.Key, 0, 1, &at)
		if err != nil {
			return out, false, err
		}
		if len(p.Items) == 0 || memberNorm(p.Items[0].Value) == memberNorm(ref) {
			continue
		}
		f := p.Items[0]
		a := Answer{Key: c.Key, Items: []AskItem{{Value: f.Value, ID: f.ID, Key: c.Key, About: factbase.SubjectUser}}}
		a.Reply = fmt.Sprintf("Before %s, your favorite %s was %s (until %s).", ref, noun, f.Value, t.Format("January 2006"))
		res, err := s.finish(ctx, user, out, "history", a)
		return res, true, err
	}
	out.Source, out.Key = "history", c.Key
	out.Reply = fmt.Sprintf("I don't know of a favorite %s before %s.", noun, cmp.Or(ref, "this one"))
	if ref == "" {
		out.Reply = fmt.Sprintf("I don't know your favorite %s.", noun)
	}
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
