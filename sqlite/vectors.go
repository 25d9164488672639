package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/search"
	_ "modernc.org/sqlite/vec" // sqlite-vec's vec0 module, on every connection
)

// Vectors live in sqlite-vec vec0 tables; k-NN runs in vec0 for a user's small sets
// and in Go for large ones.
//
// Storage. Each vector is a row of vec_<dim> (one vec0 table per dimension, created
// on demand; see migrations/0008_vec0.sql), partitioned by user and kind, rowid =
// embeddings.seq; the embeddings side table records the item, model and dimension.
// Both are written in the write transaction of the fact or episode, and a trigger
// per vec_<dim> deletes the vector with its embeddings row, so retract, erase,
// episode delete and re-embed remove it in the same transaction. A zero vector (a
// text without a known word) gets its embeddings row but no vec0 row: it is similar
// to nothing, and under vec0's L2 distance it would rank above unrelated vectors.
//
// Ranking. modernc.org/sqlite/vec is sqlite-vec v0.1.9 transpiled to Go. Its k-NN is
// a brute-force scan of the partition whose per-chunk top-k selection is O(chunk × k)
// (min_idx), and its distance loops are scalar: measured in one process on this
// shared 2-core machine (see /work/notes/vec.md), a k=50 k-NN over one user's
// 100-dimension vectors costs about 0.7 ms of CPU for 2,000, 2.5 ms for 5,000, 11 ms
// for 20,000 and 20-35 ms at k=10 for 100,000 (float32; int8 is no faster), where
// the Go ranking below takes about 1-2 ms for 100,000. The target is a whole hybrid
// search over 100,000 facts of one user in under 20 ms at the 95th percentile, so:
//   - a user with at most vecKNNMax vectors of the kind and dimension asked is
//     ranked by vec0's k-NN (float32, L2, which orders unit vectors as cosine does),
//     re-scored in Go by the exact dot product of the vectors vec0 returns; nothing
//     of that user is kept in memory;
//   - a larger user is ranked in Go over an in-memory copy of the user's vectors,
//     read from vec0, with a sign-bit prefilter and exact dot products.
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

// vecKNNMax is the most vectors of one user, kind and dimension that vec0's k-NN
// ranks; above it the in-memory ranking does. It is at most vec0's largest k (4096),
// so a widening k-NN can always cover the whole set. A variable for tests.
var vecKNNMax = 4096

// vecChunk is the vec0 chunk size: the slots a partition (one user's facts or
// episodes) allocates at a time. vec0's default of 1,024 costs 400 KB of file per
// user and kind at 100 dimensions however few vectors they hold (200 users with 5
// facts each and one with 4,000: 85 MB); 64 costs 7 MB for the same, with the same
// k-NN time over 4,000 vectors (2.5 against 2.9 ms) and no slower inserts.
const vecChunk = 64

// vecMaxDim is vec0's largest dimension.
const vecMaxDim = 8192

// vecTable names the vec0 table of vectors of dim.
func vecTable(dim int) string { return fmt.Sprintf("vec_%d", dim) }

// execQuerier is what ensureVecTable needs of a transaction.
type execQuerier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// ensureVecTable creates vec_<dim> and its delete trigger unless they exist.
func ensureVecTable(ctx context.Context, q execQuerier, dim int) error {
	_, err := ensureVecTableExisted(ctx, q, dim)
	return err
}

