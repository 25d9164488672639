package sqlite

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/storetest"
)

// ftsEntries counts the entries of table (facts_fts, episodes_fts) that match the
// FTS5 query q, and checks the table's integrity: a contentless entry deleted with
// other values than it was indexed with corrupts the index.
func ftsEntries(t *testing.T, s *Store, table, q string) int {
	t.Helper()
	if _, err := s.writer.Exec("INSERT INTO " + table + " (" + table + ", rank) VALUES ('integrity-check', 0)"); err != nil {
		t.Fatalf("%s integrity: %v", table, err)
	}
	var n int
	if err := s.writer.QueryRow("SELECT count(*) FROM "+table+" WHERE "+table+" MATCH ?", q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// migrationStatement returns the statement of migration file that creates name
// (CREATE TRIGGER name ... END;).
func migrationStatement(t *testing.T, file, name string) string {
	t.Helper()
	b, err := migrations.ReadFile("migrations/" + file)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)CREATE TRIGGER ` + name + `\b.*?\nEND;`).Find(b)
	if m == nil {
		t.Fatalf("%s creates no trigger %s", file, name)
	}
	return string(m)
}

// TestMigrateSealed takes a store with plain facts and episodes back to before
// migration 0023 and reopens it: the entries indexed before stay findable and
// leave the index cleanly through the new triggers, and sealed rows and settings
// work on the migrated file.
func TestMigrateSealed(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	e, u := memory.New(s, memory.Options{NoSheetRegen: true}), storetest.NewUser()
	res, err := e.Apply(ctx, u, []factbase.Op{
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "note.drink", Value: "oolong", Text: "drinks oolong daily"}},
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.color", Value: "teal"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	oolong := res.Facts[0].ID
	if _, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: "a stroll on the dunes", Tags: []string{"coast"}, NoExtract: true}); err != nil {
		t.Fatal(err)
	}
	var stmts []string
	for _, name := range []string{"facts_fts_insert", "facts_fts_delete", "facts_fts_update_out", "facts_fts_update_in",
		"episodes_fts_insert", "episodes_fts_delete", "episodes_fts_update"} {
		stmts = append(stmts, "DROP TRIGGER "+name)
		file := "0018_fts_defer.sql"
		if strings.HasPrefix(name, "episodes") {
			file = "0012_fts_user.sql"
		}
		stmts = append(stmts, migrationStatement(t, file, name))
	}
	stmts = append(stmts, "DROP TABLE settings", "ALTER TABLE facts DROP COLUMN terms", "ALTER TABLE episodes DROP COLUMN terms",
		"DELETE FROM schema_migrations WHERE name = 'migrations/0023_sealed.sql'")
	s = Downgrade(t, s, stmts...)

	for _, c := range []struct {
		table, q string
		want     int
	}{{"facts_fts", "oolong", 1}, {"facts_fts", "daily", 1}, {"facts_fts", "drink", 1}, {"facts_fts", "teal", 1},
		{"episodes_fts", "dunes", 1}, {"episodes_fts", "coast", 1}} {
		if got := ftsEntries(t, s, c.table, c.q); got != c.want {
			t.Errorf("after the migration %s holds %d entries of %q, want %d", c.table, got, c.q, c.want)
		}
	}
	// An entry of before leaves through the new triggers: superseded, then erased.
	e = memory.New(s, memory.Options{NoSheetRegen: true})
	if _, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "note.drink", Value: "sencha"}}}); err != nil {
		t.Fatal(err)
	}
	if got := ftsEntries(t, s, "facts_fts", "oolong"); got != 1 {
		t.Errorf("the superseded fact has %d entries, want 1", got)
	}
	err = s.Update(ctx, u, func(tx factbase.Tx) error {
		_, err := tx.Erase(ctx, oolong)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := ftsEntries(t, s, "facts_fts", "oolong OR daily"); got != 0 {
		t.Errorf("the erased fact has %d entries", got)
	}
	if err := s.SwapSetting(ctx, "seal.keys", "", "record"); err != nil {
		t.Errorf("SwapSetting after the migration: %v", err)
	}
	testSealedRows(t, s, u)
}

// testSealedRows writes a sealed fact and a sealed episode (terms of their own),
// rewrites their texts as a key rotation does, and erases them, checking the
// full-text entries at each step: the terms are indexed, kept while the texts
// change, and removed with the rows.
func testSealedRows(t *testing.T, s *Store, u factbase.UserID) {
	ctx := context.Background()
	const tok, tok2 = "t0123456789abcdef", "tfedcba9876543210"
	err := s.Update(ctx, u, func(tx factbase.Tx) error {
		now := tx.Now()
		f := factbase.Fact{ID: "sealed-1", Subject: factbase.SubjectUser, Key: "note.secret", Cardinality: factbase.One,
			Value: "fb1.00000000.c2VhbGVk", Text: "fb1.00000000.dGV4dA", ValueType: factbase.String, Category: factbase.Transient,
			Confidence: 1, RecordedAt: now, ValidFrom: now, Current: true, Index: tok + " " + tok2}
		if err := tx.Insert(ctx, f, "h1"); err != nil {
			return err
		}
		return tx.InsertEpisode(ctx, factbase.Episode{ID: "sealed-ep", Content: "fb1.00000000.ZXA", Tags: []string{"walk"},
			Importance: 0.5, CreatedAt: now, Index: tok2})
	})
	if err != nil {
		t.Fatal(err)
	}
	check := func(step string, facts, episodes int) {
		t.Helper()
		if got := ftsEntries(t, s, "facts_fts", tok); got != facts {
			t.Errorf("%s: %d fact entries of the terms, want %d", step, got, facts)
		}
		if got := ftsEntries(t, s, "episodes_fts", tok2); got != episodes {
			t.Errorf("%s: %d episode entries of the terms, want %d", step, got, episodes)
		}
		for _, table := range []string{"facts_fts", "episodes_fts"} {
			if got := ftsEntries(t, s, table, `"fb1" OR "c2VhbGVk" OR "walk" OR "secret" OR "resealed"`); got != 0 {
				t.Errorf("%s: %s holds %d entries of the sealed texts, key or tags", step, table, got)
			}
		}
	}
	check("written", 1, 1)
	for _, table := range []string{"facts", "episodes"} {
		_, n, err := s.ResealRows(ctx, table, "", 100, func(rows []factbase.SealedRow) error {
			for i, r := range rows {
				if strings.HasPrefix(r.Row, "sealed") {
					rows[i].Texts[0] = "fb1.11111111.resealed"
				}
			}
			return nil
		})
		if err != nil || n != 1 {
			t.Fatalf("ResealRows(%s) = %d, %v; want 1 row", table, n, err)
		}
	}
	check("resealed", 1, 1)
	err = s.Update(ctx, u, func(tx factbase.Tx) error {
		if err := tx.End(ctx, "sealed-1", tx.Now(), ""); err != nil {
			return err
		}
		if n, err := tx.Erase(ctx, "sealed-1"); n != 1 || err != nil {
			return fmt.Errorf("Erase = %d, %v", n, err)
		}
		_, err := tx.DeleteEpisode(ctx, "sealed-ep")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	check("erased", 0, 0)
}

// TestSealedRowsIndex runs testSealedRows on a new store.
func TestSealedRowsIndex(t *testing.T) {
	testSealedRows(t, openTemp(t), storetest.NewUser())
}

// TestResealPlans: every batch of ResealRows walks its table's key in order, from
// the position given, without sorting the table.
func TestResealPlans(t *testing.T) {
	s := openTemp(t)
	for table, rt := range resealTables {
		args := make([]any, len(rt.keys))
		for i := range args {
			if i < rt.ints {
				args[i] = 0
			} else {
				args[i] = ""
			}
		}
		p := queryPlan(t, s, rt.query(factbase.SealedTables[table], true, 3), args...)
		if strings.Contains(p, "TEMP B-TREE") || !strings.Contains(p, "SEARCH t USING") {
			t.Errorf("plan of a batch of %s: %s; want a search of its key without a sort", table, p)
		}
	}
}
