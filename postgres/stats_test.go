package postgres

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/storetest"
)

// TestPutVectorsBatch: one PutVectors of vectors of facts and an episode, one fact
// twice and an item the user does not have, leaves what the vectors written one by
// one would: the last vector of each item, in the order written, the unknown item
// skipped, and the counts per model and dimension of what is there.
func TestPutVectorsBatch(t *testing.T) {
	ctx := context.Background()
	for _, o := range []Options{{}, {NoPgvector: true}} {
		t.Run(fmt.Sprintf("NoPgvector=%v", o.NoPgvector), func(t *testing.T) {
			s := openVectors(t, o)
			u := storetest.NewUser()
			ids := putFacts(t, s, u, []string{"tea", "coffee", "cocoa"}, [][]float32{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, false)
			err := s.Update(ctx, u, func(ftx factbase.Tx) error {
				if err := ftx.InsertEpisode(ctx, factbase.Episode{ID: "ep-1", Content: "a walk", Importance: 0.5, CreatedAt: ftx.Now()}); err != nil {
					return err
				}
				return ftx.PutVectors(ctx, []factbase.Vector{
					{Kind: factbase.KindFact, ID: ids[0], Model: "m", Vec: []float32{0.5, 0.5, 0}},
					{Kind: factbase.KindEpisode, ID: "ep-1", Model: "m", Vec: []float32{1, 1, 1, 1}},
					{Kind: factbase.KindFact, ID: ids[1], Model: "m", Vec: []float32{0, 0.5, 0.5}},
					{Kind: factbase.KindFact, ID: "no-such-fact", Model: "m", Vec: []float32{1, 1, 1}},
					{Kind: factbase.KindFact, ID: ids[0], Model: "m2", Vec: []float32{0.25, 0, 0.75}},
				})
			})
			if err != nil {
				t.Fatal(err)
			}
			got := exportVectors(t, s, u)
			want := []factbase.Vector{
				{Kind: factbase.KindFact, ID: ids[2], Vec: []float32{0, 0, 1}}, // from putFacts, untouched
				{Kind: factbase.KindEpisode, ID: "ep-1", Model: "m", Vec: []float32{1, 1, 1, 1}},
				{Kind: factbase.KindFact, ID: ids[1], Model: "m", Vec: []float32{0, 0.5, 0.5}},
				{Kind: factbase.KindFact, ID: ids[0], Model: "m2", Vec: []float32{0.25, 0, 0.75}},
			}
			want[0].Model = got[0].Model
			if !slices.EqualFunc(got, want, func(a, b factbase.Vector) bool {
				return a.Kind == b.Kind && a.ID == b.ID && a.Model == b.Model && slices.Equal(a.Vec, b.Vec)
			}) {
				t.Errorf("vectors after the batch:\n got %+v\nwant %+v", got, want)
			}
			var models []factbase.VectorModel
			if err := s.View(ctx, u, func(rt factbase.ReadTx) error {
				var err error
				models, err = rt.VectorModels(ctx)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			counts := map[string]string{}
			for _, m := range models {
				counts[fmt.Sprintf("%s %d", m.Model, m.Dim)] = fmt.Sprintf("%d facts, %d episodes", m.Facts, m.Episodes)
			}
			wantCounts := map[string]string{want[0].Model + " 3": "1 facts, 0 episodes", "m 4": "0 facts, 1 episodes",
				"m 3": "1 facts, 0 episodes", "m2 3": "1 facts, 0 episodes"}
			if fmt.Sprint(counts) != fmt.Sprint(wantCounts) {
				t.Errorf("vector counts %v, want %v", counts, wantCounts)
			}
		})
	}
}

// TestStoreFigures: TableSizes counts the rows and bytes of the store's tables,
// BlockCounts grows with reads, BuildVectorIndex makes a valid index (or refuses
// without pgvector), and DropSchema removes the schema and refuses a store without
// one of its own.
func TestStoreFigures(t *testing.T) {
	ctx := context.Background()
	schema := RandomSchema()
	s, err := Open(ctx, DatabaseURL(t), Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { DropSchema(DatabaseURL(t), schema) })
	u := storetest.NewUser()
	putFacts(t, s, u, []string{"tea", "coffee", "cocoa", "mate"}, [][]float32{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}, false)
	tables, err := s.TableSizes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]int64{}
	for i, tb := range tables {
		rows[tb.Name] = tb.Rows
		if tb.Bytes <= 0 || tb.IndexBytes > tb.Bytes || i > 0 && tb.Bytes > tables[i-1].Bytes {
			t.Errorf("table %s: %d bytes, %d of indexes (or not in order of size)", tb.Name, tb.Bytes, tb.IndexBytes)
		}
	}
	if rows["facts"] != 4 || rows["embeddings"] != 4 || rows["users"] != 1 {
		t.Errorf("rows %v, want 4 facts and vectors, one user", rows)
	}
	hit0, read0, err := s.BlockCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, _, err := s.CurrentFact(ctx, u, factbase.SubjectUser, "note.a000000"); err != nil {
			t.Fatal(err)
		}
	}
	hit1, read1, err := s.BlockCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if hit1+read1 < hit0+read0+5 {
		t.Errorf("five point reads: blocks %d+%d before, %d+%d after; want at least 5 more", hit0, read0, hit1, read1)
	}
	if path, _ := s.VectorSearch(); path == VectorsPgvector {
		if err := s.BuildVectorIndex(ctx, 4); err != nil {
			t.Fatal(err)
		}
		if valid, _, err := indexValid(ctx, s.pool, 4); err != nil || !valid {
			t.Errorf("after BuildVectorIndex: valid %v (%v)", valid, err)
		}
	}
	if err := s.DropSchema(ctx); err != nil {
		t.Fatal(err)
	}
	var left bool
	if err := openRanks(t).pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)", schema).Scan(&left); err != nil || left {
		t.Errorf("schema %s left after DropSchema (%v)", schema, err)
	}
	if err := s.DropSchema(ctx); factbase.ErrorCode(err) != factbase.EUNAVAILABLE {
		t.Errorf("DropSchema of a closed store: %v, want %s", err, factbase.EUNAVAILABLE)
	}
	in := openVectors(t, Options{NoPgvector: true})
	if err := in.BuildVectorIndex(ctx, 4); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("BuildVectorIndex without pgvector: %v, want %s", err, factbase.EINVALID)
	}
	if err := (&Store{}).DropSchema(ctx); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("DropSchema of a store without a schema of its own: %v, want %s", err, factbase.EINVALID)
	}
}
