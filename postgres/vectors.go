package postgres

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/search"
)

// Vector search ranks in Go over the user's vectors, as the SQLite store does: the
// vectors are real[] rows (table embeddings), and each store keeps an in-memory copy
// of the vectors of the users it has searched, brought up to date before each search
// with one index range read of the rows it has not seen.
//
// The copy is kept correct without any notification from writers, even when another
// server wrote the vectors:
//   - a user's writes are serialised by the lock on the user's row, and
//     embeddings.seq is taken inside that lock from a sequence without a cache, so for
//     one user seq grows in commit order: a copy that has read every vector with
//     seq <= S finds all newer ones with seq > S, in the reader's own snapshot;
//   - a vector deleted since (its item erased or retracted, or re-embedded) stays in
//     the copy as a ghost, but every candidate is joined back to its embeddings row and
//     its fact or episode in the reader's snapshot, so a ghost is never returned; the
//     database counts deletions per user (embedding_deletes), and a copy is rebuilt
//     when too many of its entries are ghosts.
//
// Copies are bounded by vecCacheBytes per store, least recently used first out; a
// user whose vectors alone exceed it is ranked by reading the vectors each time.

// vecCacheBytes bounds the vectors kept in memory per store.
const vecCacheBytes = 512 << 20

// The statements of vectors.
const (
	qFactSeq    = "SELECT seq FROM facts WHERE u = $1 AND id = $2"
	qEpisodeSeq = "SELECT seq FROM episodes WHERE u = $1 AND id = $2"
	qVecDelete  = "DELETE FROM embeddings WHERE kind = $1 AND item = $2"
	qVecInsert  = "INSERT INTO embeddings (u, kind, item, model, dim, vec) VALUES ($1, $2, $3, $4, $5, $6)"
	qVecDeletes = "SELECT coalesce((SELECT deleted FROM embedding_deletes WHERE u = $1), 0)"
	qVecDelta   = "SELECT seq, kind, model, dim, vec FROM embeddings WHERE u = $1 AND seq > $2 ORDER BY seq"
	qUnembFacts = "SELECT " + factColumnsF + ` FROM facts f
		WHERE f.u = $1 AND f.id > $2 AND (f.current OR f.superseded_by <> '')
		AND NOT EXISTS (SELECT 1 FROM embeddings m WHERE m.kind = 'fact' AND m.item = f.seq AND m.model = $3)
		ORDER BY f.id LIMIT $4`
	qUnembEpisodes = `SELECT e.id, e.content, e.tags, e.importance, e.created_at, e.metadata, e.extracted_at FROM episodes e
		WHERE e.u = $1 AND e.id > $2
		AND NOT EXISTS (SELECT 1 FROM embeddings m WHERE m.kind = 'episode' AND m.item = e.seq AND m.model = $3)
		ORDER BY e.id LIMIT $4`
	qCountUnemb = `SELECT
		(SELECT count(*) FROM facts f WHERE f.u = $1 AND (f.current OR f.superseded_by <> '')
			AND NOT EXISTS (SELECT 1 FROM embeddings m WHERE m.kind = 'fact' AND m.item = f.seq AND m.model = $2)) +
		(SELECT count(*) FROM episodes e WHERE e.u = $1
			AND NOT EXISTS (SELECT 1 FROM embeddings m WHERE m.kind = 'episode' AND m.item = e.seq AND m.model = $2))`
)

