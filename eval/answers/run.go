package answers

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/eval/understanding"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/people"
)

// Clock is a settable clock for the store (sqlite.Options.Now): Run sets it to each
// step's and each question's time. Safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// Now returns the time last set (DefaultNow before any).
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.t.IsZero() {
		return DefaultNow
	}
	return c.t
}

// Set sets the time.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// Run builds each scenario of c once on a fresh user of e (set names the corpus in the
// report and seeds the users' ids, so that two sets can share an engine), setting
// clock (the store's clock) to each step's time, then asks each of the scenario's
// questions at its time through Ask and grades the answer. A failed step or question
// is recorded in the report, not returned: the report is an instrument. Run returns an
// error only when it cannot read back what a scenario stored.
func Run(ctx context.Context, e *memory.Engine, clock *Clock, set string, c Corpus) (Report, error) {
	byScenario := map[string][]Question{}
	for _, q := range c.Questions {
		byScenario[q.Scenario] = append(byScenario[q.Scenario], q)
	}
	var results []Result
	var setups []Setup
	for _, s := range c.Scenarios {
		u := userID(set, s.Name)
		su := build(ctx, e, clock, u, s)
		g, stored, err := ground(ctx, e, u)
		if err != nil {
			return Report{}, fmt.Errorf("scenario %q (line %d): %w", s.Name, s.Line, err)
		}
		su.Stored = stored
		setups = append(setups, su)
		for _, q := range byScenario[s.Name] {
			clock.Set(q.Now)
			r := Result{Question: q}
			a, err := Ask(ctx, e, u, q.Text, q.Now)
			if err != nil {
				r.Error = err.Error()
			}
			r.Answer = a
			r.Verdict = Grade(q, a, g)
			if err != nil {
				r.Verdict.Correct = false
			}
			r.Gaps = gaps(q, g)
			results = append(results, r)
		}
	}
	rep := Score(set, results)
	rep.Scenarios = len(c.Scenarios)
	rep.Setups = setups
	return rep, nil
}

// userID derives a user id (a UUIDv4 form) from set and name.
func userID(set, name string) factbase.UserID {
	b := sha256.Sum256([]byte("answers\x00" + set + "\x00" + name))
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	u, _ := factbase.ParseUserID(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]))
	return u
}

// Setup is what building a scenario did: each step's reply or error, and what the
// user had stored afterwards, for reading a failure.
type Setup struct {
	Scenario string   `json:"scenario"`
	Line     int      `json:"line"`
	Replies  []string `json:"replies"`
	Errors   []string `json:"errors,omitempty"`
	Stored   []string `json:"stored"`
}

// build runs s's steps for u.
func build(ctx context.Context, e *memory.Engine, clock *Clock, u factbase.UserID, s Scenario) Setup {
	su := Setup{Scenario: s.Name, Line: s.Line}
	for i, st := range s.Steps {
		clock.Set(st.Now)
		reply, err := step(ctx, e, u, st)
		if err != nil {
			su.Errors = append(su.Errors, fmt.Sprintf("setup %d (%s): %v", i+1, st.Kind, err))
			continue
		}
		su.Replies = append(su.Replies, reply)
	}
	return su
}

// step runs one setup step and returns what it replied or did.
func step(ctx context.Context, e *memory.Engine, u factbase.UserID, st Step) (string, error) {
	switch st.Kind {
	case StepSay:
		r, err := e.Chat.Say(people.WithMessage(ctx, people.MessageInfo{Time: st.Now, Speaker: "user"}), u, st.Text)
		return r.Reply, err
	case StepEpisode:
		r, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: st.Text, Tags: st.Tags, CreatedAt: st.Now})
		return fmt.Sprintf("episode %s: %d facts", r.Episode.ID, len(r.Facts)), err
	}
	op := st.Op
	op.Fact.Subject = factbase.SubjectUser
	if !st.About.User {
		ents, err := e.People.LiveEntities(ctx, u)
		if err != nil {
			return "", err
		}
		var match []factbase.Entity
		for _, en := range ents {
			if st.About.Matches(understanding.Who{Name: en.Name, Relation: en.Relation, Aliases: en.Aliases}) {
				match = append(match, en)
			}
		}
		if len(match) != 1 {
			return "", fmt.Errorf("%d people match %q, want 1", len(match), st.About)
		}
		op.Fact.Subject = match[0].Subject()
	}
	res, err := e.Apply(ctx, u, []factbase.Op{op})
	return fmt.Sprintf("%s %s=%s: stored %d, updated %d, retracted %d", op.Kind, op.Fact.Key, op.Fact.Value,
		res.Stored, res.Updated, res.Retracted), err
}

// ground reads what u has stored: the ground answers are checked against, and the
// stored facts rendered for the report.
func ground(ctx context.Context, e *memory.Engine, u factbase.UserID) (Ground, []string, error) {
	var g Ground
	var stored []string
	ents, err := e.People.Entities(ctx, u, true, 0, core.MaxPageSize)
	if err != nil {
		return g, nil, err
	}
	who := map[string]string{factbase.SubjectUser: "user"}
	for _, en := range ents.Entities {
		g.Add(en.Name, en.Relation)
		g.Add(en.Aliases...)
		g.AddID(en.ID)
		who[en.Subject()] = understanding.Who{Name: en.Name, Relation: en.Relation}.String()
	}
	facts, err := e.Facts(ctx, u, factbase.FactFilter{History: true})
	if err != nil {
		return g, nil, err
	}
	for _, f := range facts {
		g.Add(f.Value)
		g.AddID(f.ID)
		g.AddDate(f.ValidFrom)
		line := fmt.Sprintf("[%s] %s = %s", who[f.Subject], f.Key, f.Value)
		if f.Rank > 0 {
			line += fmt.Sprintf(" #%d", f.Rank)
		}
		if f.Anchor != nil {
			g.AddDate(*f.Anchor)
			line += " @" + f.Anchor.UTC().Format(time.DateOnly)
		}
		line += " from " + f.ValidFrom.UTC().Format(time.DateOnly)
		if !f.Current {
			line += " (past)"
		}
		stored = append(stored, line)
	}
	conflicts, err := e.People.Conflicts(ctx, u, factbase.ConflictPending, 0, core.MaxPageSize)
	if err != nil {
		return g, nil, err
	}
	for _, cf := range conflicts.Conflicts {
		g.Add(cf.Proposed.Value)
		stored = append(stored, fmt.Sprintf("[%s] %s = %s (proposed)", who[cf.Subject], cf.Key, cf.Proposed.Value))
	}
	for off := 0; ; {
		p, err := e.Ingest.Episodes(ctx, u, factbase.EpisodeFilter{Offset: off, Limit: 100})
		if err != nil {
			return g, nil, err
		}
		for _, ep := range p.Episodes {
			g.AddPassage(ep.Content)
			g.AddID(ep.ID)
			g.AddDate(ep.CreatedAt)
			stored = append(stored, fmt.Sprintf("episode %s: %s", ep.CreatedAt.UTC().Format(time.DateOnly), ep.Content))
		}
		off += len(p.Episodes)
		if len(p.Episodes) == 0 || off >= p.Total {
			break
		}
	}
	return g, stored, nil
}

// gaps are the question's expected items that nothing stored grounds: the setup did
// not store what the question asks for, so the question tests the setup, not the
// answer. A corpus keeps them at zero.
func gaps(q Question, g Ground) []string {
	var out []string
	for _, e := range q.Items {
		ok := false
		for _, v := range e.Values {
			if g.Stores(v) {
				ok = true
			}
		}
		if !ok {
			out = append(out, e.String())
		}
	}
	return out
}
