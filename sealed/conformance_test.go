package sealed_test

import (
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/storetest"
)

// TestConformanceSQLite runs the conformance suite over the sealed SQLite store: a
// sealed store keeps the contract its inner store keeps.
func TestConformanceSQLite(t *testing.T) {
	key := newKey(t)
	storetest.Run(t, func(t *testing.T) factbase.Store {
		s, _, _ := openSealedSQLite(t, key)
		return s
	})
}

// TestConformancePostgres runs the suite over the sealed PostgreSQL store, every
// test on the same schema emptied (its key record too).
func TestConformancePostgres(t *testing.T) {
	schema := pgSchema(t)
	openPostgres(t, schema) // migrates the schema once
	key := newKey(t)
	storetest.Run(t, func(t *testing.T) factbase.Store {
		emptyPostgres(t, schema)
		return sealWith(t, openPostgres(t, schema), key)
	})
}