// PutVectors stores each item's vector, replacing the item's earlier one; vectors of
// items the user does not have are skipped.
func (t *tx) PutVectors(ctx context.Context, vs []factbase.Vector) error {
	for _, v := range vs {
		if err := checkKind(v.Kind); err != nil {
			return err
		}
		if len(v.Vec) == 0 {
			return factbase.Errorf(factbase.EINVALID, "vector of %s %s is empty", v.Kind, v.ID)
		}
		if v.Model == "" {
			return factbase.Errorf(factbase.EINVALID, "vector of %s %s names no model", v.Kind, v.ID)
		}
		q := qFactSeq
		if v.Kind == factbase.KindEpisode {
			q = qEpisodeSeq
		}
		var item int64
		rows, err := t.q.Query(ctx, q, string(t.user), v.ID)
		if err != nil {
			return mapErr("put vector", err)
		}
		found := rows.Next()
		if found {
			err = rows.Scan(&item)
		}
		rows.Close()
		if err == nil {
			err = rows.Err()
		}
		if err != nil {
			return mapErr("put vector", err)
		}
		if !found {
			continue
		}
		if _, err := t.q.Exec(ctx, qVecDelete, v.Kind, item); err != nil {
			return mapErr("put vector", err)
		}
		if _, err := t.q.Exec(ctx, qVecInsert, string(t.user), v.Kind, item, v.Model, len(v.Vec), v.Vec); err != nil {
			return mapErr("put vector", err)
		}
		t.writes++
	}
	return nil
}

// UnembeddedFacts returns indexed facts without a vector of model, by id after after.
func (t *tx) UnembeddedFacts(ctx context.Context, model, after string, limit int) ([]factbase.Fact, error) {
	if limit <= 0 {
		return nil, nil
	}
	return t.queryFacts(ctx, qUnembFacts, string(t.user), after, model, limit)
}

// UnembeddedEpisodes returns episodes without a vector of model, by id after after.
func (t *tx) UnembeddedEpisodes(ctx context.Context, model, after string, limit int) ([]factbase.Episode, error) {
	if limit <= 0 {
		return nil, nil
	}
	return t.scanEpisodes(t.q.Query(ctx, qUnembEpisodes, string(t.user), after, model, limit))
}

// CountUnembedded counts the indexed items without a vector of model.
func (t *tx) CountUnembedded(ctx context.Context, model string) (int, error) {
	var n int
	err := t.q.QueryRow(ctx, qCountUnemb, string(t.user), model).Scan(&n)
	return n, mapErr("count unembedded", err)
}

// vecKey names one user's vectors of one model and dimension.
type vecKey struct {
	user  factbase.UserID
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
	lastUse atomic.Int64
	size    atomic.Int64 // bytes held, updated under mu, read without it
}

// resize records the set's size; the caller holds s.mu.
func (s *vecSet) resize() { s.size.Store(int64(len(s.vecs))*4 + int64(len(s.seqs))*9) }

// vecCache holds the vector copies of one store.
type vecCache struct {
	mu   sync.Mutex
	sets map[vecKey]*vecSet
}

func newVecCache() *vecCache { return &vecCache{sets: map[vecKey]*vecSet{}} }

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

// drop forgets the copy s of k, unless another has replaced it meanwhile.
func (c *vecCache) drop(k vecKey, s *vecSet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sets[k] == s {
		delete(c.sets, k)
	}
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
	if err := t.q.QueryRow(ctx, qVecDeletes, string(t.user)).Scan(&deleted); err != nil {
		return mapErr("vector deletes", err)
	}
	if ghosts := deleted - s.deleted; ghosts > 64 && ghosts > int64(len(s.seqs)/4) {
		s.maxSeq, s.seqs, s.kinds, s.vecs = 0, nil, nil, nil
		s.deleted = deleted
	} else if len(s.seqs) == 0 && s.maxSeq == 0 {
		s.deleted = deleted
	}
	rows, err := t.q.Query(ctx, qVecDelta, string(t.user), s.maxSeq)
	if err != nil {
		return mapErr("vectors", err)
	}
	defer rows.Close()
	var (
		seq       int64
		kind, mdl string
		dim       int32
		vec       []float32
	)
	for rows.Next() {
		if err := rows.Scan(&seq, &kind, &mdl, &dim, &vec); err != nil {
			return mapErr("vectors", err)
		}
		s.maxSeq = max(s.maxSeq, seq)
		if mdl != k.model || int(dim) != k.dim || len(vec) != k.dim {
			continue
		}
		s.seqs = append(s.seqs, seq)
		s.kinds = append(s.kinds, kind[0])
		s.vecs = append(s.vecs, vec...)
	}
	s.resize()
	return mapErr("vectors", rows.Err())
}

