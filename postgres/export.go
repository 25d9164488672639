package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/factbase/factbase"
	"github.com/jackc/pgx/v5"
)

// The export reads (factbase.ExportReadTx): each reads all of the user's rows of one
// table. Text is ordered byte-wise (COLLATE "C", as the SQLite store orders it), so
// that both stores return the same order.
const (
	qExportRefs = `SELECT f.id, r.at, r.source_kind, r.source_id FROM fact_references r
		JOIN facts f ON f.seq = r.fact WHERE r.u = $1 ORDER BY r.at, r.seq`
	// An embeddings row whose item is gone cannot be left by a committed write (the
	// item's deletion deletes it); the joins skip one anyway, as vector search does.
	qExportVectors = `SELECT m.kind, coalesce(f.id, e.id), m.model, m.vec FROM embeddings m
		LEFT JOIN facts f ON m.kind = 'fact' AND f.seq = m.item
		LEFT JOIN episodes e ON m.kind = 'episode' AND e.seq = m.item
		WHERE m.u = $1 AND coalesce(f.id, e.id) IS NOT NULL ORDER BY m.seq`
	qExportCheckpoints = `SELECT file, byte_off, line, sum, updated_at FROM transcript_checkpoints
		WHERE u = $1 ORDER BY file COLLATE "C"`
	qExportLinks = `SELECT session, subject FROM transcript_subjects WHERE u = $1
		ORDER BY session COLLATE "C", subject COLLATE "C"`
	qExportPrefs = `SELECT key, norm, session FROM preference_sessions WHERE u = $1
		ORDER BY key COLLATE "C", norm COLLATE "C", session COLLATE "C"`
	qExportSheets = "SELECT id, created_at, count, entries, dedup FROM sheets WHERE u = $1 ORDER BY created_at, seq"
)

// exportRows runs query, whose only parameter is the user's id, and calls scan for
// each row.
func (t *tx) exportRows(ctx context.Context, what, query string, scan func(pgx.Rows) error) error {
	rows, err := t.q.Query(ctx, query, string(t.user))
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
	err := t.exportRows(ctx, "export references", qExportRefs, func(r pgx.Rows) error {
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
// embeddings.seq; zero vectors are stored as they are.
func (t *tx) ExportVectors(ctx context.Context) ([]factbase.Vector, error) {
	var out []factbase.Vector
	err := t.exportRows(ctx, "export vectors", qExportVectors, func(r pgx.Rows) error {
		var v factbase.Vector
		if err := r.Scan(&v.Kind, &v.ID, &v.Model, &v.Vec); err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

// ExportTranscriptCheckpoints returns every transcript checkpoint, by file.
func (t *tx) ExportTranscriptCheckpoints(ctx context.Context) ([]factbase.TranscriptCheckpoint, error) {
	var out []factbase.TranscriptCheckpoint
	err := t.exportRows(ctx, "export transcript checkpoints", qExportCheckpoints, func(r pgx.Rows) error {
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
	err := t.exportRows(ctx, "export transcript links", qExportLinks, func(r pgx.Rows) error {
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
	err := t.exportRows(ctx, "export preference sessions", qExportPrefs, func(r pgx.Rows) error {
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
	err := t.exportRows(ctx, "export sheets", qExportSheets, func(r pgx.Rows) error {
		sh := factbase.FactSheet{User: t.user}
		var (
			created        int64
			count          int32
			entries, dedup []byte
		)
		if err := r.Scan(&sh.ID, &created, &count, &entries, &dedup); err != nil {
			return err
		}
		sh.CreatedAt, sh.Count = time.Unix(0, created).UTC(), int(count)
		if err := json.Unmarshal(entries, &sh.Entries); err != nil {
			return fmt.Errorf("sheet %s: entries: %w", sh.ID, err)
		}
		if err := json.Unmarshal(dedup, &sh.Dedup); err != nil {
			return fmt.Errorf("sheet %s: dedup: %w", sh.ID, err)
		}
		out = append(out, sh)
		return nil
	})
	return out, err
}
