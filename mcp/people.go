package mcp

import (
	"context"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/memory/core"
)

func (s *Server) registerPeople() {
	addTool(s, tool("recall", "Recall what bears on a question", "Recall", reads,
		`What the user's memory holds that bears on a question or a topic ("what does my wife eat?", "what is happening next week?", "Martin"): hybrid search, the facts of the people the query names (by name, alias or relation), the facts whose keys the question asks about, and facts anchored in the time window it names (birthdays recur yearly). Returns the facts grouped by person and a prompt block to put in context. High-sensitivity facts (health, medical) are left out unless the query asks about them or include_sensitive is set. At most limit facts (default 10, at most 100), the best ones.`),
		s.recall)
	addTool(s, tool("list_people", "List the people the user mentioned", "List people", reads,
		`The people (and pets) the user has mentioned, oldest first: name, role, relation in the user's words ("wife", "son's friend"), aliases; with with_facts, each one's first 100 current facts. Paged: at most limit people (default 100, at most 1000) from offset on; more says whether more follow.`),
		s.listPeople)
	addTool(s, tool("list_conflicts", "List changes waiting for confirmation", "List conflicts", reads,
		`Changes to single-valued facts that wait for the user's confirmation instead of replacing the current value (a changed home city or employer, a value from a less trusted speaker): the current value, the proposed one and why it waits. Pass an id to resolve_conflict. Paged: at most limit conflicts (default 100, at most 1000) from offset on; more says whether more follow.`),
		s.listConflicts)
	addTool(s, tool("resolve_conflict", "Confirm or reject a change", "Resolve conflict", writes,
		`Resolve a pending conflict as the user decided: confirm writes the proposed value (the current one stays in history); reject keeps the current value. Either way the decision is recorded.`),
		s.resolveConflict)
}

// RecallInput is the input of the recall tool.
type RecallInput struct {
	Caller
	Query            string `json:"query" maxLength:"4096" jsonschema:"The question or topic, in words (at most 4096 bytes), e.g. \"what does my wife eat?\"."`
	Limit            int    `json:"limit,omitempty" minimum:"0" maximum:"100" jsonschema:"The most facts to return, 1 to 100 (default 10)."`
	IncludeSensitive bool   `json:"include_sensitive,omitempty" jsonschema:"Include high-sensitivity facts (health, medical) even when the query does not ask about them."`
}

// RecalledFact is one recalled fact.
type RecalledFact struct {
	FactID string   `json:"fact_id" jsonschema:"The fact's id."`
	Key    string   `json:"key" jsonschema:"The fact's key, e.g. diet.allergy."`
	Value  string   `json:"value" jsonschema:"The value."`
	Text   string   `json:"text" jsonschema:"The fact as a sentence."`
	Score  float64  `json:"score" jsonschema:"How strongly it bears on the query."`
	Why    []string `json:"why" jsonschema:"The signals that scored it, e.g. \"names Anna\", \"intent diet\", \"search #1\"."`
	When   string   `json:"when,omitempty" jsonschema:"For facts found by the time window: the occurrence in it (RFC 3339)."`
}

// PersonFacts are the recalled facts about one person (or the user).
type PersonFacts struct {
	About    string         `json:"about" jsonschema:"Whom the facts are about: a person's name (or relation), or \"user\"."`
	Role     string         `json:"role" jsonschema:"The person's relation to the user, or \"user\"."`
	EntityID string         `json:"entity_id,omitempty" jsonschema:"The person's id; absent for the user."`
	Facts    []RecalledFact `json:"facts" jsonschema:"The facts, best first."`
}

// RecallOutput is what recall found.
type RecallOutput struct {
	Prompt   string        `json:"prompt" jsonschema:"The facts as a prompt block, one section per person; empty when nothing was found."`
	People   []PersonFacts `json:"people" jsonschema:"The facts grouped by person, in the order of each group's best fact."`
	Count    int           `json:"count" jsonschema:"How many facts were recalled."`
	Hidden   int           `json:"hidden" jsonschema:"High-sensitivity facts left out by the privacy mode."`
	From     string        `json:"from,omitempty" jsonschema:"The start of the time window the query named (RFC 3339), if any."`
	To       string        `json:"to,omitempty" jsonschema:"The end of that window (RFC 3339, exclusive)."`
	Degraded string        `json:"degraded,omitempty" jsonschema:"A source of facts that failed (search), when one did; the others still answered."`
}

