package sqlite

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/storetest"
)

// openTemp opens a store with the default options on a new file (OpenTemp).
func openTemp(t testing.TB) *Store { return OpenTemp(t, Options{}) }

// smallGap makes positions 4 apart, so that a list respaces every few writes.
func smallGap(t *testing.T) {
	old := rankGap
	rankGap = 4
	t.Cleanup(func() { rankGap = old })
}

// TestConformanceSmallGap runs the conformance suite's list tests with lists that
// respace all the time.
func TestConformanceSmallGap(t *testing.T) {
	smallGap(t)
	storetest.Run(t, func(t *testing.T) factbase.Store { return openTemp(t) }, storetest.Only("RankedListScenario", "RankedAgainstModel", "RemoveRetractDelete", "AsOf", "Pagination",
		"Invariants", "EraseUser"))
}

// TestRanksAgainstModel drives a list of up to 40 members through appends, moves,
// inserts and removals, and compares every state, every mutation, every removed
// member's history rank and the block counts with the pure model: with positions 4
// apart (all in one block, respacing every few writes) and 2^35 apart (8 members a
// block, respacing after 35 inserts at one spot).
func TestRanksAgainstModel(t *testing.T) {
	for _, gap := range []int64{4, 1 << 35} {
		t.Run(fmt.Sprintf("gap %d", gap), func(t *testing.T) {
			old := rankGap
			rankGap = gap
			defer func() { rankGap = old }()
			ranksAgainstModel(t)
		})
	}
}

func ranksAgainstModel(t *testing.T) {
	s := openTemp(t)
	var before map[string]int64
	respaced := 0
	storetest.RankedModel(t, s, 600, func(t *testing.T, u factbase.UserID, key string, done bool) {
		if !done {
			before = positionsOf(t, s, u, key)
			return
		}
		if storetest.Changed(before, positionsOf(t, s, u, key)) > 1 {
			respaced++
		}
		checkBlocks(t, s)
	})
	if respaced == 0 {
		t.Fatal("the list never respaced: the test does not reach respace")
	}
	t.Logf("%d of 600 writes respaced the list", respaced)
}

// checkBlocks compares list_blocks with the counts of the members' positions.
func checkBlocks(t *testing.T, s *Store) {
	t.Helper()
	var diff int
	err := s.reader.QueryRow(`WITH
		kept AS (SELECT u, subject, key, block, members FROM list_blocks WHERE members <> 0),
		counted AS (SELECT u, subject, key, rank >> 38 AS block, count(*) AS members FROM facts
			WHERE current = 1 AND cardinality = 'ranked' GROUP BY 1, 2, 3, 4)
		SELECT (SELECT count(*) FROM (SELECT * FROM kept EXCEPT SELECT * FROM counted))
			+ (SELECT count(*) FROM (SELECT * FROM counted EXCEPT SELECT * FROM kept))`).Scan(&diff)
	if err != nil || diff != 0 {
		t.Fatalf("list_blocks differs from the positions in %d rows (%v)", diff, err)
	}
}

// positionsOf returns the list's positions by fact id.
func positionsOf(t *testing.T, s *Store, u factbase.UserID, key string) map[string]int64 {
	t.Helper()
	rows, err := s.reader.Query(`SELECT f.id, f.rank FROM facts f JOIN users s ON s.seq = f.u
		WHERE s.id = ? AND f.key = ? AND f.current = 1 AND f.cardinality = 'ranked'`, string(u), key)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var id string
		var p int64
		if err := rows.Scan(&id, &p); err != nil {
			t.Fatal(err)
		}
		if p < 1 {
			t.Fatalf("member %s at position %d", id, p)
		}
		out[id] = p
	}
	return out
}

