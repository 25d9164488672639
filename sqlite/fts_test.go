package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

// textIDs returns the ids of the user's full-text candidates for terms.
func textIDs(t *testing.T, s factbase.Store, u factbase.UserID, kind string, terms ...string) []string {
	t.Helper()
	var ids []string
	err := s.View(context.Background(), u, func(tx factbase.ReadTx) error {
		cs, err := tx.(factbase.SearchReadTx).TextCandidates(context.Background(), factbase.TextQuery{Kind: kind, Terms: terms, Limit: 500})
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

// TestFullTextPerUser: the full-text index ranks only the searcher's entries (the
// owner token of migration 0012), a term never matches an owner token, and a store
// from before 0012 is re-indexed in place with the same results.
func TestFullTextPerUser(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "f.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	a, b := storetest.NewUser(), storetest.NewUser()
	if _, err := e.Apply(ctx, a, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "trip.next", Value: "Zanzibar"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.AddEpisode(ctx, a, memory.EpisodeInput{Content: "We flew to Zanzibar in May"}); err != nil {
		t.Fatal(err)
	}
	var ops []factbase.Op
	for i := range 300 {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: fmt.Sprintf("trip.t%03d", i), Value: "Zanzibar harbour " + fmt.Sprint(i)}})
	}
	if _, err := e.Apply(ctx, b, ops); err != nil {
		t.Fatal(err)
	}
	factsA, epsA := textIDs(t, s, a, factbase.KindFact, "zanzibar"), textIDs(t, s, a, factbase.KindEpisode, "zanzibar")
	factsB := textIDs(t, s, b, factbase.KindFact, "harbour")
	if len(factsA) != 1 || len(epsA) != 1 || len(factsB) != 300 {
		t.Fatalf("A finds %d facts and %d episodes, B %d facts; want 1, 1 and 300", len(factsA), len(epsA), len(factsB))
	}
	// An owner token is not a word of anyone's text.
	for seq := 1; seq <= 3; seq++ {
		if got := textIDs(t, s, a, factbase.KindFact, fmt.Sprintf("fbu%d", seq)); len(got) != 0 {
			t.Errorf("the term fbu%d matches %v", seq, got)
		}
	}
	s.Close()

	// Back to the shape before 0012: full-text tables without the owner column.
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"DROP TABLE facts_fts", "DROP TABLE episodes_fts",
		"CREATE VIRTUAL TABLE facts_fts USING fts5(text, key, value, content = '', columnsize = 0, tokenize = 'porter unicode61 remove_diacritics 2')",
		"CREATE VIRTUAL TABLE episodes_fts USING fts5(content, tags, content = '', columnsize = 0, tokenize = 'porter unicode61 remove_diacritics 2')",
		"DROP TRIGGER facts_fts_insert", "CREATE TRIGGER facts_fts_insert AFTER INSERT ON facts BEGIN INSERT INTO facts_fts (rowid, text, key, value) VALUES (NEW.seq, NEW.text, NEW.key, NEW.value); END",
		"DELETE FROM schema_migrations WHERE name = 'migrations/0012_fts_user.sql'",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	s, err = sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatalf("reopen (migration 0012): %v", err)
	}
	defer s.Close()
	if got := textIDs(t, s, a, factbase.KindFact, "zanzibar"); !slices.Equal(got, factsA) {
		t.Errorf("after the upgrade A's facts %v, want %v", got, factsA)
	}
	if got := textIDs(t, s, a, factbase.KindEpisode, "zanzibar"); !slices.Equal(got, epsA) {
		t.Errorf("after the upgrade A's episodes %v, want %v", got, epsA)
	}
	if got := textIDs(t, s, b, factbase.KindFact, "harbour"); !slices.Equal(got, factsB) {
		t.Errorf("after the upgrade B finds %d facts, want 300", len(got))
	}
}

// TestFullTextScoresFinite: entries whose average length is exactly three times the
// number of columns make bm25 NULL for every entry (the tables keep no column sizes,
// so FTS5 takes each entry's length as minus the number of columns, and the length
// normalisation divides 0 by 0); the search must still answer. Each fact here has 12
// tokens: 8 of text, 2 of key, 1 of value and the owner token.
func TestFullTextScoresFinite(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	defer s.Close()
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	u := storetest.NewUser()
	var ops []factbase.Op
	for i, w := range []string{"alpha", "bravo", "carol"} {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{
			Key: fmt.Sprintf("k.x%d", i), Value: "v", Text: w + " one two three four five six seven"}})
	}
	if _, err := e.Apply(ctx, u, ops); err != nil {
		t.Fatal(err)
	}
	if got := textIDs(t, s, u, factbase.KindFact, "bravo", "zulu"); len(got) != 1 {
		t.Errorf("bravo OR zulu finds %v, want one fact", got)
	}
}
