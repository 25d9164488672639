package sealed_test

import (
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/storetest"
)

// innerOnly are the tests of the suite that write rows' raw texts (ResealRows) or
// index texts (Fact.Index) through a store's primitives: they test the inner store,
// which the sealed store passes them to or overrides.
var innerOnly = storetest.Except("Reseal", "SealedIndex")

// TestConformanceSQLite runs the conformance suite over the sealed SQLite store: a
// sealed store keeps the contract its inner store keeps.
func TestConformanceSQLite(t *testing.T) {
	key := newKey(t)
	storetest.Run(t, func(t *testing.T) factbase.Store {
		s, _, _ := openSealedSQLite(t, key)
		return s
	}, innerOnly)
}
