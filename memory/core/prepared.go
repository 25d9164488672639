package core

import (
	"context"

	"github.com/factbase/factbase"
)

// PreparedWrite is a write's ops made ready before its transaction: validated, their
// defaults filled and their values normalised (Prepare), their texts embedded. A
// feature that writes in many transactions (an ingest) prepares the next write
// while the writer commits the one before, so that the writer's lock is held for
// the statements alone.
type PreparedWrite struct {
	ops   []factbase.Op
	norms []string // ops[i]'s value normalised ("" but for a set or a remove)
	vecs  *Vectors
}

// Len returns the number of ops of the write.
func (p *PreparedWrite) Len() int { return len(p.ops) }

// PrepareWrite prepares ops for ApplyPrepared: each is validated and its defaults
// filled as Apply does (an error names the op of a write of several), and the fact
// texts of the sets are embedded (EmbedOps; an unreachable embedder leaves them
// without vectors, see EmbedForWrite). At most MaxOps ops. Safe for concurrent use.
func (e *Engine) PrepareWrite(ctx context.Context, ops []factbase.Op) (*PreparedWrite, error) {
	prepared, norms, err := e.prepareAll(ops)
	if err != nil {
		return nil, err
	}
	vecs, err := e.EmbedOps(ctx, prepared)
	if err != nil {
		return nil, err
	}
	return &PreparedWrite{ops: prepared, norms: norms, vecs: vecs}, nil
}

// ApplyPrepared is ApplyWith of a prepared write: its ops execute in one transaction
// of user through the write path, then with (if not nil), then the invariant checks,
// then the commit.
func (e *Engine) ApplyPrepared(ctx context.Context, user factbase.UserID, p *PreparedWrite, with func(w *Writer) error) (factbase.Result, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return factbase.Result{}, err
	}
	return e.update(ctx, user, p.vecs, func(w *Writer) error {
		if err := w.applyPrepared(p.ops, p.norms); err != nil {
			return err
		}
		if with != nil {
			return with(w)
		}
		return nil
	})
}
