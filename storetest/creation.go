package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
)

// CreationRefs is the data of a migration test that drops the reference rows which
// repeated a fact's creation (factbase.Reference): facts written through the write
// path, with an answer's reference to the first.
type CreationRefs struct {
	User  factbase.UserID
	Facts []string          // ids, oldest first
	Refs  map[string]int    // SheetFacts' count of each fact's references
	Last  map[string]string // and its newest, formatted
}

// WriteCreationRefs writes the data through e: three facts and an answer's
// reference to the first, and reads what SheetFacts counts.
func WriteCreationRefs(t *testing.T, s factbase.Store, e *memory.Engine) *CreationRefs {
	t.Helper()
	ctx := context.Background()
	c := &CreationRefs{User: NewUser()}
	for _, v := range []string{"oolong", "sencha", "chai"} {
		res, err := e.Apply(ctx, c.User, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "tea." + v, Value: v,
			Text: "drinks " + v, Source: factbase.Source{Kind: "message", ID: "m-" + v}}}})
		if err != nil {
			t.Fatal(err)
		}
		c.Facts = append(c.Facts, res.Facts[0].ID)
	}
	if _, err := e.RecordReferences(ctx, c.User, c.Facts[:1], factbase.Source{Kind: factbase.SourceAnswer}); err != nil {
		t.Fatal(err)
	}
	c.Refs, c.Last = SheetRefs(t, s, c.User)
	for i, id := range c.Facts {
		want := 1 // the creation
		if i == 0 {
			want++ // and the answer
		}
		if c.Refs[id] != want {
			t.Fatalf("fact %d has %d references, want %d", i, c.Refs[id], want)
		}
	}
	return c
}

// SheetRefs returns SheetFacts' count of references and newest reference of each of
// user's current facts.
func SheetRefs(t *testing.T, s factbase.Store, user factbase.UserID) (map[string]int, map[string]string) {
	t.Helper()
	ctx := context.Background()
	n, last := map[string]int{}, map[string]string{}
	err := s.View(ctx, user, func(tx factbase.ReadTx) error {
		return tx.SheetFacts(ctx, []time.Time{time.Now().Add(-time.Hour)}, func(f factbase.SheetFact) error {
			if f.Newer[0] != f.References {
				return fmt.Errorf("fact %s: %d references after an hour ago of %d", f.ID, f.Newer[0], f.References)
			}
			n[f.ID], last[f.ID] = f.References, f.Last.Format(time.RFC3339Nano)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return n, last
}

// Check tests the migrated store: the second fact's creation had two rows before the
// migration (extra names it), each other fact's one; after it, every fact counts what
// it counted before, but the second one more (one of its two rows stays), and the
// store holds the answer's row and that one.
func (c *CreationRefs) Check(t *testing.T, s factbase.Store, rows int) {
	t.Helper()
	got, last := SheetRefs(t, s, c.User)
	for i, id := range c.Facts {
		want := c.Refs[id]
		if i == 1 {
			want++
		}
		if got[id] != want || last[id] != c.Last[id] {
			t.Errorf("fact %d after the migration: %d references, newest %s; want %d, %s", i, got[id], last[id], want, c.Last[id])
		}
	}
	if rows != 2 {
		t.Errorf("%d reference rows after the migration, want 2 (the answer's, and one of the second fact's twins)", rows)
	}
}
