package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/internal/vecindex"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/search"
	"github.com/factbase/factbase/storetest"
)

// vecFixture is a store, an engine with the 64-dimension hashing embedder, and a
// user with facts and an episode written through the engine.
type vecFixture struct {
	s     *Store
	e     *memory.Engine
	u     factbase.UserID
	facts []factbase.Fact
	ep    ingest.EpisodeResult
}

func newVecFixture(t *testing.T, n int) *vecFixture {
	t.Helper()
	ctx := context.Background()
	s := OpenTemp(t, Options{})
	f := &vecFixture{s: s, e: memory.New(s, memory.Options{Embedder: embed.NewHash(64), NoSheetRegen: true}), u: storetest.NewUser()}
	words := strings.Fields("coffee jazz chess tennis museum garden curry novel guitar sushi hiking yoga violin pottery laptop")
	var ops []factbase.Op
	for i := range n {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{
			Key:   fmt.Sprintf("likes.%d", i),
			Value: words[i%len(words)] + " " + words[(i*7+3)%len(words)],
			Type:  []string{"hobby", "food"}[i%2],
		}})
	}
	res, err := f.e.Apply(ctx, f.u, ops)
	if err != nil {
		t.Fatal(err)
	}
	f.facts = res.Facts
	if f.ep, err = f.e.Ingest.AddEpisode(ctx, f.u, ingest.EpisodeInput{Content: "We went hiking near the museum, then coffee and jazz"}); err != nil {
		t.Fatal(err)
	}
	return f
}

