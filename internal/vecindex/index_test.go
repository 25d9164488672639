package vecindex

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/factbase/factbase/search"
)

// row is one stored vector of a memSource.
type row struct {
	seq         int64
	kind, model string
	vec         []float32
}

// memSource is a Source over vectors in memory, standing in for a store's tables:
// seqs grow, and every delete counts.
type memSource struct {
	mu      sync.Mutex
	rows    []row // by seq
	seq     int64
	deletes int64
	loads   []int64 // the after of each Load
	failAt  int     // if > 0, Load fails after passing this many rows
}

func (m *memSource) put(kind, model string, vec []float32) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seq++
	m.rows = append(m.rows, row{seq: m.seq, kind: kind, model: model, vec: vec})
	return m.seq
}

// del deletes the vector of seq, if it is there.
func (m *memSource) del(seq int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, r := range m.rows {
		if r.seq == seq {
			m.rows = slices.Delete(m.rows, i, i+1)
			m.deletes++
			return
		}
	}
}

// live returns the stored vector of seq, if it is there.
func (m *memSource) live(seq int64) (row, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	i, ok := slices.BinarySearchFunc(m.rows, seq, func(r row, s int64) int { return cmp.Compare(r.seq, s) })
	if !ok {
		return row{}, false
	}
	return m.rows[i], true
}

func (m *memSource) Deletes(context.Context) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.deletes, nil
}

var errLoad = errors.New("load failed")

func (m *memSource) Load(_ context.Context, after int64, add AddFunc) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.loads = append(m.loads, after)
	n := 0
	for _, r := range m.rows {
		if r.seq <= after {
			continue
		}
		if m.failAt > 0 && n == m.failAt {
			return 0, errLoad
		}
		add(r.seq, r.kind, r.model, r.vec)
		n++
	}
	return m.seq, nil
}

func (m *memSource) lastLoad() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.loads[len(m.loads)-1]
}

// facts returns a source of n random facts' vectors of dim, of model "m".
func facts(r *rand.Rand, n, dim int) *memSource {
	src := &memSource{}
	for range n {
		src.put("fact", "m", randVec(r, dim))
	}
	return src
}

func randVec(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	var n float64
	for i := range v {
		v[i] = float32(r.NormFloat64())
		n += float64(v[i]) * float64(v[i])
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(n))
	}
	return v
}

// all runs a search that accepts every hit offered and returns them in order.
func all(t *testing.T, x *Index, src Source, q Query) []Hit {
	t.Helper()
	var out []Hit
	err := x.Search(context.Background(), src, q, func(hits []Hit) (bool, error) {
		out = append(out, hits...)
		return false, nil
	})
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	return out
}

// bruteForce ranks src's live vectors of q's model, kind and dimension by dot
// product, best first, ties by seq.
func bruteForce(src *memSource, q Query) []Hit {
	src.mu.Lock()
	defer src.mu.Unlock()
	var out []Hit
	for _, r := range src.rows {
		if r.kind == q.Kind && r.model == q.Model && len(r.vec) == len(q.Vector) {
			out = append(out, Hit{Seq: r.seq, Score: search.Dot(q.Vector, r.vec)})
		}
	}
	slices.SortStableFunc(out, func(a, b Hit) int { return cmp.Compare(b.Score, a.Score) })
	return out
}

// codeTolerance bounds how far a quantized copy's score of unit vectors of dim may
// be from the exact dot product: half a residual step a dimension, with a code step
// of at most 2/127 (a component of v - c is within 2 of 0 for a center c in the unit
// ball), times the query's L1 norm, at most sqrt(dim).
func codeTolerance(dim int) float32 {
	return float32(math.Sqrt(float64(dim))) * 2 / 127 / fineSteps / 2
}

