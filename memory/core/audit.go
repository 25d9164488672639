package core

import (
	"context"
	"fmt"

	"github.com/factbase/factbase"
)

// Audit appends an entry to the store's audit trail for an operation that has
// committed: who acted (factbase.ActorOf(ctx)), what, on which user and ids, and how
// many rows. Never the text of what was changed. The operation stands whether or not
// the entry could be written; a failure is reported to the background error handler.
func (e *Engine) Audit(ctx context.Context, action string, user factbase.UserID, target string, counts map[string]int) {
	en := factbase.AuditEntry{ID: e.NewID(), Actor: factbase.ActorOf(ctx), Action: action, User: user,
		Target: factbase.ClipAuditTarget(target), Counts: counts}
	if err := e.store.AppendAudit(context.WithoutCancel(ctx), en); err != nil {
		e.backgroundError(fmt.Errorf("audit %s of user %s not recorded: %w", action, user, err))
	}
}