// count runs a count query on the writer.
func (f *vecFixture) count(t *testing.T, q string, args ...any) int {
	t.Helper()
	var n int
	if err := f.s.writer.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// candidates returns the fact candidates for text under filter.
func (f *vecFixture) candidates(t *testing.T, text string, filter factbase.SearchFilter, limit int) []factbase.Candidate {
	t.Helper()
	ctx := context.Background()
	v, err := embed.NewHash(64).Embed(ctx, []string{text})
	if err != nil {
		t.Fatal(err)
	}
	var out []factbase.Candidate
	err = f.s.View(ctx, f.u, func(tx factbase.ReadTx) error {
		out, err = tx.VectorCandidates(ctx, factbase.VectorQuery{
			Kind: factbase.KindFact, Model: embed.NewHash(64).Model(), Vector: v[0], Filter: filter, Limit: limit})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestVec0Rows checks that each vector is a vec0 row of its user and kind, written
// with its item and removed with it.
func TestVec0Rows(t *testing.T) {
	ctx := context.Background()
	f := newVecFixture(t, 30)
	u := f.count(t, "SELECT seq FROM users WHERE id = ?", string(f.u))
	facts := f.count(t, "SELECT count(*) FROM vec_64 WHERE user_id = ? AND kind = 'fact'", u)
	eps := f.count(t, "SELECT count(*) FROM vec_64 WHERE user_id = ? AND kind = 'episode'", u)
	indexed := f.count(t, "SELECT count(*) FROM facts WHERE u = ? AND (current = 1 OR superseded_by <> '')", u)
	if facts != indexed || eps != 1 {
		t.Fatalf("vec_64 holds %d fact and %d episode vectors; want %d and 1", facts, eps, indexed)
	}
	if n := f.count(t, "SELECT count(*) FROM embeddings WHERE u = ? AND dim = 64 AND model = ?", u, embed.NewHash(64).Model()); n != facts+eps {
		t.Errorf("embeddings records %d vectors of the model and dimension, want %d", n, facts+eps)
	}
	if n := f.count(t, "SELECT n FROM embedding_counts WHERE u = ? AND kind = 'fact' AND dim = 64", u); n != facts {
		t.Errorf("embedding_counts = %d, want %d", n, facts)
	}
	seqOf := func(id string) int {
		return f.count(t, "SELECT m.seq FROM embeddings m JOIN facts x ON x.seq = m.item WHERE m.kind = 'fact' AND x.id = ?", id)
	}
	retracted, erased := f.facts[0], f.facts[1]
	rs, es := seqOf(retracted.ID), seqOf(erased.ID)
	if _, err := f.e.Apply(ctx, f.u, []factbase.Op{{Kind: factbase.OpRetract, ID: retracted.ID}, {Kind: factbase.OpDelete, ID: erased.ID}}); err != nil {
		t.Fatal(err)
	}
	if n := f.count(t, "SELECT count(*) FROM vec_64 WHERE rowid IN (?, ?)", rs, es); n != 0 {
		t.Errorf("%d vec0 rows left of a retracted and an erased fact, want 0", n)
	}
	if n := f.count(t, "SELECT count(*) FROM vec_64 WHERE user_id = ? AND kind = 'fact'", u); n != facts-2 {
		t.Errorf("vec_64 holds %d fact vectors after two left, want %d", n, facts-2)
	}
	if n := f.count(t, "SELECT n FROM embedding_counts WHERE u = ? AND kind = 'fact' AND dim = 64", u); n != facts-2 {
		t.Errorf("embedding_counts = %d after two left, want %d", n, facts-2)
	}
	if _, err := f.e.Ingest.DeleteEpisode(ctx, f.u, f.ep.Episode.ID, true); err != nil {
		t.Fatal(err)
	}
	if n := f.count(t, "SELECT count(*) FROM vec_64 WHERE user_id = ? AND kind = 'episode'", u); n != 0 {
		t.Errorf("vec_64 holds %d episode vectors after the episode was deleted, want 0", n)
	}
}

// TestVec0MatchesGoRanking ranks the same queries by vec0's k-NN and by the
// in-memory ranking (vecKNNMax 0) and expects candidates as good, filtered or not:
// with the copy loaded from vec0's chunks, after writes and deletes (read as a
// delta), and loaded row by row (a sqlite-vec layout the chunk reader does not know).
func TestVec0MatchesGoRanking(t *testing.T) {
	ctx := context.Background()
	f := newVecFixture(t, 300)
	defer func(v int, l string) { vecKNNMax, vecLayout = v, l }(vecKNNMax, vecLayout)
	compareRankings(t, f)
	var ops []factbase.Op
	for _, x := range f.facts[:40] {
		ops = append(ops, factbase.Op{Kind: factbase.OpRetract, ID: x.ID})
	}
	for i := range 60 {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: fmt.Sprintf("plays.%d", i), Value: "chess and jazz guitar " + strings.Repeat("x", i)}})
	}
	if _, err := f.e.Apply(ctx, f.u, ops); err != nil {
		t.Fatal(err)
	}
	compareRankings(t, f)
	vecCacheFor(f.s.rstmts).Clear()
	vecLayout = "not a known layout"
	compareRankings(t, f)
}

func compareRankings(t *testing.T, f *vecFixture) {
	t.Helper()
	queries := []string{"coffee and jazz", "chess", "a guitar in the garden", "sushi curry"}
	filters := []factbase.SearchFilter{{}, {Type: "food"}, {KeyPrefix: "likes.1"}}
	for _, q := range queries {
		for _, fl := range filters {
			vecKNNMax = 4096
			knn := f.candidates(t, q, fl, 20)
			vecKNNMax = 0
			scan := f.candidates(t, q, fl, 20)
			if len(knn) != 20 || len(knn) != len(scan) {
				t.Fatalf("%q %+v: vec0 %d candidates, Go %d; want 20 each", q, fl, len(knn), len(scan))
			}
			for i := range knn {
				// The in-memory copy scores by codes, within about 1e-4 of the exact
				// dot product (vecindex's TestQuantError), so near ties may swap.
				if knn[i].Rank != i+1 || math.Abs(knn[i].Score-scan[i].Score) > 1e-3 {
					t.Errorf("%q %+v #%d: vec0 %s %.5f rank %d, Go %s %.5f", q, fl, i, knn[i].ID, knn[i].Score, knn[i].Rank, scan[i].ID, scan[i].Score)
				}
			}
			if fl.Type != "" {
				for _, c := range knn {
					ft, _ := factType(t, f, c.ID)
					if ft != fl.Type {
						t.Errorf("%q: candidate %s has type %q, the filter asks %q", q, c.ID, ft, fl.Type)
					}
				}
			}
		}
	}
}

func factType(t *testing.T, f *vecFixture, id string) (string, error) {
	var typ string
	err := f.s.writer.QueryRow("SELECT type FROM facts WHERE id = ?", id).Scan(&typ)
	if err != nil {
		t.Fatal(err)
	}
	return typ, err
}

// TestVec0Dimensions stores vectors of two dimensions in one store (a table each)
// and refuses one larger than sqlite-vec holds.
func TestVec0Dimensions(t *testing.T) {
	ctx := context.Background()
	f := newVecFixture(t, 5)
	e32 := memory.New(f.s, memory.Options{Embedder: embed.NewHash(32), NoSheetRegen: true})
	u2 := storetest.NewUser()
	res, err := e32.Apply(ctx, u2, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "likes.tea", Value: "green tea"}}})
	if err != nil {
		t.Fatal(err)
	}
	if n := f.count(t, "SELECT count(*) FROM vec_32"); n != 1 {
		t.Errorf("vec_32 holds %d vectors, want 1", n)
	}
	if n := f.count(t, "SELECT count(*) FROM vec_64 v JOIN users u ON u.seq = v.user_id WHERE u.id = ?", string(u2)); n != 0 {
		t.Errorf("vec_64 holds %d vectors of the 32-dimension user, want 0", n)
	}
	q, _ := embed.NewHash(32).Embed(ctx, []string{"green tea"})
	var got []factbase.Candidate
	err = f.s.View(ctx, u2, func(tx factbase.ReadTx) error {
		var err error
		got, err = tx.VectorCandidates(ctx, factbase.VectorQuery{Kind: factbase.KindFact, Model: embed.NewHash(32).Model(), Vector: q[0], Limit: 5})
		return err
	})
	if err != nil || len(got) != 1 || got[0].ID != res.Facts[0].ID || got[0].Score < 0.5 {
		t.Errorf("32-dimension search = %+v, %v; want the one fact %s, similar", got, err, res.Facts[0].ID)
	}
	// Re-embedding an item with another dimension moves its vector between tables.
	before64 := f.count(t, "SELECT count(*) FROM vec_64")
	err = f.s.Update(ctx, f.u, func(tx factbase.Tx) error {
		return tx.PutVectors(ctx, []factbase.Vector{{Kind: factbase.KindFact, ID: f.facts[0].ID, Model: embed.NewHash(32).Model(), Vec: q[0]}})
	})
	if err != nil {
		t.Fatal(err)
	}
	if n, m := f.count(t, "SELECT count(*) FROM vec_64"), f.count(t, "SELECT count(*) FROM vec_32"); n != before64-1 || m != 2 {
		t.Errorf("after re-embedding one fact in 32 dimensions: vec_64 %d (want %d), vec_32 %d (want 2)", n, before64-1, m)
	}
	big := make([]float32, vecMaxDim+1)
	big[0] = 1
	err = f.s.Update(ctx, f.u, func(tx factbase.Tx) error {
		return tx.PutVectors(ctx, []factbase.Vector{{Kind: factbase.KindFact, ID: f.facts[0].ID, Model: "big", Vec: big}})
	})
	if factbase.ErrorCode(err) != factbase.EINVALID || !strings.Contains(err.Error(), "8193 dimensions") {
		t.Errorf("PutVectors of %d dimensions = %v; want an invalid-input error naming the dimension", len(big), err)
	}
}