// rankingDiff says how got, what a copy offered, differs from want, brute force's
// ranking, or returns "": for float32s, not at all; for codes, got offers each
// vector of want once, each scored within codeTolerance of its exact score, and its
// k-th best score is within twice that of the k-th best exact score.
func rankingDiff(got, want []Hit, quantized bool, dim int) string {
	if !quantized {
		if !slices.Equal(got, want) {
			return fmt.Sprintf("offered %d hits, brute force ranks %d; first %v, want %v", len(got), len(want), got[:min(5, len(got))], want[:min(5, len(want))])
		}
		return ""
	}
	if len(got) != len(want) {
		return fmt.Sprintf("offered %d hits, brute force ranks %d", len(got), len(want))
	}
	exact := map[int64]float32{}
	for _, h := range want {
		exact[h.Seq] = h.Score
	}
	tol := codeTolerance(dim)
	for i, h := range got {
		e, ok := exact[h.Seq]
		if !ok {
			return fmt.Sprintf("hit %d: seq %d offered twice, or not a vector of the query's kind", i, h.Seq)
		}
		delete(exact, h.Seq)
		if d := h.Score - e; d > tol || d < -tol {
			return fmt.Sprintf("hit %d: seq %d scored %v, exactly %v (tolerance %v)", i, h.Seq, h.Score, e, tol)
		}
		if d := h.Score - want[i].Score; d > 2*tol || d < -2*tol {
			return fmt.Sprintf("hit %d scored %v, brute force's hit %d %v: out of order", i, h.Score, i, want[i].Score)
		}
	}
	return ""
}

func TestSearchMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	src := &memSource{}
	for i := range 3000 {
		kind := []string{"fact", "episode"}[i%3/2]
		switch i % 7 {
		case 0:
			src.put(kind, "other", randVec(r, 16)) // another model
		case 1:
			src.put(kind, "m", randVec(r, 8)) // another dimension
		case 2:
			src.put(kind, "m", nil) // a row without a vector
		default:
			src.put(kind, "m", randVec(r, 16))
		}
	}
	for _, quantize := range []bool{false, true} {
		for _, kind := range []string{"fact", "episode"} {
			t.Run(fmt.Sprintf("%s/quantize=%v", kind, quantize), func(t *testing.T) {
				x := New(Options{Quantize: quantize})
				q := Query{User: "u", Model: "m", Kind: kind, Vector: randVec(r, 16), Limit: 10}
				if diff := rankingDiff(all(t, x, src, q), bruteForce(src, q), quantize, 16); diff != "" {
					t.Errorf("Search %s", diff)
				}
			})
		}
	}
}

