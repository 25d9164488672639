package understanding

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sort"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/people"
)

// Run says every case's turns to a fresh user of e, reads back the user's current
// facts (about the user and about every entity) and pending conflicts, and scores
// them. set names the corpus in the report and seeds the users' ids, so that two sets
// can share an engine. A failed Say is recorded in the report, not returned: the
// report is an instrument. Run returns an error only when it cannot read back.
func Run(ctx context.Context, e *memory.Engine, set string, cases []Case) (Report, error) {
	var results []CaseResult
	for _, c := range cases {
		r, err := runCase(ctx, e, userID(set, c.Name), c)
		if err != nil {
			return Report{}, fmt.Errorf("case %q (line %d): %w", c.Name, c.Line, err)
		}
		results = append(results, r)
	}
	return Score(set, results), nil
}

// userID derives a user id (a UUIDv4 form) from set and name.
func userID(set, name string) factbase.UserID {
	b := sha256.Sum256([]byte(set + "\x00" + name))
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	u, _ := factbase.ParseUserID(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]))
	return u
}

// CaseResult is what one case stored, beside what it should have.
type CaseResult struct {
	Case     Case
	Stored   []Stored
	Proposed []Stored // pending conflicts' proposed values: stored, not yet current
	Replies  []string
	Errors   []string
}

func runCase(ctx context.Context, e *memory.Engine, u factbase.UserID, c Case) (CaseResult, error) {
	r := CaseResult{Case: c}
	for i, t := range c.Turns {
		mctx := people.WithMessage(ctx, people.MessageInfo{Time: t.Now, Speaker: t.Speaker})
		res, err := e.Chat.Say(mctx, u, t.Msg)
		if err != nil {
			r.Errors = append(r.Errors, fmt.Sprintf("turn %d: %v", i+1, err))
			continue
		}
		r.Replies = append(r.Replies, res.Reply)
	}
	ents, err := e.People.LiveEntities(ctx, u)
	if err != nil {
		return r, err
	}
	// said_by is "user", "assistant" or an entity subject.
	who := map[string]Who{factbase.SubjectUser: {User: true}, "assistant": {Assistant: true}}
	for _, en := range ents {
		who[en.Subject()] = Who{Name: en.Name, Relation: en.Relation, Aliases: en.Aliases}
	}
	whoOf := func(subject string) Who {
		if w, ok := who[subject]; ok {
			return w
		}
		return Who{Name: subject} // an entity no longer live: never matches a label
	}
	facts, err := e.Facts(ctx, u, factbase.FactFilter{})
	if err != nil {
		return r, err
	}
	for _, f := range facts {
		r.Stored = append(r.Stored, stored(f, whoOf))
	}
	conflicts, err := e.People.Conflicts(ctx, u, factbase.ConflictPending, 0, core.MaxPageSize)
	if err != nil {
		return r, err
	}
	for _, cf := range conflicts.Conflicts {
		p := stored(cf.Proposed, whoOf)
		p.About = whoOf(cf.Subject)
		p.Key = cf.Key
		r.Proposed = append(r.Proposed, p)
	}
	sort.SliceStable(r.Stored, func(i, j int) bool {
		if r.Stored[i].Key != r.Stored[j].Key {
			return r.Stored[i].Key < r.Stored[j].Key
		}
		return r.Stored[i].Rank < r.Stored[j].Rank
	})
	return r, nil
}

func stored(f factbase.Fact, whoOf func(string) Who) Stored {
	s := Stored{About: whoOf(f.Subject), Key: f.Key, Value: f.Value, Rank: f.Rank, SaidBy: whoOf(f.SaidBy)}
	if f.SaidBy == "" {
		s.SaidBy = Who{User: true}
	}
	if f.Anchor != nil {
		s.Anchor = f.Anchor.UTC().Format("2006-01-02")
	}
	return s
}
