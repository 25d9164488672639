package sqlite_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

// sheetRowsDrift counts the rows in which sheet_rows differs from its definition,
// the view sheet_rows_def (migration 0013), in either direction.
const sheetRowsDrift = `SELECT
		(SELECT count(*) FROM (SELECT u, fact, rec FROM sheet_rows_def EXCEPT SELECT u, fact, rec FROM sheet_rows)) +
		(SELECT count(*) FROM (SELECT u, fact, rec FROM sheet_rows EXCEPT SELECT u, fact, rec FROM sheet_rows_def))`

// TestSheetRowsFollowFacts: after a random history of writes through the write path
// (new facts, supersessions, retractions, erasures, references, a user erased), the
// triggers have kept sheet_rows equal to the query that defines it.
func TestSheetRowsFollowFacts(t *testing.T) {
	ctx := context.Background()
	s := sqlite.OpenTemp(t, sqlite.Options{})
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	r := rand.New(rand.NewPCG(5, 6))
	users := []factbase.UserID{storetest.NewUser(), storetest.NewUser(), storetest.NewUser()}
	ids := map[factbase.UserID][]string{}
	check := func(step int) {
		t.Helper()
		var n, rows int
		if err := sqlite.WriterOf(s).QueryRowContext(ctx, sheetRowsDrift).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if err := sqlite.WriterOf(s).QueryRowContext(ctx, `SELECT count(*) FROM sheet_rows`).Scan(&rows); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Fatalf("step %d: %d rows of sheet_rows (of %d) differ from their definition", step, n, rows)
		}
	}
	for step := range 60 {
		u := users[r.IntN(len(users))]
		var ops []factbase.Op
		switch k := r.IntN(12); {
		case k < 5 || len(ids[u]) == 0: // new facts, or new values of old keys
			for range 1 + r.IntN(8) {
				ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{
					Key: fmt.Sprintf("k%d", r.IntN(30)), Value: fmt.Sprintf("v%d", r.IntN(5)), Cardinality: factbase.One,
					Category:    factbase.Categories[r.IntN(len(factbase.Categories))],
					Sensitivity: []factbase.Sensitivity{"", factbase.High}[r.IntN(2)],
					Text:        []string{"", "Likes tea", fmt.Sprint("fact ", step)}[r.IntN(3)]}})
			}
		case k < 7:
			ops = append(ops, factbase.Op{Kind: factbase.OpRetract, ID: ids[u][r.IntN(len(ids[u]))]})
		case k < 8:
			ops = append(ops, factbase.Op{Kind: factbase.OpDelete, ID: ids[u][r.IntN(len(ids[u]))]})
		case k < 10: // set members in bulk (InsertFacts), some already there; some retracted at once
			var bulk []factbase.Op
			for range 32 + r.IntN(40) {
				bulk = append(bulk, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{
					Subject: fmt.Sprintf("s%d", r.IntN(3)), Key: "tags", Value: fmt.Sprintf("m%d", r.IntN(200)),
					Cardinality: factbase.Many, Category: factbase.Categories[r.IntN(len(factbase.Categories))]}})
			}
			retract := r.IntN(2) == 0
			res, err := e.ApplyWith(ctx, u, bulk, func(wr *core.Writer) error {
				if fs := wr.Result().Facts; retract && wr.Result().Stored > 0 {
					return wr.Apply(factbase.Op{Kind: factbase.OpRetract, ID: fs[len(fs)-1].ID})
				}
				return nil
			})
			if err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			for _, f := range res.Facts {
				ids[u] = append(ids[u], f.ID)
			}
		default:
			var refs []factbase.Reference
			for range 1 + r.IntN(20) {
				refs = append(refs, factbase.Reference{FactID: ids[u][r.IntN(len(ids[u]))],
					At: time.Now().Add(-time.Duration(r.IntN(1000)) * time.Hour)})
			}
			if _, err := e.ApplyWith(ctx, u, nil, func(wr *core.Writer) error {
				tx := wr.Tx()
				_, err := tx.AddReferences(ctx, refs)
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}
		if len(ops) > 0 {
			// Retracting or erasing a fact already ended or erased fails, and changes
			// nothing; a write of new values must succeed.
			res, err := e.Apply(ctx, u, ops)
			if err != nil && ops[0].Kind == factbase.OpSet {
				t.Fatalf("step %d: %v", step, err)
			}
			for _, f := range res.Facts {
				ids[u] = append(ids[u], f.ID)
			}
		}
		check(step)
	}
	var rows int
	if err := sqlite.WriterOf(s).QueryRowContext(ctx, `SELECT count(*) FROM sheet_rows WHERE fact IN (SELECT fact FROM fact_references GROUP BY fact HAVING count(*) > 1)`).Scan(&rows); err != nil || rows == 0 {
		t.Fatalf("%d rows with more than one reference (%v); the history should make some", rows, err)
	}
	if _, err := e.EraseUser(ctx, users[0]); err != nil {
		t.Fatalf("EraseUser: %v", err)
	}
	check(-1)
}
