package chat

import (
	"context"
	"fmt"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/canon"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/normalize"
	"github.com/factbase/factbase/personal"
	"github.com/factbase/factbase/question"
	"github.com/factbase/factbase/router"
	"github.com/factbase/factbase/text"
)

// OpView is an op as Say reports it.
type OpView struct {
	Kind  factbase.OpKind `json:"kind"`
	Key   string          `json:"key"`
	Value string          `json:"value"`
	Rank  int             `json:"rank,omitempty"`
}

// Canonical reports how a topic phrase was canonicalised.
type Canonical struct {
	Topic      string  `json:"topic"` // as said
	Key        string  `json:"key"`
	Method     string  `json:"method"`
	Confidence float64 `json:"confidence"`
}

// SayResult is what Say did with a message.
type SayResult struct {
	Route   router.Route    `json:"route"`
	Ops     []OpView        `json:"ops"`
	Result  factbase.Result `json:"result"`
	Reply   string          `json:"reply"`
	Clarify string          `json:"clarify,omitempty"`
	Topics  []Canonical     `json:"topics,omitempty"`
	Skipped []string        `json:"skipped,omitempty"` // statements not applied, with why
}

// AskItem is one value of an answer, with the fact it came from, so that an
// assistant can cite it.
type AskItem struct {
	Rank  int    `json:"rank,omitempty"`
	Value string `json:"value"`
	ID    string `json:"id"`
	// Key and About name the fact: its key and whom it is about ("user", or the
	// person's label); set for answers read from facts about people.
	Key   string `json:"key,omitempty"`
	About string `json:"about,omitempty"`
}

// Answer is the answer to one query of a question.
type Answer struct {
	Key   string    `json:"key"`
	Items []AskItem `json:"items"`
	Total int       `json:"total,omitempty"` // the list's length, for list answers
	Reply string    `json:"reply"`
}

// AskResult is the answer to a question. Key and Items are those of the first query;
// Answers holds every query's answer when a question asks several things.
type AskResult struct {
	Route   router.Route `json:"route"`
	Key     string       `json:"key"`
	Items   []AskItem    `json:"items"`
	Reply   string       `json:"reply"`
	Answers []Answer     `json:"answers,omitempty"`
	// Planned names the model that said what the question asks for, when no rule
	// understood it (Options.Planner); "" when the rules did.
	Planned string `json:"planned,omitempty"`
	// Plan is how the rules read the question, when package question placed it.
	Plan *question.Plan `json:"plan,omitempty"`
	// Source is the read that answered: "list", "facts", "history", "recall",
	// "episodes", "model", or "" when nothing did.
	Source string `json:"source,omitempty"`
}

// personalKeys describes the single-valued personal keys the router knows.
var personalKeys = map[string]struct{ noun, typ string }{
	factbase.KeyEmail:        {"email", "contact"},
	factbase.KeyWorkEmail:    {"work email", "contact"},
	factbase.KeyPhone:        {"phone number", "contact"},
	factbase.KeyWorkPhone:    {"work phone number", "contact"},
	factbase.KeyName:         {"name", "identity"},
	factbase.KeyUserBirthday: {"birthday", "personal"},
	factbase.KeyCity:         {"home city", "home"},
	factbase.KeyEmployer:     {"employer", "work"},
	factbase.KeyRole:         {"job", "work"},
}

// TopicKey canonicalises a topic phrase into a list key, with the user's own list
// topics when the canonicalizer compares with them (Options.KnownTopics).
func (s *Service) TopicKey(ctx context.Context, user factbase.UserID, topic string) (Canonical, error) {
	var known []string
	if s.opts.KnownTopics {
		keys, err := s.core.Keys(ctx, user, factbase.SubjectUser, factbase.FavoritesPrefix)
		if err != nil {
			return Canonical{}, err
		}
		known = topicsOf(keys)
	}
	return s.canonical(ctx, topic, known)
}

// topicsOf turns list keys into the topics the canonicalizer compares with.
func topicsOf(keys []string) []string {
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, strings.ReplaceAll(strings.TrimPrefix(k, factbase.FavoritesPrefix), "_", " "))
	}
	return out
}

