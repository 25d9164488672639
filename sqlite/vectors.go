package sqlite

import (
	"context"
	"encoding/json"
	"math"
	"math/bits"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/search"
)

// Vector search ranks in Go, not in sqlite-vec.
//
// modernc.org/sqlite/vec (sqlite-vec v0.1.9, transpiled to Go) works here, but its
// vec0 tables rank by brute force at about 34 ms for 90,000 100-dimension vectors in
// one partition (int8 vectors: the same; bit vectors with k=500: 65 ms), measured on
// this 2-core machine; a plain Go loop over the same vectors in memory takes 6 ms. The
// target is a whole hybrid search over 100,000 facts of one user in under 20 ms at the
// 95th percentile, so vectors are stored as BLOBs (table embeddings) and ranked in Go
// over an in-memory copy of each user's vectors.
//
// The copy is kept correct without any notification from writers:
//   - embeddings.seq only grows (AUTOINCREMENT) and writes are serialised, so a reader
//     that has loaded every vector with seq <= S finds all newer ones, from any process,
//     with one index range read (seq > S) in its own snapshot;
//   - a vector deleted since (its item erased or retracted, or re-embedded) stays in the
//     copy as a ghost, but every candidate is joined back to its embeddings row and its
//     fact or episode in the reader's snapshot, so a ghost is never returned; the
//     database counts deletions per user (embedding_deletes), and a copy is rebuilt
//     when too many of its entries are ghosts.
//
// Copies are bounded by vecCacheBytes per store, least recently used first out; a
// user whose vectors alone exceed it is ranked by reading the vectors each time.

// vecCacheBytes bounds the vectors kept in memory per store.
const vecCacheBytes = 512 << 20

// vecKey names one user's vectors of one model and dimension.
type vecKey struct {
	u     int64
	model string
	dim   int
}

// vecSet is the in-memory copy of one user's vectors of one model and dimension.
type vecSet struct {
	mu      sync.RWMutex
	maxSeq  int64     // every vector of the user with seq <= maxSeq has been read
	deleted int64     // the user's deletion count when the copy was last rebuilt
	seqs    []int64   // embeddings.seq of each entry
	kinds   []byte    // 'f' for facts, 'e' for episodes
	vecs    []float32 // len(seqs) * dim
	signs   []uint64  // each vector's sign bits, signWords(dim) words per vector
	lastUse atomic.Int64
	size    atomic.Int64 // bytes held, updated under mu, read without it
}

// resize records the set's size; the caller holds s.mu.
func (s *vecSet) resize() {
	s.size.Store(int64(len(s.vecs))*4 + int64(len(s.signs))*8 + int64(len(s.seqs))*9)
}

// vecCache holds the vector copies of one store's connection pool.
type vecCache struct {
	mu   sync.Mutex
	sets map[vecKey]*vecSet
}

// vecCaches maps each statement cache (one per connection pool of a Store) to its
// vector cache. It is keyed weakly, so a closed and unreferenced Store's vectors are
// freed with it; the Store needs no field for it.
var vecCaches sync.Map // weak.Pointer[stmtCache] -> *vecCache

func vecCacheFor(sc *stmtCache) *vecCache {
	key := weak.Make(sc)
	if c, ok := vecCaches.Load(key); ok {
		return c.(*vecCache)
	}
	c, loaded := vecCaches.LoadOrStore(key, &vecCache{sets: map[vecKey]*vecSet{}})
	if !loaded {
		runtime.AddCleanup(sc, func(k weak.Pointer[stmtCache]) { vecCaches.Delete(k) }, key)
	}
	return c.(*vecCache)
}

// set returns the copy for k, creating an empty one.
func (c *vecCache) set(k vecKey) *vecSet {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.sets[k]
	if s == nil {
		s = &vecSet{}
		c.sets[k] = s
	}
	s.lastUse.Store(time.Now().UnixNano())
	return s
}

// evict drops least recently used copies other than keep until the cache fits its
// budget. It reports whether keep itself fits. It takes no set's lock (sizes are
// atomic), so it may be called while holding one.
func (c *vecCache) evict(keep *vecSet) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	var total int64
	for _, s := range c.sets {
		total += s.size.Load()
	}
	for total > vecCacheBytes {
		var oldK vecKey
		var old *vecSet
		for k, s := range c.sets {
			if s != keep && (old == nil || s.lastUse.Load() < old.lastUse.Load()) {
				oldK, old = k, s
			}
		}
		if old == nil {
			return false
		}
		total -= old.size.Load()
		delete(c.sets, oldK)
	}
	return true
}

