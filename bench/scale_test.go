package bench

import (
	"context"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
)

// TestScaleSQLite runs the scale benchmark small on SQLite: every generated fact
// is stored once, each timed operation counted, the size and its tables found.
func TestScaleSQLite(t *testing.T) {
	rep, err := RunScale(context.Background(), ScaleOptions{Users: 6, Facts: 40, Writers: 2, Searches: 15, Reads: 12, Writes: 9,
		Embedder: embed.NewHash(32), Stores: []ScaleStore{SQLiteScaleStore(t.TempDir(), false)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Stores) != 1 {
		t.Fatalf("%d stores reported, want 1", len(rep.Stores))
	}
	s := rep.Stores[0]
	if s.Facts != 240 || s.Duplicates != 0 || s.Load.Ops != 6 || s.Search.Ops != 15 || s.PointRead.Ops != 12 || s.Write.Ops != 9 {
		t.Errorf("stored %d facts (%d duplicates), %d load transactions, %d searches, %d reads, %d writes; want 240, 0, 6, 15, 12, 9",
			s.Facts, s.Duplicates, s.Load.Ops, s.Search.Ops, s.PointRead.Ops, s.Write.Ops)
	}
	if !(s.Load.Throughput > 0) || s.DiskBytes <= 0 || !(s.BytesPerFact > 0) || s.HitShare == 0 {
		t.Errorf("load %.0f facts/s, %d bytes on disk, %.0f a fact, %.2f of searches with hits", s.Load.Throughput, s.DiskBytes, s.BytesPerFact, s.HitShare)
	}
	rows := map[string]int64{}
	for _, tb := range s.Tables {
		rows[tb.Name] = tb.Rows
	}
	// Each fact's creation is its first reference, held by its row: no reference rows.
	if rows["facts"] != 240 || rows["fact_references"] != 0 || rows["users"] != 6 {
		t.Errorf("rows after the load: %v; want 240 facts, no reference rows, 6 users", rows)
	}
	if s.LoadBlocks != nil {
		t.Errorf("SQLite counts no blocks, yet the report has %+v", s.LoadBlocks)
	}
}

// TestScaleUser: the generated users are valid, distinct and the same for the same
// arguments.
func TestScaleUser(t *testing.T) {
	seen := map[factbase.UserID]bool{}
	for i := range 1000 {
		u := ScaleUser(1, i)
		if _, err := factbase.ParseUserID(string(u)); err != nil || seen[u] || u != ScaleUser(1, i) {
			t.Fatalf("ScaleUser(1, %d) = %q: %v, seen before %v", i, u, err, seen[u])
		}
		seen[u] = true
	}
	if ScaleUser(1, 0) == ScaleUser(2, 0) {
		t.Errorf("seeds 1 and 2 have the same first user")
	}
}

// TestScaleFact: the generated facts are the same for the same arguments, members
// of keys of their own, and differ between users.
func TestScaleFact(t *testing.T) {
	a, b := ScaleFact(1, 3, 7), ScaleFact(1, 3, 7)
	if a != b {
		t.Errorf("ScaleFact(1, 3, 7) = %+v, then %+v", a, b)
	}
	if a.Key == ScaleFact(1, 3, 8).Key || a.Text == "" || a.Value == "" {
		t.Errorf("fact %+v: want a text, a value and a key of its own", a)
	}
	if a.Text == ScaleFact(1, 4, 7).Text && a.Value == ScaleFact(1, 4, 7).Value {
		t.Errorf("users 3 and 4 have the same fact 7: %q", a.Text)
	}
}
