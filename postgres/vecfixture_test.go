package postgres

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	neturl "net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
)

// The vector fixtures: facts whose texts are two to five words of testdata/words.txt
// (the frequent ones more often), with the texts' GloVe vectors, so that the vectors
// are distributed as the built-in embedder's are.

// vecWords returns the words of testdata/words.txt.
func vecWords(t testing.TB) []string {
	t.Helper()
	f, err := os.Open("testdata/words.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var words []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if w := sc.Text(); w != "" && !strings.HasPrefix(w, "#") {
			words = append(words, w)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return words
}

// vecTexts returns n generated texts and their GloVe vectors, the same for the same
// seed; none is the zero vector.
func vecTexts(t testing.TB, n int, seed uint64) ([]string, [][]float32) {
	t.Helper()
	words := vecWords(t)
	g, err := embed.NewGloVe()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 1))
	texts := make([]string, n)
	for i := range texts {
		ws := make([]string, 2+r.IntN(4))
		for j := range ws {
			ws[j] = words[int(float64(len(words))*r.Float64()*r.Float64())]
		}
		texts[i] = strings.Join(ws, " ")
	}
	vecs, err := g.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	return texts, vecs
}

// openVectors opens a store with o on a schema of its own, dropped when the test
// ends; params are settings of its sessions (PostgreSQL's, in the URL).
func openVectors(t testing.TB, o Options, params ...string) *Store {
	t.Helper()
	o.Schema = NewSchema(t)
	u, err := neturl.Parse(DatabaseURL(t))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	for i := 0; i+1 < len(params); i += 2 {
		q.Set(params[i], params[i+1])
	}
	u.RawQuery = q.Encode()
	s, err := Open(context.Background(), u.String(), o)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// putFacts writes a fact per text for u (keys note.a... and note.b... in turn) and
// its vector of embed.GloVeModel, 2,000 a transaction, and returns the facts' ids.
// The vectors go through PutVectors, or with bulk by one statement a transaction.
func putFacts(t testing.TB, s *Store, u factbase.UserID, texts []string, vecs [][]float32, bulk bool) []string {
	t.Helper()
	ctx := context.Background()
	ids := make([]string, len(texts))
	now := time.Now().UTC()
	for lo := 0; lo < len(texts); lo += 2000 {
		hi := min(lo+2000, len(texts))
		err := s.Update(ctx, u, func(ftx factbase.Tx) error {
			ptx := ftx.(*tx)
			var vs []factbase.Vector
			for i := lo; i < hi; i++ {
				ids[i] = fmt.Sprintf("%s-%06d", string(u)[:8], i)
				f := factbase.Fact{ID: ids[i], Subject: factbase.SubjectUser, Key: fmt.Sprintf("note.%c%06d", "ab"[i%2], i),
					Cardinality: factbase.One, Value: texts[i], Text: texts[i], Category: factbase.Transient,
					Confidence: 1, Current: true, RecordedAt: now, ValidFrom: now}
				if err := ptx.Insert(ctx, f, texts[i]); err != nil {
					return err
				}
				vs = append(vs, factbase.Vector{Kind: factbase.KindFact, ID: ids[i], Model: embed.GloVeModel, Vec: vecs[i]})
			}
			if !bulk {
				return ptx.PutVectors(ctx, vs)
			}
			vecTexts := make([]string, len(vs))
			var buf []byte
			for i, v := range vs {
				buf = append(buf[:0], '{')
				for j, x := range v.Vec {
					if j > 0 {
						buf = append(buf, ',')
					}
					buf = strconv.AppendFloat(buf, float64(x), 'g', -1, 32)
				}
				vecTexts[i] = string(append(buf, '}'))
			}
			_, err := ptx.q.Exec(ctx, `INSERT INTO embeddings (u, kind, item, model, dim, vec)
				SELECT $1, 'fact', f.seq, $2, $3, x.v::real[] FROM unnest($4::text[], $5::text[]) AS x(id, v)
				JOIN facts f ON f.u = $1 AND f.id = x.id`, string(u), embed.GloVeModel, len(vecs[0]), ids[lo:hi], vecTexts)
			return err
		})
		if err != nil {
			t.Fatalf("writing facts %d to %d: %v", lo, hi, err)
		}
	}
	if _, err := s.pool.Exec(ctx, "ANALYZE facts, embeddings"); err != nil {
		t.Fatal(err)
	}
	return ids
}

// buildIndex builds the HNSW index of dim now, waiting for one under way.
func buildIndex(t testing.TB, s *Store, dim int) {
	t.Helper()
	ctx := context.Background()
	start := time.Now()
	if err := s.pgv.indexes.build(ctx, dim); err != nil {
		t.Fatalf("building the index of %d dimensions: %v", dim, err)
	}
	for {
		valid, _, err := indexValid(ctx, s.pool, dim)
		if err != nil {
			t.Fatal(err)
		}
		if valid {
			break
		}
		if time.Since(start) > 5*time.Minute {
			t.Fatalf("the index of %d dimensions is not valid after %v", dim, time.Since(start))
		}
		time.Sleep(100 * time.Millisecond)
	}
	took := time.Since(start)
	var size string
	if err := s.pool.QueryRow(ctx, "SELECT pg_size_pretty(pg_relation_size(to_regclass($1)))", indexName(dim)).Scan(&size); err != nil {
		t.Fatal(err)
	}
	if _, err := s.pool.Exec(ctx, "ANALYZE embeddings"); err != nil {
		t.Fatal(err)
	}
	t.Logf("HNSW index of %d dimensions valid after %v (%s)", dim, took.Round(time.Millisecond), size)
}

// scored is an item and its exact cosine similarity with a query.
type scored struct {
	id    string
	score float64
}

// exactTop returns every one of ids (with their vecs) that keep passes, best first by
// exact cosine similarity with q, ties in the order of ids.
func exactTop(q []float32, ids []string, vecs [][]float32, keep func(i int) bool) []scored {
	norm := func(v []float32) float64 {
		var n float64
		for _, x := range v {
			n += float64(x) * float64(x)
		}
		return math.Sqrt(n)
	}
	nq := norm(q)
	var out []scored
	for i, v := range vecs {
		if keep != nil && !keep(i) {
			continue
		}
		var dot float64
		for j, x := range v {
			dot += float64(x) * float64(q[j])
		}
		out = append(out, scored{ids[i], dot / (nq * norm(v))})
	}
	slices.SortStableFunc(out, func(a, b scored) int { return cmp.Compare(b.score, a.score) })
	return out
}

// scoreTol is how far a store's similarity may be from the exact one: pgvector and
// the in-memory path compute in single precision.
const scoreTol = 1e-5

// checkAgainstExact checks that got is a ranking of the user's items by their exact
// scores (each item's score within scoreTol of its exact one, best first) and, when
// strict, an exact top-k (the score at each rank that of the exact ranking's, so
// that only ties may change places). It returns how many of got are in the exact
// top-k, ties at its edge counted in.
func checkAgainstExact(t *testing.T, label string, got []factbase.Candidate, exact []scored, limit int, strict bool) int {
	t.Helper()
	k := min(limit, len(exact))
	if len(got) != k {
		t.Errorf("%s: %d candidates, want %d", label, len(got), k)
		return 0
	}
	byID := make(map[string]float64, len(exact))
	for _, e := range exact {
		byID[e.id] = e.score
	}
	hits := 0
	for i, c := range got {
		want, ok := byID[c.ID]
		switch {
		case !ok:
			t.Errorf("%s: #%d %s is not among the items searched", label, i+1, c.ID)
			continue
		case math.Abs(c.Score-want) > scoreTol:
			t.Errorf("%s: #%d %s scored %.7f, its exact cosine is %.7f", label, i+1, c.ID, c.Score, want)
		case c.Rank != i+1:
			t.Errorf("%s: #%d has rank %d", label, i+1, c.Rank)
		case i > 0 && c.Score > got[i-1].Score+scoreTol:
			t.Errorf("%s: #%d scored %.7f, above #%d's %.7f", label, i+1, c.Score, i, got[i-1].Score)
		case strict && math.Abs(c.Score-exact[i].score) > scoreTol:
			t.Errorf("%s: #%d is %s at %.7f, the exact #%d is %s at %.7f", label, i+1, c.ID, c.Score, i+1, exact[i].id, exact[i].score)
		}
		if want >= exact[k-1].score-scoreTol {
			hits++
		}
	}
	return hits
}

// search returns s's vector candidates for u.
func search(t testing.TB, s *Store, u factbase.UserID, q factbase.VectorQuery) []factbase.Candidate {
	t.Helper()
	var out []factbase.Candidate
	err := s.View(context.Background(), u, func(rt factbase.ReadTx) error {
		var err error
		out, err = rt.VectorCandidates(context.Background(), q)
		return err
	})
	if err != nil {
		t.Fatalf("VectorCandidates: %v", err)
	}
	return out
}

// exactSearch returns the pgvector store's exact query's candidates for u.
func exactSearch(t testing.TB, s *Store, u factbase.UserID, q factbase.VectorQuery) []factbase.Candidate {
	t.Helper()
	var out []factbase.Candidate
	err := s.View(context.Background(), u, func(rt factbase.ReadTx) error {
		var err error
		out, _, err = rt.(*tx).pgvectorQuery(context.Background(), q, true)
		return err
	})
	if err != nil {
		t.Fatalf("exact vector search: %v", err)
	}
	return out
}

// indexScans returns how many scans have used dim's HNSW index, once the server's
// statistics show any (they are published within a second or so).
func indexScans(t testing.TB, s *Store, dim int) int64 {
	t.Helper()
	var n int64
	for range 50 {
		if err := s.pool.QueryRow(context.Background(), `SELECT coalesce(sum(idx_scan), 0) FROM pg_stat_user_indexes
			WHERE schemaname = $1 AND indexrelname = $2`, s.schema, indexName(dim)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	return n
}

// exportVectors returns u's vectors as ExportVectors reads them.
func exportVectors(t *testing.T, s *Store, u factbase.UserID) []factbase.Vector {
	t.Helper()
	var out []factbase.Vector
	err := s.View(context.Background(), u, func(rt factbase.ReadTx) error {
		var err error
		out, err = rt.ExportVectors(context.Background())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