// canonical canonicalises topic against the user's known topics.
func (s *Service) canonical(ctx context.Context, topic string, known []string) (Canonical, error) {
	d, err := s.canon.Canonicalize(ctx, topic, known)
	if err != nil && d.Topic == "" {
		return Canonical{}, err
	}
	return Canonical{Topic: topic, Key: factbase.FavoritesPrefix + strings.ReplaceAll(d.Topic, " ", "_"),
		Method: d.Method, Confidence: d.Confidence}, nil
}

// topicNoun renders a list key as words: favorites.vacation_destination -> "vacation
// destination".
func topicNoun(key string) string {
	return strings.ReplaceAll(strings.TrimPrefix(key, factbase.FavoritesPrefix), "_", " ")
}

// Say reads a user's message, writes what it states through the write path, and
// replies in a sentence. Statements about other people, negations and questions write
// nothing. A write with no topic or no value returns a clarification question.
//
// It reads in one snapshot (the user's list topics and what the personal facts are
// checked against), canonicalises topics and embeds the texts it will store outside
// any transaction (either may call a model), then decides and writes in one write
// transaction; the fact sheet follows the write (core.Engine.Update).
func (s *Service) Say(ctx context.Context, user factbase.UserID, message string) (SayResult, error) {
	// The message is read once: the router, the personal facts, their dates and
	// endings share its parse.
	tp := text.New(message)
	p, err := parseText(user, tp)
	if err != nil {
		return SayResult{}, err
	}
	out := SayResult{Route: p.Route, Ops: []OpView{}, Clarify: p.Clarify,
		Result: factbase.Result{Duplicates: []factbase.Duplicate{}, Mutations: []factbase.Mutation{}}}
	var unclear []string
	p.Statements, unclear = constituents(p.Statements)
	if people.Message(ctx).Speaker == personal.SpeakerAssistant && len(p.Statements) > 0 {
		// The router reads "I" and "my" as the user's; in an assistant's turn they are
		// the assistant's. What the assistant says about the user ("your ...") is the
		// personal extractor's, which reads the turn in the second person.
		unclear = append(unclear, "an assistant's own statements are not the user's facts")
		p.Statements, p.Route = nil, router.RouteNone
	}
	var (
		known []string
		held  []string            // the lists of statements that name none
		pp    people.PersonalPlan // facts about the user and the people they name
	)
	err = s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		if s.opts.KnownTopics && hasTopics(p.Statements) {
			keys, err := tx.Keys(ctx, factbase.SubjectUser, factbase.FavoritesPrefix)
			if err != nil {
				return err
			}
			known = topicsOf(keys)
		}
		var err error
		if held, err = listsHolding(ctx, tx, p.Statements); err != nil {
			return err
		}
		pp, err = s.people.PlanMessageTextIn(ctx, tx, user, tp)
		return err
	})
	if err != nil {
		return SayResult{}, err
	}
	if fix, ok := router.Correction(message); ok && people.Message(ctx).Speaker != personal.SpeakerAssistant && correctable(p, pp, fix) {
		// "Sorry, I meant Basel": the previous message's fact, corrected.
		res, done, err := s.correct(ctx, user, fix, pp)
		if err != nil {
			return SayResult{}, err
		}
		if done {
			return res, nil
		}
	}
	if p.Route != router.RouteWrite && pp.Empty() {
		out.Skipped = append(unclear, pp.Skipped...)
		switch p.Route {
		case router.RouteRead:
			out.Reply = "That is a question; ask it and I will answer from what I know."
		default:
			out.Reply = "Nothing to remember in that message."
		}
		return out, nil
	}
	topics, err := s.canonicalTopics(ctx, p.Statements, known)
	if err != nil {
		return SayResult{}, err
	}
	for i, k := range held {
		topics[i].Key = k
	}
	src := factbase.Source{Kind: factbase.SourceMessage}
	var ops []factbase.Op
	var notes, skipped []string
	if len(p.Statements) > 0 || len(pp.Ops) > 0 || pp.With != nil {
		// The texts of what the write may store, embedded before it (a remove of a
		// value that is not there only leaves one unused).
		planned, _, _, err := s.statementOpsIn(ctx, nil, p.Statements, topics, src)
		if err != nil {
			return SayResult{}, err
		}
		vecs, err := s.core.EmbedOps(ctx, append(planned, pp.Ops...))
		if err != nil {
			return SayResult{}, err
		}
		res, err := s.core.UpdateEmbedded(ctx, user, vecs, func(w *core.Writer) error {
			var err error
			if ops, notes, skipped, err = s.statementOpsIn(ctx, w.Tx(), p.Statements, topics, src); err != nil {
				return err
			}
			pp = pp.KeepSet(ops) // a key the router sets anew is not also ended
			ops = append(ops, pp.Ops...)
			if err := w.Apply(ops...); err != nil {
				return err
			}
			if pp.With != nil {
				return pp.With(w)
			}
			return nil
		})
		if err != nil {
			return SayResult{}, err
		}
		res.Facts = nil
		out.Result = res
	}
	for _, c := range topics {
		if c.Key != "" {
			out.Topics = append(out.Topics, c)
		}
	}
	out.Skipped = append(append(unclear, skipped...), pp.Skipped...)
	notes = append(notes, pp.Reply...)
	for _, op := range ops {
		out.Ops = append(out.Ops, OpView{Kind: op.Kind, Key: op.Fact.Key, Value: op.Fact.Value, Rank: op.Fact.Rank})
	}
	out.Reply = strings.Join(append(replyFor(out.Result, ops), notes...), " ")
	if out.Reply == "" {
		out.Reply = p.Clarify
	} else if p.Clarify != "" {
		out.Reply += " " + p.Clarify
	}
	return out, nil
}

