package sqlite

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/storetest"
)

// These tests drive the in-memory copies of large users' vectors (vectors.go) as
// their codes rank them (internal/vecindex), against exact ranking over the same
// file, through deletions, another writer and a reopening.

// sentence returns a generated sentence of r's choosing: a person, a verb, two
// things and a place, so that many sentences share words with many others.
func sentence(r *rand.Rand) string {
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	people := []string{"Martin", "Sarah", "Dana", "Eli", "Priya", "Tom", "Anna", "Mei", "Omar", "Grace", "Ivan", "Nora"}
	verbs := []string{"booked", "fixed", "lent", "bought", "planned", "moved", "found", "lost", "painted", "sold", "packed", "tested"}
	things := []string{"bicycle", "camera", "guitar", "tent", "jacket", "lamp", "table", "printer", "phone", "ladder", "kettle",
		"suitcase", "passport", "tickets", "hotel", "dinner", "wine", "coffee", "garden", "puppy", "novel", "podcast", "invoice", "report"}
	places := []string{"Lisbon", "Berlin", "Kyoto", "Austin", "Oslo", "Lagos", "Lima", "Porto", "Seoul", "Denver", "Madrid", "Vienna"}
	return fmt.Sprintf("%s %s the %s and the %s in %s", pick(people), pick(verbs), pick(things), pick(things), pick(places))
}

// vectorIDs returns the ids of the user's vector candidates of kind nearest to
// text, and their scores.
func vectorIDs(t *testing.T, s *Store, user factbase.UserID, emb factbase.Embedder, kind, text string, limit int) ([]string, []float64) {
	t.Helper()
	ctx := context.Background()
	vs, err := emb.Embed(ctx, []string{text})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	var scores []float64
	err = s.View(ctx, user, func(tx factbase.ReadTx) error {
		cs, err := tx.VectorCandidates(ctx, factbase.VectorQuery{Kind: kind, Model: emb.Model(), Vector: vs[0], Limit: limit})
		for _, c := range cs {
			ids = append(ids, c.ID)
			scores = append(scores, c.Score)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids, scores
}

// TestCopyRecall stores 12,000 episodes of one user, enough for the prefilter to
// narrow, and measures how many of exact search's nearest (the same file opened
// with ExactVectors) the quantized copy's candidates hold, with a floor.
func TestCopyRecall(t *testing.T) {
	if testing.Short() {
		t.Skip("stores 12,000 episodes")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "factbase.db")
	s := OpenFile(t, path, Options{})
	emb := embed.NewHash(64)
	e := memory.New(s, memory.Options{Embedder: emb, NoSheetRegen: true})
	user := storetest.NewUser()
	r := rand.New(rand.NewPCG(1, 2))
	for range 12 {
		var in []ingest.EpisodeInput
		for range 1000 {
			in = append(in, ingest.EpisodeInput{Content: sentence(r)})
		}
		if _, _, err := e.Ingest.AddEpisodes(ctx, user, in); err != nil {
			t.Fatal(err)
		}
	}
	exact := OpenFile(t, path, Options{ExactVectors: true})
	for _, limit := range []int{10, 50} {
		found, total := 0, 0
		for range 50 {
			q := sentence(r)
			got, _ := vectorIDs(t, s, user, emb, factbase.KindEpisode, q, limit)
			want, scores := vectorIDs(t, exact, user, emb, factbase.KindEpisode, q, limit)
			for i, id := range want {
				total++
				// An item tied with exact search's last is as near as it.
				if slices.Contains(got, id) || scores[i] == scores[len(scores)-1] {
					found++
				}
			}
		}
		recall := float64(found) / float64(total)
		t.Logf("12,000 episodes: vector recall@%d %.4f", limit, recall)
		if recall < 0.98 {
			t.Errorf("vector recall@%d = %.4f against exact search, want at least 0.98", limit, recall)
		}
	}
	bytes, vectors := s.VectorMemory()
	if vectors != 12000 || bytes <= 0 || bytes > 12000*200 {
		t.Errorf("VectorMemory = %d bytes, %d vectors; want 12,000 vectors in under 200 bytes each", bytes, vectors)
	}
}

// TestCopyWritersAndDeletes: a store whose copy of a user's vectors is made sees
// what another store on the same file (another process, as far as the copy can
// tell: its own connections and copies) writes and erases: the new items are
// found, the erased never returned, before and after enough deletions to rebuild
// the copy.
func TestCopyWritersAndDeletes(t *testing.T) {
	defer func(v int) { vecKNNMax = v }(vecKNNMax)
	vecKNNMax = 50
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "factbase.db")
	a, b := OpenFile(t, path, Options{}), OpenFile(t, path, Options{})
	emb := embed.NewHash(64)
	ea, eb := memory.New(a, memory.Options{Embedder: emb, NoSheetRegen: true}), memory.New(b, memory.Options{Embedder: emb, NoSheetRegen: true})
	user := storetest.NewUser()
	r := rand.New(rand.NewPCG(3, 4))
	write := func(e *memory.Engine, n int) []factbase.Fact {
		t.Helper()
		var ops []factbase.Op
		for range n {
			ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "note." + strconv.Itoa(r.Int()), Value: sentence(r)}})
		}
		res, err := e.Apply(ctx, user, ops)
		if err != nil {
			t.Fatal(err)
		}
		return res.Facts
	}
	erase := func(e *memory.Engine, fs []factbase.Fact) {
		t.Helper()
		var ops []factbase.Op
		for _, f := range fs {
			ops = append(ops, factbase.Op{Kind: factbase.OpDelete, ID: f.ID})
		}
		if _, err := e.Apply(ctx, user, ops); err != nil {
			t.Fatal(err)
		}
	}
	facts := write(ea, 400)
	ids, _ := vectorIDs(t, a, user, emb, factbase.KindFact, core.FactText(facts[0]), 5)
	if len(ids) == 0 || ids[0] != facts[0].ID {
		t.Fatalf("nearest to a fact's own text = %v, want %s first", ids, facts[0].ID)
	}
	uSeq := a.userSeq(t, user)
	if _, ok := vecCacheFor(a.rstmts).Through(uSeq, emb.Model(), emb.Dim()); !ok {
		t.Fatal("no copy of the user's vectors after a search")
	}
	erased := map[string]bool{}
	check := func(when string, live []factbase.Fact) {
		t.Helper()
		for _, f := range live[:5] {
			ids, _ := vectorIDs(t, a, user, emb, factbase.KindFact, core.FactText(f), 3)
			if len(ids) == 0 || ids[0] != f.ID {
				t.Errorf("%s: nearest to %q = %v, want %s first", when, core.FactText(f), ids, f.ID)
			}
		}
		var gone []factbase.Fact
		for _, f := range facts {
			if erased[f.ID] {
				gone = append(gone, f)
			}
		}
		for _, f := range gone[:min(20, len(gone))] {
			ids, _ := vectorIDs(t, a, user, emb, factbase.KindFact, core.FactText(f), 50)
			for _, id := range ids {
				if erased[id] {
					t.Errorf("%s: erased fact %s returned", when, id)
				}
			}
		}
		all, _ := vectorIDs(t, a, user, emb, factbase.KindFact, "anything at all", 1000)
		if want := len(facts) - len(erased); len(all) != want {
			t.Errorf("%s: %d candidates of every fact, want the %d live ones", when, len(all), want)
		}
	}
	// Another writer adds facts and erases some of the first ones.
	added := write(eb, 30)
	facts = append(facts, added...)
	erase(eb, facts[:20])
	for _, f := range facts[:20] {
		erased[f.ID] = true
	}
	check("after another writer's writes", added)
	// More than a quarter of the copy erased: rebuilt.
	erase(eb, facts[20:150])
	for _, f := range facts[20:150] {
		erased[f.ID] = true
	}
	check("after the copy's rebuild", facts[150:])
}