func TestSearchBatches(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	src := facts(r, 1000, 8)
	x := New(Options{})
	q := Query{User: "u", Model: "m", Kind: "fact", Vector: randVec(r, 8), Limit: 50}
	var sizes []int
	err := x.Search(context.Background(), src, q, func(hits []Hit) (bool, error) {
		sizes = append(sizes, len(hits))
		return len(sizes) == 2, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{100, 400}; !slices.Equal(sizes, want) {
		t.Errorf("batch sizes %v, want %v (2 × Limit, then four times as many; stopped when accept was done)", sizes, want)
	}
	wantErr := errors.New("resolve failed")
	err = x.Search(context.Background(), src, q, func([]Hit) (bool, error) { return false, wantErr })
	if !errors.Is(err, wantErr) {
		t.Errorf("Search = %v, want accept's error", err)
	}
}

func TestSearchRefresh(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	src := facts(r, 100, 8)
	x := New(Options{})
	q := Query{User: "u", Model: "m", Kind: "fact", Vector: randVec(r, 8), Limit: 10}
	if got := all(t, x, src, q); len(got) != 100 {
		t.Fatalf("first search offered %d hits, want 100", len(got))
	}
	src.put("fact", "m", randVec(r, 8))
	src.put("fact", "other", randVec(r, 8))
	newest := src.put("fact", "m", q.Vector)
	got := all(t, x, src, q)
	if len(got) != 102 || got[0].Seq != newest {
		t.Errorf("after writes: %d hits, best %d; want 102, best %d (the query's own vector)", len(got), got[0].Seq, newest)
	}
	if after := src.lastLoad(); after != 100 {
		t.Errorf("refresh loaded after seq %d, want 100 (only the new rows)", after)
	}
	all(t, x, src, q)
	if after := src.lastLoad(); after != newest {
		t.Errorf("next refresh loaded after seq %d, want %d (past the other model's row too)", after, newest)
	}
}

// sizedSource is a memSource that tells its size (Sizer).
type sizedSource struct {
	*memSource
	asked int
}

func (s *sizedSource) Size(_ context.Context, model string, dim int) (int, error) {
	s.asked++
	return len(s.rows), nil
}

// TestRefresh: Refresh makes a user's copy without a search, and later reads only
// the new rows; a Sizer is asked once, for the empty copy; a user without vectors
// gets no copy; a search after a refresh loads nothing.
func TestRefresh(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 7))
	src := &sizedSource{memSource: facts(r, 100, 8)}
	x := New(Options{Quantize: true})
	ctx := context.Background()
	if x.Holds("u", "m", 8) {
		t.Fatal("a copy before any refresh")
	}
	if err := x.Refresh(ctx, src, "u", "m", 8); err != nil {
		t.Fatal(err)
	}
	if through, ok := x.Through("u", "m", 8); !ok || through != 100 || !x.Holds("u", "m", 8) {
		t.Errorf("after Refresh: through %d, %v; want 100, true", through, ok)
	}
	src.put("fact", "m", randVec(r, 8))
	if err := x.Refresh(ctx, src, "u", "m", 8); err != nil {
		t.Fatal(err)
	}
	if through, _ := x.Through("u", "m", 8); through != 101 || src.lastLoad() != 100 || src.asked != 1 {
		t.Errorf("second Refresh: through %d, loaded after %d, size asked %d times; want 101, 100, 1", through, src.lastLoad(), src.asked)
	}
	loads := len(src.loads)
	q := Query{User: "u", Model: "m", Kind: "fact", Vector: randVec(r, 8), Limit: 10}
	if got := all(t, x, src, q); len(got) != 101 {
		t.Errorf("search after Refresh offered %d hits, want 101", len(got))
	}
	if len(src.loads) != loads+1 || src.lastLoad() != 101 {
		t.Errorf("search after Refresh loaded after %d, want 101 (nothing new)", src.lastLoad())
	}
	if err := x.Refresh(ctx, &memSource{}, "v", "m", 8); err != nil || x.Holds("v", "m", 8) {
		t.Errorf("Refresh of a user without vectors: %v, holds %v; want no copy", err, x.Holds("v", "m", 8))
	}
}

func TestSearchGhosts(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	src := facts(r, 1000, 8)
	x := New(Options{})
	q := Query{User: "u", Model: "m", Kind: "fact", Vector: randVec(r, 8), Limit: 10}
	all(t, x, src, q)
	// A few deletions leave ghosts, which the caller drops.
	for seq := int64(1); seq <= 64; seq++ {
		src.del(seq)
	}
	got := all(t, x, src, q)
	if after := src.lastLoad(); len(got) != 1000 || after != 1000 {
		t.Errorf("after 64 deletions: %d hits, loaded after %d; want 1000 (ghosts kept) and 1000 (no rebuild)", len(got), after)
	}
	// More than a quarter of the copy deleted since it was built: rebuilt.
	for seq := int64(65); seq <= 251; seq++ {
		src.del(seq)
	}
	got = all(t, x, src, q)
	if after := src.lastLoad(); len(got) != 749 || after != 0 {
		t.Errorf("after 251 deletions: %d hits, loaded after %d; want 749 (rebuilt) and 0", len(got), after)
	}
	if want := bruteForce(src, q); !slices.Equal(got, want) {
		t.Errorf("rebuilt copy ranks %v..., brute force %v...", got[:3], want[:3])
	}
	// The count restarts from the rebuild.
	for seq := int64(252); seq <= 400; seq++ {
		src.del(seq)
	}
	all(t, x, src, q)
	if after := src.lastLoad(); after != 1000 {
		t.Errorf("149 deletions after a rebuild of 749: loaded after %d, want 1000 (fewer than a quarter: no rebuild)", after)
	}
}