// constituents keeps the values of the statements that write which are clean
// constituents of their clause (normalize.Constituent), without a trailing "now",
// and drops the others with why; a statement left without values is dropped. Removes
// keep their values: they only match what is stored.
func constituents(sts []router.Statement) (kept []router.Statement, unclear []string) {
	kept = sts[:0:0]
	for _, st := range sts {
		if st.Kind == router.Remove {
			kept = append(kept, st)
			continue
		}
		values := make([]string, 0, len(st.Values))
		for _, v := range st.Values {
			clean, why, _ := normalize.Constituent(v)
			if why != "" {
				unclear = append(unclear, fmt.Sprintf("unclear value %q: %s", core.ClipText(v), why))
				continue
			}
			values = append(values, clean)
		}
		if len(values) > 0 || len(st.Values) == 0 {
			st.Values = values
			kept = append(kept, st)
		}
	}
	return kept, unclear
}

// parse checks the user id and reads a message (router.Parse): how Say and Ask
// begin.
func parse(user factbase.UserID, message string) (router.Result, error) {
	return parseText(user, text.New(message))
}

// parseText is parse reading the parse of the message.
func parseText(user factbase.UserID, tp *text.Parse) (router.Result, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return router.Result{}, err
	}
	return router.ParseText(tp)
}

// hasTopics reports whether a statement names a favorites topic.
func hasTopics(statements []router.Statement) bool {
	for _, st := range statements {
		if st.Key == "" {
			return true
		}
	}
	return false
}

// canonicalTopics canonicalises the topic of each statement that has one (the
// others get a zero Canonical), against the user's known topics, and reports each
// decision to the observer.
func (s *Service) canonicalTopics(ctx context.Context, statements []router.Statement, known []string) ([]Canonical, error) {
	out := make([]Canonical, len(statements))
	for i, st := range statements {
		if st.Key != "" || st.Topic == "" {
			continue
		}
		c, err := s.canonical(ctx, st.Topic, known)
		if err != nil {
			return nil, err
		}
		s.canonicalized(c)
		out[i] = c
	}
	return out, nil
}