// TestMigrate0008InPlace turns a database written by this code back into the
// pre-0008 shape (vectors as BLOBs in embeddings.vec, no vec0 tables), reopens it,
// and expects the migration to bring every vector back into vec0 with the same
// search results.
func TestMigrate0008InPlace(t *testing.T) {
	ctx := context.Background()
	f := newVecFixture(t, 200)
	before := f.candidates(t, "jazz and coffee", factbase.SearchFilter{}, 10)
	want := f.count(t, "SELECT count(*) FROM vec_64")
	f.s = Downgrade(t, f.s,
		"ALTER TABLE embeddings ADD COLUMN vec BLOB NOT NULL DEFAULT x''",
		"UPDATE embeddings SET vec = coalesce((SELECT embedding FROM vec_64 WHERE rowid = embeddings.seq), zeroblob(4 * dim))",
		"DROP TRIGGER vec_64_delete", "DROP TABLE vec_64",
		"DROP TRIGGER embeddings_count_insert", "DROP TRIGGER embeddings_count_delete", "DROP TABLE embedding_counts",
		"DELETE FROM schema_migrations WHERE name = 'migrations/0008_vec0.sql'",
		"DELETE FROM schema_migrations WHERE name = 'migrations/0021_embedding_models.sql'",
	)
	if n := f.count(t, "SELECT count(*) FROM vec_64"); n != want {
		t.Errorf("after migration vec_64 holds %d vectors, want %d", n, want)
	}
	if n := f.count(t, "SELECT count(*) FROM pragma_table_info('embeddings') WHERE name = 'vec'"); n != 0 {
		t.Errorf("embeddings still has its vec column")
	}
	after := f.candidates(t, "jazz and coffee", factbase.SearchFilter{}, 10)
	if len(after) != len(before) || len(after) == 0 {
		t.Fatalf("after migration %d candidates, before %d", len(after), len(before))
	}
	for i := range before {
		if after[i].ID != before[i].ID || math.Abs(after[i].Score-before[i].Score) > 1e-6 {
			t.Errorf("#%d: after %s %.5f, before %s %.5f", i, after[i].ID, after[i].Score, before[i].ID, before[i].Score)
		}
	}
	// The migrated store takes new vectors and deletes.
	e := memory.New(f.s, memory.Options{Embedder: embed.NewHash(64), NoSheetRegen: true})
	if _, err := e.Apply(ctx, f.u, []factbase.Op{{Kind: factbase.OpDelete, ID: before[0].ID}}); err != nil {
		t.Fatal(err)
	}
	if n := f.count(t, "SELECT count(*) FROM vec_64"); n != want-1 {
		t.Errorf("after an erase vec_64 holds %d vectors, want %d", n, want-1)
	}
}

