package core

import (
	"context"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/normalize"
)

// writeReferences records, inside the write path's transaction, that the facts ops
// stored or restated were extracted: one reference, at the transaction's time, per
// current fact of facts (new facts, duplicates blocked, ranked NOOPs and MOVEs) and
// per blocked duplicate, at most one per fact per call. Facts the
// transaction ended are not referenced. A restated fact's reference names the
// source of the op that restated it (the first op of the fact's subject, key and
// normalised value); a new fact's, its own source. norms[i] is ops[i]'s value
// normalised.
func writeReferences(ctx context.Context, tx factbase.Tx, ops []factbase.Op, norms []string, facts []factbase.Fact, dups []factbase.Duplicate) error {
	if len(facts) == 0 && len(dups) == 0 {
		return nil
	}
	// The source of each (subject, key, normalised value) the ops set, first op
	// first; and of each (key, normalised value), for a duplicate, which names no
	// subject.
	type skv struct{ subject, key, norm string }
	sources := make(map[skv]factbase.Source, len(ops))
	byKey := make(map[skv]factbase.Source, len(ops))
	for i, op := range ops {
		if op.Kind != factbase.OpSet {
			continue
		}
		k := skv{op.Fact.Subject, op.Fact.Key, norms[i]}
		if _, ok := sources[k]; !ok {
			sources[k] = op.Fact.Source
		}
		k.subject = ""
		if _, ok := byKey[k]; !ok {
			byKey[k] = op.Fact.Source
		}
	}
	seen := make(map[string]bool, len(facts))
	refs := make([]factbase.Reference, 0, len(facts))
	add := func(id string, k skv, from map[skv]factbase.Source, own factbase.Source) {
		if id == "" || seen[id] {
			return
		}
		seen[id] = true
		k.norm = normalize.Value(k.norm)
		src, ok := from[k]
		if !ok {
			src = own
		}
		refs = append(refs, factbase.Reference{FactID: id, At: tx.Now(), Source: src})
	}
	for _, f := range facts {
		if f.Current {
			add(f.ID, skv{f.Subject, f.Key, f.Value}, sources, f.Source)
		}
	}
	for _, d := range dups {
		add(d.FactID, skv{"", d.Key, d.Value}, byKey, factbase.Source{})
	}
	_, err := tx.AddReferences(ctx, refs)
	return err
}

// RecordReferences records that the facts ids were used, by src (for an answer:
// Source{Kind: factbase.SourceAnswer}), through the write path: one reference per
// distinct id, at the store's time. Ids the user does not have are skipped; it returns
// how many references it stored.
func (e *Engine) RecordReferences(ctx context.Context, user factbase.UserID, ids []string, src factbase.Source) (int, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return 0, err
	}
	seen := make(map[string]bool, len(ids))
	var uniq []string
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			uniq = append(uniq, id)
		}
	}
	if len(uniq) == 0 {
		return 0, nil
	}
	if len(uniq) > MaxOps {
		return 0, factbase.Errorf(factbase.EINVALID, "%d references in one write; the limit is %d", len(uniq), MaxOps)
	}
	var stored int
	_, err := e.Update(ctx, user, func(w *Writer) error {
		refs := make([]factbase.Reference, len(uniq))
		for i, id := range uniq {
			refs[i] = factbase.Reference{FactID: id, At: w.Tx().Now(), Source: src}
		}
		n, err := w.Tx().AddReferences(ctx, refs)
		stored = n
		return err
	})
	return stored, err
}

// ReferenceAnswer records that an answer used the facts ids: a reference, source
// "answer", to each. With Options.BackgroundDelay the references are batched in the
// background, so a question never waits for the store's writer.
func (e *Engine) ReferenceAnswer(ctx context.Context, user factbase.UserID, ids []string) error {
	if e.bg != nil && e.bg.add(user, ids, time.Now()) {
		return nil
	}
	_, err := e.RecordReferences(ctx, user, ids, factbase.Source{Kind: factbase.SourceAnswer})
	return err
}
