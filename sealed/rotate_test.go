package sealed_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/seal"
	"github.com/factbase/factbase/sealed"
	"github.com/factbase/factbase/storetest"
)

// keyIDs returns how many sealed texts of each key the sealed tables of inner hold.
func keyIDs(t *testing.T, inner factbase.Store) map[string]int {
	t.Helper()
	ids := map[string]int{}
	for table := range factbase.SealedTables {
		after := ""
		for {
			next, _, err := inner.ResealRows(context.Background(), table, after, 100, func(rows []factbase.SealedRow) error {
				for _, r := range rows {
					for _, text := range r.Texts {
						for _, tok := range strings.Split(text, seal.Prefix)[1:] {
							ids[tok[:8]]++
						}
					}
				}
				return nil
			})
			if err != nil {
				t.Fatalf("ResealRows(%s): %v", table, err)
			}
			if next == "" {
				break
			}
			after = next
		}
	}
	return ids
}

// TestRotate rotates a database's data key while a second server, opened with the
// old key before the rotation, writes through it: one write at once (it may still
// seal with the old key) and one after the key record's refresh (it must seal with
// the new key). After the rotation every text is sealed with the new key, the
// database opens with the new key and reads everything, the server that ran through
// it still reads and writes, and the old key no longer opens the database.
func TestRotate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factbase.db")
	testRotate(t, func(t *testing.T) factbase.Store { return openSQLite(t, path) })
}

// testRotate is TestRotate over the database that open opens: each call a new
// store, as each server has its own.
func testRotate(t *testing.T, open func(t *testing.T) factbase.Store) {
	ctx := context.Background()
	oldKey, nextKey := newKey(t), newKey(t)
	inner := open(t)
	s1 := sealWith(t, inner, oldKey)
	u1, u2, u3 := storetest.NewUser(), storetest.NewUser(), storetest.NewUser()
	m1, m2, m3 := newMarker(), newMarker(), newMarker()
	ids1 := writeEverything(t, s1, u1, m1)
	for i := range 12 { // more rows than a batch (7) in each table
		writeEverything(t, s1, storetest.NewUser(), newMarker()+string(rune('a'+i)))
	}

	s2 := sealWith(t, open(t), oldKey) // the other server
	var (
		once     sync.Once
		ids2     map[string]string
		progress = map[string]int{}
	)
	err := sealed.Rotate(ctx, inner, oldKey, nextKey, 7, func(table string, done int) {
		progress[table] = done
		once.Do(func() {
			ids2 = writeEverything(t, s2, u2, m2) // before s2 read the record again, or after
			if f, _, err := inner.CurrentFact(ctx, u2, factbase.SubjectUser, "pet.name"); err == nil {
				t.Logf("the other server's first write during the rotation sealed with key %s (old %s, new %s)",
					seal.KeyID(f.Value), oldKey.ID(), nextKey.ID())
			}
			time.Sleep(1100 * time.Millisecond)
			writeEverything(t, s2, u3, m3)
			if s2.KeyID() != nextKey.ID() {
				t.Errorf("the other server seals with key %s a second after the rotation began, want %s", s2.KeyID(), nextKey.ID())
			}
		})
	})
	if err != nil {
		t.Fatalf("Rotate: %v", err)
	}
	for table := range factbase.SealedTables {
		if progress[table] == 0 {
			t.Errorf("no progress reported for %s", table)
		}
	}
	r, err := seal.ParseRecord(setting(t, inner))
	if err != nil || strings.Join(r.Keys, ",") != nextKey.ID() || r.NewKey != "" {
		t.Fatalf("record after the rotation: %+v, %v; want key %s alone", r, err, nextKey.ID())
	}
	if got := keyIDs(t, inner); len(got) != 1 || got[nextKey.ID()] == 0 {
		t.Errorf("sealed texts by key after the rotation: %v, want key %s alone", got, nextKey.ID())
	}

	s3 := sealWith(t, open(t), nextKey)
	checkReadBack(t, readEverything(t, s3, u1, ids1), m1)
	checkReadBack(t, readEverything(t, s3, u2, ids2), m2)
	checkReadBack(t, readEverything(t, s2, u1, ids1), m1)
	writeEverything(t, s2, storetest.NewUser(), newMarker()) // and it writes with the new key
	if got := keyIDs(t, inner); len(got) != 1 {
		t.Errorf("sealed texts by key after a write of the other server: %v", got)
	}

	_, err = sealed.Open(ctx, open(t), oldKey)
	if factbase.ErrorCode(err) != factbase.EINVALID || !strings.Contains(err.Error(), "data key "+oldKey.ID()+" does not open this database") {
		t.Errorf("Open with the old key after the rotation: %v", err)
	}
	if err := sealed.Rotate(ctx, inner, oldKey, nextKey, 7, nil); err != nil {
		t.Errorf("Rotate again, done already: %v", err)
	}
}

// TestRotateResume: a rotation stopped after its first batch resumes with the same
// keys and ends as one that ran through; a rotation to a third key meanwhile is
// refused.
func TestRotateResume(t *testing.T) {
	ctx := context.Background()
	oldKey, nextKey := newKey(t), newKey(t)
	s, inner, _ := openSealedSQLite(t, oldKey)
	u, m := storetest.NewUser(), newMarker()
	ids := writeEverything(t, s, u, m)

	stop, cancel := context.WithCancel(ctx)
	err := sealed.Rotate(stop, inner, oldKey, nextKey, 2, func(string, int) { cancel() })
	if err == nil {
		t.Fatal("Rotate stopped by its context returned no error")
	}
	r, _ := seal.ParseRecord(setting(t, inner))
	if len(r.Keys) != 2 || r.NewKey == "" {
		t.Fatalf("record of a stopped rotation: %+v", r)
	}
	if got := keyIDs(t, inner); got[oldKey.ID()] == 0 || got[nextKey.ID()] == 0 {
		t.Errorf("texts by key mid-way: %v, want some of each", got)
	}
	checkReadBack(t, readEverything(t, s, u, ids), m) // the old key's server reads both

	if err := sealed.Rotate(ctx, inner, oldKey, newKey(t), 2, nil); err == nil || !strings.Contains(err.Error(), "already running") {
		t.Errorf("a rotation to another key mid-way: %v", err)
	}
	if err := sealed.Rotate(ctx, inner, oldKey, nextKey, 2, nil); err != nil {
		t.Fatalf("Rotate resumed: %v", err)
	}
	if got := keyIDs(t, inner); len(got) != 1 || got[nextKey.ID()] == 0 {
		t.Errorf("texts by key after resuming: %v", got)
	}
	s2 := sealWith(t, inner, nextKey)
	checkReadBack(t, readEverything(t, s2, u, ids), m)
}
