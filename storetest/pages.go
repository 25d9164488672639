package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
)

// testPagedReads checks that the list reads a response is built from take a page
// (limit and offset) and apply it in the store, in the order they promise: entities
// (live ones only, when asked), conflicts, an episode's facts, transcript sessions,
// the direct look-up, and facts of several subjects at once.
func testPagedReads(t *testing.T, s factbase.Store) {
	ctx := context.Background()
	u := NewUser()
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	created := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

	// Five entities, the second merged into the first; five conflicts.
	err := s.Update(ctx, u, func(tx factbase.Tx) error {
		for i := range 5 {
			en := factbase.Entity{ID: fmt.Sprintf("e%d", i), Name: fmt.Sprintf("N%d", i), Role: factbase.RoleFriend,
				CreatedAt: created.Add(time.Duration(i) * time.Second)}
			if i == 1 {
				en.MergedInto = "e0"
			}
			if err := tx.PutEntity(ctx, en); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Subject: "entity:e0", Key: "home.city", Value: "Oslo"}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		err := s.Update(ctx, u, func(tx factbase.Tx) error {
			return tx.PutConflict(ctx, factbase.Conflict{ID: fmt.Sprintf("c%d", i), Subject: "entity:e0", Key: "home.city",
				CurrentID: res.Facts[0].ID, CurrentValue: "Oslo", Proposed: factbase.Fact{Key: "home.city", Value: fmt.Sprintf("City %d", i)},
				Reason: "test", Status: factbase.ConflictPending})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	ids := func(es []factbase.Entity) []string {
		var out []string
		for _, en := range es {
			out = append(out, en.ID)
		}
		return out
	}
	err = s.View(ctx, u, func(tx factbase.ReadTx) error {
		for _, tc := range []struct {
			f    factbase.EntityFilter
			want []string
		}{
			{factbase.EntityFilter{}, []string{"e0", "e1", "e2", "e3", "e4"}},
			{factbase.EntityFilter{Live: true}, []string{"e0", "e2", "e3", "e4"}},
			{factbase.EntityFilter{Limit: 2, Offset: 1}, []string{"e1", "e2"}},
			{factbase.EntityFilter{Live: true, Limit: 2, Offset: 1}, []string{"e2", "e3"}},
			{factbase.EntityFilter{Live: true, Offset: 3}, []string{"e4"}},
		} {
			es, err := tx.Entities(ctx, tc.f)
			if got := ids(es); err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("Entities(%+v) = %v, %v; want %v", tc.f, got, err, tc.want)
			}
		}
		cs, err := tx.Conflicts(ctx, factbase.ConflictFilter{Status: factbase.ConflictPending, Limit: 2, Offset: 3})
		if err != nil || len(cs) != 2 || cs[0].ID != "c3" || cs[1].ID != "c4" {
			t.Errorf("Conflicts(limit 2, offset 3) = %+v, %v; want c3, c4", cs, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// An episode with five facts; five transcript sessions.
	given := make([]factbase.Fact, 5)
	for i := range given {
		given[i] = factbase.Fact{Key: fmt.Sprintf("page.k%d", i), Value: fmt.Sprintf("v%d", i), Type: "paged"}
	}
	ep, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: "Paged notes.", NoExtract: true, Facts: given})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(ctx, u, func(tx factbase.Tx) error {
		for i := range 5 {
			if err := tx.PutTranscriptSession(ctx, factbase.TranscriptSession{ID: fmt.Sprintf("s%d", i), File: "f.jsonl",
				First: created.Add(time.Duration(i) * time.Minute)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	keys := func(fs []factbase.Fact) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Key)
		}
		return out
	}
	err = s.View(ctx, u, func(tx factbase.ReadTx) error {
		fs, err := tx.EpisodeFacts(ctx, ep.Episode.ID, false, 1, 2)
		if got := keys(fs); err != nil || !slices.Equal(got, []string{"page.k1", "page.k2"}) {
			t.Errorf("EpisodeFacts(offset 1, limit 2) = %v, %v; want page.k1, page.k2", got, err)
		}
		if fs, err := tx.EpisodeFacts(ctx, ep.Episode.ID, true, 0, 0); err != nil || len(fs) != 5 {
			t.Errorf("EpisodeFacts(no limit) = %d facts, %v; want 5", len(fs), err)
		}
		ss, err := tx.TranscriptSessions(ctx, "", 2, 2)
		if err != nil || len(ss) != 2 || ss[0].ID != "s2" || ss[1].ID != "s3" {
			t.Errorf("TranscriptSessions(offset 2, limit 2) = %+v, %v; want s2, s3", ss, err)
		}
		// The look-up is newest first: the facts were written in one transaction, so
		// by their order of writing, last first.
		fs, err = tx.FilterFacts(ctx, "", factbase.SearchFilter{Type: "paged"}, 1, 2)
		if got := keys(fs); err != nil || !slices.Equal(got, []string{"page.k3", "page.k2"}) {
			t.Errorf("FilterFacts(offset 1, limit 2) = %v, %v; want page.k3, page.k2", got, err)
		}
		fs, err = tx.Facts(ctx, factbase.FactFilter{Subjects: []string{"entity:e0", factbase.SubjectUser}, KeyPrefix: "home."})
		if got := keys(fs); err != nil || !slices.Equal(got, []string{"home.city"}) {
			t.Errorf("Facts(subjects entity:e0, user) = %v, %v; want home.city", got, err)
		}
		fs, err = tx.Facts(ctx, factbase.FactFilter{Subjects: []string{"entity:e0", factbase.SubjectUser}, Offset: 2, Limit: 2})
		if got := keys(fs); err != nil || !slices.Equal(got, []string{"page.k1", "page.k2"}) {
			t.Errorf("Facts(subjects, offset 2, limit 2) = %v, %v; want page.k1, page.k2", got, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