// StatementOps turns the router's statements into ops with source src, without
// applying them (Remember applies them in its job's transaction): topics are
// canonicalised, and a remove of a value that is not in its list becomes a note and
// a skipped entry instead of an op.
func (s *Service) StatementOps(ctx context.Context, user factbase.UserID, statements []router.Statement, src factbase.Source) (ops []factbase.Op, topics []Canonical, notes, skipped []string, err error) {
	var known []string
	if s.opts.KnownTopics && hasTopics(statements) {
		keys, err := s.core.Keys(ctx, user, factbase.SubjectUser, factbase.FavoritesPrefix)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		known = topicsOf(keys)
	}
	all, err := s.canonicalTopics(ctx, statements, known)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	for _, c := range all {
		if c.Key != "" {
			topics = append(topics, c)
		}
	}
	err = s.core.View(ctx, user, func(tx factbase.ReadTx) (err error) {
		held, err := listsHolding(ctx, tx, statements)
		if err != nil {
			return err
		}
		for i, k := range held {
			all[i].Key = k
		}
		ops, notes, skipped, err = s.statementOpsIn(ctx, tx, statements, all, src)
		return err
	})
	return ops, topics, notes, skipped, err
}

// listsHolding returns, for each statement that names no list ("swap mango and
// figs", "move Dune to the bottom"), the key of the one favorites list of the user
// that holds all its values; "" when none or several do, and for other statements.
// It returns nil when no statement lacks a list.
func listsHolding(ctx context.Context, tx factbase.ReadTx, statements []router.Statement) ([]string, error) {
	var (
		out  []string
		keys []string
	)
	for i, st := range statements {
		if st.Key != "" || st.Topic != "" || st.Least {
			continue
		}
		if out == nil {
			out = make([]string, len(statements))
			var err error
			if keys, err = tx.Keys(ctx, factbase.SubjectUser, factbase.FavoritesPrefix); err != nil {
				return nil, err
			}
		}
		found, n := "", 0
		for _, k := range keys {
			all := true
			for _, v := range st.Values {
				_, ok, err := tx.Member(ctx, factbase.SubjectUser, k, normalize.Value(v))
				if err != nil {
					return nil, err
				}
				all = all && ok
			}
			if all {
				found, n = k, n+1
			}
		}
		if n == 1 {
			out[i] = found
		}
	}
	return out, nil
}

