package postgres

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/storetest"
)

// openRanks opens a store on a schema of its own, dropped when the test ends.
func openRanks(t testing.TB) *Store {
	t.Helper()
	return openSchema(t, NewSchema(t))
}

// openSchema opens a store on schema and closes it when the test ends; a test may
// close it before.
func openSchema(t testing.TB, schema string) *Store {
	t.Helper()
	s, err := Open(context.Background(), DatabaseURL(t), Options{Schema: schema})
	if err != nil {
		t.Fatalf("open (schema %s): %v", schema, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// downgrade runs stmts on s's pool (they take the schema back to before a migration
// and delete its record), closes s and returns the store reopened on the same schema,
// which applies that migration again. Reopening drops the statements the pool
// prepared on the old schema.
func downgrade(t *testing.T, s *Store, stmts ...string) *Store {
	t.Helper()
	for _, q := range stmts {
		if _, err := s.pool.Exec(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()
	return openSchema(t, s.Schema())
}

// positionsOf returns the list's positions by fact id.
func positionsOf(t *testing.T, s *Store, u factbase.UserID, key string) map[string]int64 {
	t.Helper()
	rows, err := s.pool.Query(context.Background(), `SELECT id, rank FROM facts
		WHERE u = $1 AND key = $2 AND current AND cardinality = 'ranked'`, string(u), key)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	var id string
	var p int64
	if _, err := pgx.ForEachRow(rows, []any{&id, &p}, func() error {
		if p < 1 {
			return fmt.Errorf("member %s at position %d", id, p)
		}
		out[id] = p
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRanksAgainstModel runs the model of storetest.RankedModel with positions 4
// apart, so that the list respaces every few writes.
func TestRanksAgainstModel(t *testing.T) {
	s := openRanks(t)
	old := rankGap
	rankGap = 4
	defer func() { rankGap = old }()
	var before map[string]int64
	respaced := 0
	storetest.RankedModel(t, s, 300, func(t *testing.T, u factbase.UserID, key string, done bool) {
		after := positionsOf(t, s, u, key)
		if done && storetest.Changed(before, after) > 1 {
			respaced++
		}
		before = after
	})
	if respaced == 0 {
		t.Fatal("the list never respaced: the test does not reach respace")
	}
	t.Logf("%d of 300 writes respaced the list", respaced)
}

// TestPositions: a MOVE across 2,000 members changes one position, and two members
// at one position are refused.
func TestPositions(t *testing.T) { storetest.PositionTests(t, openRanks, positionsOf, corruptPosition) }

// corruptPosition puts member C of favorites.x at A's position.
func corruptPosition(ctx context.Context, ftx factbase.Tx) error {
	tx := ftx.(*tx)
	_, err := tx.q.Exec(ctx, `UPDATE facts SET rank = (SELECT min(rank) FROM facts
		WHERE u = $1 AND key = 'favorites.x' AND current)
		WHERE u = $1 AND key = 'favorites.x' AND current AND value = 'C'`, string(tx.user))
	return mapErr("corrupt", err)
}

// TestMigrationSpreadsDenseLists: migration 0008 on a store whose lists hold dense
// ranks in an integer column widens it and spreads each list's positions 2^32 apart,
// order kept.
func TestMigrationSpreadsDenseLists(t *testing.T) {
	s := openRanks(t)
	e, u := storetest.Engine(s)
	storetest.FillList(t, e, u, "favorites.dense", 20)
	// Back to the shape before 0008: integer ranks 1..N, here in reverse insertion order.
	s = downgrade(t, s,
		`UPDATE facts f SET rank = -(21 - o.n) FROM (SELECT seq, row_number() OVER (ORDER BY rank) AS n FROM facts
			WHERE key = 'favorites.dense' AND current) o WHERE f.seq = o.seq`,
		"UPDATE facts SET rank = -rank WHERE rank < 0",
		"ALTER TABLE facts ALTER COLUMN rank TYPE integer",
		"DELETE FROM schema_migrations WHERE name = '0008_rank_positions.sql'",
	)
	e = storetest.CheckSpread(t, s, u, "favorites.dense", 20, positionsOf(t, s, u, "favorites.dense"))
	storetest.InsertAt(t, e, u, "favorites.dense", "new", 10)
}

// TestMigrationDropsErasedEvents: migration 0009 deletes the list events whose fact
// was erased (an earlier write path left a removal event holding the erased value)
// and keeps every other event.
func TestMigrationDropsErasedEvents(t *testing.T) {
	s := openRanks(t)
	e, u := storetest.Engine(s)
	ctx := context.Background()
	for _, v := range []string{"oolong", "sencha", "chai"} {
		if _, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.tea", Value: v}}}); err != nil {
			t.Fatal(err)
		}
	}
	events := func(s *Store) (n, leaked int) {
		t.Helper()
		if err := s.pool.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE value = 'secret') FROM list_events`).Scan(&n, &leaked); err != nil {
			t.Fatal(err)
		}
		return n, leaked
	}
	kept, _ := events(s)
	s = downgrade(t, s,
		`INSERT INTO list_events (u, subject, key, at, action, fact_id, value, from_rank, to_rank)
			SELECT u, subject, key, at + 1, 'REMOVE', 'erased-fact-id', 'secret', 2, 0 FROM list_events LIMIT 1`,
		"DELETE FROM schema_migrations WHERE name = '0009_erased_list_events.sql'",
	)
	if n, leaked := events(s); leaked != 0 || n != kept {
		t.Errorf("after the migration: %d events, %d of an erased fact; want %d and 0", n, leaked, kept)
	}
}
