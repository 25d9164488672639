package core

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/normalize"
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

// prepareAll validates ops and fills their defaults (Prepare), and returns them with
// their values normalised (for a set or remove; "" for the others); an error names
// the op of a write of several.
func (e *Engine) prepareAll(ops []factbase.Op) ([]factbase.Op, []string, error) {
	if len(ops) > MaxOps {
		return nil, nil, factbase.Errorf(factbase.EINVALID, "%d ops in one write; the limit is %d", len(ops), MaxOps)
	}
	prepared := make([]factbase.Op, len(ops))
	norms := make([]string, len(ops))
	for i, op := range ops {
		p, norm, err := e.prepare(op)
		if err != nil {
			if len(ops) > 1 {
				return nil, nil, fmt.Errorf("op %d: %w", i+1, err)
			}
			return nil, nil, err
		}
		prepared[i], norms[i] = p, norm
	}
	return prepared, norms, nil
}

// MaxOps is the most ops one Apply accepts.
const MaxOps = 10000

// Prepare validates an op and fills the defaults of its fact template, as the write
// path does before it writes: a caller that plans ops checks them with it first.
func (e *Engine) Prepare(op factbase.Op) (factbase.Op, error) {
	op, _, err := e.prepare(op)
	return op, err
}

// prepare is Prepare, also returning the op's value normalised (normalize.Value) for
// a set or a remove, "" for the other kinds.
func (e *Engine) prepare(op factbase.Op) (factbase.Op, string, error) {
	f := &op.Fact
	if f.Subject == "" {
		f.Subject = factbase.SubjectUser
	}
	var norm string
	switch op.Kind {
	case factbase.OpSet, factbase.OpRemove:
		if err := factbase.ValidateKey(f.Key); err != nil {
			return op, "", err
		}
		v, n, err := cleanValue(f.Value)
		if err != nil {
			return op, "", err
		}
		f.Value, norm = v, n
	case factbase.OpRetract, factbase.OpDelete:
		if op.ID == "" {
			if err := factbase.ValidateKey(f.Key); err != nil {
				return op, "", factbase.Errorf(factbase.EINVALID, "%s needs a fact id or a key: %s", op.Kind, factbase.ErrorMessage(err))
			}
		}
		return op, "", nil
	default:
		return op, "", factbase.Errorf(factbase.EINVALID, "op kind %q is not one of set, remove, retract, delete", op.Kind)
	}
	op, err := e.fillDefaults(op)
	return op, norm, err
}

// fillDefaults checks the fact template of a set or remove op and fills its defaults.
func (e *Engine) fillDefaults(op factbase.Op) (factbase.Op, error) {
	f := &op.Fact
	f.Text = normalize.Clean(f.Text)
	if utf8.RuneCountInString(f.Text) > factbase.MaxTextLen {
		return op, factbase.Errorf(factbase.EINVALID, "text is %d characters; the limit is %d", utf8.RuneCountInString(f.Text), factbase.MaxTextLen)
	}
	if f.Rank < 0 {
		return op, factbase.Errorf(factbase.EINVALID, "rank must be at least 1, got %d", f.Rank)
	}
	if f.Confidence < 0 || f.Confidence > 1 || f.Confidence != f.Confidence {
		return op, factbase.Errorf(factbase.EINVALID, "confidence %v is outside 0..1", f.Confidence)
	}
	if f.Confidence == 0 {
		f.Confidence = 1
	}
	if f.ValueType == "" {
		f.ValueType = factbase.String
	}
	if f.Category == "" {
		f.Category = factbase.Transient
	}
	switch f.Category {
	case factbase.Core, factbase.Technical, factbase.Project, factbase.Transient:
	default:
		return op, factbase.Errorf(factbase.EINVALID, "category %q is not one of core, technical, project, transient", f.Category)
	}
	if f.Source.Kind == "" {
		f.Source.Kind = factbase.SourceManual
	}
	if f.Extractor == "" {
		f.Extractor = "manual"
	}
	card := f.Cardinality
	if card == "" {
		card = e.opts.Cardinalities.Of(f.Key)
	}
	if !card.Valid() {
		return op, factbase.Errorf(factbase.EINVALID, "cardinality %q is not one of one, many, ranked", card)
	}
	f.Cardinality = card
	if f.Rank > 0 && card != factbase.Ranked {
		return op, factbase.Errorf(factbase.EINVALID, "key %q is not a ranked list; a rank makes no sense for it", f.Key)
	}
	return op, nil
}

// cleanValue checks a value and returns it as it is stored: without terminal escape
// sequences, control characters or invisible format characters (normalize.Clean), so
// that two values that look the same are the same and nothing the CLI prints can
// drive the terminal. A value with nothing visible left is refused. It also returns
// the value normalised for comparison (normalize.Value).
func cleanValue(v string) (clean, norm string, err error) {
	if strings.TrimSpace(v) == "" {
		return "", "", factbase.Errorf(factbase.EINVALID, "value is empty")
	}
	if len(v) > factbase.MaxValueLen {
		return "", "", factbase.Errorf(factbase.EINVALID, "value is %d bytes; the limit is %d", len(v), factbase.MaxValueLen)
	}
	if !utf8.ValidString(v) {
		return "", "", factbase.Errorf(factbase.EINVALID, "value is not valid UTF-8")
	}
	c := normalize.Clean(v)
	if strings.TrimSpace(c) == "" {
		return "", "", factbase.Errorf(factbase.EINVALID, "value %q has nothing visible in it (only invisible or control characters)", v)
	}
	n := normalize.Value(c)
	if n == "" {
		return "", "", factbase.Errorf(factbase.EINVALID, "value %q has nothing but punctuation and white space", c)
	}
	return c, n, nil
}

type keyRef struct{ subject, key string }
