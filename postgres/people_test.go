package postgres_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/postgres"
	"github.com/factbase/factbase/storetest"
)

// TestPeople checks the people primitives (entities, conflicts, anchored facts,
// preference sessions) and that erasing a fact takes its conflicts with it.
func TestPeople(t *testing.T) {
	s := openTest(t, postgres.Options{})
	ctx := context.Background()
	u, other := storetest.NewUser(), storetest.NewUser()
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	anchor := time.Date(2026, 6, 15, 9, 0, 0, 0, time.UTC)
	res, err := e.Apply(ctx, u, []factbase.Op{
		{Kind: factbase.OpSet, Fact: factbase.Fact{Subject: "entity:e1", Key: "birthday", Value: "June 15", Anchor: &anchor}},
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "contact.email", Value: "a@example.com"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	birthday, email := res.Facts[0], res.Facts[1]
	update := func(u factbase.UserID, fn func(pt factbase.Tx) error) error {
		return s.Update(ctx, u, func(tx factbase.Tx) error { return fn(tx) })
	}
	view := func(u factbase.UserID, fn func(pt factbase.ReadTx) error) {
		t.Helper()
		if err := s.View(ctx, u, func(tx factbase.ReadTx) error { return fn(tx) }); err != nil {
			t.Fatal(err)
		}
	}
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	err = update(u, func(pt factbase.Tx) error {
		if err := pt.PutEntity(ctx, factbase.Entity{ID: "e2", Name: "Dana", Role: factbase.RoleFriend, CreatedAt: created.Add(time.Hour)}); err != nil {
			return err
		}
		if err := pt.PutEntity(ctx, factbase.Entity{ID: "e1", Role: factbase.RoleChild, Relation: "son",
			Aliases: []string{"the boy", "Sam"}, Attributes: map[string]string{"age": "7"}, CreatedAt: created}); err != nil {
			return err
		}
		if err := pt.PutConflict(ctx, factbase.Conflict{ID: "c1", Subject: factbase.SubjectUser, Key: "contact.email",
			CurrentID: email.ID, CurrentValue: email.Value, Proposed: factbase.Fact{Key: "contact.email", Value: "b@example.com", Confidence: 0.7},
			Reason: "said by someone else", Status: factbase.ConflictPending}); err != nil {
			return err
		}
		if err := pt.PutConflict(ctx, factbase.Conflict{ID: "c2", Subject: "entity:e2", Key: "diet", Status: factbase.ConflictPending,
			Proposed: factbase.Fact{Key: "diet", Value: "vegan"}}); err != nil {
			return err
		}
		for _, s := range []string{"s2", "s1", "s2"} {
			if err := pt.NotePreferenceSession(ctx, "communication.channel", "email", s); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("writing people: %v", err)
	}
	view(u, func(pt factbase.ReadTx) error {
		es, err := pt.Entities(ctx, factbase.EntityFilter{})
		if err != nil {
			return err
		}
		if len(es) != 2 || es[0].ID != "e1" || es[1].ID != "e2" {
			t.Fatalf("Entities = %+v, want e1 then e2 (oldest first)", es)
		}
		if got := es[0]; got.Relation != "son" || !slices.Equal(got.Aliases, []string{"the boy", "Sam"}) || got.Attributes["age"] != "7" ||
			!got.CreatedAt.Equal(created) || got.User != u || got.Role != factbase.RoleChild {
			t.Errorf("entity e1 = %+v", got)
		}
		if got := es[1]; got.Aliases == nil || got.Attributes != nil {
			t.Errorf("entity e2 aliases %v attributes %v; want empty and nil", got.Aliases, got.Attributes)
		}
		c, err := pt.Conflict(ctx, "c1")
		if err != nil {
			return err
		}
		if c.Proposed.Value != "b@example.com" || c.Proposed.Confidence != 0.7 || c.Status != factbase.ConflictPending || c.CurrentID != email.ID {
			t.Errorf("conflict c1 = %+v", c)
		}
		pending, err := pt.Conflicts(ctx, factbase.ConflictFilter{Status: factbase.ConflictPending, Subject: "entity:e2"})
		if err != nil || len(pending) != 1 || pending[0].ID != "c2" {
			t.Errorf("Conflicts(pending, entity:e2) = %+v, %v; want c2", pending, err)
		}
		facts, err := pt.AnchoredFacts(ctx, anchor.Add(-time.Hour), anchor.Add(time.Hour), 0)
		if err != nil || len(facts) != 1 || facts[0].ID != birthday.ID {
			t.Errorf("AnchoredFacts = %v, %v; want the birthday", facts, err)
		}
		if facts, _ := pt.AnchoredFacts(ctx, anchor.Add(time.Hour), anchor.Add(2*time.Hour), 0); len(facts) != 0 {
			t.Errorf("AnchoredFacts after the anchor = %v, want none", facts)
		}
		sessions, err := pt.PreferenceSessions(ctx, "communication.channel", "email")
		if err != nil || !slices.Equal(sessions, []string{"s1", "s2"}) {
			t.Errorf("PreferenceSessions = %v, %v; want [s1 s2]", sessions, err)
		}
		return nil
	})
	view(other, func(pt factbase.ReadTx) error {
		if es, _ := pt.Entities(ctx, factbase.EntityFilter{}); len(es) != 0 {
			t.Errorf("another user sees %d entities", len(es))
		}
		if _, err := pt.Conflict(ctx, "c1"); factbase.ErrorCode(err) != factbase.ENOTFOUND {
			t.Errorf("another user reads a conflict: %v", err)
		}
		return nil
	})

	// Replacing keeps the creation time; resolving a conflict updates it.
	err = update(u, func(pt factbase.Tx) error {
		if err := pt.PutEntity(ctx, factbase.Entity{ID: "e1", Name: "Sam", Role: factbase.RoleChild}); err != nil {
			return err
		}
		now := time.Now()
		return pt.PutConflict(ctx, factbase.Conflict{ID: "c2", Subject: "entity:e2", Key: "diet", Status: factbase.ConflictRejected,
			Proposed: factbase.Fact{Key: "diet", Value: "vegan"}, ResolvedAt: &now})
	})
	if err != nil {
		t.Fatal(err)
	}
	view(u, func(pt factbase.ReadTx) error {
		e1, err := pt.Entity(ctx, "e1")
		if err != nil || e1.Name != "Sam" || !e1.CreatedAt.Equal(created) || !e1.UpdatedAt.After(created) {
			t.Errorf("entity e1 after replace = %+v, %v; want Sam, created kept", e1, err)
		}
		c2, err := pt.Conflict(ctx, "c2")
		if err != nil || c2.Status != factbase.ConflictRejected || c2.ResolvedAt == nil {
			t.Errorf("conflict c2 = %+v, %v; want rejected with a time", c2, err)
		}
		return nil
	})

	// Erasing the fact a conflict is about erases the conflict; deleting an entity
	// takes its conflicts.
	if _, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpDelete, ID: email.ID}}); err != nil {
		t.Fatal(err)
	}
	var deleted int
	if err := update(u, func(pt factbase.Tx) (err error) { deleted, err = pt.DeleteEntity(ctx, "e2"); return err }); err != nil || deleted != 1 {
		t.Fatalf("DeleteEntity = %d, %v; want 1", deleted, err)
	}
	view(u, func(pt factbase.ReadTx) error {
		if cs, _ := pt.Conflicts(ctx, factbase.ConflictFilter{}); len(cs) != 0 {
			t.Errorf("conflicts left after erasing their fact and entity: %+v", cs)
		}
		if _, err := pt.Entity(ctx, "e2"); factbase.ErrorCode(err) != factbase.ENOTFOUND {
			t.Errorf("deleted entity: %v, want not found", err)
		}
		return nil
	})
}