// statementOpsIn builds the ops of statements, whose topics are canonicalised in
// topics (one per statement), looking up the members a remove names in tx. With a
// nil tx every member is taken as present: the ops a write may make, for embedding.
func (s *Service) statementOpsIn(ctx context.Context, tx factbase.ReadTx, statements []router.Statement, topics []Canonical, src factbase.Source) (ops []factbase.Op, notes, skipped []string, err error) {
	for i, st := range statements {
		if st.Key != "" { // a single-valued personal fact
			if len(st.Values) == 0 {
				continue
			}
			info := personalKeys[st.Key]
			ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: st.Key, Value: st.Values[0],
				Cardinality: factbase.One, Type: info.typ, Category: factbase.Core, Source: src, Extractor: "router",
				Text: core.ClipText(fmt.Sprintf("User's %s is %s", info.noun, st.Values[0])), SaidBy: "user"}})
			continue
		}
		c := topics[i]
		if c.Key == "" {
			// A swap or move that names no list, and no one list holds its values.
			v := strings.Join(st.Values, " and ")
			notes = append(notes, fmt.Sprintf("Which of your favorites lists is %s in?", v))
			skipped = append(skipped, fmt.Sprintf("%s %q: no one list holds it", st.Kind, v))
			continue
		}
		if st.Least {
			noun := topicNoun(c.Key)
			ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{
				Key: factbase.LeastFavoritePrefix + strings.TrimPrefix(c.Key, factbase.FavoritesPrefix), Value: st.Values[0],
				Cardinality: factbase.One, Type: "preference", Category: factbase.Core, Source: src, Extractor: "router",
				SaidBy: "user", Text: core.ClipText(fmt.Sprintf("Least favorite %s: %s", noun, st.Values[0]))}})
			continue
		}
		fav := func(v string, rank int) factbase.Fact {
			return factbase.Fact{Key: c.Key, Value: v, Rank: rank, Cardinality: factbase.Ranked, Type: "preference",
				Category: factbase.Core, Source: src, Extractor: "router", SaidBy: "user",
				Text: core.ClipText(fmt.Sprintf("Favorite %s: %s", topicNoun(c.Key), v))}
		}
		// member looks a value up in the list; with a nil tx every value is there, at
		// no rank.
		member := func(v string) (factbase.Fact, bool, error) {
			if tx == nil {
				return factbase.Fact{}, true, nil
			}
			return tx.Member(ctx, factbase.SubjectUser, c.Key, normalize.Value(v))
		}
		switch st.Kind {
		case router.Add:
			for _, v := range st.Values {
				ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: fav(v, 0)})
			}
		case router.SetRank:
			if st.Rank == router.Last {
				// The end of the list: the last place for a member, after it for a
				// newcomer. Members moved there in turn keep their order.
				n := 0
				if tx != nil {
					if n, err = tx.MaxRank(ctx, factbase.SubjectUser, c.Key); err != nil {
						return nil, nil, nil, err
					}
				}
				for _, v := range st.Values {
					_, ok, err := member(v)
					if err != nil {
						return nil, nil, nil, err
					}
					if !ok {
						n++
					}
					ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: fav(v, max(n, 1))})
				}
				continue
			}
			for i, v := range st.Values {
				ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: fav(v, st.Rank+i)})
			}
		case router.Shift:
			m, ok, err := member(st.Values[0])
			if err != nil {
				return nil, nil, nil, err
			}
			if !ok {
				notes = append(notes, fmt.Sprintf("%s isn't in your favorite %s.", st.Values[0], plural(topicNoun(c.Key))))
				skipped = append(skipped, fmt.Sprintf("move %q: not in %s", st.Values[0], c.Key))
				continue
			}
			rank := max(m.Rank+st.Rank, 1)
			if tx != nil {
				n, err := tx.MaxRank(ctx, factbase.SubjectUser, c.Key)
				if err != nil {
					return nil, nil, nil, err
				}
				rank = min(rank, n)
			}
			ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: fav(st.Values[0], rank)})
		case router.Swap:
			a, okA, err := member(st.Values[0])
			if err != nil {
				return nil, nil, nil, err
			}
			b, okB, err := member(st.Values[1])
			if err != nil {
				return nil, nil, nil, err
			}
			if okA && !okB {
				// "Swap Heat with Up" where Up is new: Up takes Heat's place.
				ops = append(ops, factbase.Op{Kind: factbase.OpRemove, Fact: fav(st.Values[0], 0)},
					factbase.Op{Kind: factbase.OpSet, Fact: fav(st.Values[1], a.Rank)})
				continue
			}
			if !okA || !okB {
				notes = append(notes, fmt.Sprintf("%s isn't in your favorite %s.", st.Values[0], plural(topicNoun(c.Key))))
				skipped = append(skipped, fmt.Sprintf("swap %q: not in %s", st.Values[0], c.Key))
				continue
			}
			// Moving A to B's rank shifts the members between by one, which leaves B
			// next to A's old place; moving B there then completes the swap.
			ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: fav(st.Values[0], b.Rank)},
				factbase.Op{Kind: factbase.OpSet, Fact: fav(st.Values[1], a.Rank)})
		case router.Remove, router.Replace:
			removeVals := st.Values
			if st.Kind == router.Replace && len(st.Values) == 2 {
				removeVals = st.Values[:1]
			}
			for _, v := range removeVals {
				var m factbase.Fact
				ok := true
				if tx != nil {
					if m, ok, err = tx.Member(ctx, factbase.SubjectUser, c.Key, normalize.Value(v)); err != nil {
						return nil, nil, nil, err
					}
				}
				if !ok {
					notes = append(notes, fmt.Sprintf("%s isn't in your favorite %s.", v, plural(topicNoun(c.Key))))
					skipped = append(skipped, fmt.Sprintf("remove %q: not in %s", v, c.Key))
					continue
				}
				ops = append(ops, factbase.Op{Kind: factbase.OpRemove, Fact: fav(v, 0)})
				if st.Kind == router.Replace && len(st.Values) == 2 {
					ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: fav(st.Values[1], m.Rank)})
				}
			}
		}
	}
	return ops, notes, skipped, nil
}

