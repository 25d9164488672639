package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/factbase/factbase"
)

// The export reads (factbase.ExportReadTx): each reads all of the user's rows of one
// table. They run rarely (a copy or an export of a user), so they are not prepared at
// open and run on the transaction directly, keeping the statement cache for the
// product's own queries.
const (
	qExportRefs = `SELECT f.id, r.at, r.source_kind, r.source_id FROM fact_references r
		JOIN facts f ON f.seq = r.fact WHERE r.u = ? ORDER BY r.at, r.seq`
	qExportDims = "SELECT DISTINCT dim FROM embeddings WHERE u = ? ORDER BY dim"
	// qExportVectors is completed with the dimension, twice: the vectors themselves
	// are in vec_<dim> (vectors.go), where a zero vector has no row.
	qExportVectors = `SELECT m.seq, m.kind, coalesce(f.id, e.id), m.model, v.embedding FROM embeddings m
		LEFT JOIN vec_%d v ON v.rowid = m.seq
		LEFT JOIN facts f ON m.kind = 'fact' AND f.seq = m.item
		LEFT JOIN episodes e ON m.kind = 'episode' AND e.seq = m.item
		WHERE m.u = ? AND m.dim = %d ORDER BY m.seq`
	qExportCheckpoints = `SELECT file, byte_off, line, sum, updated_at FROM transcript_checkpoints
		WHERE u = ? ORDER BY file`
	qExportLinks  = "SELECT session, subject FROM transcript_subjects WHERE u = ? ORDER BY session, subject"
	qExportPrefs  = "SELECT key, norm, session FROM preference_sessions WHERE u = ? ORDER BY key, norm, session"
	qExportSheets = "SELECT id, created_at, count, entries, dedup FROM sheets WHERE u = ? ORDER BY created_at, seq"
)

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

// ExportReferences returns every reference to the user's facts, oldest first.
func (t *tx) ExportReferences(ctx context.Context) ([]factbase.Reference, error) {
	var out []factbase.Reference
	err := t.exportRows(ctx, "export references", qExportRefs, func(r *sql.Rows) error {
		var ref factbase.Reference
		var at int64
		if err := r.Scan(&ref.FactID, &at, &ref.Source.Kind, &ref.Source.ID); err != nil {
			return err
		}
		ref.At = time.Unix(0, at).UTC()
		out = append(out, ref)
		return nil
	})
	return out, err
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

// ExportTranscriptCheckpoints returns every transcript checkpoint, by file.
func (t *tx) ExportTranscriptCheckpoints(ctx context.Context) ([]factbase.TranscriptCheckpoint, error) {
	var out []factbase.TranscriptCheckpoint
	err := t.exportRows(ctx, "export transcript checkpoints", qExportCheckpoints, func(r *sql.Rows) error {
		var cp factbase.TranscriptCheckpoint
		var at int64
		if err := r.Scan(&cp.File, &cp.Offset, &cp.Line, &cp.Sum, &at); err != nil {
			return err
		}
		cp.UpdatedAt = time.Unix(0, at).UTC()
		out = append(out, cp)
		return nil
	})
	return out, err
}

// ExportTranscriptLinks returns every subject's link to a session.
func (t *tx) ExportTranscriptLinks(ctx context.Context) ([]factbase.TranscriptLink, error) {
	var out []factbase.TranscriptLink
	err := t.exportRows(ctx, "export transcript links", qExportLinks, func(r *sql.Rows) error {
		var l factbase.TranscriptLink
		if err := r.Scan(&l.Session, &l.Subject); err != nil {
			return err
		}
		out = append(out, l)
		return nil
	})
	return out, err
}

// ExportPreferenceSessions returns every preference session recorded.
func (t *tx) ExportPreferenceSessions(ctx context.Context) ([]factbase.PreferenceSession, error) {
	var out []factbase.PreferenceSession
	err := t.exportRows(ctx, "export preference sessions", qExportPrefs, func(r *sql.Rows) error {
		var p factbase.PreferenceSession
		if err := r.Scan(&p.Key, &p.Norm, &p.Session); err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	return out, err
}

// ExportSheets returns every saved sheet of the user, oldest first.
func (t *tx) ExportSheets(ctx context.Context) ([]factbase.FactSheet, error) {
	var out []factbase.FactSheet
	err := t.exportRows(ctx, "export sheets", qExportSheets, func(r *sql.Rows) error {
		sh := factbase.FactSheet{User: t.user}
		var (
			created        int64
			entries, dedup string
		)
		if err := r.Scan(&sh.ID, &created, &sh.Count, &entries, &dedup); err != nil {
			return err
		}
		sh.CreatedAt = time.Unix(0, created).UTC()
		if err := json.Unmarshal([]byte(entries), &sh.Entries); err != nil {
			return fmt.Errorf("sheet %s: entries: %w", sh.ID, err)
		}
		if err := json.Unmarshal([]byte(dedup), &sh.Dedup); err != nil {
			return fmt.Errorf("sheet %s: dedup: %w", sh.ID, err)
		}
		out = append(out, sh)
		return nil
	})
	return out, err
}
