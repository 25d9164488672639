package people

import (
	"context"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
)

// ConflictResult is what confirming a conflict did.
type ConflictResult struct {
	Conflict factbase.Conflict `json:"conflict"`
	Result   factbase.Result   `json:"result"`
}

// ConflictPage is one page of a user's conflicts.
type ConflictPage struct {
	Conflicts []factbase.Conflict `json:"conflicts"`
	Offset    int                 `json:"offset"`
	Limit     int                 `json:"limit"`
	// More is true when conflicts after this page remain (the next page starts at
	// Offset+Limit).
	More bool `json:"more"`
}

// Conflicts returns a page of the user's conflicts with the given status ("" for
// every status), oldest first. A zero limit means core.DefaultPageSize; a limit above
// core.MaxPageSize or a negative offset is EINVALID.
func (s *Service) Conflicts(ctx context.Context, user factbase.UserID, status factbase.ConflictStatus, offset, limit int) (ConflictPage, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return ConflictPage{}, err
	}
	switch status {
	case "", factbase.ConflictPending, factbase.ConflictConfirmed, factbase.ConflictRejected:
	default:
		return ConflictPage{}, factbase.Errorf(factbase.EINVALID, "status %q is not pending, confirmed or rejected", status)
	}
	limit, err := core.PageLimit(offset, limit)
	if err != nil {
		return ConflictPage{}, err
	}
	p := ConflictPage{Offset: offset, Limit: limit}
	err = s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		cs, err := tx.Conflicts(ctx, factbase.ConflictFilter{Status: status, Offset: offset, Limit: limit + 1})
		if err != nil {
			return err
		}
		p.Conflicts, p.More = core.TrimPage(cs, limit)
		return relabelConflicts(ctx, tx, p.Conflicts)
	})
	return p, err
}

// relabelConflicts renders the proposed facts' texts of cs with the current names
// of the people they are about (factbase.Relabeler).
func relabelConflicts(ctx context.Context, tx factbase.ReadTx, cs []factbase.Conflict) error {
	if len(cs) == 0 {
		return nil
	}
	ens, err := tx.Entities(ctx, factbase.EntityFilter{})
	if err != nil {
		return err
	}
	r := factbase.NewRelabeler(ens)
	for i := range cs {
		cs[i].Proposed.Text = r.Text(cs[i].Proposed)
	}
	return nil
}

// Conflict returns one conflict.
func (s *Service) Conflict(ctx context.Context, user factbase.UserID, id string) (factbase.Conflict, error) {
	return core.Read(ctx, s.core, user, func(tx factbase.ReadTx) (factbase.Conflict, error) {
		c, err := tx.Conflict(ctx, id)
		if err != nil {
			return c, err
		}
		cs := []factbase.Conflict{c}
		err = relabelConflicts(ctx, tx, cs)
		return cs[0], err
	})
}

// pendingConflict reads conflict id in a write transaction; ECONFLICT unless it is
// pending.
func pendingConflict(ctx context.Context, tx factbase.Tx, id string) (factbase.Conflict, error) {
	c, err := tx.Conflict(ctx, id)
	if err != nil {
		return c, err
	}
	if c.Status != factbase.ConflictPending {
		return c, factbase.Errorf(factbase.ECONFLICT, "conflict %s is already %s", id, c.Status)
	}
	return c, nil
}

// ConfirmConflict applies a pending conflict's proposed value through the write path:
// it supersedes the current fact, which stays in history. The conflict is recorded
// as confirmed with the fact written. ECONFLICT if it is not pending.
func (s *Service) ConfirmConflict(ctx context.Context, user factbase.UserID, id string) (ConflictResult, error) {
	c, err := s.Conflict(ctx, user, id)
	if err != nil {
		return ConflictResult{}, err
	}
	if c.Status != factbase.ConflictPending {
		return ConflictResult{}, factbase.Errorf(factbase.ECONFLICT, "conflict %s is already %s", id, c.Status)
	}
	f := c.Proposed
	f.ID, f.Subject, f.Key, f.Current = "", c.Subject, c.Key, false
	f.Supersedes, f.SupersededBy, f.ValidTo = "", "", nil
	var out factbase.Conflict
	res, err := s.core.ApplyWith(ctx, user, []factbase.Op{{Kind: factbase.OpSet, Fact: f}}, func(w *core.Writer) error {
		cur, err := pendingConflict(ctx, w.Tx(), id)
		if err != nil {
			return err
		}
		now := w.Tx().Now()
		cur.Status, cur.ResolvedAt = factbase.ConflictConfirmed, &now
		if n := len(w.Result().Facts); n > 0 {
			cur.ResultID = w.Result().Facts[n-1].ID
		}
		out = cur
		return w.Tx().PutConflict(ctx, cur)
	})
	if err != nil {
		return ConflictResult{}, err
	}
	res.Facts = nil
	s.core.Audit(ctx, factbase.AuditConflictDecide, user, "confirmed "+id, map[string]int{"stored": res.Stored, "updated": res.Updated})
	return ConflictResult{Conflict: out, Result: res}, nil
}

// RejectConflict records that the user rejected a pending conflict; no fact changes.
// ECONFLICT if it is not pending.
func (s *Service) RejectConflict(ctx context.Context, user factbase.UserID, id string) (factbase.Conflict, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return factbase.Conflict{}, err
	}
	var out factbase.Conflict
	_, err := s.core.ApplyWith(ctx, user, nil, func(w *core.Writer) error {
		cur, err := pendingConflict(ctx, w.Tx(), id)
		if err != nil {
			return err
		}
		now := w.Tx().Now()
		cur.Status, cur.ResolvedAt = factbase.ConflictRejected, &now
		out = cur
		return w.Tx().PutConflict(ctx, cur)
	})
	if err == nil {
		s.core.Audit(ctx, factbase.AuditConflictDecide, user, "rejected "+id, nil)
	}
	return out, err
}
