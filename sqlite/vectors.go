package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"weak"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/vecindex"
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
// (min_idx), with scalar distance loops: cheap for a few thousand vectors, but over
// one user's 100,000 it alone takes longer than the 20 ms a whole hybrid search may
// take at the 95th percentile, where the Go ranking over a copy in memory takes a
// few milliseconds. So:
//   - a user with at most vecKNNMax vectors of the kind and dimension asked is
//     ranked by vec0's k-NN (float32, L2, which orders unit vectors as cosine does),
//     re-scored in Go by the exact dot product of the vectors vec0 returns; nothing
//     of that user is kept in memory;
//   - a larger user is ranked by internal/vecindex over an in-memory copy of the
//     user's vectors, read from vec0 (vecSource): codes of each vector (sign bits,
//     int8, a 4-bit residual; 179 bytes at 100 dimensions against 400 for the
//     float32s), ranked by a sign-bit prefilter, int8 scores, and the residual for
//     the best. The copy is kept correct as that package describes:
//     embeddings.seq only grows (AUTOINCREMENT) and writes are serialised, so a
//     reader finds every newer vector, from any process, with one index range read
//     in its own snapshot; every candidate is joined back to its embeddings row and
//     its fact or episode in the reader's snapshot (resolveVectors); and the
//     database counts deletions per user (embedding_deletes).

// vecKNNMax is the most vectors of one user, kind and dimension that vec0's k-NN
// ranks; above it the in-memory ranking does. It is at most vec0's largest k (4096),
// so a widening k-NN can always cover the whole set. A variable for tests.
var vecKNNMax = 4096

// vecChunk is the vec0 chunk size: the slots a partition (one user's facts or
// episodes) allocates at a time. vec0's default of 1,024 costs 400 KB of file per
// user and kind at 100 dimensions however few vectors they hold; 64 wastes a
// sixteenth of that, with the same k-NN time and no slower inserts
// (BenchmarkVec0Options).
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
	dims, err := column(ctx, tx, "migrate vectors", "SELECT DISTINCT dim FROM embeddings ORDER BY dim", rowcodec.Int64)
	if err != nil {
		return err
	}
	for _, d64 := range dims {
		d := int(d64)
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
	names, err := column(ctx, tx, "index vector chunks", `SELECT name FROM sqlite_master WHERE type = 'table'
		AND name GLOB 'vec_[0-9]*' AND name NOT GLOB 'vec_*_*' AND sql LIKE 'CREATE VIRTUAL TABLE%'`, rowcodec.String)
	if err != nil {
		return err
	}
	for _, n := range names {
		if _, err := tx.ExecContext(ctx, vecChunkIndex(n)); err != nil {
			return mapErr("index vector chunks", err)
		}
	}
	return nil
}

// column reads every row of the one column q selects in tx, for a migration step;
// its error is mapped naming op.
func column[T any](ctx context.Context, tx *sql.Tx, op, q string, scan func(rowcodec.Scanner) (T, error)) ([]T, error) {
	rows, err := tx.QueryContext(ctx, q)
	if err != nil {
		return nil, mapErr(op, err)
	}
	all, err := rowcodec.All(rows, scan)
	return all, mapErr(op, err)
}

// migrationSteps are Go steps that run after a migration file, in its transaction.
var migrationSteps = map[string]func(context.Context, *sql.Tx) error{
	"migrations/0008_vec0.sql":            migrateVec0,
	"migrations/0015_vec_chunk_index.sql": vecChunkIndexes,
}

// vecCaches maps each statement cache (one per connection pool of a Store) to the
// vector index of that pool. It is keyed weakly, so a closed and unreferenced
// Store's vectors are freed with it; the Store needs no field for it.
var vecCaches sync.Map // weak.Pointer[stmtCache] -> *vecindex.Index

// vecCacheFor returns the vector index of the connection pool of sc. Its copies
// keep codes, unless sc ranks exactly: they keep the ranking of a 1,000,000-vector
// user cheap and its copy under 200 MB.
func vecCacheFor(sc *stmtCache) *vecindex.Index {
	key := weak.Make(sc)
	if c, ok := vecCaches.Load(key); ok {
		return c.(*vecindex.Index)
	}
	c, loaded := vecCaches.LoadOrStore(key, vecindex.New(vecindex.Options{Quantize: !sc.exactVectors}))
	if !loaded {
		runtime.AddCleanup(sc, func(k weak.Pointer[stmtCache]) { vecCaches.Delete(k) }, key)
	}
	return c.(*vecindex.Index)
}

// VectorMemory returns what the in-memory copies of large users' vectors hold
// (vectors.go): their bytes, at most vecindex.DefaultMaxBytes for the copies of the
// readers and as much for those of the writer, and how many vectors they hold.
func (s *Store) VectorMemory() (bytes int64, vectors int) {
	for _, sc := range []*stmtCache{s.rstmts, s.wstmts} {
		b, v := vecCacheFor(sc).Bytes()
		bytes, vectors = bytes+b, vectors+v
	}
	return bytes, vectors
}

