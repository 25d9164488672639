package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

func openTemp(t testing.TB) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "factbase.db"), sqlite.Options{})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) factbase.Store { return openTemp(t) })
}