func TestSearchLoadError(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	src := facts(r, 100, 8)
	x := New(Options{Quantize: true})
	q := Query{User: "u", Model: "m", Kind: "fact", Vector: randVec(r, 8), Limit: 10}
	all(t, x, src, q)
	for range 50 {
		src.put("fact", "m", randVec(r, 8))
	}
	src.failAt = 20
	if err := x.Search(context.Background(), src, q, func([]Hit) (bool, error) { return false, nil }); !errors.Is(err, errLoad) {
		t.Fatalf("Search = %v, want the load's error", err)
	}
	src.failAt = 0
	if diff := rankingDiff(all(t, x, src, q), bruteForce(src, q), true, 8); diff != "" {
		t.Errorf("after a failed load: %s", diff)
	}
	if after := src.lastLoad(); after != 100 {
		t.Errorf("loaded after %d, want 100 (the failed load rolled back)", after)
	}
}

func TestSearchNoVectors(t *testing.T) {
	x := New(Options{})
	q := Query{User: "u", Model: "m", Kind: "fact", Vector: []float32{1, 0}, Limit: 10}
	if got := all(t, x, &memSource{}, q); len(got) != 0 {
		t.Errorf("Search of a user without vectors = %v, want none", got)
	}
	if len(x.sets) != 0 {
		t.Errorf("a user without vectors keeps a copy: %d copies, want 0", len(x.sets))
	}
}

