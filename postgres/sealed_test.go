package postgres

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/storetest"
)

// textIDs returns the ids of u's full-text candidates of kind for terms, sorted.
func textIDs(t *testing.T, s *Store, u factbase.UserID, kind string, f factbase.SearchFilter, terms ...string) []string {
	t.Helper()
	var ids []string
	err := s.View(context.Background(), u, func(tx factbase.ReadTx) error {
		cs, err := tx.TextCandidates(context.Background(), factbase.TextQuery{Kind: kind, Terms: terms, Filter: f, Limit: 50})
		for _, c := range cs {
			ids = append(ids, c.ID)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(ids)
	return ids
}

// TestMigrateSealed takes a schema with plain facts and episodes back to before
// migration 0022 and reopens it: what was indexed stays findable, and sealed rows,
// their reseal and settings work on the migrated schema.
func TestMigrateSealed(t *testing.T) {
	ctx := context.Background()
	s := openRanks(t)
	e, u := memory.New(s, memory.Options{NoSheetRegen: true}), storetest.NewUser()
	res, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "note.drink", Value: "oolong", Text: "drinks oolong daily"}}})
	if err != nil {
		t.Fatal(err)
	}
	ep, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: "a stroll on the dunes", Tags: []string{"coast"}, NoExtract: true})
	if err != nil {
		t.Fatal(err)
	}
	s = downgrade(t, s, "DROP TABLE settings", "ALTER TABLE facts DROP COLUMN terms", "ALTER TABLE episodes DROP COLUMN terms",
		"DELETE FROM schema_migrations WHERE name = '0022_sealed.sql'")
	if got := textIDs(t, s, u, factbase.KindFact, factbase.SearchFilter{}, "oolong", "daily"); !slices.Equal(got, []string{res.Facts[0].ID}) {
		t.Errorf("after the migration the fact search finds %v, want the fact", got)
	}
	if got := textIDs(t, s, u, factbase.KindEpisode, factbase.SearchFilter{}, "dunes", "coast"); !slices.Equal(got, []string{ep.Episode.ID}) {
		t.Errorf("after the migration the episode search finds %v, want the episode", got)
	}
	if err := s.SwapSetting(ctx, "seal.keys", "", "record"); err != nil {
		t.Errorf("SwapSetting after the migration: %v", err)
	}
	testSealedRows(t, s, u)
}

// TestSealedRows runs testSealedRows on the test schema.
func TestSealedRows(t *testing.T) {
	testSealedRows(t, openRanks(t), storetest.NewUser())
}

// testSealedRows writes a sealed fact and a plain one (and an episode of each),
// rewrites all their texts as a key rotation does, and checks their tsvectors: the
// sealed rows keep theirs, built from their terms; the plain ones index their new
// texts.
func testSealedRows(t *testing.T, s *Store, u factbase.UserID) {
	ctx := context.Background()
	const tok = "t0123456789abcdef"
	err := s.Update(ctx, u, func(tx factbase.Tx) error {
		now := tx.Now()
		for _, f := range []factbase.Fact{
			{ID: "sealed-1", Key: "note.secret", Value: "fb1.00000000.c2VhbGVk", Index: tok},
			{ID: "plain-1", Key: "note.open", Value: "lighthouse keeper"},
		} {
			f.Subject, f.Cardinality, f.ValueType, f.Category = factbase.SubjectUser, factbase.One, factbase.String, factbase.Transient
			f.Confidence, f.RecordedAt, f.ValidFrom, f.Current = 1, now, now, true
			if err := tx.Insert(ctx, f, f.ID); err != nil {
				return err
			}
		}
		for _, ep := range []factbase.Episode{
			{ID: "sealed-ep", Content: "fb1.00000000.ZXA", Tags: []string{"walk"}, Index: tok},
			{ID: "plain-ep", Content: "harbour lights", Tags: []string{"night"}},
		} {
			ep.Importance, ep.CreatedAt = 0.5, now
			if err := tx.InsertEpisode(ctx, ep); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	vectors := func() map[string]string {
		t.Helper()
		out := map[string]string{}
		rows, err := s.pool.Query(ctx, `SELECT id, fts::text, coalesce(terms, '') FROM facts WHERE u = $1
			UNION ALL SELECT id, fts::text, coalesce(terms, '') FROM episodes WHERE u = $1`, string(u))
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var id, fts, terms string
			if err := rows.Scan(&id, &fts, &terms); err != nil {
				t.Fatal(err)
			}
			out[id] = fts + " | " + terms
		}
		return out
	}
	before := vectors()
	for id, want := range map[string]string{
		"sealed-1": "'t0123456789abcdef':1A | " + tok, "sealed-ep": "'t0123456789abcdef':1A | " + tok,
	} {
		if before[id] != want {
			t.Errorf("%s indexes %q, want %q", id, before[id], want)
		}
	}
	find := func(kind string, terms []string, want ...string) {
		t.Helper()
		if got := textIDs(t, s, u, kind, factbase.SearchFilter{}, terms...); !slices.Equal(got, want) {
			t.Errorf("TextCandidates(%s, %q) = %v, want %v", kind, terms, got, want)
		}
	}
	find(factbase.KindFact, []string{tok}, "sealed-1")
	find(factbase.KindFact, []string{"secret", "fb1", "c2VhbGVk"})
	find(factbase.KindEpisode, []string{tok}, "sealed-ep")
	find(factbase.KindEpisode, []string{"walk"})
	for _, table := range []string{"facts", "episodes"} {
		_, n, err := s.ResealRows(ctx, table, "", 100, func(rows []factbase.SealedRow) error {
			for i, r := range rows {
				switch {
				case r.User != u:
				case strings.HasPrefix(r.Row, "sealed"):
					rows[i].Texts[0] = "fb1.11111111.cmVzZWFsZWQ"
				case r.Row == "plain-1":
					rows[i].Texts[0] = "lantern keeper"
				case r.Row == "plain-ep":
					rows[i].Texts[0] = "harbour lanterns"
				}
			}
			return nil
		})
		if err != nil || n != 2 {
			t.Fatalf("ResealRows(%s) = %d, %v; want 2 rows", table, n, err)
		}
	}
	after := vectors()
	for _, id := range []string{"sealed-1", "sealed-ep"} {
		if after[id] != before[id] {
			t.Errorf("the reseal changed the index of %s: %q, was %q", id, after[id], before[id])
		}
	}
	find(factbase.KindFact, []string{tok}, "sealed-1")
	find(factbase.KindFact, []string{"lantern"}, "plain-1")
	find(factbase.KindFact, []string{"lighthouse"})
	find(factbase.KindFact, []string{"open"}, "plain-1") // the key stays indexed
	find(factbase.KindEpisode, []string{tok}, "sealed-ep")
	find(factbase.KindEpisode, []string{"lanterns"}, "plain-ep")
	find(factbase.KindEpisode, []string{"lights"})
	find(factbase.KindEpisode, []string{"night"}, "plain-ep") // the tags too
}
