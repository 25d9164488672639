package memory

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

// textVectors maps texts to their vectors, as made by one embedder model.
type textVectors struct {
	model string
	vecs  map[string][]float32
}

// embedTexts embeds the distinct non-empty texts with the engine's embedder. It
// returns nil when there is no embedder or nothing to embed.
func (e *Engine) embedTexts(ctx context.Context, texts []string) (*textVectors, error) {
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
	tv := &textVectors{model: e.opts.Embedder.Model(), vecs: make(map[string][]float32, len(distinct))}
	for i, t := range distinct {
		if len(vecs[i]) > 0 {
			tv.vecs[t] = vecs[i]
		}
	}
	return tv, nil
}

// embedOps embeds the fact texts of the set ops, before the write transaction: an
// embedder may be a remote service that takes seconds, and must not hold the
// writer's lock meanwhile.
func (e *Engine) embedOps(ctx context.Context, ops []factbase.Op) (*textVectors, error) {
	if e.opts.Embedder == nil {
		return nil, nil
	}
	texts := make([]string, 0, len(ops))
	for _, op := range ops {
		if op.Kind == factbase.OpSet {
			texts = append(texts, FactText(op.Fact))
		}
	}
	return e.embedTexts(ctx, texts)
}

// indexFacts writes, inside the write transaction, the vectors of the facts it
// stored: those of res.Facts recorded at the transaction's time. Facts' full-text
// entries are kept by the store itself.
func (e *Engine) indexFacts(ctx context.Context, tx factbase.Tx, res *factbase.Result, tv *textVectors) error {
	if tv == nil || len(tv.vecs) == 0 {
		return nil
	}
	now := tx.Now()
	var out []factbase.Vector
	seen := make(map[string]bool, len(res.Facts))
	for _, f := range res.Facts {
		if seen[f.ID] || !f.RecordedAt.Equal(now) {
			continue
		}
		seen[f.ID] = true
		if v, ok := tv.vecs[FactText(f)]; ok {
			out = append(out, factbase.Vector{Kind: factbase.KindFact, ID: f.ID, Model: tv.model, Vec: v})
		}
	}
	if len(out) == 0 {
		return nil
	}
	return tx.PutVectors(ctx, out)
}

// reembedBatch is how many items Reembed embeds and writes per transaction.
const reembedBatch = 256

// Reembed gives every indexed fact and episode of the user that has no vector of the
// engine's embedder model (none yet, or one of an earlier model) a vector of it, in
// batches: each batch is embedded outside any transaction and written in one, so an
// interrupted run resumes where it stopped. progress, if not nil, is called after
// each batch. It returns the number of items embedded. EINVALID if the engine has no
// embedder.
func (e *Engine) Reembed(ctx context.Context, user factbase.UserID, progress Progress) (int, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return 0, err
	}
	if e.opts.Embedder == nil {
		return 0, factbase.Errorf(factbase.EINVALID, "no embedder is configured")
	}
	model := e.opts.Embedder.Model()
	var total int
	err := e.store.View(ctx, user, func(tx factbase.ReadTx) error {
		var err error
		total, err = tx.CountUnembedded(ctx, model)
		return err
	})
	if err != nil || total == 0 {
		return 0, err
	}
	done := 0
	for _, kind := range []string{factbase.KindFact, factbase.KindEpisode} {
		after := ""
		for {
			var ids, texts []string
			err := e.store.View(ctx, user, func(tx factbase.ReadTx) error {
				if kind == factbase.KindFact {
					facts, err := tx.UnembeddedFacts(ctx, model, after, reembedBatch)
					for _, f := range facts {
						ids, texts = append(ids, f.ID), append(texts, FactText(f))
					}
					return err
				}
				eps, err := tx.UnembeddedEpisodes(ctx, model, after, reembedBatch)
				for _, ep := range eps {
					ids, texts = append(ids, ep.ID), append(texts, ep.Content)
				}
				return err
			})
			if err != nil {
				return done, err
			}
			if len(ids) == 0 {
				break
			}
			vecs, err := e.opts.Embedder.Embed(ctx, texts)
			if err != nil {
				return done, err
			}
			if len(vecs) != len(ids) {
				return done, factbase.Errorf(factbase.EINTERNAL, "embedder returned %d vectors for %d texts", len(vecs), len(ids))
			}
			out := make([]factbase.Vector, 0, len(ids))
			for i, id := range ids {
				if len(vecs[i]) > 0 {
					out = append(out, factbase.Vector{Kind: kind, ID: id, Model: e.opts.Embedder.Model(), Vec: vecs[i]})
				}
			}
			err = e.store.Update(ctx, user, func(tx factbase.Tx) error {
				return tx.PutVectors(ctx, out)
			})
			if err != nil {
				return done, err
			}
			done += len(ids)
			after = ids[len(ids)-1]
			if progress != nil {
				progress(done, max(total, done))
			}
		}
	}
	return done, nil
}

// ReembedAll runs Reembed for every user of the store. progress, if not nil, is called with each user's progress.
// It returns the number of items embedded.
func (e *Engine) ReembedAll(ctx context.Context, progress func(user factbase.UserID, done, total int)) (int, error) {
	users, err := e.store.Users(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, u := range users {
		var p Progress
		if progress != nil {
			p = func(done, total int) { progress(u, done, total) }
		}
		k, err := e.Reembed(ctx, u, p)
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
