package sqlite

import (
	"context"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/storeerr"
)

const qAuditInsert = `INSERT INTO audit_log (id, at, actor, action, user_id, target, counts) VALUES (?, ?, ?, ?, ?, ?, ?)`

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
	_, err := s.writer.ExecContext(ctx, qAuditInsert, e.ID, e.At.UTC().UnixNano(), e.Actor, e.Action, string(e.User),
		e.Target, rowcodec.AuditCounts(e))
	return storeerr.Taken(s.staticErr("append audit", err), "an audit entry with that id already exists")
}

// Audit lists audit entries newest first.
func (s *Store) Audit(ctx context.Context, f factbase.AuditFilter) ([]factbase.AuditEntry, error) {
	if s.gate.Closed() {
		return nil, storeerr.ErrClosed
	}
	f, err := f.WithDefaults()
	if err != nil {
		return nil, err
	}
	var where []string
	var args []any
	where, args = eq(where, args, "user_id", string(f.User))
	where, args = eq(where, args, "action", f.Action)
	if f.Before != "" {
		where, args = append(where, "seq < coalesce((SELECT seq FROM audit_log WHERE id = ?), 0)"), append(args, f.Before)
	}
	q := "SELECT " + rowcodec.AuditColumns + " FROM audit_log"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY seq DESC LIMIT ?"
	rows, err := s.reader.QueryContext(ctx, q, append(args, f.Limit)...)
	return staticAll(s, "audit", rows, err, rowcodec.Audit)
}