// ensureVecTableExisted is ensureVecTable, reporting whether the table was there
// before (and so does not depend on the caller's transaction committing).
func ensureVecTableExisted(ctx context.Context, q execQuerier, dim int) (bool, error) {
	if dim <= 0 || dim > vecMaxDim {
		return false, factbase.Errorf(factbase.EINVALID, "vector dimension %d is outside 1..%d, the range sqlite-vec stores", dim, vecMaxDim)
	}
	name := vecTable(dim)
	var n int
	if err := q.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", name).Scan(&n); err != nil {
		return false, mapErr("vector table", err)
	}
	if n > 0 {
		return true, nil
	}
	ddl := []string{
		fmt.Sprintf("CREATE VIRTUAL TABLE %s USING vec0(user_id integer partition key, kind text partition key, embedding float[%d], chunk_size=%d)", name, dim, vecChunk),
		fmt.Sprintf("CREATE TRIGGER %s_delete AFTER DELETE ON embeddings WHEN OLD.dim = %d BEGIN DELETE FROM %s WHERE rowid = OLD.seq; END", name, dim, name),
		vecChunkIndex(name),
	}
	for _, d := range ddl {
		if _, err := q.ExecContext(ctx, d); err != nil {
			return false, mapErr("vector table", err)
		}
	}
	return false, nil
}

// migrateVec0 runs after migrations/0008_vec0.sql in its transaction: it copies the
// vectors stored in embeddings.vec into vec_<dim> tables and drops the column.
func migrateVec0(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, "SELECT DISTINCT dim FROM embeddings ORDER BY dim")
	if err != nil {
		return mapErr("migrate vectors", err)
	}
	var dims []int
	for rows.Next() {
		var d int
		if err := rows.Scan(&d); err != nil {
			rows.Close()
			return mapErr("migrate vectors", err)
		}
		dims = append(dims, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return mapErr("migrate vectors", err)
	}
	for _, d := range dims {
		if d > vecMaxDim {
			return factbase.Errorf(factbase.EINVALID, "migrate vectors: stored vectors have %d dimensions, more than sqlite-vec's %d", d, vecMaxDim)
		}
		if err := ensureVecTable(ctx, tx, d); err != nil {
			return err
		}
		copyVecs := fmt.Sprintf(`INSERT INTO %s (rowid, user_id, kind, embedding)
			SELECT seq, u, kind, vec FROM embeddings WHERE dim = ?1 AND length(vec) = 4 * ?1 AND vec <> zeroblob(4 * ?1)
			ORDER BY u, seq`, vecTable(d))
		if _, err := tx.ExecContext(ctx, copyVecs, d); err != nil {
			return mapErr("migrate vectors", err)
		}
	}
	// A vector of the wrong length was never ranked; its row goes, so that re-embed
	// writes it anew.
	if _, err := tx.ExecContext(ctx, "DELETE FROM embeddings WHERE length(vec) <> 4 * dim"); err != nil {
		return mapErr("migrate vectors", err)
	}
	if _, err := tx.ExecContext(ctx, "ALTER TABLE embeddings DROP COLUMN vec"); err != nil {
		return mapErr("migrate vectors", err)
	}
	return nil
}

// vecChunkIndex is the statement that indexes the chunks of the vec0 table name by
// their partition columns (user, kind): sqlite-vec looks up the newest chunk of a
// partition for every vector it writes, and would otherwise scan every chunk (see
// migrations/0015_vec_chunk_index.sql).
func vecChunkIndex(name string) string {
	return fmt.Sprintf("CREATE INDEX IF NOT EXISTS %[1]s_chunks_partition ON %[1]s_chunks (partition00, partition01)", name)
}

