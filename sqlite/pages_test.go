package sqlite

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/storetest"
)

// queryPlan returns the details of EXPLAIN QUERY PLAN for q, joined by "; ".
func queryPlan(t *testing.T, s *Store, q string, args ...any) string {
	t.Helper()
	rows, err := s.writer.Query("EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatalf("explain %s: %v", q, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		out = append(out, detail)
	}
	return strings.Join(out, "; ")
}

// TestWritePagePlans: the reads that lost or narrowed an index in migration 0017
// still seek one: a fact's list events through list_events_key, a type filter
// through the partial facts_type, an episode's and the transcripts' facts through
// their partial indexes.
func TestWritePagePlans(t *testing.T) {
	s := openTemp(t)
	var tx tx
	q, args := tx.factsQuery(factbase.FactFilter{Type: "health"})
	where, wargs := tx.factWhere(factbase.SearchFilter{Type: "health"})
	tw, targs := tx.transcriptWhere(factbase.TranscriptQuery{}, "")
	for _, c := range []struct {
		q     string
		args  []any
		index string
	}{
		{qEraseEvents, []any{1, "f1"}, "list_events_key (u=? AND subject=? AND key=?)"},
		{q, args, "facts_type (u=? AND type=?)"},
		{"SELECT f.id FROM facts f WHERE " + strings.Join(where, " AND "), wargs, "facts_type (u=? AND type=?)"},
		{qEpisodeFactsAll, []any{1, "e1"}, "facts_episode (u=? AND source_id=?)"},
		{"SELECT id FROM facts WHERE " + tw + " ORDER BY recorded_at, seq", targs, "facts_transcript (u=?)"},
	} {
		if p := queryPlan(t, s, c.q, c.args...); !strings.Contains(p, "USING INDEX "+c.index) {
			t.Errorf("plan of %s: %s; want index %s", c.q, p, c.index)
		}
	}
}

// TestMigrationDropsErasedEvents: migration 0017 on a store from before it deletes
// the list events whose fact was erased (an earlier write path left a removal event
// holding the erased value), keeps every other event, and replaces the indexes.
func TestMigrationDropsErasedEvents(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	u := storetest.NewUser()
	for _, v := range []string{"oolong", "sencha", "chai"} {
		if _, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.tea", Value: v}}}); err != nil {
			t.Fatal(err)
		}
	}
	events := func() (n int, leaked int) {
		t.Helper()
		if err := s.writer.QueryRow(`SELECT count(*), count(*) FILTER (WHERE value = 'secret') FROM list_events`).Scan(&n, &leaked); err != nil {
			t.Fatal(err)
		}
		return n, leaked
	}
	kept, _ := events()
	// Back to the shape before 0017, with the removal event that the erasure of a
	// member named "secret" used to leave.
	ExecAll(t, s.writer,
		`INSERT INTO list_events (u, subject, key, at, action, fact_id, value, from_rank, to_rank)
			SELECT u, subject, key, at + 1, 'REMOVE', 'erased-fact-id', 'secret', 2, 0 FROM list_events LIMIT 1`,
		"CREATE INDEX list_events_fact ON list_events (fact_id)",
		"DROP INDEX facts_type",
		"CREATE INDEX facts_type ON facts (u, type, valid_from) WHERE current = 1",
		"DROP INDEX facts_episode", "DROP INDEX facts_transcript",
		"CREATE INDEX facts_source ON facts (u, source_kind, source_id)",
		"DELETE FROM schema_migrations WHERE name = 'migrations/0017_write_pages.sql'",
	)
	if _, leaked := events(); leaked != 1 {
		t.Fatalf("setup: %d leaked events, want 1", leaked)
	}
	s = Reopen(t, s)
	if n, leaked := events(); leaked != 0 || n != kept {
		t.Errorf("after the migration: %d events, %d of an erased fact; want %d and 0", n, leaked, kept)
	}
	var indexes string
	if err := s.writer.QueryRow(`SELECT group_concat(name || ':' || coalesce(sql, ''), ' | ') FROM sqlite_schema
		WHERE type = 'index' AND name IN ('list_events_fact', 'facts_type', 'facts_source', 'facts_episode', 'facts_transcript')`).Scan(&indexes); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(indexes, "list_events_fact") || strings.Contains(indexes, "facts_source") ||
		!strings.Contains(indexes, "type <> ''") || !strings.Contains(indexes, "facts_episode") || !strings.Contains(indexes, "facts_transcript") {
		t.Errorf("indexes after the migration: %s; want no list_events_fact or facts_source, facts_type without empty types, facts_episode and facts_transcript", indexes)
	}
	e = memory.New(s, memory.Options{NoSheetRegen: true})
	if got := storetest.ListState(t, e, u, "favorites.tea"); len(got) != 3 {
		t.Errorf("list after the migration: %v", got)
	}
}

// walPages runs write on a store whose WAL was just emptied and returns the b-trees
// (named as dbstat names them) of the pages it wrote to the WAL, one entry per page.
func walPages(t *testing.T, s *Store, write func()) []string {
	t.Helper()
	for _, q := range []string{"PRAGMA wal_autocheckpoint = 0", "PRAGMA wal_checkpoint(TRUNCATE)"} {
		if _, err := s.writer.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	write()
	b, err := os.ReadFile(s.Path() + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 32 {
		t.Fatalf("WAL of %d bytes", len(b))
	}
	size := int(binary.BigEndian.Uint32(b[8:12]))
	owner := map[uint32]string{}
	rows, err := s.writer.Query("SELECT name, pageno FROM dbstat")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var page uint32
		if err := rows.Scan(&name, &page); err != nil {
			t.Fatal(err)
		}
		owner[page] = name
	}
	seen := map[uint32]bool{}
	var out []string
	for off := 32; off+24+size <= len(b); off += 24 + size {
		if p := binary.BigEndian.Uint32(b[off:]); !seen[p] {
			seen[p] = true
			out = append(out, owner[p])
		}
	}
	slices.Sort(out)
	return out
}

// TestWritePages: what an append to a 1,000-member list and a supersession write to
// the file, page by page. A fact without a type, episode or transcript source
// writes none of the partial indexes that serve those reads, and a list write no
// index of list events but the key's (migration 0017).
func TestWritePages(t *testing.T) {
	s := openTemp(t)
	e := memory.New(s, memory.Options{NoSheetRegen: true}) // the write path's pages alone
	u := storetest.NewUser()
	ctx := context.Background()
	apply := func(ops ...factbase.Op) {
		t.Helper()
		if _, err := e.Apply(ctx, u, ops); err != nil {
			t.Fatal(err)
		}
	}
	set := func(key, value string) factbase.Op {
		return factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: key, Value: value}}
	}
	var ops []factbase.Op
	for i := 0; i < 1000; i++ {
		ops = append(ops, set("favorites.big", fmt.Sprintf("member-%04d", i)))
	}
	apply(ops...)
	apply(set("contact.email", "a@example.com"))
	for name, op := range map[string]factbase.Op{"append": set("favorites.big", "new"), "supersession": set("contact.email", "b@example.com")} {
		pages := walPages(t, s, func() { apply(op) })
		t.Logf("%s: %d pages: %v", name, len(pages), pages)
		for _, p := range pages {
			switch p {
			case "facts_type", "facts_episode", "facts_transcript", "list_events_fact", "facts_source":
				t.Errorf("%s wrote a page of %s", name, p)
			}
		}
		if !slices.Contains(pages, "facts") {
			t.Errorf("%s wrote no page of facts: %v", name, pages)
		}
	}
}
