package postgres

import (
	"context"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/vecindex"
)

// Without pgvector (pgvector.go), vector search ranks in Go over the user's vectors,
// as the SQLite store does for large users: the vectors are real[] rows (table
// embeddings), and internal/vecindex keeps an in-memory copy of the vectors of the
// users the store has searched, brought up to date before each search with one index
// range read of the rows it has not seen (vecSource).
//
// The copy is kept correct without any notification from writers, even when another
// server wrote the vectors, as vecindex describes: a user's writes are serialised by
// the lock on the user's row, and embeddings.seq is taken inside that lock from a
// sequence without a cache, so for one user seq grows in commit order; every
// candidate is joined back to its embeddings row and its fact or episode in the
// reader's snapshot (resolveVectors); and the database counts deletions per user
// (embedding_deletes).

// The statements of vectors.
const (
	// A batch of vectors (PutVectors): the earlier vectors of the items named, then
	// the new ones, each a slice of the components' array. vec is real[], or
	// pgvector's vector, to which real[] is cast on assignment.
	qVecDeleteFacts = `DELETE FROM embeddings m USING facts f
		WHERE m.u = $1 AND m.kind = 'fact' AND f.u = m.u AND f.id = ANY($2::text[]) AND m.item = f.seq`
	qVecDeleteEpisodes = `DELETE FROM embeddings m USING episodes e
		WHERE m.u = $1 AND m.kind = 'episode' AND e.u = m.u AND e.id = ANY($2::text[]) AND m.item = e.seq`
	qVecInsertFacts = `INSERT INTO embeddings (u, kind, item, model, dim, vec)
		SELECT $1, 'fact', f.seq, v.model, v.dim, ($6::real[])[v.off + 1 : v.off + v.dim]
		FROM unnest($2::text[], $3::text[], $4::int[], $5::int[]) WITH ORDINALITY AS v (id, model, dim, off, ord)
		JOIN facts f ON f.u = $1 AND f.id = v.id ORDER BY v.ord`
	qVecInsertEpisodes = `INSERT INTO embeddings (u, kind, item, model, dim, vec)
		SELECT $1, 'episode', e.seq, v.model, v.dim, ($6::real[])[v.off + 1 : v.off + v.dim]
		FROM unnest($2::text[], $3::text[], $4::int[], $5::int[]) WITH ORDINALITY AS v (id, model, dim, off, ord)
		JOIN episodes e ON e.u = $1 AND e.id = v.id ORDER BY v.ord`
	qVecDeletes = "SELECT coalesce((SELECT deleted FROM embedding_deletes WHERE u = $1), 0)"
	qVecDelta   = "SELECT seq, kind, model, dim, vec FROM embeddings WHERE u = $1 AND seq > $2 ORDER BY seq"
	qVecModels  = "SELECT model, dim, kind, n FROM embedding_counts WHERE u = $1 AND n > 0 ORDER BY model, dim, kind"
	qUnembFacts = "SELECT " + factColumnsF + ` FROM facts f
		WHERE f.u = $1 AND f.id > $2 AND (f.current OR f.superseded_by <> '')
		AND NOT EXISTS (SELECT 1 FROM embeddings m WHERE m.u = f.u AND m.kind = 'fact' AND m.item = f.seq AND m.model = $3)
		ORDER BY f.id LIMIT $4`
	qUnembEpisodes = `SELECT e.id, e.content, e.tags, e.importance, e.created_at, e.metadata, e.extracted_at FROM episodes e
		WHERE e.u = $1 AND e.id > $2
		AND NOT EXISTS (SELECT 1 FROM embeddings m WHERE m.u = e.u AND m.kind = 'episode' AND m.item = e.seq AND m.model = $3)
		ORDER BY e.id LIMIT $4`
	qCountUnemb = `SELECT
		(SELECT count(*) FROM facts f WHERE f.u = $1 AND (f.current OR f.superseded_by <> '')
			AND NOT EXISTS (SELECT 1 FROM embeddings m WHERE m.u = f.u AND m.kind = 'fact' AND m.item = f.seq AND m.model = $2)) +
		(SELECT count(*) FROM episodes e WHERE e.u = $1
			AND NOT EXISTS (SELECT 1 FROM embeddings m WHERE m.u = e.u AND m.kind = 'episode' AND m.item = e.seq AND m.model = $2))`
)

// PutVectors stores each item's vector, replacing the item's earlier one; vectors of
// items the user does not have are skipped. Each run of vectors of one kind of item
// goes in two statements, sent in one round trip with the statements queued before
// them (the facts' inserts of the same write): the deletion of the items' earlier
// vectors, and one insert of them all, in order, their components in one array.
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
	}
	for len(vs) > 0 {
		n := 1
		for n < len(vs) && vs[n].Kind == vs[0].Kind {
			n++
		}
		b := vectorBatch(vs[:n])
		del, ins := qVecDeleteFacts, qVecInsertFacts
		if vs[0].Kind == factbase.KindEpisode {
			del, ins = qVecDeleteEpisodes, qVecInsertEpisodes
		}
		t.q.queue(queued{op: "put vectors", sql: del, args: []any{string(t.user), b.ids}})
		tag, err := t.q.Exec(ctx, ins, string(t.user), b.ids, b.models, b.dims, b.offsets, b.components)
		if err != nil {
			return mapErr("put vectors", err)
		}
		t.writes += int(tag.RowsAffected())
		vs = vs[n:]
	}
	return nil
}