func (s *Server) recall(ctx context.Context, user factbase.UserID, in RecallInput) (RecallOutput, error) {
	r, err := s.e.Chat.Recall(ctx, user, in.Query, chat.RecallOptions{Limit: in.Limit, IncludeSensitive: in.IncludeSensitive})
	if err != nil {
		return RecallOutput{}, err
	}
	out := RecallOutput{Prompt: r.Prompt, People: make([]PersonFacts, 0, len(r.FactsByEntity)), Count: len(r.Hits),
		Hidden: r.Hidden, Degraded: r.Degraded}
	if r.Window != nil {
		out.From, out.To = timeText(r.Window.From), timeText(r.Window.To)
	}
	for _, g := range r.FactsByEntity {
		p := PersonFacts{About: g.About, Role: g.Role, EntityID: g.EntityID, Facts: make([]RecalledFact, 0, len(g.Facts))}
		for _, h := range g.Facts {
			f := RecalledFact{FactID: h.Fact.ID, Key: h.Key, Value: h.Value, Text: h.Text, Score: h.Score, Why: h.Why}
			if f.Why == nil {
				f.Why = []string{}
			}
			if h.When != nil {
				f.When = timeText(*h.When)
			}
			p.Facts = append(p.Facts, f)
		}
		out.People = append(out.People, p)
	}
	return out, nil
}

// ListPeopleInput is the input of the list_people tool.
type ListPeopleInput struct {
	Caller
	WithFacts     bool `json:"with_facts,omitempty" jsonschema:"Also return each person's current facts (the first 100)."`
	IncludeMerged bool `json:"include_merged,omitempty" jsonschema:"Also list people merged into another (merged_into names which)."`
	Limit         int  `json:"limit,omitempty" minimum:"0" maximum:"1000" jsonschema:"The most people to return, 1 to 1000 (default 100)."`
	Offset        int  `json:"offset,omitempty" minimum:"0" jsonschema:"How many people to skip, for paging."`
}

// Person is someone the user mentioned.
type Person struct {
	ID         string   `json:"id" jsonschema:"The person's id; facts about them have the subject entity:<id>."`
	Name       string   `json:"name" jsonschema:"The display name; empty while only the relation is known."`
	Label      string   `json:"label" jsonschema:"How to refer to them: the name, or \"your <relation>\"."`
	Role       string   `json:"role" jsonschema:"partner, child, parent, sibling, friend, colleague, pet, service_provider or other."`
	Relation   string   `json:"relation,omitempty" jsonschema:"The relation in the user's words, e.g. wife, son's friend."`
	Aliases    []string `json:"aliases" jsonschema:"Other names they go by."`
	MergedInto string   `json:"merged_into,omitempty" jsonschema:"The id of the person this one was merged into."`
	Facts      []Fact   `json:"facts,omitempty" jsonschema:"Their first 100 current facts, with with_facts."`
	MoreFacts  bool     `json:"more_facts,omitempty" jsonschema:"True when they have more current facts than listed (list_facts with subject entity:<id> pages through them)."`
}

// ListPeopleOutput lists the people the user mentioned.
type ListPeopleOutput struct {
	People []Person `json:"people" jsonschema:"Oldest first."`
	More   bool     `json:"more" jsonschema:"True when more people follow: call again with offset + the people returned."`
}

func (s *Server) listPeople(ctx context.Context, user factbase.UserID, in ListPeopleInput) (ListPeopleOutput, error) {
	page, err := s.e.People.Entities(ctx, user, in.IncludeMerged, in.Offset, in.Limit)
	if err != nil {
		return ListPeopleOutput{}, err
	}
	out := ListPeopleOutput{People: make([]Person, 0, len(page.Entities)), More: page.More}
	for _, en := range page.Entities {
		p := Person{ID: en.ID, Name: en.Name, Label: en.Label(), Role: string(en.Role), Relation: en.Relation,
			Aliases: en.Aliases, MergedInto: en.MergedInto}
		if p.Aliases == nil {
			p.Aliases = []string{}
		}
		if in.WithFacts {
			v, err := s.e.People.Entity(ctx, user, en.ID, false, 0, core.DefaultPageSize)
			if err != nil {
				return ListPeopleOutput{}, err
			}
			p.Facts, p.MoreFacts = factsOut(v.Facts), v.More
		}
		out.People = append(out.People, p)
	}
	return out, nil
}

// ListConflictsInput is the input of the list_conflicts tool.
type ListConflictsInput struct {
	Caller
	Status string `json:"status,omitempty" enum:"pending,confirmed,rejected,all" jsonschema:"pending (the default), confirmed, rejected, or all."`
	Limit  int    `json:"limit,omitempty" minimum:"0" maximum:"1000" jsonschema:"The most conflicts to return, 1 to 1000 (default 100)."`
	Offset int    `json:"offset,omitempty" minimum:"0" jsonschema:"How many conflicts to skip, for paging."`
}

// Conflict is a change that waits for (or got) the user's decision.
type Conflict struct {
	ID            string `json:"id" jsonschema:"The conflict's id, for resolve_conflict."`
	About         string `json:"about" jsonschema:"Whom the fact is about: a person's name (or relation), or \"user\"."`
	Subject       string `json:"subject" jsonschema:"The fact's subject: user or entity:<id>."`
	Key           string `json:"key" jsonschema:"The fact's key, e.g. home.city."`
	CurrentValue  string `json:"current_value" jsonschema:"The value that was current when the change was proposed."`
	ProposedValue string `json:"proposed_value" jsonschema:"The value proposed."`
	SaidBy        string `json:"said_by,omitempty" jsonschema:"Who stated the proposed value."`
	Reason        string `json:"reason" jsonschema:"Why it waits instead of replacing the current value."`
	Status        string `json:"status" jsonschema:"pending, confirmed or rejected."`
	CreatedAt     string `json:"created_at" jsonschema:"When the change was proposed (RFC 3339)."`
	ResolvedAt    string `json:"resolved_at,omitempty" jsonschema:"When it was confirmed or rejected (RFC 3339)."`
	ResultID      string `json:"result_id,omitempty" jsonschema:"The fact a confirmation wrote."`
}

