package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/storetest"
)

// vecPutFixture is a store with a user's facts f0..f(n-1) and an episode e0, for
// writing vectors to.
func vecPutFixture(t *testing.T, u factbase.UserID, n int) *Store {
	t.Helper()
	ctx := context.Background()
	s := OpenTemp(t, Options{})
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	facts := make([]factbase.Fact, n)
	norms := make([]string, n)
	for i := range facts {
		v := fmt.Sprintf("value %d", i)
		facts[i] = factbase.Fact{ID: fmt.Sprintf("f%d", i), Subject: factbase.SubjectUser, Key: "tags", Value: v,
			Cardinality: factbase.Many, ValueType: factbase.String, Category: factbase.Transient, Confidence: 1,
			RecordedAt: now, ValidFrom: now, Current: true}
		norms[i] = v
	}
	err := s.Update(ctx, u, func(tx factbase.Tx) error {
		if err := tx.InsertFacts(ctx, facts, norms); err != nil {
			return err
		}
		return tx.InsertEpisode(ctx, factbase.Episode{ID: "e0", Content: "an episode", Importance: 0.5, CreatedAt: now})
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// vecRows returns what a store holds of the user's vectors: the embeddings rows in
// the order of their seqs, each with its vector as vec_<dim> holds it ("" for none).
func vecRows(t *testing.T, s *Store) []string {
	t.Helper()
	rows, err := s.writer.Query(`SELECT m.seq, m.kind, coalesce(f.id, e.id), m.model, m.dim FROM embeddings m
		LEFT JOIN facts f ON m.kind = 'fact' AND f.seq = m.item
		LEFT JOIN episodes e ON m.kind = 'episode' AND e.seq = m.item ORDER BY m.seq`)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		seq        int64
		kind, item string
		model      string
		dim        int
	}
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.seq, &r.kind, &r.item, &r.model, &r.dim); err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	var out []string
	for _, r := range all {
		var vec []byte
		err := s.writer.QueryRow(fmt.Sprintf("SELECT embedding FROM %s WHERE rowid = ?", vecTable(r.dim)), r.seq).Scan(&vec)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %s %s %d %x", r.kind, r.item, r.model, r.dim, vec))
	}
	counts, err := s.writer.Query("SELECT kind, dim, model, n FROM embedding_counts ORDER BY kind, dim, model")
	if err != nil {
		t.Fatal(err)
	}
	defer counts.Close()
	for counts.Next() {
		var (
			kind, model string
			dim, n      int
		)
		if err := counts.Scan(&kind, &dim, &model, &n); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("count %s %d %s %d", kind, dim, model, n))
	}
	return out
}

// TestPutVectorsBulk: vectors put in one call (in chunks, a statement per dimension)
// leave the rows that putting them one call each leaves: an item named twice keeps
// its last vector, an earlier vector is replaced, an unknown item is skipped, a zero
// vector has its embeddings row and no vec0 row, facts and episodes alike.
func TestPutVectorsBulk(t *testing.T) {
	ctx := context.Background()
	u := storetest.NewUser()
	const n = 2*bulkRows + 10
	vec := func(dim, seed int) []float32 {
		v := make([]float32, dim)
		for i := range v {
			v[i] = float32((seed*31+i*7)%13) - 6
		}
		return v
	}
	earlier := []factbase.Vector{
		{Kind: factbase.KindFact, ID: "f1", Model: "m", Vec: vec(4, 1)},
		{Kind: factbase.KindFact, ID: "f2", Model: "m", Vec: vec(8, 2)},
	}
	var vs []factbase.Vector
	for i := range n {
		dim := 4
		if i%3 == 0 {
			dim = 8
		}
		vs = append(vs, factbase.Vector{Kind: factbase.KindFact, ID: fmt.Sprintf("f%d", i), Model: "m", Vec: vec(dim, i)})
	}
	vs[5].Vec = make([]float32, 4) // zero
	vs = append(vs,
		factbase.Vector{Kind: factbase.KindFact, ID: "nope", Model: "m", Vec: vec(4, 7)},
		factbase.Vector{Kind: factbase.KindEpisode, ID: "e0", Model: "m", Vec: vec(4, 9)},
		factbase.Vector{Kind: factbase.KindFact, ID: "f7", Model: "m2", Vec: vec(8, 11)}, // f7 again, last wins
	)

	put := func(s *Store, batches [][]factbase.Vector) {
		t.Helper()
		for _, b := range batches {
			if err := s.Update(ctx, u, func(tx factbase.Tx) error { return tx.PutVectors(ctx, b) }); err != nil {
				t.Fatal(err)
			}
		}
	}
	one, bulk := vecPutFixture(t, u, n), vecPutFixture(t, u, n)
	put(one, [][]factbase.Vector{earlier[:1], earlier[1:]})
	put(bulk, [][]factbase.Vector{earlier})
	var each [][]factbase.Vector
	for _, v := range vs {
		each = append(each, []factbase.Vector{v})
	}
	put(one, each)
	put(bulk, [][]factbase.Vector{vs})

	got, want := vecRows(t, bulk), vecRows(t, one)
	if !reflect.DeepEqual(got, want) {
		for i := range max(len(got), len(want)) {
			var g, w string
			if i < len(got) {
				g = got[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if g != w {
				t.Errorf("row %d: bulk %q, one at a time %q", i, g, w)
			}
		}
	}
	if len(want) < n {
		t.Fatalf("%d rows, want at least %d", len(want), n)
	}
	// The bulk put is one transaction: a vector that fails validation stores none.
	bad := append(vs[:3:3], factbase.Vector{Kind: factbase.KindFact, ID: "f9", Model: "", Vec: vec(4, 1)})
	if err := bulk.Update(ctx, u, func(tx factbase.Tx) error { return tx.PutVectors(ctx, bad) }); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("PutVectors with a vector without a model = %v, want EINVALID", err)
	}
}