// vectorArrays are the vectors of one kind of item as the batch statements take
// them: ids, models, dimensions and offsets into components, which holds every
// vector's components one after the other.
type vectorArrays struct {
	ids, models   []string
	dims, offsets []int32
	components    []float32
}

// vectorBatch returns the vectors vs, all of one kind of item, in order, the last of
// each item's when vs holds several (as one statement after another would leave it).
func vectorBatch(vs []factbase.Vector) vectorArrays {
	last := make(map[string]int, len(vs))
	for i, v := range vs {
		last[v.ID] = i
	}
	var b vectorArrays
	for i, v := range vs {
		if last[v.ID] != i {
			continue
		}
		b.ids, b.models = append(b.ids, v.ID), append(b.models, v.Model)
		b.dims, b.offsets = append(b.dims, int32(len(v.Vec))), append(b.offsets, int32(len(b.components)))
		b.components = append(b.components, v.Vec...)
	}
	return b
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
	return t.queryEpisodes(ctx, qUnembEpisodes, string(t.user), after, model, limit)
}

// CountUnembedded counts the indexed items without a vector of model.
func (t *tx) CountUnembedded(ctx context.Context, model string) (int, error) {
	var n int
	err := t.q.QueryRow(ctx, qCountUnemb, string(t.user), model).Scan(&n)
	return n, mapErr("count unembedded", err)
}

// VectorModels counts the user's vectors per model and dimension, from the counts
// the trigger on embeddings keeps (migrations/0012_embedding_counts.sql).
func (t *tx) VectorModels(ctx context.Context) ([]factbase.VectorModel, error) {
	rows, err := t.q.Query(ctx, qVecModels, string(t.user))
	if err != nil {
		return nil, mapErr("vector models", err)
	}
	defer rows.Close()
	out, err := vecindex.Models(rows)
	return out, mapErr("vector models", err)
}

// vecSource reads the transaction's user's vectors for the index.
type vecSource struct{ t *tx }

var _ vecindex.Source = vecSource{}

// Deletes returns the user's count of deleted vectors (embedding_deletes).
func (v vecSource) Deletes(ctx context.Context) (int64, error) {
	var deleted int64
	if err := v.t.q.QueryRow(ctx, qVecDeletes, string(v.t.user)).Scan(&deleted); err != nil {
		return 0, mapErr("vector deletes", err)
	}
	return deleted, nil
}

// Load reads the user's vectors after a seq, of every model and dimension.
func (v vecSource) Load(ctx context.Context, after int64, add vecindex.AddFunc) (int64, error) {
	rows, err := v.t.q.Query(ctx, qVecDelta, string(v.t.user), after)
	if err != nil {
		return 0, mapErr("vectors", err)
	}
	defer rows.Close()
	var (
		seq       int64
		kind, mdl string
		dim       int32
		vec       []float32
	)
	through := after
	for rows.Next() {
		if err := rows.Scan(&seq, &kind, &mdl, &dim, &vec); err != nil {
			return 0, mapErr("vectors", err)
		}
		through = max(through, seq)
		if int(dim) != len(vec) {
			vec = nil // a row at odds with itself: skipped
		}
		add(seq, kind, mdl, vec)
	}
	return through, mapErr("vectors", rows.Err())
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
	if t.s.pgv != nil {
		return t.pgvectorCandidates(ctx, q) // pgvector.go
	}
	iq := vecindex.Query{User: string(t.user), Model: q.Model, Kind: q.Kind, Vector: q.Vector, Limit: q.Limit}
	return t.s.vecs.Collect(ctx, vecSource{t}, iq, func(hits []vecindex.Hit) ([]factbase.Candidate, error) {
		return t.resolveVectors(ctx, q, hits)
	})
}

// resolveVectors joins hits (best first, sent as a bigint[]) to their embeddings
// rows and items in the snapshot, keeping those q.Filter passes, in the order of hits.
func (t *tx) resolveVectors(ctx context.Context, q factbase.VectorQuery, hits []vecindex.Hit) ([]factbase.Candidate, error) {
	if len(hits) == 0 {
		return nil, nil
	}
	ids := vecindex.Seqs(hits)
	var (
		w   where
		sql string
	)
	list := w.arg(ids)
	if q.Kind == factbase.KindFact {
		t.factWhere(&w, q.Filter)
		sql = "SELECT m.seq, f.id, f.valid_from, f.subject, f.confidence FROM embeddings m " +
			"JOIN facts f ON f.u = m.u AND f.seq = m.item " +
			"WHERE m.seq = ANY(" + list + "::bigint[]) AND m.kind = 'fact' AND " + w.String()
	} else {
		t.episodeWhere(&w, factbase.EpisodeFilter{Tags: q.Filter.Tags, From: q.Filter.From, To: q.Filter.To})
		sql = "SELECT m.seq, e.id, e.created_at, '', e.importance FROM embeddings m " +
			"JOIN episodes e ON e.u = m.u AND e.seq = m.item " +
			"WHERE m.seq = ANY(" + list + "::bigint[]) AND m.kind = 'episode' AND " + w.String()
	}
	rows, err := t.q.Query(ctx, sql, w.args...)
	if err != nil {
		return nil, mapErr("vector search", err)
	}
	defer rows.Close()
	out, err := vecindex.Candidates(q.Kind, hits, rows)
	return out, mapErr("vector search", err)
}
