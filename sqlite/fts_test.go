package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

// textIDs returns the ids of the user's full-text candidates for terms.
func textIDs(t *testing.T, s factbase.Store, u factbase.UserID, kind string, terms ...string) []string {
	t.Helper()
	var ids []string
	err := s.View(context.Background(), u, func(tx factbase.ReadTx) error {
		cs, err := tx.TextCandidates(context.Background(), factbase.TextQuery{Kind: kind, Terms: terms, Limit: 500})
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
	s := sqlite.OpenTemp(t, sqlite.Options{})
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	a, b := storetest.NewUser(), storetest.NewUser()
	if _, err := e.Apply(ctx, a, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "trip.next", Value: "Zanzibar"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Ingest.AddEpisode(ctx, a, ingest.EpisodeInput{Content: "We flew to Zanzibar in May"}); err != nil {
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
	// Back to the shape before 0012: full-text tables without the owner column.
	s = sqlite.Downgrade(t, s,
		"DROP TABLE facts_fts", "DROP TABLE episodes_fts",
		"CREATE VIRTUAL TABLE facts_fts USING fts5(text, key, value, content = '', columnsize = 0, tokenize = 'porter unicode61 remove_diacritics 2')",
		"CREATE VIRTUAL TABLE episodes_fts USING fts5(content, tags, content = '', columnsize = 0, tokenize = 'porter unicode61 remove_diacritics 2')",
		"DROP TRIGGER facts_fts_insert", "CREATE TRIGGER facts_fts_insert AFTER INSERT ON facts BEGIN INSERT INTO facts_fts (rowid, text, key, value) VALUES (NEW.seq, NEW.text, NEW.key, NEW.value); END",
		"DELETE FROM schema_migrations WHERE name = 'migrations/0012_fts_user.sql'",
	)
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
	s := sqlite.OpenTemp(t, sqlite.Options{})
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

// ftsCount counts the entries of the facts' full-text index that match term, current
// or not (search reads only current facts; this reads the index itself).
func ftsCount(t *testing.T, s *sqlite.Store, term string) int {
	t.Helper()
	var n int
	if err := sqlite.WriterOf(s).QueryRow("SELECT count(*) FROM facts_fts WHERE facts_fts MATCH ?", `"`+term+`"`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestFullTextDeferredInBatch: a write of many facts indexes their full text at its
// end (migration 0018), in the state each fact is in then: new, superseded, removed
// and erased facts of the same write, and older facts the write changes, are found
// exactly as when each fact was indexed on its own; fts_defer is back to its resting
// value after the commit; a write that fails leaves neither entries nor the deferral
// behind.
func TestFullTextDeferredInBatch(t *testing.T) {
	ctx := context.Background()
	s := sqlite.OpenTemp(t, sqlite.Options{})
	e, u := memory.New(s, memory.Options{NoSheetRegen: true}), storetest.NewUser()
	set := func(key, value string) factbase.Op {
		return factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: key, Value: value}}
	}
	if _, err := e.Apply(ctx, u, []factbase.Op{set("contact.email", "old@example.com"), set("favorites.color", "red")}); err != nil {
		t.Fatal(err)
	}
	res, err := e.Apply(ctx, u, []factbase.Op{
		set("favorites.color", "blue"),          // the write's first fact: indexed by its trigger
		set("favorites.color", "green"),         // deferred from here on
		set("contact.email", "new@example.com"), // supersedes an indexed fact
		set("note.scratch", "ephemeral"),        // erased below
		set("contact.phone", "5550100"),
		{Kind: factbase.OpRemove, Fact: factbase.Fact{Key: "favorites.color", Value: "green"}}, // a deferred fact leaves
		{Kind: factbase.OpRemove, Fact: factbase.Fact{Key: "favorites.color", Value: "red"}},   // an indexed fact leaves
		{Kind: factbase.OpDelete, Fact: factbase.Fact{Key: "note.scratch"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stored != 5 {
		t.Fatalf("stored %d, want 5", res.Stored)
	}
	for _, c := range []struct {
		term string
		want int
	}{
		{"blue", 1}, {"green", 0}, {"red", 0}, {"ephemeral", 0}, {"old", 1}, {"new", 1}, {"5550100", 1}, {"example", 2},
	} {
		if got := ftsCount(t, s, c.term); got != c.want {
			t.Errorf("%q has %d full-text entries, want %d", c.term, got, c.want)
		}
	}
	deferFrom := func() int64 {
		t.Helper()
		var n int64
		if err := sqlite.WriterOf(s).QueryRow("SELECT from_seq FROM fts_defer").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if got := deferFrom(); got != math.MaxInt64 {
		t.Errorf("fts_defer.from_seq = %d after the commit, want %d", got, int64(math.MaxInt64))
	}

	// A write that fails after deferring rolls back its deferral with its facts.
	boom := errors.New("boom")
	_, err = e.ApplyWith(ctx, u, []factbase.Op{set("favorites.color", "cyan"), set("favorites.color", "magenta")},
		func(*core.Writer) error { return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("ApplyWith = %v, want %v", err, boom)
	}
	if got := deferFrom(); got != math.MaxInt64 {
		t.Errorf("fts_defer.from_seq = %d after a failed write, want %d", got, int64(math.MaxInt64))
	}
	if got := ftsCount(t, s, "magenta"); got != 0 {
		t.Errorf("a failed write left %d full-text entries", got)
	}
	// The next write of one fact is indexed by its trigger.
	if _, err := e.Apply(ctx, u, []factbase.Op{set("favorites.color", "magenta")}); err != nil {
		t.Fatal(err)
	}
	if got := ftsCount(t, s, "magenta"); got != 1 {
		t.Errorf("magenta has %d full-text entries, want 1", got)
	}
	if _, err := sqlite.WriterOf(s).Exec("INSERT INTO facts_fts (facts_fts, rank) VALUES ('integrity-check', 0)"); err != nil {
		t.Errorf("full-text integrity check: %v", err)
	}
}

// TestFullTextDeferredSeqReuse: a fact that takes a seq below fts_defer.from_seq
// while a write defers (the highest seq was erased, and SQLite reuses it) is indexed
// by its trigger, and the flush does not index it again.
func TestFullTextDeferredSeqReuse(t *testing.T) {
	ctx := context.Background()
	s := sqlite.OpenTemp(t, sqlite.Options{})
	e, u := memory.New(s, memory.Options{NoSheetRegen: true}), storetest.NewUser()
	if _, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "note.a", Value: "alpha"}}}); err != nil {
		t.Fatal(err)
	}
	tx, err := sqlite.WriterOf(s).Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	var top, from int64
	for _, q := range []struct {
		sql  string
		dest []any
	}{
		{"SELECT max(seq) FROM facts", []any{&top}},
		{"UPDATE fts_defer SET from_seq = (SELECT max(seq) + 1 FROM facts) RETURNING from_seq", []any{&from}},
	} {
		if err := tx.QueryRow(q.sql).Scan(q.dest...); err != nil {
			t.Fatal(q.sql, err)
		}
	}
	for _, q := range []string{
		"DELETE FROM facts WHERE seq = " + fmt.Sprint(top),
		`INSERT INTO facts (id, u, subject, key, cardinality, value, norm, recorded_at, valid_from)
			SELECT 'reused', seq, '', 'note.b', 'one', 'bravo', 'bravo', 1, 1 FROM users`,
		"INSERT INTO facts_fts (rowid, text, key, value, u) SELECT seq, text, key, value, 'fbu' || u FROM facts WHERE seq >= " +
			fmt.Sprint(from) + " AND (current = 1 OR superseded_by <> '')",
		"UPDATE fts_defer SET from_seq = 9223372036854775807",
	} {
		if _, err := tx.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	var seq int64
	if err := tx.QueryRow("SELECT seq FROM facts WHERE id = 'reused'").Scan(&seq); err != nil {
		t.Fatal(err)
	}
	if seq >= from {
		t.Fatalf("the new fact took seq %d, not below %d: the test provokes nothing", seq, from)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := ftsCount(t, s, "alpha"); got != 0 {
		t.Errorf("the erased fact has %d full-text entries", got)
	}
	if got := ftsCount(t, s, "bravo"); got != 1 {
		t.Errorf("the fact with a reused seq has %d full-text entries, want 1", got)
	}
}
