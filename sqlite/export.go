package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/export"
	"github.com/factbase/factbase/internal/rowcodec"
)

// exportStatements are the export reads (factbase.ExportReadTx) that export.Reads
// runs: each reads all of the user's rows of one table. They run rarely (a copy or
// an export of a user), so they are not prepared at open and run on the transaction
// directly, keeping the statement cache for the product's own queries.
var exportStatements = export.Statements{
	// Every fact's creation (its first reference: factbase.Reference), then the
	// reference rows, by time.
	References: `SELECT id, at, source_kind, source_id FROM (
			SELECT f.id, f.recorded_at AS at, f.source_kind, f.source_id, 0 AS row, f.seq FROM facts f WHERE f.u = ?1
			UNION ALL
			SELECT f.id, r.at, r.source_kind, r.source_id, 1, r.seq FROM fact_references r
			JOIN facts f ON f.seq = r.fact WHERE r.u = ?1)
		ORDER BY at, row, seq`,
	Checkpoints: `SELECT file, byte_off, line, sum, updated_at FROM transcript_checkpoints
		WHERE u = ? ORDER BY file`,
	Links:       "SELECT session, subject FROM transcript_subjects WHERE u = ? ORDER BY session, subject",
	Preferences: "SELECT key, norm, session FROM preference_sessions WHERE u = ? ORDER BY key, norm, session",
	Sheets:      "SELECT " + rowcodec.SheetColumns + " FROM sheets WHERE u = ? ORDER BY created_at, seq",
	MapErr:      mapErr,
}

// The statements of ExportVectors, run like exportStatements.
const (
	qExportDims = "SELECT DISTINCT dim FROM embeddings WHERE u = ? ORDER BY dim"
	// qExportVectors is completed with the dimension, twice: the vectors themselves
	// are in vec_<dim> (vectors.go), where a zero vector has no row.
	qExportVectors = `SELECT m.seq, m.kind, coalesce(f.id, e.id), m.model, v.embedding FROM embeddings m
		LEFT JOIN vec_%d v ON v.rowid = m.seq
		LEFT JOIN facts f ON m.kind = 'fact' AND f.seq = m.item
		LEFT JOIN episodes e ON m.kind = 'episode' AND e.seq = m.item
		WHERE m.u = ? AND m.dim = %d ORDER BY m.seq`
)

// ExportRows runs one of exportStatements for export.Reads.
func (t *tx) ExportRows(ctx context.Context, q string) (rowcodec.Rows, error) {
	return t.q.QueryContext(ctx, q, t.u)
}

// exportRows runs query, whose only parameter is the user's seq, and calls scan for
// each row.
func (t *tx) exportRows(ctx context.Context, what, query string, scan func(*sql.Rows) error) error {
	rows, err := t.q.QueryContext(ctx, query, t.u)
	if err != nil {
		return mapErr(what, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return mapErr(what, err)
		}
	}
	return mapErr(what, rows.Err())
}

// ExportVectors returns every vector of the user's facts and episodes, by
// embeddings.seq; a zero vector, stored without a vec0 row, reads as zeros.
func (t *tx) ExportVectors(ctx context.Context) ([]factbase.Vector, error) {
	var dims []int
	err := t.exportRows(ctx, "export vectors", qExportDims, func(r *sql.Rows) error {
		var d int
		err := r.Scan(&d)
		dims = append(dims, d)
		return err
	})
	if err != nil {
		return nil, err
	}
	type seqVector struct {
		seq int64
		v   factbase.Vector
	}
	var all []seqVector
	for _, dim := range dims {
		err := t.exportRows(ctx, "export vectors", fmt.Sprintf(qExportVectors, dim, dim), func(r *sql.Rows) error {
			var (
				sv   seqVector
				id   sql.NullString
				blob []byte
			)
			if err := r.Scan(&sv.seq, &sv.v.Kind, &id, &sv.v.Model, &blob); err != nil {
				return err
			}
			if !id.Valid { // an item the snapshot no longer has
				return nil
			}
			sv.v.ID = id.String
			if blob == nil {
				sv.v.Vec = make([]float32, dim)
			} else {
				sv.v.Vec = decodeVec(make([]float32, 0, dim), blob)
			}
			all = append(all, sv)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(all, func(a, b seqVector) int { return cmp.Compare(a.seq, b.seq) })
	var out []factbase.Vector
	for _, sv := range all {
		out = append(out, sv.v)
	}
	return out, nil
}
