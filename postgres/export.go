package postgres

import (
	"context"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/export"
	"github.com/factbase/factbase/internal/rowcodec"
)

// exportStatements are the export reads (factbase.ExportReadTx) that export.Reads
// runs: each reads all of the user's rows of one table. Text is ordered byte-wise
// (COLLATE "C", as the SQLite store orders it), so that both stores return the same
// order.
var exportStatements = export.Statements{
	// Every fact's creation (its first reference: factbase.Reference), then the
	// reference rows, by time.
	References: `SELECT id, at, source_kind, source_id FROM (
			SELECT f.id, f.recorded_at AS at, f.source_kind, f.source_id, 0 AS row, f.seq FROM facts f WHERE f.u = $1
			UNION ALL
			SELECT f.id, r.at, r.source_kind, r.source_id, 1, r.seq FROM fact_references r
			JOIN facts f ON f.u = r.u AND f.seq = r.fact WHERE r.u = $1) refs
		ORDER BY at, row, seq`,
	Checkpoints: `SELECT file, byte_off, line, sum, updated_at FROM transcript_checkpoints
		WHERE u = $1 ORDER BY file COLLATE "C"`,
	Links: `SELECT session, subject FROM transcript_subjects WHERE u = $1
		ORDER BY session COLLATE "C", subject COLLATE "C"`,
	Preferences: `SELECT key, norm, session FROM preference_sessions WHERE u = $1
		ORDER BY key COLLATE "C", norm COLLATE "C", session COLLATE "C"`,
	Sheets: "SELECT " + rowcodec.SheetColumns + " FROM sheets WHERE u = $1 ORDER BY created_at, seq",
	MapErr: mapErr,
}

// An embeddings row whose item is gone cannot be left by a committed write (the
// item's deletion deletes it); the joins skip one anyway, as vector search does.
// m.vec is real[], or a pgvector vector read as one.
const qExportVectors = `SELECT m.kind, coalesce(f.id, e.id), m.model, m.vec::real[] FROM embeddings m
	LEFT JOIN facts f ON f.u = m.u AND m.kind = 'fact' AND f.seq = m.item
	LEFT JOIN episodes e ON e.u = m.u AND m.kind = 'episode' AND e.seq = m.item
	WHERE m.u = $1 AND coalesce(f.id, e.id) IS NOT NULL ORDER BY m.seq`

// ExportRows runs one of exportStatements for export.Reads.
func (t *tx) ExportRows(ctx context.Context, q string) (rowcodec.Rows, error) {
	return t.q.Query(ctx, q, string(t.user))
}

// ExportVectors returns every vector of the user's facts and episodes, by
// embeddings.seq; zero vectors are stored as they are.
func (t *tx) ExportVectors(ctx context.Context) ([]factbase.Vector, error) {
	out, err := queryAll(ctx, t, func(r rowcodec.Scanner) (factbase.Vector, error) {
		var v factbase.Vector
		err := r.Scan(&v.Kind, &v.ID, &v.Model, &v.Vec)
		return v, err
	}, qExportVectors, string(t.user))
	return out, mapErr("export vectors", err)
}