// TestMigrate0021InPlace turns embedding_counts back into its 0008 shape (no model),
// reopens, and expects the migration to count the vectors per model again, with the
// k-NN's count per dimension unchanged and kept by the new triggers.
func TestMigrate0021InPlace(t *testing.T) {
	ctx := context.Background()
	f := newVecFixture(t, 40)
	other := memory.New(f.s, memory.Options{Embedder: embed.NewHash(32), NoSheetRegen: true})
	if _, err := other.Apply(ctx, f.u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "likes.tea", Value: "oolong"}}}); err != nil {
		t.Fatal(err)
	}
	models := func() []factbase.VectorModel {
		t.Helper()
		var ms []factbase.VectorModel
		if err := f.s.View(ctx, f.u, func(tx factbase.ReadTx) (err error) { ms, err = tx.VectorModels(ctx); return err }); err != nil {
			t.Fatal(err)
		}
		return ms
	}
	want := []factbase.VectorModel{{Model: "hash-32-v1", Dim: 32, Facts: 1}, {Model: "hash-64-v1", Dim: 64, Facts: 40, Episodes: 1}}
	if got := models(); !slices.Equal(got, want) {
		t.Fatalf("before: VectorModels = %+v, want %+v", got, want)
	}
	before := f.candidates(t, "jazz and coffee", factbase.SearchFilter{}, 10)
	f.s = Downgrade(t, f.s,
		"DROP TRIGGER embeddings_count_insert", "DROP TRIGGER embeddings_count_delete", "DROP TABLE embedding_counts",
		"CREATE TABLE embedding_counts (u INTEGER NOT NULL, kind TEXT NOT NULL, dim INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (u, kind, dim)) WITHOUT ROWID",
		"INSERT INTO embedding_counts (u, kind, dim, n) SELECT u, kind, dim, count(*) FROM embeddings GROUP BY u, kind, dim",
		`CREATE TRIGGER embeddings_count_insert AFTER INSERT ON embeddings BEGIN
			INSERT INTO embedding_counts (u, kind, dim, n) VALUES (NEW.u, NEW.kind, NEW.dim, 1)
			ON CONFLICT (u, kind, dim) DO UPDATE SET n = n + 1; END`,
		`CREATE TRIGGER embeddings_count_delete AFTER DELETE ON embeddings BEGIN
			UPDATE embedding_counts SET n = n - 1 WHERE u = OLD.u AND kind = OLD.kind AND dim = OLD.dim; END`,
		"DELETE FROM schema_migrations WHERE name = 'migrations/0021_embedding_models.sql'",
	)
	if got := models(); !slices.Equal(got, want) {
		t.Errorf("after migration: VectorModels = %+v, want %+v", got, want)
	}
	after := f.candidates(t, "jazz and coffee", factbase.SearchFilter{}, 10)
	if len(after) == 0 || !slices.EqualFunc(after, before, func(a, b factbase.Candidate) bool { return a.ID == b.ID }) {
		t.Errorf("after migration %d candidates, want the %d of before", len(after), len(before))
	}
	// The new triggers keep the counts: a retraction and a re-embedding.
	e := memory.New(f.s, memory.Options{Embedder: embed.NewHash(64), NoSheetRegen: true})
	if _, err := e.Apply(ctx, f.u, []factbase.Op{{Kind: factbase.OpRetract, ID: f.facts[0].ID}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Retrieve.Reembed(ctx, f.u, nil); err != nil {
		t.Fatal(err)
	}
	want = []factbase.VectorModel{{Model: "hash-64-v1", Dim: 64, Facts: 40, Episodes: 1}}
	if got := models(); !slices.Equal(got, want) {
		t.Errorf("after a retraction and a re-embedding: VectorModels = %+v, want %+v", got, want)
	}
}

// knnBench holds GloVe vectors of 100,000 varied fact sentences and 50 queries,
// shared by the sub-benchmarks of BenchmarkVec0Options.
var knnBench struct {
	once    sync.Once
	vecs    [][]float32
	flat    []float32
	queries [][]float32
	exact   [][]int // each query's exact top 10
}

func loadKNNBench(b *testing.B) {
	knnBench.once.Do(func() {
		g, err := embed.NewGloVe()
		if err != nil {
			b.Fatal(err)
		}
		sentences := func(seed uint64, n int) []string {
			r := rand.New(rand.NewPCG(seed, 2))
			pick := func(s string) string { xs := strings.Fields(s); return xs[r.IntN(len(xs))] }
			out := make([]string, n)
			for i := range out {
				out[i] = fmt.Sprintf("%s %s %s %s in %s",
					pick("Martin Sarah Dana Eli Priya Tom Anna Lukas Mei Omar Grace Ivan Nora Raj Lea Hugo Ines Sam Kofi Yara"),
					pick("likes avoids prefers cooks reads plays visits studies builds fixes plans books orders recommends collects"),
					pick("spicy quiet old new italian vegan cheap fast small green early late weekly favourite local"),
					pick("pasta tea coffee jazz chess tennis museum library bicycle garden curry novel podcast camera guitar sushi bakery hiking yoga marathon violin pottery laptop tyres budget report dentist flight hotel conference"),
					pick("Lisbon Berlin Kyoto Austin Oslo Lagos Lima Porto Seoul Denver"))
			}
			return out
		}
		ctx := context.Background()
		if knnBench.vecs, err = g.Embed(ctx, sentences(1, 100000)); err != nil {
			b.Fatal(err)
		}
		if knnBench.queries, err = g.Embed(ctx, sentences(3, 50)); err != nil {
			b.Fatal(err)
		}
		dim := len(knnBench.vecs[0])
		for _, v := range knnBench.vecs {
			knnBench.flat = append(knnBench.flat, v...)
		}
		for _, q := range knnBench.queries {
			sc := make([]float32, len(knnBench.vecs))
			for i := range sc {
				sc[i] = search.Dot(q, knnBench.flat[i*dim:(i+1)*dim])
			}
			knnBench.exact = append(knnBench.exact, search.TopK(sc, 10))
		}
	})
}

// BenchmarkVec0Options compares, in one process, vec0 k-NN over one user's
// partition (float32 or int8, L2 or cosine, chunk sizes, k, partition sizes) with
// the Go ranking the store uses above vecKNNMax (exact scan over float32s, and the
// quantized copy: sign-bit prefilter, int8 scores, residual refinement). recall@10 is the share of the exact top 10
// among the first 10 returned. Another user's 20,000 vectors share each table.
func BenchmarkVec0Options(b *testing.B) {
	loadKNNBench(b)
	dim := len(knnBench.vecs[0])
	recall := func(got [][]int) float64 {
		hit, all := 0, 0
		for qi, g := range got {
			if g == nil {
				continue
			}
			for _, e := range knnBench.exact[qi] {
				all++
				if slices.Contains(g[:min(10, len(g))], e) {
					hit++
				}
			}
		}
		return float64(hit) / float64(max(all, 1))
	}
	goRanking := func(name string, o vecindex.Options) {
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			x := vecindex.New(o)
			rank := func(q []float32) []int {
				var ids []int
				iq := vecindex.Query{User: "bench", Model: "glove", Kind: factbase.KindFact, Vector: q, Limit: 50}
				err := x.Search(ctx, benchSource{}, iq, func(hits []vecindex.Hit) (bool, error) {
					for _, h := range hits[:min(50, len(hits))] {
						ids = append(ids, int(h.Seq-1))
					}
					return true, nil
				})
				if err != nil {
					b.Fatal(err)
				}
				return ids
			}
			rank(knnBench.queries[0]) // loads the copy
			got := make([][]int, len(knnBench.queries))
			i := 0
			for b.Loop() {
				got[i%len(got)] = rank(knnBench.queries[i%len(knnBench.queries)])
				i++
			}
			b.ReportMetric(recall(got), "recall@10")
		})
	}
	goRanking("go/exact-scan/n=100000", vecindex.Options{})
	goRanking("go/quantized/n=100000", vecindex.Options{Quantize: true})
	type config struct {
		col, quantize, pragma string
		n, k                  int
	}
	var configs []config
	for _, k := range []int{10, 50, 200} {
		configs = append(configs, config{col: fmt.Sprintf("embedding float[%d]", dim), n: 100000, k: k})
	}
	configs = append(configs,
		config{col: fmt.Sprintf("embedding float[%d] distance_metric=cosine", dim), n: 100000, k: 50},
		config{col: fmt.Sprintf("embedding int8[%d]", dim), quantize: "vec_quantize_int8(?, 'unit')", n: 100000, k: 50},
		config{col: fmt.Sprintf("embedding float[%d], chunk_size=256", dim), n: 100000, k: 50},
		config{col: fmt.Sprintf("embedding float[%d], chunk_size=4096", dim), n: 100000, k: 50},
		config{col: fmt.Sprintf("embedding float[%d]", dim), pragma: "mmap_size(268435456)", n: 100000, k: 50},
	)
	for _, n := range []int{2000, 5000, 20000} {
		configs = append(configs, config{col: fmt.Sprintf("embedding float[%d]", dim), n: n, k: 50})
	}
	for _, c := range configs {
		name := fmt.Sprintf("vec0/%s/n=%d/k=%d", strings.ReplaceAll(strings.TrimPrefix(c.col, "embedding "), " ", ""), c.n, c.k)
		if c.pragma != "" {
			name += "/" + c.pragma
		}
		b.Run(name, func(b *testing.B) {
			dsn := "file:" + filepath.Join(b.TempDir(), "v.db") + "?_pragma=journal_mode(WAL)"
			if c.pragma != "" {
				dsn += "&_pragma=" + c.pragma
			}
			db, err := sql.Open("sqlite", dsn)
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			db.SetMaxOpenConns(1)
			if _, err := db.Exec("CREATE VIRTUAL TABLE v USING vec0(user_id integer partition key, kind text partition key, " + c.col + ")"); err != nil {
				b.Fatal(err)
			}
			val := "?"
			if c.quantize != "" {
				val = c.quantize
			}
			tx, err := db.Begin()
			if err != nil {
				b.Fatal(err)
			}
			ins, err := tx.Prepare("INSERT INTO v (rowid, user_id, kind, embedding) VALUES (?, ?, 'fact', " + val + ")")
			if err != nil {
				b.Fatal(err)
			}
			for i := range c.n {
				if _, err := ins.Exec(i+1, 1, encodeVec(knnBench.vecs[i])); err != nil {
					b.Fatal(err)
				}
			}
			for i := range 20000 {
				if _, err := ins.Exec(c.n+i+1, 2, encodeVec(knnBench.vecs[i])); err != nil {
					b.Fatal(err)
				}
			}
			ins.Close()
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
			knn, err := db.Prepare("SELECT rowid FROM v WHERE embedding MATCH " + val + " AND k = ? AND user_id = 1 AND kind = 'fact'")
			if err != nil {
				b.Fatal(err)
			}
			defer knn.Close()
			got := make([][]int, len(knnBench.queries))
			i := 0
			for b.Loop() {
				rows, err := knn.Query(encodeVec(knnBench.queries[i%len(knnBench.queries)]), c.k)
				if err != nil {
					b.Fatal(err)
				}
				var ids []int
				for rows.Next() {
					var id int
					if err := rows.Scan(&id); err != nil {
						b.Fatal(err)
					}
					ids = append(ids, id-1)
				}
				rows.Close()
				if c.n == 100000 {
					got[i%len(got)] = ids
				}
				i++
			}
			if c.n == 100000 {
				b.ReportMetric(recall(got), "recall@10")
			}
		})
	}
}

