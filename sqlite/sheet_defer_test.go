package sqlite

import (
	"context"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/storetest"
)

// TestSheetRecordsDeferred: the sheet records of facts inserted in bulk are written
// before commit, after the transaction's references to them and its changes of
// them (a change of a deferred fact leaves its record to the flush, which would
// otherwise find it written), and sheet_rows equals its definition after the commit.
func TestSheetRecordsDeferred(t *testing.T) {
	ctx := context.Background()
	s := OpenTemp(t, Options{})
	u := storetest.NewUser()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var facts []factbase.Fact
	for _, id := range []string{"f0", "f1", "f2"} {
		facts = append(facts, factbase.Fact{ID: id, Subject: factbase.SubjectUser, Key: "tags", Value: id,
			Cardinality: factbase.Many, ValueType: factbase.String, Category: factbase.Core, Confidence: 1,
			RecordedAt: now, ValidFrom: now, Current: true})
	}
	err := s.Update(ctx, u, func(ftx factbase.Tx) error {
		if err := ftx.InsertFacts(ctx, facts, []string{"f0", "f1", "f2"}); err != nil {
			return err
		}
		if _, err := ftx.(*tx).q.ExecContext(ctx, "UPDATE facts SET text = 'changed' WHERE id = 'f0'"); err != nil {
			return err
		}
		if err := ftx.End(ctx, "f2", now, ""); err != nil {
			return err
		}
		_, err := ftx.AddReferences(ctx, []factbase.Reference{{FactID: "f1", At: now}, {FactID: "f1", At: now.Add(time.Second)}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var drift, rows, refs int
	q := `SELECT
		(SELECT count(*) FROM (SELECT u, fact, rec FROM sheet_rows_def EXCEPT SELECT u, fact, rec FROM sheet_rows)) +
		(SELECT count(*) FROM (SELECT u, fact, rec FROM sheet_rows EXCEPT SELECT u, fact, rec FROM sheet_rows_def)),
		(SELECT count(*) FROM sheet_rows),
		(SELECT count(*) FROM sheet_rows r JOIN facts f ON f.seq = r.fact WHERE f.id = 'f1' AND length(CAST(r.rec AS BLOB)) > 33 + 16)`
	if err := s.writer.QueryRowContext(ctx, q).Scan(&drift, &rows, &refs); err != nil {
		t.Fatal(err)
	}
	if drift != 0 || rows != 2 || refs != 1 {
		t.Errorf("after the bulk insert: %d rows of sheet_rows differ from their definition, %d rows (want 0 and 2: f2 ended), f1's record with its references: %d (want 1)",
			drift, rows, refs)
	}
}
