package postgres

import (
	"context"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/storeerr"
)

const qAuditInsert = `INSERT INTO audit_log (id, at, actor, action, user_id, target, counts) VALUES ($1, $2, $3, $4, $5, $6, $7)`

// AppendAudit stores an audit entry.
func (s *Store) AppendAudit(ctx context.Context, e factbase.AuditEntry) error {
	if err := e.Validate(); err != nil {
		return err
	}
	if s.gate.Closed() {
		return storeerr.ErrClosed
	}
	if e.At.IsZero() {
		e.At = s.now()
	}
	_, err := s.pool.Exec(ctx, qAuditInsert, e.ID, e.At.UTC().UnixNano(), e.Actor, e.Action, string(e.User), e.Target,
		rowcodec.AuditCounts(e))
	return storeerr.Taken(mapErr("append audit", err), "an audit entry with that id already exists")
}

// Audit lists audit entries newest first.
func (s *Store) Audit(ctx context.Context, f factbase.AuditFilter) ([]factbase.AuditEntry, error) {
	f, err := f.WithDefaults()
	if err != nil {
		return nil, err
	}
	var w where
	w.eq("user_id", string(f.User))
	w.eq("action", f.Action)
	if f.Before != "" {
		w.add("seq < coalesce((SELECT seq FROM audit_log WHERE id = " + w.arg(f.Before) + "), 0)")
	}
	q := "SELECT " + rowcodec.AuditColumns + " FROM audit_log"
	if len(w.conds) > 0 {
		q += " WHERE " + w.String()
	}
	q += " ORDER BY seq DESC LIMIT " + w.arg(f.Limit)
	entries, err := poolAll(ctx, s, "audit", q, rowcodec.Audit, w.args...)
	if err != nil {
		return nil, err
	}
	return rowcodec.NonNil(entries), nil
}