// benchSource serves knnBench's vectors as one user's facts, vector i at seq i+1.
type benchSource struct{}

func (benchSource) Deletes(context.Context) (int64, error) { return 0, nil }

func (benchSource) Load(_ context.Context, after int64, add vecindex.AddFunc) (int64, error) {
	for i := int(after); i < len(knnBench.vecs); i++ {
		add(int64(i+1), factbase.KindFact, "glove", knnBench.vecs[i])
	}
	return int64(len(knnBench.vecs)), nil
}

// TestVecChunkIndex: sqlite-vec's look-up of a partition's newest chunk (run for every
// vector written) goes through an index, in a new store and in one whose tables were
// made before migration 0015.
func TestVecChunkIndex(t *testing.T) {
	f := newVecFixture(t, 10)
	plan := func(s *Store) string {
		t.Helper()
		return queryPlan(t, s, "SELECT max(rowid) FROM vec_64_chunks WHERE partition00 = ? AND partition01 = ?", 1, "fact")
	}
	if p := plan(f.s); !strings.Contains(p, "vec_64_chunks_partition") {
		t.Fatalf("a new store's chunk look-up: %s; want the partition index", p)
	}
	// A store from before 0015: no index, the migration not recorded.
	ExecAll(t, f.s.writer, "DROP INDEX vec_64_chunks_partition",
		"DELETE FROM schema_migrations WHERE name = 'migrations/0015_vec_chunk_index.sql'")
	if p := plan(f.s); strings.Contains(p, "vec_64_chunks_partition") {
		t.Fatalf("the index is still used after it was dropped: %s", p)
	}
	if p := plan(Reopen(t, f.s)); !strings.Contains(p, "vec_64_chunks_partition") {
		t.Errorf("after migration 0015 the chunk look-up is %s; want the partition index", p)
	}
}