// userSeq returns the row number of user, as the copies name them.
func (s *Store) userSeq(t *testing.T, user factbase.UserID) string {
	t.Helper()
	var seq int64
	if err := s.reader.QueryRow("SELECT seq FROM users WHERE id = ?", string(user)).Scan(&seq); err != nil {
		t.Fatal(err)
	}
	return strconv.FormatInt(seq, 10)
}

// TestCopyAfterReopen: a store opened again reads the copy in the background and
// finds the same nearest items as before, within the codes' precision.
func TestCopyAfterReopen(t *testing.T) {
	defer func(v int) { vecKNNMax = v }(vecKNNMax)
	vecKNNMax = 50
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "factbase.db")
	s := OpenFile(t, path, Options{})
	emb := embed.NewHash(64)
	e := memory.New(s, memory.Options{Embedder: emb, NoSheetRegen: true})
	user := storetest.NewUser()
	r := rand.New(rand.NewPCG(5, 6))
	var in []ingest.EpisodeInput
	for range 2000 {
		in = append(in, ingest.EpisodeInput{Content: sentence(r)})
	}
	if _, _, err := e.Ingest.AddEpisodes(ctx, user, in[:1000]); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Ingest.AddEpisodes(ctx, user, in[1000:]); err != nil {
		t.Fatal(err)
	}
	queries := []string{sentence(r), sentence(r), sentence(r), in[7].Content}
	type result struct {
		ids    []string
		scores []float64
	}
	var before []result
	for _, q := range queries {
		ids, scores := vectorIDs(t, s, user, emb, factbase.KindEpisode, q, 10)
		before = append(before, result{ids, scores})
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = OpenFile(t, path, Options{})
	s.warm.wg.Wait()
	if _, ok := vecCacheFor(s.rstmts).Through(s.userSeq(t, user), emb.Model(), emb.Dim()); !ok {
		t.Fatal("no copy read at open")
	}
	for i, q := range queries {
		ids, scores := vectorIDs(t, s, user, emb, factbase.KindEpisode, q, 10)
		if len(ids) != len(before[i].ids) {
			t.Fatalf("%q: %d candidates after reopening, %d before", q, len(ids), len(before[i].ids))
		}
		for j := range ids {
			// Scores are the codes' (within about 1e-4 of exact), so near ties may swap.
			if math.Abs(scores[j]-before[i].scores[j]) > 1e-3 {
				t.Errorf("%q #%d: %s %.5f after reopening, %s %.5f before", q, j, ids[j], scores[j], before[i].ids[j], before[i].scores[j])
			}
		}
	}
}