// VectorCandidates returns the items most similar to q.Vector, best first.
func (t *tx) VectorCandidates(ctx context.Context, q factbase.VectorQuery) ([]factbase.Candidate, error) {
	if err := checkKind(q.Kind); err != nil {
		return nil, err
	}
	if q.Limit <= 0 || len(q.Vector) == 0 || q.Model == "" {
		return nil, nil
	}
	if q.Kind == factbase.KindEpisode && q.Filter.FactOnly() {
		return nil, nil
	}
	k := vecKey{user: t.user, model: q.Model, dim: len(q.Vector)}
	c := t.s.vecs
	s := c.set(k)
	s.mu.Lock()
	if err := t.refresh(ctx, s, k); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	if len(s.seqs) == 0 && s.maxSeq == 0 {
		// The user has no vectors at all: keep no copy, so that such users cost
		// the cache nothing.
		s.mu.Unlock()
		c.drop(k, s)
		return nil, nil
	}
	fits := c.evict(s)
	s.mu.Unlock()
	if !fits {
		return t.vectorScan(ctx, q, s)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return t.rankVectors(ctx, q, s.seqs, s.kinds, s.vecs)
}

// vectorScan ranks a user whose vectors do not fit the cache: it drops the copy and
// reads the vectors afresh.
func (t *tx) vectorScan(ctx context.Context, q factbase.VectorQuery, s *vecSet) ([]factbase.Candidate, error) {
	s.mu.Lock()
	s.maxSeq, s.seqs, s.kinds, s.vecs = 0, nil, nil, nil
	s.resize()
	s.mu.Unlock()
	tmp := &vecSet{}
	if err := t.refresh(ctx, tmp, vecKey{user: t.user, model: q.Model, dim: len(q.Vector)}); err != nil {
		return nil, err
	}
	return t.rankVectors(ctx, q, tmp.seqs, tmp.kinds, tmp.vecs)
}

// rankVectors scores every entry of q.Kind and resolves the best ones against the
// snapshot and q.Filter, widening the window until q.Limit pass or none are left.
func (t *tx) rankVectors(ctx context.Context, q factbase.VectorQuery, seqs []int64, kinds []byte, vecs []float32) ([]factbase.Candidate, error) {
	want := byte('f')
	if q.Kind == factbase.KindEpisode {
		want = 'e'
	}
	dim := len(q.Vector)
	scores := make([]float32, len(seqs))
	n := 0
	for i := range seqs {
		if kinds[i] != want {
			scores[i] = float32NaN
			continue
		}
		scores[i] = search.Dot(q.Vector, vecs[i*dim:(i+1)*dim])
		n++
	}
	var out []factbase.Candidate
	window, done := max(2*q.Limit, 64), 0
	for done < n && len(out) < q.Limit {
		top := search.TopK(scores, done+window)
		batch := top[done:]
		done = len(top)
		found, err := t.resolveVectors(ctx, q, seqs, scores, batch)
		if err != nil {
			return nil, err
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
	var (
		w   where
		sql string
	)
	list := w.arg(ids)
	if q.Kind == factbase.KindFact {
		t.factWhere(&w, q.Filter)
		sql = "SELECT m.seq, f.id, f.valid_from, f.subject, f.confidence FROM embeddings m " +
			"JOIN facts f ON f.seq = m.item " +
			"WHERE m.seq = ANY(" + list + "::bigint[]) AND m.u = f.u AND m.kind = 'fact' AND " + w.String()
	} else {
		t.episodeWhere(&w, factbase.EpisodeFilter{Tags: q.Filter.Tags, From: q.Filter.From, To: q.Filter.To})
		sql = "SELECT m.seq, e.id, e.created_at, '', e.importance FROM embeddings m " +
			"JOIN episodes e ON e.seq = m.item " +
			"WHERE m.seq = ANY(" + list + "::bigint[]) AND m.u = e.u AND m.kind = 'episode' AND " + w.String()
	}
	rows, err := t.q.Query(ctx, sql, w.args...)
	if err != nil {
		return nil, mapErr("vector search", err)
	}
	defer rows.Close()
	found := make(map[int64]factbase.Candidate, len(batch))
	for rows.Next() {
		var (
			seq, at int64
			c       = factbase.Candidate{Kind: q.Kind}
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
