package sqlite_test

import (
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) factbase.Store { return sqlite.OpenTemp(t, sqlite.Options{}) })
}
