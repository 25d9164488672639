package sqlite

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/storetest"
)

// TestWarmAfterWrites: a bulk write of a user above vecKNNMax makes their in-memory
// vector copy in the background, with no search; a small write of a user without a
// copy makes none; once there is a copy, a write, small or large, brings it up to
// date in the background, and a search finds the new vectors. A store opened afresh
// makes the copies of the users above vecKNNMax in the background.
func TestWarmAfterWrites(t *testing.T) {
	defer func(v, d int) { vecKNNMax, vecChunkDelta = v, d }(vecKNNMax, vecChunkDelta)
	vecKNNMax, vecChunkDelta = 16, 64
	ctx := context.Background()
	s := OpenTemp(t, Options{})
	emb := embed.NewHash(64)
	e := memory.New(s, memory.Options{Embedder: emb, NoSheetRegen: true})
	x := vecCacheFor(s.rstmts)
	write := func(u factbase.UserID, from, n int) {
		t.Helper()
		var ops []factbase.Op
		for i := from; i < from+n; i++ {
			ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: fmt.Sprintf("note.%d", i), Value: fmt.Sprintf("item%d word%d", i, i%7)}})
		}
		if _, err := e.Apply(ctx, u, ops); err != nil {
			t.Fatal(err)
		}
		s.warm.wg.Wait()
	}
	// current reports whether the user has a copy that has read every vector.
	current := func(u factbase.UserID) bool {
		t.Helper()
		var seq, last int64
		if err := s.reader.QueryRow("SELECT seq FROM users WHERE id = ?", string(u)).Scan(&seq); err != nil {
			t.Fatal(err)
		}
		if err := s.reader.QueryRow("SELECT max(seq) FROM embeddings WHERE u = ?", seq).Scan(&last); err != nil {
			t.Fatal(err)
		}
		through, ok := x.Through(strconv.FormatInt(seq, 10), emb.Model(), emb.Dim())
		return ok && through == last
	}
	bulk, few, tiny := storetest.NewUser(), storetest.NewUser(), storetest.NewUser()
	write(bulk, 0, warmBulk)
	if !current(bulk) {
		t.Error("no current copy after a bulk write")
	}
	write(few, 0, 20)
	if _, ok := x.Through("", emb.Model(), emb.Dim()); ok || current(few) {
		t.Error("a copy after a small write of a user who never searched")
	}
	// A copy is kept up to date: a large delta read from the chunks, a small one
	// row by row, and a search finds the last item.
	from := warmBulk
	for _, n := range []int{300, 5} { // 300: more than manyAfter reads row by row

		write(bulk, from, n)
		if !current(bulk) {
			t.Errorf("after writing %d: the copy is behind", n)
		}
		f := factbase.Fact{Key: fmt.Sprintf("note.%d", from+n-1), Value: fmt.Sprintf("item%d word%d", from+n-1, (from+n-1)%7)}
		last := core.FactText(f)
		vs, err := emb.Embed(ctx, []string{last})
		if err != nil {
			t.Fatal(err)
		}
		err = s.View(ctx, bulk, func(tx factbase.ReadTx) error {
			cs, err := tx.VectorCandidates(ctx, factbase.VectorQuery{Kind: factbase.KindFact, Model: emb.Model(), Vector: vs[0], Limit: 1})
			if err != nil {
				return err
			}
			if len(cs) != 1 || cs[0].Score < 0.999 {
				t.Errorf("after writing %d: nearest to %q = %+v, want the item itself", n, last, cs)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		from += n
	}
	write(tiny, 0, 5)
	// Opened afresh, the store reads the copies of the users above vecKNNMax in the
	// background.
	path := s.path
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = OpenFile(t, path, Options{})
	x = vecCacheFor(s.rstmts)
	s.warm.wg.Wait()
	if !current(bulk) {
		t.Error("no current copy after opening the store")
	}
	if !current(few) {
		t.Error("no current copy of the user of few writes after opening the store")
	}
	if current(tiny) {
		t.Error("a copy of a user vec0 ranks, after opening the store")
	}
}