// vecSource reads the transaction's user's vectors for the index.
type vecSource struct {
	t     *tx
	model string
	dim   int
}

var _ vecindex.Source = vecSource{}

// Deletes returns the user's count of deleted vectors (embedding_deletes).
func (v vecSource) Deletes(ctx context.Context) (int64, error) {
	var deleted int64
	if err := v.t.queryRow(ctx, qVecDeletes, v.t.u).Scan(&deleted); err != nil {
		return 0, mapErr("vector deletes", err)
	}
	return deleted, nil
}

// Size returns how many of the user's items have a vector of the model and
// dimension (zero vectors included).
func (v vecSource) Size(ctx context.Context, model string, dim int) (int, error) {
	var n int
	err := v.t.queryRow(ctx, qVecSize, v.t.u, dim, model).Scan(&n)
	return n, mapErr("vector count", err)
}

// Load reads the user's vectors after a seq: from vec0's chunks for an empty copy
// or a large delta (manyAfter), where it can, and otherwise row by row.
func (v vecSource) Load(ctx context.Context, after int64, add vecindex.AddFunc) (int64, error) {
	if after == 0 || v.manyAfter(ctx, after) {
		through, ok, err := v.t.loadChunks(ctx, v.model, v.dim, after, add)
		if err != nil || ok {
			return through, err
		}
	}
	rows, err := v.t.query(ctx, vecDelta(v.dim), v.t.u, after)
	if err != nil {
		return 0, mapErr("vectors", err)
	}
	defer rows.Close()
	through := after
	var buf []float32
	for rows.Next() {
		var (
			seq       int64
			kind, mdl string
			dim       int
			blob      []byte
		)
		if err := rows.Scan(&seq, &kind, &mdl, &dim, &blob); err != nil {
			return 0, mapErr("vectors", err)
		}
		through = max(through, seq)
		buf = buf[:0]
		if dim == v.dim && len(blob) == 4*dim {
			buf = decodeVec(buf, blob)
		} // else another dimension, or a zero vector (no vec0 row): add skips it
		add(seq, kind, mdl, buf)
	}
	return through, mapErr("vectors", rows.Err())
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
	src := vecSource{t: t, model: q.Model, dim: len(q.Vector)}
	iq := vecindex.Query{User: strconv.FormatInt(t.u, 10), Model: q.Model, Kind: q.Kind, Vector: q.Vector, Limit: q.Limit}
	return vecCacheFor(t.cache).Collect(ctx, src, iq, func(hits []vecindex.Hit) ([]factbase.Candidate, error) {
		return t.resolveVectors(ctx, q, hits)
	})
}

// VectorModels counts the user's vectors per model and dimension, from the counts
// the triggers on embeddings keep (migrations/0021_embedding_models.sql).
func (t *tx) VectorModels(ctx context.Context) ([]factbase.VectorModel, error) {
	if t.u == 0 {
		return nil, nil
	}
	rows, err := t.query(ctx, qVecModels, t.u)
	if err != nil {
		return nil, mapErr("vector models", err)
	}
	defer rows.Close()
	out, err := vecindex.Models(rows)
	return out, mapErr("vector models", err)
}

// vecChunkDelta is the fewest new vectors manyAfter reads from vec0's chunks (a
// variable for tests).
var vecChunkDelta = 1024

// manyAfter reports whether the user has so many vectors after seq that reading all
// of vec0's chunks of the user costs less than reading the new ones row by row: a
// row costs a vec0 look-up (about 16 µs at 100,000 vectors, five times a vector
// read from the chunks), so more than vecChunkDelta new vectors and more than a
// quarter of the user's. A copy made before a load of 90,000 memories took 1.5 s to
// catch up row by row.
func (v vecSource) manyAfter(ctx context.Context, after int64) bool {
	var total int
	if err := v.t.queryRow(ctx, qVecDimCount, v.t.u, v.dim).Scan(&total); err != nil {
		return false
	}
	limit := max(vecChunkDelta, total/4)
	// A literal limit of few values (see stmtCache): a power of two.
	limit = 1 << bits.Len(uint(limit))
	var n int
	q := "SELECT count(*) FROM (SELECT 1 FROM embeddings WHERE u = ? AND seq > ? LIMIT " + strconv.Itoa(limit+1) + ")"
	if err := v.t.queryRow(ctx, q, v.t.u, after).Scan(&n); err != nil {
		return false
	}
	return n > limit
}

// vecDelta is the refresh query of the in-memory copy of vectors of dim: the user's
// embeddings rows after a seq, each with its vector from vec_<dim> (NULL for another
// dimension or a zero vector, so that the copy moves past those rows too).
func vecDelta(dim int) string {
	return fmt.Sprintf(`SELECT m.seq, m.kind, m.model, m.dim, v.embedding FROM embeddings m
		LEFT JOIN %s v ON m.dim = %d AND v.rowid = m.seq
		WHERE m.u = ? AND m.seq > ? ORDER BY m.seq`, vecTable(dim), dim)
}