// replyFor renders a write result as sentences, grouping appends to one list.
func replyFor(res factbase.Result, ops []factbase.Op) []string {
	var out []string
	type group struct {
		key    string
		values []string
		ranks  []int
	}
	var appends []*group
	byKey := map[string]*group{}
	for _, m := range res.Mutations {
		list := "your favorite " + plural(topicNoun(m.Key))
		switch m.Action {
		case factbase.Append:
			g := byKey[m.Key]
			if g == nil {
				g = &group{key: m.Key}
				byKey[m.Key] = g
				appends = append(appends, g)
			}
			g.values, g.ranks = append(g.values, m.Value), append(g.ranks, m.To)
		case factbase.Insert:
			out = append(out, fmt.Sprintf("Added %s to %s at #%d.", m.Value, list, m.To))
		case factbase.Move:
			out = append(out, fmt.Sprintf("Moved %s from #%d to #%d in %s.", m.Value, m.From, m.To, list))
		case factbase.NoOp:
			out = append(out, fmt.Sprintf("%s is already #%d in %s.", m.Value, m.To, list))
		case factbase.Remove:
			out = append(out, fmt.Sprintf("Removed %s from %s.", m.Value, list))
		}
	}
	for _, g := range appends {
		span := fmt.Sprintf("#%d", g.ranks[0])
		if n := len(g.ranks); n > 1 {
			span = fmt.Sprintf("#%d-#%d", g.ranks[0], g.ranks[n-1])
		}
		out = append([]string{fmt.Sprintf("Added %s to your favorite %s (%s).", joinAnd(g.values), plural(topicNoun(g.key)), span)}, out...)
	}
	// Only the user's own personal facts are "your ..."; the same keys about someone
	// else are reported by the people extractor's notes.
	userKeys := map[string]bool{}
	for _, op := range ops {
		if op.Fact.Subject == "" || op.Fact.Subject == factbase.SubjectUser {
			userKeys[op.Fact.Key] = true
		}
	}
	for _, d := range res.Duplicates {
		if strings.HasPrefix(d.Key, factbase.FavoritesPrefix) {
			out = append(out, fmt.Sprintf("%s is already in your favorite %s at #%d.", d.Value, plural(topicNoun(d.Key)), d.Rank))
		} else if info, ok := personalKeys[d.Key]; ok && userKeys[d.Key] {
			out = append(out, fmt.Sprintf("I already have your %s as %s.", info.noun, d.Value))
		}
	}
	for _, op := range ops {
		if topic, ok := strings.CutPrefix(op.Fact.Key, factbase.LeastFavoritePrefix); ok && op.Kind == factbase.OpSet {
			out = append(out, fmt.Sprintf("Noted: your least favorite %s is %s.", strings.ReplaceAll(topic, "_", " "), op.Fact.Value))
			continue
		}
		info, ok := personalKeys[op.Fact.Key]
		if !ok || op.Kind != factbase.OpSet || !(op.Fact.Subject == "" || op.Fact.Subject == factbase.SubjectUser) {
			continue
		}
		dup := false
		for _, d := range res.Duplicates {
			dup = dup || d.Key == op.Fact.Key
		}
		if !dup {
			out = append(out, fmt.Sprintf("Noted: your %s is %s.", info.noun, op.Fact.Value))
		}
	}
	if res.Updated > 0 {
		out = append(out, "I kept the earlier value in your history.")
	}
	return out
}

func joinAnd(vs []string) string {
	switch len(vs) {
	case 0:
		return ""
	case 1:
		return vs[0]
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " and " + vs[len(vs)-1]
}

// plural makes an English plural of the last word of a topic noun.
func plural(noun string) string {
	i := strings.LastIndexByte(noun, ' ')
	head, w := noun[:i+1], noun[i+1:]
	switch {
	case w == "":
		return noun
	case canon.Normalize(w+"s") != w && canon.Normalize(w) == w && strings.HasSuffix(w, "s"):
		return noun // already a plural-invariant word
	case strings.HasSuffix(w, "y") && len(w) > 1 && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return head + w[:len(w)-1] + "ies"
	case strings.HasSuffix(w, "s") || strings.HasSuffix(w, "x") || strings.HasSuffix(w, "ch") || strings.HasSuffix(w, "sh"):
		return head + w + "es"
	}
	return head + w + "s"
}
