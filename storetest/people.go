package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
)

// testPeople checks a store's people primitives (factbase.PeopleReadTx,
// factbase.PeopleTx): entities, conflicts, anchored facts, preference sessions,
// isolation between users, and the erasure of conflicts with their facts.
func testPeople(t *testing.T, s factbase.Store) {
	ctx := context.Background()
	u, other := NewUser(), NewUser()
	update := func(user factbase.UserID, fn func(pt factbase.Tx, tx factbase.Tx) error) {
		t.Helper()
		if err := s.Update(ctx, user, func(tx factbase.Tx) error { return fn(tx, tx) }); err != nil {
			t.Fatal(err)
		}
	}
	view := func(user factbase.UserID, fn func(pt factbase.ReadTx, tx factbase.ReadTx) error) {
		t.Helper()
		if err := s.View(ctx, user, func(tx factbase.ReadTx) error { return fn(tx, tx) }); err != nil {
			t.Fatal(err)
		}
	}
	// noConflicts checks that user has no conflict left; why says what removed them.
	noConflicts := func(user factbase.UserID, why string) {
		t.Helper()
		view(user, func(pt factbase.ReadTx, _ factbase.ReadTx) error {
			if cs, _ := pt.Conflicts(ctx, factbase.ConflictFilter{}); len(cs) != 0 {
				t.Errorf("%s: conflicts %+v", why, cs)
			}
			return nil
		})
	}
	created := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	leo := factbase.Entity{ID: "e-leo", Name: "Leo", Role: factbase.RoleChild, Relation: "son", Aliases: []string{"Leonardo"},
		Attributes: map[string]string{"age": "8"}, CreatedAt: created}
	martin := factbase.Entity{ID: "e-martin", Name: "Martin", Role: factbase.RoleColleague, Relation: "colleague", CreatedAt: created.Add(time.Second)}
	update(u, func(pt factbase.Tx, _ factbase.Tx) error {
		if err := pt.PutEntity(ctx, martin); err != nil {
			return err
		}
		return pt.PutEntity(ctx, leo)
	})
	view(u, func(pt factbase.ReadTx, _ factbase.ReadTx) error {
		es, err := pt.Entities(ctx, factbase.EntityFilter{})
		if err != nil {
			return err
		}
		if len(es) != 2 || es[0].ID != "e-leo" || es[1].ID != "e-martin" {
			t.Fatalf("Entities = %+v, want leo then martin (by creation)", es)
		}
		got := es[0]
		if got.Name != "Leo" || got.Role != factbase.RoleChild || got.Relation != "son" || len(got.Aliases) != 1 ||
			got.Aliases[0] != "Leonardo" || got.Attributes["age"] != "8" || !got.CreatedAt.Equal(created) || got.User != u {
			t.Errorf("Entity round trip = %+v", got)
		}
		if _, err := pt.Entity(ctx, "nope"); factbase.ErrorCode(err) != factbase.ENOTFOUND {
			t.Errorf("Entity(nope) = %v, want not found", err)
		}
		return nil
	})
	// replace keeps the creation time
	update(u, func(pt factbase.Tx, _ factbase.Tx) error {
		l := leo
		l.Name, l.Aliases, l.CreatedAt, l.MergedInto = "Leo B", []string{"Leo"}, time.Time{}, "e-martin"
		return pt.PutEntity(ctx, l)
	})
	view(u, func(pt factbase.ReadTx, _ factbase.ReadTx) error {
		got, err := pt.Entity(ctx, "e-leo")
		if err != nil {
			return err
		}
		if got.Name != "Leo B" || got.MergedInto != "e-martin" || !got.CreatedAt.Equal(created) || got.UpdatedAt.IsZero() {
			t.Errorf("after replace: %+v", got)
		}
		return nil
	})
	view(other, func(pt factbase.ReadTx, _ factbase.ReadTx) error {
		if es, err := pt.Entities(ctx, factbase.EntityFilter{}); err != nil || len(es) != 0 {
			t.Errorf("another user sees entities: %+v, %v", es, err)
		}
		if _, err := pt.Entity(ctx, "e-leo"); factbase.ErrorCode(err) != factbase.ENOTFOUND {
			t.Errorf("another user reads an entity: %v", err)
		}
		return nil
	})

	// conflicts, through the engine's write path so that the facts exist
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	res, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Subject: "entity:e-martin", Key: "work.employer", Value: "Acme"}}})
	if err != nil {
		t.Fatal(err)
	}
	cur := res.Facts[0]
	c := factbase.Conflict{ID: "c1", Subject: "entity:e-martin", Key: "work.employer", CurrentID: cur.ID, CurrentValue: "Acme",
		Proposed: factbase.Fact{Key: "work.employer", Value: "Initech", SaidBy: "assistant", Confidence: 0.8}, Reason: "test",
		Status: factbase.ConflictPending}
	update(u, func(pt factbase.Tx, _ factbase.Tx) error {
		if err := pt.PutConflict(ctx, c); err != nil {
			return err
		}
		c2 := c
		c2.ID, c2.Key, c2.Status = "c2", "home.city", factbase.ConflictRejected
		return pt.PutConflict(ctx, c2)
	})
	view(u, func(pt factbase.ReadTx, _ factbase.ReadTx) error {
		pending, err := pt.Conflicts(ctx, factbase.ConflictFilter{Status: factbase.ConflictPending})
		if err != nil {
			return err
		}
		if len(pending) != 1 || pending[0].ID != "c1" || pending[0].Proposed.Value != "Initech" || pending[0].Proposed.SaidBy != "assistant" ||
			pending[0].CurrentID != cur.ID || pending[0].CreatedAt.IsZero() || pending[0].ResolvedAt != nil {
			t.Errorf("pending conflicts = %+v", pending)
		}
		all, _ := pt.Conflicts(ctx, factbase.ConflictFilter{Subject: "entity:e-martin"})
		byKey, _ := pt.Conflicts(ctx, factbase.ConflictFilter{Key: "home.city"})
		if len(all) != 2 || len(byKey) != 1 || byKey[0].ID != "c2" {
			t.Errorf("conflicts by subject %d, by key %+v", len(all), byKey)
		}
		if _, err := pt.Conflict(ctx, "nope"); factbase.ErrorCode(err) != factbase.ENOTFOUND {
			t.Errorf("Conflict(nope) = %v", err)
		}
		return nil
	})
	resolved := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	update(u, func(pt factbase.Tx, _ factbase.Tx) error {
		c.Status, c.ResolvedAt, c.ResultID = factbase.ConflictConfirmed, &resolved, "f-new"
		return pt.PutConflict(ctx, c)
	})
	view(u, func(pt factbase.ReadTx, _ factbase.ReadTx) error {
		got, err := pt.Conflict(ctx, "c1")
		if err != nil {
			return err
		}
		if got.Status != factbase.ConflictConfirmed || got.ResolvedAt == nil || !got.ResolvedAt.Equal(resolved) || got.ResultID != "f-new" {
			t.Errorf("resolved conflict = %+v", got)
		}
		return nil
	})
	noConflicts(other, "another user sees the user's")
	// erasing the fact erases the conflicts that copy it
	if _, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpDelete, ID: cur.ID}}); err != nil {
		t.Fatal(err)
	}
	noConflicts(u, "after the erasure of their fact")
	// deleting an entity deletes its conflicts
	update(u, func(pt factbase.Tx, _ factbase.Tx) error {
		c3 := c
		c3.ID, c3.CurrentID, c3.Status, c3.ResolvedAt = "c3", "", factbase.ConflictPending, nil
		if err := pt.PutConflict(ctx, c3); err != nil {
			return err
		}
		n, err := pt.DeleteEntity(ctx, "e-martin")
		if n != 1 {
			t.Errorf("DeleteEntity = %d, want 1", n)
		}
		if n, _ := pt.DeleteEntity(ctx, "e-martin"); n != 0 {
			t.Errorf("second DeleteEntity = %d, want 0", n)
		}
		return err
	})
	noConflicts(u, "after their entity's deletion")

	// anchored facts, in [from, to), by anchor, current only
	day := func(d int) *time.Time { t := time.Date(2026, 3, d, 0, 0, 0, 0, time.UTC); return &t }
	ops := []factbase.Op{
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "plan", Value: "b", Anchor: day(12), Cardinality: factbase.Many}},
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "plan", Value: "a", Anchor: day(10), Cardinality: factbase.Many}},
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "plan", Value: "late", Anchor: day(16), Cardinality: factbase.Many}},
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "plan", Value: "undated", Cardinality: factbase.Many}},
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "trip", Value: "old", Anchor: day(11)}},
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "trip", Value: "new", Anchor: day(20)}},
	}
	if _, err := e.Apply(ctx, u, ops); err != nil {
		t.Fatal(err)
	}
	view(u, func(pt factbase.ReadTx, _ factbase.ReadTx) error {
		fs, err := pt.AnchoredFacts(ctx, *day(9), *day(16), 0)
		if err != nil {
			return err
		}
		var got []string
		for _, f := range fs {
			got = append(got, f.Value)
		}
		if !equal(got, []string{"a", "b"}) {
			t.Errorf("AnchoredFacts = %v, want [a b] (by anchor, current only, end exclusive)", got)
		}
		if fs, err := pt.AnchoredFacts(ctx, *day(9), *day(16), 1); err != nil || len(fs) != 1 || fs[0].Value != "a" {
			t.Errorf("AnchoredFacts(limit 1) = %+v, %v; want a alone", fs, err)
		}
		return nil
	})
	view(other, func(pt factbase.ReadTx, _ factbase.ReadTx) error {
		if fs, _ := pt.AnchoredFacts(ctx, *day(1), *day(31), 1); len(fs) != 0 {
			t.Errorf("another user sees anchored facts: %d", len(fs))
		}
		return nil
	})

	// preference sessions: distinct, sorted, per key and value
	update(u, func(pt factbase.Tx, _ factbase.Tx) error {
		for _, s := range []string{"s2", "s1", "s2"} {
			if err := pt.NotePreferenceSession(ctx, "comm.length", "short", s); err != nil {
				return err
			}
		}
		return pt.NotePreferenceSession(ctx, "comm.length", "detailed", "s3")
	})
	view(u, func(pt factbase.ReadTx, _ factbase.ReadTx) error {
		ss, err := pt.PreferenceSessions(ctx, "comm.length", "short")
		if err != nil {
			return err
		}
		if !equal(ss, []string{"s1", "s2"}) {
			t.Errorf("PreferenceSessions = %v, want [s1 s2]", ss)
		}
		return nil
	})
	view(other, func(pt factbase.ReadTx, _ factbase.ReadTx) error {
		if ss, _ := pt.PreferenceSessions(ctx, "comm.length", "short"); len(ss) != 0 {
			t.Errorf("another user sees sessions: %v", ss)
		}
		return nil
	})
}