// refresh brings s up to date with the transaction's snapshot. The caller holds s.mu.
func (t *tx) refresh(ctx context.Context, s *vecSet, k vecKey) error {
	var deleted int64
	if err := t.queryRow(ctx, qVecDeletes, t.u).Scan(&deleted); err != nil {
		return mapErr("vector deletes", err)
	}
	if ghosts := deleted - s.deleted; ghosts > 64 && ghosts > int64(len(s.seqs)/4) {
		s.maxSeq, s.seqs, s.kinds, s.vecs, s.signs = 0, nil, nil, nil, nil
		s.deleted = deleted
	} else if len(s.seqs) == 0 && s.maxSeq == 0 {
		s.deleted = deleted
	}
	rows, err := t.query(ctx, qVecDelta, t.u, s.maxSeq)
	if err != nil {
		return mapErr("vectors", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			seq       int64
			kind, mdl string
			dim       int
			blob      []byte
		)
		if err := rows.Scan(&seq, &kind, &mdl, &dim, &blob); err != nil {
			return mapErr("vectors", err)
		}
		s.maxSeq = max(s.maxSeq, seq)
		if mdl != k.model || dim != k.dim || len(blob) != 4*dim {
			continue
		}
		s.seqs = append(s.seqs, seq)
		s.kinds = append(s.kinds, kind[0])
		s.vecs = decodeVec(s.vecs, blob)
		s.signs = appendSigns(s.signs, s.vecs[len(s.vecs)-dim:])
	}
	s.resize()
	return mapErr("vectors", rows.Err())
}

