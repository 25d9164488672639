package sealed_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/storetest"
)

// scanDir returns the files of dir (the SQLite file, its WAL and shared memory)
// whose bytes hold marker.
func scanDir(t *testing.T, dir, marker string) (holding []string, read int) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range entries {
		b, err := os.ReadFile(filepath.Join(dir, en.Name()))
		if err != nil {
			t.Fatal(err)
		}
		read += len(b)
		if bytes.Contains(bytes.ToLower(b), []byte(marker)) {
			holding = append(holding, en.Name())
		}
	}
	return holding, read
}

// TestNoTextInSQLiteFiles writes a marker into every sealed field through the sealed
// SQLite store, reads it all back, and then finds the marker in none of the
// database's files, its WAL included (held open, then after close); the same writes
// into a plain store leave it in them, so that the scan is shown to see it.
func TestNoTextInSQLiteFiles(t *testing.T) {
	for _, sealedStore := range []bool{true, false} {
		name := map[bool]string{true: "sealed", false: "plain"}[sealedStore]
		t.Run(name, func(t *testing.T) {
			dir, m, u := t.TempDir(), newMarker(), storetest.NewUser()
			inner := openSQLite(t, filepath.Join(dir, "factbase.db"))
			var s factbase.Store = inner
			if sealedStore {
				s = sealWith(t, inner, newKey(t))
			}
			ids := writeEverything(t, s, u, m)
			checkReadBack(t, readEverything(t, s, u, ids), m)

			open, read := scanDir(t, dir, m)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			closed, _ := scanDir(t, dir, m)
			t.Logf("%s: %d bytes scanned while open; marker in %v, after close in %v", name, read, open, closed)
			if sealedStore && len(open)+len(closed) > 0 {
				t.Errorf("the sealed store's files hold the text: open %v, closed %v", open, closed)
			}
			if !sealedStore && len(open) == 0 {
				t.Error("the plain store's files do not hold the text: the scan sees nothing")
			}
		})
	}
}
