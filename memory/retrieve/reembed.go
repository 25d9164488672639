package retrieve

import (
	"context"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
)

// reembedBatch is how many items Reembed embeds and writes per transaction.
const reembedBatch = 256

// Reembed gives every indexed fact and episode of the user that has no vector of the
// engine's embedder model (none yet, or one of an earlier model) a vector of it, in
// batches: each batch is embedded outside any transaction and written in one, so an
// interrupted run resumes where it stopped. progress, if not nil, is called after
// each batch. It returns the number of items embedded. EINVALID if the engine has no
// embedder.
func (s *Service) Reembed(ctx context.Context, user factbase.UserID, progress core.Progress) (int, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return 0, err
	}
	if s.core.Embedder() == nil {
		return 0, factbase.Errorf(factbase.EINVALID, "no embedder is configured")
	}
	model := s.core.Embedder().Model()
	total, err := core.Read(ctx, s.core, user, func(tx factbase.ReadTx) (int, error) { return tx.CountUnembedded(ctx, model) })
	if err != nil || total == 0 {
		return 0, err
	}
	done := 0
	for _, kind := range []string{factbase.KindFact, factbase.KindEpisode} {
		after := ""
		for {
			var ids, texts []string
			err := s.core.View(ctx, user, func(tx factbase.ReadTx) error {
				if kind == factbase.KindFact {
					facts, err := tx.UnembeddedFacts(ctx, model, after, reembedBatch)
					for _, f := range facts {
						ids, texts = append(ids, f.ID), append(texts, core.FactText(f))
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
			vecs, err := s.core.Embedder().Embed(ctx, texts)
			if err != nil {
				return done, err
			}
			if len(vecs) != len(ids) {
				return done, factbase.Errorf(factbase.EINTERNAL, "embedder returned %d vectors for %d texts", len(vecs), len(ids))
			}
			out := make([]factbase.Vector, 0, len(ids))
			for i, id := range ids {
				if len(vecs[i]) > 0 {
					out = append(out, factbase.Vector{Kind: kind, ID: id, Model: s.core.Embedder().Model(), Vec: vecs[i]})
				}
			}
			_, err = s.core.Update(ctx, user, func(w *core.Writer) error {
				return w.Tx().PutVectors(ctx, out)
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
func (s *Service) ReembedAll(ctx context.Context, progress func(user factbase.UserID, done, total int)) (int, error) {
	users, err := s.core.Store().Users(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, u := range users {
		var p core.Progress
		if progress != nil {
			p = func(done, total int) { progress(u, done, total) }
		}
		k, err := s.Reembed(ctx, u, p)
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