// ListConflictsOutput lists conflicts.
type ListConflictsOutput struct {
	Conflicts []Conflict `json:"conflicts" jsonschema:"Oldest first."`
	More      bool       `json:"more" jsonschema:"True when more conflicts follow: call again with offset + the conflicts returned."`
}

// labels maps the entity subjects of cs to how people are referred to.
func (s *Server) labels(ctx context.Context, user factbase.UserID, cs ...factbase.Conflict) (map[string]string, error) {
	subjects := make([]string, len(cs))
	for i, c := range cs {
		subjects[i] = c.Subject
	}
	return s.e.People.Labels(ctx, user, subjects)
}

func conflictOut(c factbase.Conflict, labels map[string]string) Conflict {
	about := labels[c.Subject]
	if about == "" {
		about = strings.TrimPrefix(c.Subject, "entity:")
	}
	out := Conflict{ID: c.ID, About: about, Subject: c.Subject, Key: c.Key, CurrentValue: c.CurrentValue,
		ProposedValue: c.Proposed.Value, SaidBy: c.Proposed.SaidBy, Reason: c.Reason, Status: string(c.Status),
		CreatedAt: timeText(c.CreatedAt), ResultID: c.ResultID}
	if c.ResolvedAt != nil {
		out.ResolvedAt = timeText(*c.ResolvedAt)
	}
	return out
}

func (s *Server) listConflicts(ctx context.Context, user factbase.UserID, in ListConflictsInput) (ListConflictsOutput, error) {
	status := factbase.ConflictStatus(in.Status)
	switch in.Status {
	case "":
		status = factbase.ConflictPending
	case "all":
		status = ""
	}
	page, err := s.e.People.Conflicts(ctx, user, status, in.Offset, in.Limit)
	if err != nil {
		return ListConflictsOutput{}, err
	}
	labels, err := s.labels(ctx, user, page.Conflicts...)
	if err != nil {
		return ListConflictsOutput{}, err
	}
	out := ListConflictsOutput{Conflicts: make([]Conflict, 0, len(page.Conflicts)), More: page.More}
	for _, c := range page.Conflicts {
		out.Conflicts = append(out.Conflicts, conflictOut(c, labels))
	}
	return out, nil
}

// ResolveConflictInput is the input of the resolve_conflict tool.
type ResolveConflictInput struct {
	Caller
	ID       string `json:"id" maxLength:"100" jsonschema:"The conflict's id, from list_conflicts."`
	Decision string `json:"decision" enum:"confirm,reject" jsonschema:"confirm (write the proposed value) or reject (keep the current one)."`
}

// ResolveConflictOutput is what resolving a conflict did.
type ResolveConflictOutput struct {
	Summary  string   `json:"summary" jsonschema:"What happened, in a sentence."`
	Conflict Conflict `json:"conflict" jsonschema:"The conflict as it now is."`
	Counts   Counts   `json:"counts" jsonschema:"What the store did (nothing for reject)."`
}

func (s *Server) resolveConflict(ctx context.Context, user factbase.UserID, in ResolveConflictInput) (ResolveConflictOutput, error) {
	if strings.TrimSpace(in.ID) == "" {
		return ResolveConflictOutput{}, factbase.Errorf(factbase.EINVALID, "id is empty: give the id of the conflict (see list_conflicts)")
	}
	var (
		c   factbase.Conflict
		res factbase.Result
	)
	switch in.Decision {
	case "confirm":
		r, err := s.e.People.ConfirmConflict(ctx, user, in.ID)
		if err != nil {
			return ResolveConflictOutput{}, err
		}
		c, res = r.Conflict, r.Result
	case "reject":
		var err error
		if c, err = s.e.People.RejectConflict(ctx, user, in.ID); err != nil {
			return ResolveConflictOutput{}, err
		}
	default:
		return ResolveConflictOutput{}, factbase.Errorf(factbase.EINVALID, "decision %q is not confirm or reject", in.Decision)
	}
	labels, err := s.labels(ctx, user, c)
	if err != nil {
		return ResolveConflictOutput{}, err
	}
	out := ResolveConflictOutput{Conflict: conflictOut(c, labels), Counts: countsOf(res)}
	if c.Status == factbase.ConflictConfirmed {
		out.Summary = "Confirmed: " + out.Conflict.About + "'s " + c.Key + " is now " + c.Proposed.Value + "; " + c.CurrentValue + " stays in history."
	} else {
		out.Summary = "Rejected: " + out.Conflict.About + "'s " + c.Key + " stays " + c.CurrentValue + "."
	}
	return out, nil
}