func TestEviction(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const n, dim = 100, 16
	size := n*entryBytes(dim, true) + 4*dim // the codes, seq and kind of each, and the center
	x := New(Options{MaxBytes: 2 * size, Quantize: true})
	srcs := map[string]*memSource{}
	for _, u := range []string{"a", "b", "c", "d"} {
		srcs[u] = &memSource{}
		for range n {
			srcs[u].put("fact", "m", randVec(r, dim))
		}
	}
	search := func(u string) {
		t.Helper()
		q := Query{User: u, Model: "m", Kind: "fact", Vector: randVec(r, dim), Limit: 10}
		got := all(t, x, srcs[u], q)
		// An oversized user is ranked exactly, as the vectors stream by.
		quantized := x.sets[key{user: u, model: "m", dim: dim}].size.Load() > 0
		if diff := rankingDiff(got, bruteForce(srcs[u], q), quantized, dim); diff != "" {
			t.Errorf("user %s: Search %s", u, diff)
		}
	}
	held := func() []string {
		var us []string
		var total int64
		for k, s := range x.sets {
			us = append(us, k.user)
			total += s.size.Load()
		}
		if total > x.maxBytes {
			t.Errorf("copies hold %d bytes, more than the bound %d", total, x.maxBytes)
		}
		slices.Sort(us)
		return us
	}
	for _, step := range []struct {
		user string
		want []string
	}{
		{"a", []string{"a"}},
		{"b", []string{"a", "b"}},
		{"c", []string{"b", "c"}}, // a least recently used
		{"b", []string{"b", "c"}},
		{"d", []string{"b", "d"}}, // c least recently used
	} {
		search(step.user)
		if got := held(); !slices.Equal(got, step.want) {
			t.Errorf("after searching %s the index holds %v, want %v", step.user, got, step.want)
		}
	}
	// A user whose vectors alone exceed the bound is ranked as the vectors stream by,
	// in full agreement with brute force, and no copy is kept.
	big := &memSource{}
	for range 3 * n {
		big.put("fact", "m", randVec(r, dim))
	}
	srcs["big"] = big
	search("big")
	search("big")
	if got := x.sets[key{user: "big", model: "m", dim: dim}].size.Load(); got != 0 {
		t.Errorf("the oversized user's copy holds %d bytes, want 0", got)
	}
	// A search that keeps the first batch reads the vectors once, from the start.
	big.loads = nil
	q := Query{User: "big", Model: "m", Kind: "fact", Vector: randVec(r, dim), Limit: 5}
	var got []Hit
	err := x.Search(context.Background(), big, q, func(hits []Hit) (bool, error) {
		got = hits
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := bruteForce(big, q)[:64]; !slices.Equal(got, want) {
		t.Errorf("the oversized user's first batch differs from brute force's best 64")
	}
	if !slices.Equal(big.loads, []int64{0}) {
		t.Errorf("the oversized user's search read from %v, want [0] (one read from the start)", big.loads)
	}
	// Deleting enough makes the user fit again: the copy is kept.
	for seq := int64(1); seq <= 2*n+50; seq++ {
		big.del(seq)
	}
	search("big")
	if got := x.sets[key{user: "big", model: "m", dim: dim}]; got == nil || got.size.Load() == 0 {
		t.Errorf("after deletions the user fits, but no copy is kept")
	}
}

func TestClear(t *testing.T) {
	src := &memSource{}
	src.put("fact", "m", []float32{1, 0})
	x := New(Options{})
	q := Query{User: "u", Model: "m", Kind: "fact", Vector: []float32{1, 0}, Limit: 1}
	all(t, x, src, q)
	x.Clear()
	all(t, x, src, q)
	if !slices.Equal(src.loads, []int64{0, 0}) {
		t.Errorf("loads started after %v, want [0 0] (read afresh after Clear)", src.loads)
	}
}

// TestSearchConcurrent searches users whose vectors are written and deleted
// meanwhile, in a cache that holds about two of them and not the largest at all, so
// that refreshes, rebuilds, evictions and reads afresh interleave; run it with -race.
func TestSearchConcurrent(t *testing.T) {
	const users, dim = 4, 8
	srcs := make([]*memSource, users)
	r := rand.New(rand.NewPCG(13, 14))
	for i := range srcs {
		n := 300
		if i == 0 {
			n = 900 // more than the bound: read afresh at each search
		}
		srcs[i] = facts(r, n, dim)
	}
	x := New(Options{MaxBytes: 2 * 400 * entryBytes(dim, true), Quantize: true})
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := range users {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 15))
			src := srcs[w]
			for i := range 200 {
				if seq := src.put("fact", "m", randVec(r, dim)); i%2 == 0 {
					src.del(seq - int64(r.IntN(50)))
				}
			}
		})
	}
	for g := range 8 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 16))
			for range 100 {
				u := r.IntN(users)
				src := srcs[u]
				q := Query{User: fmt.Sprint(u), Model: "m", Kind: "fact", Vector: randVec(r, dim), Limit: 5}
				seen := map[int64]bool{}
				err := x.Search(ctx, src, q, func(hits []Hit) (bool, error) {
					for i, h := range hits {
						if seen[h.Seq] {
							return true, fmt.Errorf("seq %d offered twice", h.Seq)
						}
						seen[h.Seq] = true
						if i > 0 && h.Score > hits[i-1].Score {
							return true, fmt.Errorf("batch not best first at %d", i)
						}
						if row, ok := src.live(h.Seq); ok && row.model == "m" {
							if d := search.Dot(q.Vector, row.vec) - h.Score; d > codeTolerance(dim) || d < -codeTolerance(dim) {
								return true, fmt.Errorf("seq %d scored %v, want its dot product %v", h.Seq, h.Score, h.Score+d)
							}
						}
					}
					return len(seen) >= 20, nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestSearchOversizedMemory: a search of a user whose vectors exceed the bound
// allocates about its batch, not the user's vectors (3,000 of 64 dimensions, 750 KiB).
func TestSearchOversizedMemory(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	src := facts(r, 3000, 64)
	x := New(Options{MaxBytes: 64 << 10})
	q := Query{User: "u", Model: "m", Kind: "fact", Vector: randVec(r, 64), Limit: 10}
	first := func() []Hit {
		var got []Hit
		if err := x.Search(context.Background(), src, q, func(h []Hit) (bool, error) { got = h; return true, nil }); err != nil {
			t.Fatal(err)
		}
		return got
	}
	first() // finds the user too big
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got := first()
	runtime.ReadMemStats(&after)
	if !slices.Equal(got, bruteForce(src, q)[:64]) {
		t.Fatal("the first batch differs from brute force")
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<10 {
		t.Errorf("a search of the oversized user allocated %d bytes; its vectors are %d bytes and its batch %d", alloc, 3000*64*4, 64*16)
	}
}