// TestDensePositionsFromOldStores: a list written before positions (ranks 1..N in
// the rank column, as migrations 0001-0015 left them) reads the same and takes an
// insert in the middle by respacing.
func TestDensePositionsFromOldStores(t *testing.T) {
	s := openTemp(t)
	e, u := storetest.Engine(s)
	ctx := context.Background()
	add := func(v string, rank int) factbase.Op {
		return factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.old", Value: v, Rank: rank}}
	}
	if _, err := e.Apply(ctx, u, []factbase.Op{add("A", 0), add("B", 0), add("C", 0), add("D", 0)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.writer.Exec(`UPDATE facts SET rank = -o.n FROM (SELECT seq, row_number() OVER (ORDER BY rank) AS n
			FROM facts WHERE key = 'favorites.old' AND current = 1) AS o WHERE facts.seq = o.seq;
		UPDATE facts SET rank = -rank WHERE rank < 0`); err != nil {
		t.Fatal(err)
	}
	if got := storetest.ListState(t, e, u, "favorites.old"); strings.Join(got, "") != "ABCD" {
		t.Fatalf("dense list reads %v", got)
	}
	if _, err := e.Apply(ctx, u, []factbase.Op{add("X", 2), add("Y", 1), add("B", 6)}); err != nil {
		t.Fatal(err)
	}
	if got := storetest.ListState(t, e, u, "favorites.old"); strings.Join(got, "") != "YAXCDB" {
		t.Fatalf("after inserts and a move: %v, want YAXCDB", got)
	}
}

// TestPositions: a MOVE across 2,000 members changes one position, and two members
// at one position are refused.
func TestPositions(t *testing.T) { storetest.PositionTests(t, openTemp, positionsOf, corruptPosition) }

// corruptPosition puts member C of favorites.x at A's position.
func corruptPosition(ctx context.Context, ftx factbase.Tx) error {
	tx := ftx.(*tx)
	_, err := tx.q.ExecContext(ctx, `UPDATE facts SET rank = (SELECT min(rank) FROM facts
		WHERE u = ?1 AND key = 'favorites.x' AND current = 1)
		WHERE u = ?1 AND key = 'favorites.x' AND current = 1 AND value = 'C'`, tx.u)
	return mapErr("corrupt", err)
}

// TestInsertFactsPlacesRankedMembers: the bulk insert places current ranked facts
// as Insert does, one at a time, rather than storing their ranks as positions.
func TestInsertFactsPlacesRankedMembers(t *testing.T) {
	s := openTemp(t)
	e, u := storetest.Engine(s)
	ctx := context.Background()
	if _, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.bulk", Value: "A"}}}); err != nil {
		t.Fatal(err)
	}
	err := s.Update(ctx, u, func(ftx factbase.Tx) error {
		var facts []factbase.Fact
		for _, v := range []string{"X", "Y"} {
			now := ftx.Now()
			facts = append(facts, factbase.Fact{ID: "bulk-" + v, Subject: factbase.SubjectUser, Key: "favorites.bulk",
				Cardinality: factbase.Ranked, Value: v, Rank: 1, ValueType: factbase.String, Category: factbase.Transient,
				Confidence: 1, RecordedAt: now, ValidFrom: now, Current: true})
		}
		return ftx.InsertFacts(ctx, facts, []string{"x", "y"})
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := storetest.ListState(t, e, u, "favorites.bulk"); strings.Join(got, "") != "YXA" {
		t.Fatalf("list %v, want Y X A (each inserted at rank 1)", got)
	}
}

// TestMoveTo: a move writes the member's new place and the members between shift;
// a fact that is not a current member is not found.
func TestMoveTo(t *testing.T) {
	s := openTemp(t)
	u := storetest.NewUser()
	ctx := context.Background()
	var ops []factbase.Op
	for _, v := range []string{"A", "B", "C", "D", "E"} {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.odd", Value: v}})
	}
	if _, err := memory.New(s, memory.Options{NoSheetRegen: true}).Apply(ctx, u, ops); err != nil {
		t.Fatal(err)
	}
	err := s.Update(ctx, u, func(tx factbase.Tx) error {
		d, ok, err := tx.Member(ctx, factbase.SubjectUser, "favorites.odd", "d")
		if err != nil || !ok || d.Rank != 4 {
			t.Fatalf("member d: %+v %v %v", d, ok, err)
		}
		gone := d
		gone.ID = "no-such-fact"
		if err := tx.MoveTo(ctx, gone, 1); factbase.ErrorCode(err) != factbase.ENOTFOUND {
			t.Errorf("a move of a fact that is not a member: %v, want not found", err)
		}
		if err := tx.MoveTo(ctx, d, 1); err != nil {
			t.Fatalf("move 4 to 1: %v", err)
		}
		p, _, err := tx.ListPage(ctx, factbase.SubjectUser, "favorites.odd", 0, 10)
		var got string
		for _, f := range p {
			got += f.Value
		}
		if err != nil || got != "DABCE" {
			t.Errorf("after the move: %q %v, want DABCE", got, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestMigrationSpreadsDenseLists: migration 0016 on a store whose lists hold dense
// ranks spreads each list's positions 2^32 apart (order kept), leaves a list whose
// positions are already spread as it is, and counts every list's blocks.
func TestMigrationSpreadsDenseLists(t *testing.T) {
	s := openTemp(t)
	e, u := storetest.Engine(s)
	storetest.FillList(t, e, u, "favorites.dense", 150)
	storetest.FillList(t, e, u, "favorites.spread", 5)
	// Back to the shape before 0016: no blocks, and the dense list's ranks 1..N
	// stored in reverse rowid order to make its order differ from insertion order.
	ExecAll(t, s.writer,
		"UPDATE facts SET rank = -(151 - o.n) FROM (SELECT seq, row_number() OVER (ORDER BY rank) AS n FROM facts WHERE key = 'favorites.dense' AND current = 1) AS o WHERE facts.seq = o.seq",
		"UPDATE facts SET rank = -rank WHERE rank < 0",
		"DROP TRIGGER list_blocks_insert", "DROP TRIGGER list_blocks_update", "DROP TRIGGER list_blocks_delete",
		"DROP TABLE list_blocks",
		"DELETE FROM schema_migrations WHERE name = 'migrations/0016_list_blocks.sql'",
	)
	spreadBefore := positionsOf(t, s, u, "favorites.spread")
	s = Reopen(t, s)
	e = storetest.CheckSpread(t, s, u, "favorites.dense", 150, positionsOf(t, s, u, "favorites.dense"))
	if after := positionsOf(t, s, u, "favorites.spread"); storetest.Changed(spreadBefore, after) != 0 {
		t.Errorf("spread list moved: %v, was %v", after, spreadBefore)
	}
	checkBlocks(t, s)
	before := positionsOf(t, s, u, "favorites.dense")
	storetest.InsertAt(t, e, u, "favorites.dense", "new", 75)
	if n := storetest.Changed(before, positionsOf(t, s, u, "favorites.dense")); n != 0 {
		t.Errorf("an insert after the migration moved %d members, want 0 (no respace)", n)
	}
	checkBlocks(t, s)
}