// VectorCandidates returns the items most similar to q.Vector, best first.
func (t *tx) VectorCandidates(ctx context.Context, q factbase.VectorQuery) ([]factbase.Candidate, error) {
	if err := checkKind(q.Kind); err != nil {
		return nil, err
	}
	if q.Limit <= 0 || len(q.Vector) == 0 || t.u == 0 || q.Model == "" {
		return nil, nil
	}
	if q.Kind == factbase.KindEpisode && q.Filter.FactOnly() {
		return nil, nil
	}
	k := vecKey{u: t.u, model: q.Model, dim: len(q.Vector)}
	c := vecCacheFor(t.cache)
	s := c.set(k)
	s.mu.Lock()
	if err := t.refresh(ctx, s, k); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	fits := c.evict(s)
	s.mu.Unlock()
	if !fits {
		return t.vectorScan(ctx, q, s)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return t.rankVectors(ctx, q, s)
}

// vectorScan ranks a user whose vectors do not fit the cache: it drops the copy and
// reads the vectors afresh.
func (t *tx) vectorScan(ctx context.Context, q factbase.VectorQuery, s *vecSet) ([]factbase.Candidate, error) {
	s.mu.Lock()
	s.maxSeq, s.seqs, s.kinds, s.vecs, s.signs = 0, nil, nil, nil, nil
	s.resize()
	s.mu.Unlock()
	tmp := &vecSet{}
	if err := t.refresh(ctx, tmp, vecKey{u: t.u, model: q.Model, dim: len(q.Vector)}); err != nil {
		return nil, err
	}
	return t.rankVectors(ctx, q, tmp)
}

// Above exactBelow vectors of a kind, rankVectors first narrows them by the
// Hamming distance of their sign bits to the query's (binary quantisation: about
// 0.3 ms for 100,000 vectors, against 6 ms for as many dot products) and computes
// exact similarities for the prefilter best only; if the filter then passes too
// few, the rest are scored exactly too. The prefilter keeps 2,000 vectors or 40 per
// hit asked, whichever is more; TestSignPrefilterRecall measures what it misses.
const (
	exactBelow    = 20000
	prefilterMin  = 2000
	prefilterEach = 40
)

// rankVectors scores the entries of q.Kind and resolves the best ones against the
// snapshot and q.Filter, widening the window until q.Limit pass or none are left.
func (t *tx) rankVectors(ctx context.Context, q factbase.VectorQuery, s *vecSet) ([]factbase.Candidate, error) {
	want := byte('f')
	if q.Kind == factbase.KindEpisode {
		want = 'e'
	}
	dim := len(q.Vector)
	n := 0
	for _, k := range s.kinds {
		if k == want {
			n++
		}
	}
	scores := make([]float32, len(s.seqs))
	for i := range scores {
		scores[i] = float32NaN
	}
	scored := make([]bool, len(s.seqs)) // scores[i] computed (and maybe used since)
	scoreAll := func() {
		for i, k := range s.kinds {
			if k == want && !scored[i] {
				scores[i], scored[i] = search.Dot(q.Vector, s.vecs[i*dim:(i+1)*dim]), true
			}
		}
	}
	approx := n > exactBelow
	if approx {
		for _, i := range nearestSigns(s.signs, s.kinds, want, signsOf(q.Vector), signWords(dim), max(prefilterMin, prefilterEach*q.Limit)) {
			scores[i], scored[i] = search.Dot(q.Vector, s.vecs[i*dim:(i+1)*dim]), true
		}
	} else {
		scoreAll()
	}
	var out []factbase.Candidate
	window := max(2*q.Limit, 64)
	for len(out) < q.Limit {
		batch := search.TopK(scores, window)
		if len(batch) == 0 {
			if !approx {
				break
			}
			approx = false
			scoreAll()
			continue
		}
		found, err := t.resolveVectors(ctx, q, s.seqs, scores, batch)
		if err != nil {
			return nil, err
		}
		for _, b := range batch {
			scores[b] = float32NaN // done with: never offered again
		}
		for _, c := range found {
			if len(out) == q.Limit {
				break
			}
			c.Rank = len(out) + 1
			out = append(out, c)
		}
		window *= 4
	}
	return out, nil
}

// signWords is how many 64-bit words hold the sign bits of a vector of dim.
func signWords(dim int) int { return (dim + 63) / 64 }

// appendSigns appends v's sign bits (bit set for a positive component).
func appendSigns(dst []uint64, v []float32) []uint64 {
	for w := 0; w < signWords(len(v)); w++ {
		var word uint64
		for b := 0; b < 64 && w*64+b < len(v); b++ {
			if v[w*64+b] > 0 {
				word |= 1 << b
			}
		}
		dst = append(dst, word)
	}
	return dst
}

func signsOf(v []float32) []uint64 { return appendSigns(nil, v) }

// nearestSigns returns the indexes of at least k entries of kind want (all there
// are, if fewer) whose sign bits are nearest to q's by Hamming distance: every entry
// at a distance below the cut-off and as many at it as make k. A bucket count keeps
// it linear.
func nearestSigns(signs []uint64, kinds []byte, want byte, q []uint64, words, k int) []int {
	dist := make([]uint16, len(kinds))
	counts := make([]int, 64*words+1)
	for i, kind := range kinds {
		if kind != want {
			continue
		}
		d := 0
		for w, qw := range q {
			d += bits.OnesCount64(signs[i*words+w] ^ qw)
		}
		dist[i] = uint16(d)
		counts[d]++
	}
	cut, total := 0, 0
	for cut < len(counts) && total+counts[cut] < k {
		total += counts[cut]
		cut++
	}
	out := make([]int, 0, k)
	atCut := k - total
	for i, kind := range kinds {
		if kind != want {
			continue
		}
		switch d := int(dist[i]); {
		case d < cut:
			out = append(out, i)
		case d == cut && atCut > 0:
			out = append(out, i)
			atCut--
		}
	}
	return out
}

// float32NaN marks an entry that is not of the kind asked for.
var float32NaN = float32(math.NaN())

// resolveVectors joins the entries at batch (indexes into seqs, best first) to their
// embeddings rows and items in the snapshot, keeping those q.Filter passes, in the
// order of batch.
func (t *tx) resolveVectors(ctx context.Context, q factbase.VectorQuery, seqs []int64, scores []float32, batch []int) ([]factbase.Candidate, error) {
	if len(batch) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(batch))
	for i, b := range batch {
		ids[i] = seqs[b]
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, factbase.Errorf(factbase.EINTERNAL, "sqlite: encode vector ids: %v", err)
	}
	var sqlText string
	args := []any{string(list), t.u}
	if q.Kind == factbase.KindFact {
		where, wargs := t.factWhere(q.Filter)
		sqlText = "SELECT m.seq, f.id, f.valid_from, f.subject, f.confidence FROM json_each(?) j " +
			"CROSS JOIN embeddings m ON m.seq = j.value CROSS JOIN facts f ON f.seq = m.item " +
			"WHERE m.u = ? AND m.kind = 'fact' AND " + strings.Join(where, " AND ")
		args = append(args, wargs...)
	} else {
		where, wargs := t.episodeSearchWhere(q.Filter)
		sqlText = "SELECT m.seq, e.id, e.created_at, '', e.importance FROM json_each(?) j " +
			"CROSS JOIN embeddings m ON m.seq = j.value CROSS JOIN episodes e ON e.seq = m.item " +
			"WHERE m.u = ? AND m.kind = 'episode' AND " + where
		args = append(args, wargs...)
	}
	rows, err := t.query(ctx, sqlText, args...)
	if err != nil {
		return nil, mapErr("vector search", err)
	}
	defer rows.Close()
	found := make(map[int64]factbase.Candidate, len(batch))
	for rows.Next() {
		var (
			seq int64
			at  int64
			c   = factbase.Candidate{Kind: q.Kind}
		)
		if err := rows.Scan(&seq, &c.ID, &at, &c.Subject, &c.Importance); err != nil {
			return nil, mapErr("vector search", err)
		}
		c.Time = time.Unix(0, at).UTC()
		found[seq] = c
	}
	if err := rows.Err(); err != nil {
		return nil, mapErr("vector search", err)
	}
	out := make([]factbase.Candidate, 0, len(found))
	for _, b := range batch {
		if c, ok := found[seqs[b]]; ok {
			c.Score = float64(scores[b])
			out = append(out, c)
		}
	}
	return out, nil
}
