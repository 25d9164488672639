package sqlite

import (
	"context"

	"github.com/factbase/factbase"
)

// PutVectors of many vectors (a batch of ingested facts, an import) writes them in
// chunks of bulkRows with five statements a chunk, where one vector at a time takes
// four statements a vector: the items' rows looked up, their earlier vectors
// deleted, the embeddings rows inserted (returning their seqs), and the vectors
// inserted into vec_<dim>, a statement per dimension. The rows and their order are
// those one vector at a time writes: an item named twice keeps its last vector, at
// the place of its last mention.

// The statements of the bulk vector put for n vectors; those of bulkRows vectors are
// prepared at open (transcript.go's bulkQuery picks them).
func qVecItemsN(n int) string {
	return `WITH k (i, kind, id) AS (VALUES ` + valuesRows(n, 3) + `)
		SELECT k.i, CASE k.kind WHEN 'fact' THEN (SELECT f.seq FROM facts f WHERE f.u = ? AND f.id = k.id)
			ELSE (SELECT e.seq FROM episodes e WHERE e.u = ? AND e.id = k.id) END FROM k`
}

func qVecDeleteN(n int) string {
	return `DELETE FROM embeddings WHERE (kind, item) IN (VALUES ` + valuesRows(n, 2) + `)`
}

func qVecInsertN(n int) string {
	return `INSERT INTO embeddings (u, kind, item, model, dim) VALUES ` + valuesRows(n, 5) + ` RETURNING seq, kind, item`
}

func qVecRowsN(dim, n int) string {
	return "INSERT INTO " + vecTable(dim) + " (rowid, user_id, kind, embedding) VALUES " + valuesRows(n, 4)
}

var (
	qVecItemsBulk  = qVecItemsN(bulkRows)
	qVecDeleteBulk = qVecDeleteN(bulkRows)
	qVecInsertBulk = qVecInsertN(bulkRows)

	vectorBulkQueries = []string{qVecItemsBulk, qVecDeleteBulk, qVecInsertBulk}
)

// vecItem is a kind and an item's seq.
type vecItem struct {
	kind string
	seq  int64
}

// putVectorsBulk is PutVectors for more than one vector.
func (t *tx) putVectorsBulk(ctx context.Context, vs []factbase.Vector) error {
	type ref struct{ kind, id string }
	last := make(map[ref]int, len(vs))
	for i, v := range vs {
		if err := v.Validate(); err != nil {
			return err
		}
		if len(v.Vec) > vecMaxDim {
			return factbase.Errorf(factbase.EINVALID, "vector of %s %s has %d dimensions, more than sqlite-vec's %d", v.Kind, v.ID, len(v.Vec), vecMaxDim)
		}
		last[ref{v.Kind, v.ID}] = i
	}
	order := make([]factbase.Vector, 0, len(last))
	for i, v := range vs {
		if last[ref{v.Kind, v.ID}] == i {
			order = append(order, v)
		}
	}
	for len(order) > 0 {
		n := min(len(order), bulkRows)
		if err := t.putVectorChunk(ctx, order[:n]); err != nil {
			return mapErr("put vector", err)
		}
		order = order[n:]
	}
	return nil
}

// putVectorChunk writes at most bulkRows vectors of distinct items.
func (t *tx) putVectorChunk(ctx context.Context, vs []factbase.Vector) error {
	// The items' rows; an item the user does not have is skipped.
	args := make([]any, 0, 5*len(vs))
	for i, v := range vs {
		args = append(args, i, v.Kind, v.ID)
	}
	rows, err := t.query(ctx, bulkQuery(len(vs), qVecItemsBulk, qVecItemsN), append(args, t.u, t.u)...)
	if err != nil {
		return err
	}
	seqs := make([]int64, len(vs))
	for rows.Next() {
		var (
			i   int
			seq *int64
		)
		if err := rows.Scan(&i, &seq); err != nil {
			rows.Close()
			return err
		}
		if seq != nil && i >= 0 && i < len(vs) {
			seqs[i] = *seq
		}
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return err
	}
	rows.Close()
	found := make([]factbase.Vector, 0, len(vs))
	items := make([]int64, 0, len(vs))
	for i, v := range vs {
		if seqs[i] != 0 {
			found, items = append(found, v), append(items, seqs[i])
		}
	}
	if len(found) == 0 {
		return nil
	}

	// Their earlier vectors go (the vec_<dim> rows with them, by trigger), then the
	// new embeddings rows come, in order.
	args = make([]any, 0, 5*len(found))
	for i, v := range found {
		args = append(args, v.Kind, items[i])
	}
	if _, err := t.exec(ctx, bulkQuery(len(found), qVecDeleteBulk, qVecDeleteN), args...); err != nil {
		return err
	}
	args = args[:0]
	for i, v := range found {
		args = append(args, t.u, v.Kind, items[i], v.Model, len(v.Vec))
	}
	rows, err = t.query(ctx, bulkQuery(len(found), qVecInsertBulk, qVecInsertN), args...)
	if err != nil {
		return err
	}
	rowids := make(map[vecItem]int64, len(found))
	for rows.Next() {
		var (
			seq, item int64
			kind      string
		)
		if err := rows.Scan(&seq, &kind, &item); err != nil {
			rows.Close()
			return err
		}
		rowids[vecItem{kind, item}] = seq
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return err
	}
	rows.Close()

	// The vectors, a statement per dimension; a zero vector has its embeddings row
	// but no vec0 row (see vectors.go).
	var (
		dims  []int
		byDim = map[int][]int{}
		seen  = map[int]bool{}
	)
	for i, v := range found {
		d := len(v.Vec)
		if !seen[d] {
			seen[d] = true
			dims = append(dims, d)
			if err := t.ensureVecTableCached(ctx, d); err != nil {
				return err
			}
		}
		if !isZero(v.Vec) {
			byDim[d] = append(byDim[d], i)
		}
	}
	for _, d := range dims {
		idx := byDim[d]
		if len(idx) == 0 {
			continue
		}
		args = args[:0]
		for _, i := range idx {
			v := found[i]
			seq, ok := rowids[vecItem{v.Kind, items[i]}]
			if !ok {
				return factbase.Errorf(factbase.EINTERNAL, "put vector: no embeddings row returned for %s %s", v.Kind, v.ID)
			}
			args = append(args, seq, t.u, v.Kind, encodeVec(v.Vec))
			if t.vecPuts == nil {
				t.vecPuts = map[vecPut]int{}
			}
			t.vecPuts[vecPut{v.Model, d}]++
		}
		if _, err := t.exec(ctx, qVecRowsN(d, len(idx)), args...); err != nil {
			return err
		}
	}
	return nil
}

// ensureVecTableCached is ensureVecTable for the transaction, remembering the tables
// a committed transaction made (see PutVectors).
func (t *tx) ensureVecTableCached(ctx context.Context, dim int) error {
	if _, known := t.cache.vecTables.Load(dim); known {
		return nil
	}
	existed, err := ensureVecTableExisted(ctx, t.q, dim)
	if err != nil {
		return err
	}
	if existed {
		t.cache.vecTables.Store(dim, true)
	}
	return nil
}
