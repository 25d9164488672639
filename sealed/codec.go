package sealed

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/seal"
)

// The texts of each kind of row, sealed for the row they belong to: a fact's and a
// list event's for the fact, the rest for their own id.

// noWords is the index text of an item without a word to index: not empty, so that
// the store indexes it in place of the item's sealed texts, and without a word, so
// that it matches nothing.
const noWords = "-"

// index is the index text of texts: their hashed words, or noWords.
func (c codec) index(texts ...string) string {
	if s := c.s.ring.Load().kr.IndexText(texts...); s != "" {
		return s
	}
	return noWords
}

func (c codec) sealFact(f factbase.Fact) factbase.Fact {
	f.Index = c.index(f.Text, f.Key, f.Value)
	c.seal(f.ID, &f.Value, &f.Text)
	return f
}

func (c codec) openFact(ctx context.Context, f *factbase.Fact) error {
	return c.open(ctx, item{"fact", f.ID}, f.ID, &f.Value, &f.Text)
}

func (c codec) openListEvent(ctx context.Context, e *factbase.ListEvent) error {
	return c.open(ctx, item{"list event of fact", e.FactID}, e.FactID, &e.Value)
}

func (c codec) sealEpisode(e factbase.Episode) factbase.Episode {
	e.Index = c.index(append([]string{e.Content}, e.Tags...)...)
	c.seal(e.ID, &e.Content)
	e.Metadata = c.sealMap(e.ID, e.Metadata)
	return e
}

func (c codec) openEpisode(ctx context.Context, e *factbase.Episode) error {
	what := item{"episode", e.ID}
	if err := c.open(ctx, what, e.ID, &e.Content); err != nil {
		return err
	}
	return c.openMap(ctx, what, e.ID, e.Metadata)
}

func (c codec) sealEntity(e factbase.Entity) factbase.Entity {
	c.seal(e.ID, &e.Name)
	e.Aliases = c.sealSlice(e.ID, e.Aliases)
	e.Attributes = c.sealMap(e.ID, e.Attributes)
	return e
}

func (c codec) openEntity(ctx context.Context, e *factbase.Entity) error {
	what := item{"entity", e.ID}
	if err := c.open(ctx, what, e.ID, &e.Name); err != nil {
		return err
	}
	if err := c.openSlice(ctx, what, e.ID, e.Aliases); err != nil {
		return err
	}
	return c.openMap(ctx, what, e.ID, e.Attributes)
}

func (c codec) sealConflict(x factbase.Conflict) factbase.Conflict {
	c.seal(x.ID, &x.CurrentValue, &x.Reason, &x.Proposed.Value, &x.Proposed.Text)
	return x
}

func (c codec) openConflict(ctx context.Context, x *factbase.Conflict) error {
	return c.open(ctx, item{"conflict", x.ID}, x.ID, &x.CurrentValue, &x.Reason, &x.Proposed.Value, &x.Proposed.Text)
}

func (c codec) sealSession(s factbase.TranscriptSession) factbase.TranscriptSession {
	c.seal(s.ID, &s.CWD, &s.GitBranch, &s.Summary)
	return s
}

func (c codec) openSession(ctx context.Context, s *factbase.TranscriptSession) error {
	return c.open(ctx, item{"transcript session", s.ID}, s.ID, &s.CWD, &s.GitBranch, &s.Summary)
}

func (c codec) sealSheet(s factbase.FactSheet) factbase.FactSheet {
	s.Entries = slices.Clone(s.Entries)
	for i := range s.Entries {
		c.seal(s.ID, &s.Entries[i].Text)
	}
	return s
}

func (c codec) openSheet(ctx context.Context, s *factbase.FactSheet) error {
	for i := range s.Entries {
		if err := c.open(ctx, item{"sheet", s.ID}, s.ID, &s.Entries[i].Text); err != nil {
			return err
		}
	}
	return nil
}

// A job's texts are sealed for its user and id. Its result, JSON, is kept as a JSON
// string holding the sealed JSON, so that it is JSON still.

func (s *Store) sealJob(j factbase.Job) factbase.Job {
	c := s.codec(j.User)
	c.seal(j.ID, &j.Input, &j.Error)
	j.Result = c.sealResult(j.ID, j.Result)
	return j
}

func (c codec) sealResult(row string, r json.RawMessage) json.RawMessage {
	if len(r) == 0 {
		return r
	}
	s := string(r)
	c.seal(row, &s)
	b, _ := json.Marshal(s) // a string always marshals
	return b
}

// openJob opens the texts of j. Its error may be the store's own ("the lease
// expired ..."), which is not sealed.
func (s *Store) openJob(ctx context.Context, j *factbase.Job) error {
	c, what := s.codec(j.User), item{"job", j.ID}
	if seal.IsSealed(j.Error) {
		if err := c.open(ctx, what, j.ID, &j.Error); err != nil {
			return err
		}
	}
	if err := c.open(ctx, what, j.ID, &j.Input); err != nil {
		return err
	}
	if len(j.Result) == 0 || string(j.Result) == "null" {
		return nil
	}
	var r string
	if err := json.Unmarshal(j.Result, &r); err != nil {
		return what.errorf("holds a result that is not sealed", nil)
	}
	if err := c.open(ctx, what, j.ID, &r); err != nil {
		return err
	}
	j.Result = json.RawMessage(r)
	return nil
}
