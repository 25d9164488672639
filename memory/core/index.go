package core

import (
	"context"
	"strings"

	"github.com/factbase/factbase"
)

// FactText returns the text embedded for a fact: its Text if set, else its key and
// value, with the key's dots and underscores as spaces ("contact.email_address
// a@b.com" reads "contact email address a@b.com").
func FactText(f factbase.Fact) string {
	if strings.TrimSpace(f.Text) != "" {
		return f.Text
	}
	key := strings.NewReplacer(".", " ", "_", " ").Replace(f.Key)
	return key + " " + f.Value
}

// Vectors maps texts to their vectors, as made by one embedder model. A nil
// *Vectors holds none.
type Vectors struct {
	Model string
	Vecs  map[string][]float32
	// Down reports that the embedder could not be reached before the write: the
	// write stores its texts without vectors and does not ask it again.
	Down bool
}

// Of returns the vector of text; ok is false when there is none.
func (v *Vectors) Of(text string) (vec []float32, ok bool) {
	if v == nil {
		return nil, false
	}
	vec, ok = v.Vecs[text]
	return vec, ok
}

// has reports whether text was embedded (a text with nothing to embed has no vector
// and counts as embedded only when it is empty).
func (v *Vectors) has(text string) bool {
	if strings.TrimSpace(text) == "" || v != nil && v.Down {
		return true
	}
	_, ok := v.Of(text)
	return ok
}

// merge returns the vectors of v and w (of one model).
func (v *Vectors) merge(w *Vectors) *Vectors {
	switch {
	case w == nil || len(w.Vecs) == 0 && !w.Down:
		return v
	case v == nil || len(v.Vecs) == 0 && !v.Down:
		return w
	}
	out := &Vectors{Model: v.Model, Vecs: make(map[string][]float32, len(v.Vecs)+len(w.Vecs)), Down: v.Down || w.Down}
	for t, x := range v.Vecs {
		out.Vecs[t] = x
	}
	for t, x := range w.Vecs {
		out.Vecs[t] = x
	}
	return out
}

// EmbedTexts embeds the distinct non-empty texts with the engine's embedder. It
// returns nil when there is no embedder or nothing to embed.
func (e *Engine) EmbedTexts(ctx context.Context, texts []string) (*Vectors, error) {
	if e.opts.Embedder == nil {
		return nil, nil
	}
	var distinct []string
	seen := make(map[string]bool, len(texts))
	for _, t := range texts {
		if strings.TrimSpace(t) == "" || seen[t] {
			continue
		}
		seen[t] = true
		distinct = append(distinct, t)
	}
	if len(distinct) == 0 {
		return nil, nil
	}
	vecs, err := e.opts.Embedder.Embed(ctx, distinct)
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(distinct) {
		return nil, factbase.Errorf(factbase.EINTERNAL, "embedder returned %d vectors for %d texts", len(vecs), len(distinct))
	}
	tv := &Vectors{Model: e.opts.Embedder.Model(), Vecs: make(map[string][]float32, len(distinct))}
	for i, t := range distinct {
		if len(vecs[i]) > 0 {
			tv.Vecs[t] = vecs[i]
		}
	}
	return tv, nil
}

// EmbedOps embeds the fact texts of the set ops, before the write transaction: an
// embedder may be a remote service that takes seconds, and must not hold the
// writer's lock meanwhile. See EmbedForWrite for an embedder that is down.
func (e *Engine) EmbedOps(ctx context.Context, ops []factbase.Op) (*Vectors, error) {
	if e.opts.Embedder == nil || len(ops) == 0 {
		return nil, nil
	}
	texts := make([]string, 0, len(ops))
	for _, op := range ops {
		if op.Kind == factbase.OpSet {
			texts = append(texts, FactText(op.Fact))
		}
	}
	return e.EmbedForWrite(ctx, texts)
}

// EmbedForWrite is EmbedTexts for texts about to be stored. An embedder that cannot
// be reached (EUNAVAILABLE, ETIMEOUT) does not stop the write: the texts are stored
// without vectors, a warning is logged and counted (EmbedSkipped), and "factbase
// reembed" (Retrieve.Reembed) gives them vectors later; full-text search finds them
// meanwhile. A message is never lost because an embedding server is down.
func (e *Engine) EmbedForWrite(ctx context.Context, texts []string) (*Vectors, error) {
	tv, err := e.EmbedTexts(ctx, texts)
	switch code := factbase.ErrorCode(err); {
	case err == nil:
		return tv, nil
	case ctx.Err() != nil || code != factbase.EUNAVAILABLE && code != factbase.ETIMEOUT:
		return nil, err
	}
	e.embedSkipped.Add(int64(len(texts)))
	if e.opts.Logger != nil {
		e.opts.Logger.Warn("stored without vectors: the embedder is unreachable; run factbase reembed when it is back",
			"embedder", e.opts.Embedder.Model(), "texts", len(texts), "err", factbase.ErrorMessage(err))
	}
	return &Vectors{Model: e.opts.Embedder.Model(), Down: true}, nil
}

// EmbedSkipped returns how many texts were stored without vectors because the
// embedder was unreachable, since the engine was made.
func (e *Engine) EmbedSkipped() int64 { return e.embedSkipped.Load() }

// indexFacts writes, inside the write transaction, the vectors of facts, those of
// them stored at the transaction's time. Facts' full-text entries are kept by the
// store itself.
func (e *Engine) indexFacts(ctx context.Context, tx factbase.Tx, facts []factbase.Fact, tv *Vectors) error {
	if tv == nil || len(tv.Vecs) == 0 {
		return nil
	}
	now := tx.Now()
	var out []factbase.Vector
	seen := make(map[string]bool, len(facts))
	for _, f := range facts {
		if seen[f.ID] || !f.RecordedAt.Equal(now) {
			continue
		}
		seen[f.ID] = true
		if v, ok := tv.Vecs[FactText(f)]; ok {
			out = append(out, factbase.Vector{Kind: factbase.KindFact, ID: f.ID, Model: tv.Model, Vec: v})
		}
	}
	if len(out) == 0 {
		return nil
	}
	return tx.PutVectors(ctx, out)
}
