package postgres

import (
	"context"
	"testing"

	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/storetest"
)

// TestMigrationCreationReferences: migration 0023 on a schema from before it, whose
// write path stored a reference row repeating each new fact's creation, deletes those
// rows (one of two identical ones stays); every fact's references count as they did.
func TestMigrationCreationReferences(t *testing.T) {
	s := openSchema(t, NewSchema(t))
	c := storetest.WriteCreationRefs(t, s, memory.New(s, memory.Options{NoSheetRegen: true}))
	insert := `INSERT INTO fact_references (u, fact, at, source_kind, source_id)
		SELECT u, seq, recorded_at, source_kind, source_id FROM facts`
	s = downgrade(t, s, insert+" ORDER BY seq", insert+" WHERE id = '"+c.Facts[1]+"'",
		"DELETE FROM schema_migrations WHERE name = '0023_creation_references.sql'")
	var rows int
	if err := s.pool.QueryRow(context.Background(), "SELECT count(*) FROM fact_references").Scan(&rows); err != nil {
		t.Fatal(err)
	}
	c.Check(t, s, rows)
}
