// Package migrate walks a store's embedded schema migrations in the order they
// apply. Each store runs a migration in its own transaction, in its own SQL, and
// records it in its schema_migrations table; the order, the reading of the scripts
// and the test of whether one is recorded are the same for every store.
package migrate

import (
	"fmt"
	"io/fs"
	"sort"

	"github.com/factbase/factbase/internal/rowcodec"
)

// File is one migration: its path in the store's file system and its script.
type File struct {
	Name string // e.g. "migrations/0001_facts.sql"
	Body string
}

// Run calls apply with each migration of fsys (migrations/*.sql), in name order,
// and returns the first error apply returns, as it is.
func Run(fsys fs.FS, apply func(File) error) error {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	sort.Strings(names)
	for _, name := range names {
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		if err := apply(File{Name: name, Body: string(body)}); err != nil {
			return err
		}
	}
	return nil
}

// Recorded reads the row of a count of a migration's rows in schema_migrations:
// whether it was applied.
func Recorded(r rowcodec.Scanner) (bool, error) {
	var n int
	err := r.Scan(&n)
	return n > 0, err
}
