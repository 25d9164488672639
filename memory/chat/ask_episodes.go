package chat

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/memory/retrieve"
)

// Episode answer limits.
const (
	// episodeCandidates is how many episodes the search hands to the coverage test.
	episodeCandidates = 20
	// episodeListed is the most excerpts one answer lists.
	episodeListed = 5
	// excerptLen is the most bytes of one excerpt.
	excerptLen = 300
)

// askEpisodes answers from the episodes (engineering logs, session notes). A fact
// extracted from an episode answers when it holds all the question asks ("What
// version is nexus on?"); else the episodes that hold it do, as excerpts with their
// dates (episodeQuestion.holds): the best one, the newest when the question asks for
// the latest ("When did we last roll back?"), every one for "Which deploy failed?"
// and for a time with nothing else asked ("What did we do yesterday?"); a yes or no
// when the episode affirms or denies the question's verb ("Is the orders migration
// finished?"). A measure the episode's extracted facts hold ("ORBIT v4.2.0 shipped")
// is the answer's item. ok is false when no episode holds what is asked.
func (s *Service) askEpisodes(ctx context.Context, user factbase.UserID, q string, out AskResult) (AskResult, bool, error) {
	now := people.Message(ctx).Time
	eq := readEpisodeQuestion(q, now)
	if eq.who {
		// A passage does not name who: that is for the facts about people.
		return out, false, nil
	}
	if eq.factFirst() {
		qa, err := s.retrieve.Query(ctx, user, q, retrieve.QueryOptions{Prefer: retrieve.PreferFact, Now: now})
		if err != nil {
			return out, false, err
		}
		if qa.Source == retrieve.SourceFact && qa.Fact.Episode != "" && eq.holds(factWords(qa.Fact.Key, qa.Value, qa.Fact.Text)) {
			a := Answer{Key: qa.Fact.Key, Items: []AskItem{{Value: qa.Value, ID: qa.Fact.FactID, Key: qa.Fact.Key}}}
			a.Reply = capFirst(fmt.Sprintf("%s: %s.", planNoun(qa.Fact.Key), qa.Value))
			res, err := s.finish(ctx, user, out, "episodes", a)
			return res, true, err
		}
	}
	eps, err := s.episodeCandidates(ctx, user, q, eq, now)
	if err != nil {
		return out, false, err
	}
	picked, verdict := eq.pick(eps)
	if len(picked) == 0 {
		return out, false, nil
	}
	out.Source, out.Key = "episodes", ""
	var texts []string
	for _, ep := range picked {
		texts = append(texts, retrieve.Excerpt(ep.Content, q, excerptLen))
	}
	switch {
	case verdict != "":
		out.Reply = fmt.Sprintf("%s: on %s, %s", verdict, longDate(picked[0].CreatedAt), lowerFirst(texts[0]))
	case eq.when:
		out.Reply = fmt.Sprintf("On %s: %s", longDate(picked[0].CreatedAt), texts[0])
	case len(picked) == 1:
		out.Reply = fmt.Sprintf("From your notes of %s: %s", longDate(picked[0].CreatedAt), texts[0])
		var f *factbase.Fact
		if eq.asksValue() {
			if f, err = s.episodeMeasure(ctx, user, picked[0], eq); err != nil {
				return out, false, err
			}
		}
		if f != nil {
			// The measure asked about, as extracted: "4.2.0", not the "v4.2.0" of the text.
			a := Answer{Key: f.Key, Items: []AskItem{{Value: f.Value, ID: f.ID, Key: f.Key}}}
			a.Reply = capFirst(fmt.Sprintf("%s: %s. %s", planNoun(f.Key), f.Value, out.Reply))
			if strings.TrimSpace(f.Text) != "" {
				a.Reply = fmt.Sprintf("%s. %s", strings.TrimRight(capFirst(f.Text), "."), out.Reply)
			}
			res, err := s.finish(ctx, user, out, "episodes", a)
			return res, true, err
		}
	default:
		parts := make([]string, len(picked))
		for i, ep := range picked {
			parts[i] = fmt.Sprintf("%s: %s", longDate(ep.CreatedAt), strings.TrimRight(texts[i], "."))
		}
		out.Reply = "From your notes: " + strings.Join(parts, "; ") + "."
	}
	return out, true, nil
}