// vecLayout is the sqlite-vec version whose shadow tables loadChunks reads (a
// variable for tests).
var vecLayout = "v0.1.9"

// loadChunks passes to add the user's vectors of model and dim with a seq after
// after from vec0's shadow tables: vec_<dim>_chunks (per chunk of the partition: its
// capacity, a validity bitmap and the rowid of each slot) and
// vec_<dim>_vector_chunks00 (the chunk's vectors, contiguous float32s), and returns
// the user's greatest embeddings seq.
// Reading vec0 row by row made the first search of a 100,000-vector user take a
// minute; the chunks take tens of milliseconds. It reads only tables written by the
// sqlite-vec version it knows (vec_<dim>_info) and reports false otherwise, leaving
// the vectors to the row-by-row read.
func (t *tx) loadChunks(ctx context.Context, model string, dim int, after int64, add vecindex.AddFunc) (int64, bool, error) {
	name := vecTable(dim)
	var version string
	err := t.queryRow(ctx, "SELECT value FROM "+name+"_info WHERE key = 'CREATE_VERSION'").Scan(&version)
	if err != nil || version != vecLayout {
		return 0, false, nil // no table yet, or a layout this code does not know
	}
	var maxSeq sql.NullInt64
	if err := t.queryRow(ctx, "SELECT max(seq) FROM embeddings WHERE u = ?", t.u).Scan(&maxSeq); err != nil {
		return 0, false, mapErr("vectors", err)
	}
	// A chunk's partition says a vector's kind, and a valid slot that its
	// embeddings row is there (the trigger deletes both in one transaction); only
	// the model is not in vec0: the user's vectors of this dimension made by
	// another model (a re-embed under way) are read first, to be left out.
	var nOthers int
	if err := t.queryRow(ctx, "SELECT coalesce(sum(n), 0) FROM embedding_counts WHERE u = ? AND dim = ? AND model <> ?", t.u, dim, model).Scan(&nOthers); err != nil {
		return 0, false, mapErr("vectors", err)
	}
	var others []int64
	if nOthers > 0 {
		rows, err := t.query(ctx, "SELECT seq FROM embeddings WHERE u = ? AND seq > ? AND dim = ? AND model <> ?", t.u, after, dim, model)
		if err != nil {
			return 0, false, mapErr("vectors", err)
		}
		if others, err = rowcodec.All(rows, rowcodec.Int64); err != nil {
			return 0, false, mapErr("vectors", err)
		}
		slices.Sort(others)
	}
	rows, err := t.query(ctx, "SELECT c.partition01, c.size, c.validity, c.rowids, x.vectors FROM "+name+"_chunks c JOIN "+name+
		"_vector_chunks00 x ON x.rowid = c.chunk_id WHERE c.partition00 = ?", t.u)
	if err != nil {
		return 0, false, mapErr("vectors", err)
	}
	defer rows.Close()
	width := 4 * dim
	var buf []float32
	for rows.Next() {
		var (
			kind                   string
			size                   int
			validity, ids, vectors []byte
		)
		if err := rows.Scan(&kind, &size, &validity, &ids, &vectors); err != nil {
			return 0, false, mapErr("vectors", err)
		}
		if len(validity)*8 < size || len(ids) < 8*size || len(vectors) < width*size {
			return 0, false, factbase.Errorf(factbase.EINTERNAL, "sqlite: %s_chunks: a chunk of %d slots holds %d validity bytes, %d rowid bytes and %d vector bytes",
				name, size, len(validity), len(ids), len(vectors))
		}
		for i := range size {
			if validity[i/8]&(1<<(i%8)) == 0 {
				continue
			}
			seq := int64(binary.LittleEndian.Uint64(ids[8*i:]))
			if _, other := slices.BinarySearch(others, seq); seq <= after || other {
				continue
			}
			buf = decodeVec(buf[:0], vectors[width*i:width*(i+1)])
			add(seq, kind, model, buf)
		}
	}
	if err := rows.Err(); err != nil {
		return 0, false, mapErr("vectors", err)
	}
	return maxSeq.Int64, true, nil
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
		var hits []vecindex.Hit
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
			hits = append(hits, vecindex.Hit{Seq: seq, Score: search.Dot(q.Vector, buf)})
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, mapErr("vector search", err)
		}
		slices.SortStableFunc(hits, func(a, b vecindex.Hit) int { return cmp.Compare(b.Score, a.Score) })
		found, err := t.resolveVectors(ctx, q, hits)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
		if len(out) >= q.Limit || k >= n {
			return vecindex.Top(out, q.Limit), nil
		}
	}
}

// resolveVectors joins hits (best first, sent as a JSON array) to their embeddings
// rows and items in the snapshot, keeping those q.Filter passes, in the order of hits.
func (t *tx) resolveVectors(ctx context.Context, q factbase.VectorQuery, hits []vecindex.Hit) ([]factbase.Candidate, error) {
	if len(hits) == 0 {
		return nil, nil
	}
	ids := vecindex.Seqs(hits)
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
	out, err := vecindex.Candidates(q.Kind, hits, rows)
	return out, mapErr("vector search", err)
}