// vecChunkIndexes runs after migrations/0015_vec_chunk_index.sql: it indexes the
// chunks of every vec_<dim> table made before.
func vecChunkIndexes(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table'
		AND name GLOB 'vec_[0-9]*' AND name NOT GLOB 'vec_*_*' AND sql LIKE 'CREATE VIRTUAL TABLE%'`)
	if err != nil {
		return mapErr("index vector chunks", err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return mapErr("index vector chunks", err)
		}
		names = append(names, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return mapErr("index vector chunks", err)
	}
	for _, n := range names {
		if _, err := tx.ExecContext(ctx, vecChunkIndex(n)); err != nil {
			return mapErr("index vector chunks", err)
		}
	}
	return nil
}

// migrationSteps are Go steps that run after a migration file, in its transaction.
var migrationSteps = map[string]func(context.Context, *sql.Tx) error{
	"migrations/0008_vec0.sql":            migrateVec0,
	"migrations/0015_vec_chunk_index.sql": vecChunkIndexes,
}

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
	if s.maxSeq == 0 {
		loaded, err := t.loadChunks(ctx, s, k)
		if err != nil || loaded {
			s.resize()
			return err
		}
	}
	rows, err := t.query(ctx, vecDelta(k.dim), t.u, s.maxSeq)
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
			continue // another model or dimension, or a zero vector (no vec0 row)
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
	if len(q.Vector) > vecMaxDim {
		return nil, factbase.Errorf(factbase.EINVALID, "query vector has %d dimensions, more than sqlite-vec's %d", len(q.Vector), vecMaxDim)
	}
	var n int
	if err := t.queryRow(ctx, qVecCount, t.u, q.Kind, len(q.Vector)).Scan(&n); err != nil {
		return nil, mapErr("vector count", err)
	}
	if n == 0 {
		return nil, nil
	}
	if n <= vecKNNMax {
		return t.knnCandidates(ctx, q, n)
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

// vecDelta is the refresh query of the in-memory copy of vectors of dim: the user's
// embeddings rows after a seq, each with its vector from vec_<dim> (NULL for another
// dimension or a zero vector, so that the copy's maxSeq passes those rows too).
func vecDelta(dim int) string {
	return fmt.Sprintf(`SELECT m.seq, m.kind, m.model, m.dim, v.embedding FROM embeddings m
		LEFT JOIN %s v ON m.dim = %d AND v.rowid = m.seq
		WHERE m.u = ? AND m.seq > ? ORDER BY m.seq`, vecTable(dim), dim)
}

// vecLayout is the sqlite-vec version whose shadow tables loadChunks reads (a
// variable for tests).
var vecLayout = "v0.1.9"

// loadChunks fills the empty copy s from vec0's shadow tables: vec_<dim>_chunks
// (per chunk of the partition: its capacity, a validity bitmap and the rowid of
// each slot) and vec_<dim>_vector_chunks00 (the chunk's vectors, contiguous
// float32s). A vec0 read by rowid costs about 25-90 µs a vector here, which made
// the first search of a 100,000-vector user take a minute; the chunks take tens of
// milliseconds. It reads only tables written by the sqlite-vec version it knows
// (vec_<dim>_info) and reports false otherwise, leaving s to the row-by-row read.
func (t *tx) loadChunks(ctx context.Context, s *vecSet, k vecKey) (bool, error) {
	name := vecTable(k.dim)
	var version string
	err := t.queryRow(ctx, "SELECT value FROM "+name+"_info WHERE key = 'CREATE_VERSION'").Scan(&version)
	if err != nil || version != vecLayout {
		return false, nil // no table yet, or a layout this code does not know
	}
	var maxSeq sql.NullInt64
	if err := t.queryRow(ctx, "SELECT max(seq) FROM embeddings WHERE u = ?", t.u).Scan(&maxSeq); err != nil {
		return false, mapErr("vectors", err)
	}
	rows, err := t.query(ctx, "SELECT seq, kind FROM embeddings WHERE u = ? AND dim = ? AND model = ?", t.u, k.dim, k.model)
	if err != nil {
		return false, mapErr("vectors", err)
	}
	kinds := map[int64]byte{}
	for rows.Next() {
		var (
			seq  int64
			kind string
		)
		if err := rows.Scan(&seq, &kind); err != nil {
			rows.Close()
			return false, mapErr("vectors", err)
		}
		kinds[seq] = kind[0]
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, mapErr("vectors", err)
	}
	rows, err = t.query(ctx, "SELECT c.size, c.validity, c.rowids, x.vectors FROM "+name+"_chunks c JOIN "+name+
		"_vector_chunks00 x ON x.rowid = c.chunk_id WHERE c.partition00 = ? ORDER BY c.chunk_id", t.u)
	if err != nil {
		return false, mapErr("vectors", err)
	}
	defer rows.Close()
	width := 4 * k.dim
	for rows.Next() {
		var (
			size                   int
			validity, ids, vectors []byte
		)
		if err := rows.Scan(&size, &validity, &ids, &vectors); err != nil {
			return false, mapErr("vectors", err)
		}
		if len(validity)*8 < size || len(ids) < 8*size || len(vectors) < width*size {
			return false, factbase.Errorf(factbase.EINTERNAL, "sqlite: %s_chunks: a chunk of %d slots holds %d validity bytes, %d rowid bytes and %d vector bytes",
				name, size, len(validity), len(ids), len(vectors))
		}
		for i := range size {
			if validity[i/8]&(1<<(i%8)) == 0 {
				continue
			}
			seq := int64(binary.LittleEndian.Uint64(ids[8*i:]))
			kind, ok := kinds[seq]
			if !ok {
				continue
			}
			s.seqs = append(s.seqs, seq)
			s.kinds = append(s.kinds, kind)
			s.vecs = decodeVec(s.vecs, vectors[width*i:width*(i+1)])
			s.signs = appendSigns(s.signs, s.vecs[len(s.vecs)-k.dim:])
		}
	}
	if err := rows.Err(); err != nil {
		return false, mapErr("vectors", err)
	}
	s.maxSeq = maxSeq.Int64
	return true, nil
}

// knnCandidates ranks the user's n vectors of q.Kind and dimension with vec0's
// k-NN, widening k until q.Limit candidates pass the filter or k covers all n. The
// vectors vec0 returns are re-scored by their exact dot product with the query.
func (t *tx) knnCandidates(ctx context.Context, q factbase.VectorQuery, n int) ([]factbase.Candidate, error) {
	knn := fmt.Sprintf("SELECT rowid, embedding FROM %s WHERE embedding MATCH ? AND k = ? AND user_id = ? AND kind = ?", vecTable(len(q.Vector)))
	query := encodeVec(q.Vector)
	var (
		out  []factbase.Candidate
		seen = map[int64]bool{}
		buf  []float32
	)
	for k := min(n, max(q.Limit, 16)); ; k = min(n, 4*k) {
		rows, err := t.query(ctx, knn, query, k, t.u, q.Kind)
		if err != nil {
			return nil, mapErr("vector search", err)
		}
		var (
			seqs   []int64
			scores []float32
		)
		for rows.Next() {
			var (
				seq  int64
				blob []byte
			)
			if err := rows.Scan(&seq, &blob); err != nil {
				rows.Close()
				return nil, mapErr("vector search", err)
			}
			if seen[seq] || len(blob) != 4*len(q.Vector) {
				continue
			}
			seen[seq] = true
			buf = decodeVec(buf[:0], blob)
			seqs, scores = append(seqs, seq), append(scores, search.Dot(q.Vector, buf))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, mapErr("vector search", err)
		}
		batch := make([]int, len(seqs))
		for i := range batch {
			batch[i] = i
		}
		slices.SortStableFunc(batch, func(a, b int) int { return -cmpFloat32(scores[a], scores[b]) })
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
		if len(out) >= q.Limit || k >= n {
			return out, nil
		}
	}
}

func cmpFloat32(a, b float32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
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
	args := []any{string(list), t.u, q.Model}
	if q.Kind == factbase.KindFact {
		where, wargs := t.factWhere(q.Filter)
		sqlText = "SELECT m.seq, f.id, f.valid_from, f.subject, f.confidence FROM json_each(?) j " +
			"CROSS JOIN embeddings m ON m.seq = j.value CROSS JOIN facts f ON f.seq = m.item " +
			"WHERE m.u = ? AND m.kind = 'fact' AND m.model = ? AND " + strings.Join(where, " AND ")
		args = append(args, wargs...)
	} else {
		where, wargs := t.episodeSearchWhere(q.Filter)
		sqlText = "SELECT m.seq, e.id, e.created_at, '', e.importance FROM json_each(?) j " +
			"CROSS JOIN embeddings m ON m.seq = j.value CROSS JOIN episodes e ON e.seq = m.item " +
			"WHERE m.u = ? AND m.kind = 'episode' AND m.model = ? AND " + where
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