// episodeCandidates returns the episodes that may answer: those in the time the
// question names, when it names a past one and nothing else ("What did we do
// yesterday?"), else those the search finds for the question and for the words of its
// verbs' classes ("fix" finds "resolved"), best first, each once.
func (s *Service) episodeCandidates(ctx context.Context, user factbase.UserID, q string, eq episodeQuestion, now time.Time) ([]scoredEpisode, error) {
	var out []scoredEpisode
	seen := map[string]bool{}
	add := func(ep factbase.Episode, inWindow bool) {
		if !seen[ep.ID] {
			seen[ep.ID] = true
			out = append(out, scoredEpisode{Episode: ep, inWindow: inWindow, rank: len(out)})
		}
	}
	if eq.window != nil && len(eq.requiredIn(true)) == 0 && len(eq.versions) == 0 {
		err := s.core.View(ctx, user, func(tx factbase.ReadTx) error {
			eps, err := tx.Episodes(ctx, factbase.EpisodeFilter{From: eq.window.From, To: eq.window.To, NewestFirst: true, Limit: episodeListed})
			for _, ep := range eps {
				add(ep, true)
			}
			return err
		})
		return out, err
	}
	for _, query := range []string{q, eq.expanded()} {
		if query == "" {
			continue
		}
		res, err := s.retrieve.Search(ctx, user, query, retrieve.SearchOptions{Kinds: []string{factbase.KindEpisode}, Limit: episodeCandidates, Now: now})
		if err != nil {
			return nil, err
		}
		for _, h := range res.Hits {
			if h.Episode != nil {
				add(*h.Episode, eq.window != nil && eq.window.Contains(h.Episode.CreatedAt))
			}
		}
	}
	return out, nil
}

// episodeMeasure returns the fact extracted from ep that holds the measure a question
// asks for (a version, a status, a rate: the last part of its key, by stem or implied
// by the question) about the thing it names (the first part of its key, when it has
// two), when exactly one does; nil otherwise. Counts are left to the excerpt: "146 of
// 150 dashboards migrated" is read best in its words.
func (s *Service) episodeMeasure(ctx context.Context, user factbase.UserID, ep scoredEpisode, eq episodeQuestion) (*factbase.Fact, error) {
	var facts []factbase.Fact
	err := s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		var err error
		facts, err = tx.EpisodeFacts(ctx, ep.ID, false, 0, 100)
		return err
	})
	if err != nil {
		return nil, err
	}
	var found *factbase.Fact
	for i, f := range facts {
		parts := strings.Split(f.Key, ".")
		if parts[0] == "count" || parts[0] == "percent" || parts[0] == "date" {
			continue
		}
		measure := parts[len(parts)-1]
		if !eq.asksMeasure(measure) {
			continue
		}
		if len(parts) > 1 && !eq.names(parts[0]) || eq.says(f.Value) {
			continue // another thing's, or what the question already says ("sprint 9")
		}
		if found != nil {
			return nil, nil // two answer: the excerpt says which is which
		}
		found = &facts[i]
	}
	return found, nil
}

// scoredEpisode is a candidate episode: its search rank, and whether it falls in the
// time the question names.
type scoredEpisode struct {
	factbase.Episode
	inWindow bool
	rank     int
}

// longDate renders an episode's date: "Wednesday, April 8, 2026".
func longDate(t time.Time) string { return t.Format("Monday, January 2, 2006") }

// capFirst upper-cases the first letter of a sentence whose first word is in lower
// case: "version is 2.0" but not "iOS version is 7.4.0".
func capFirst(s string) string {
	f, _, _ := strings.Cut(s, " ")
	if f == "" || strings.ToLower(f) != f {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// lowerFirst lower-cases the first letter of a sentence unless its first word is
// a name ("Kafka", "ORBIT", "iOS"): a word with another capital.
func lowerFirst(s string) string {
	f, _, _ := strings.Cut(s, " ")
	if len(f) < 2 || strings.ToLower(f[1:]) != f[1:] || !(f[0] >= 'A' && f[0] <= 'Z') {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
