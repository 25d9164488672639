package core

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/normalize"
	"github.com/factbase/factbase/ranked"
)

// Apply is the one write path: it validates ops, executes them in one store
// transaction according to each key's cardinality, checks the invariants of every key
// it touched, and commits. On any error nothing is written. The counters in the Result
// are taken from what the statements did. It is Update with ops.
func (e *Engine) Apply(ctx context.Context, user factbase.UserID, ops []factbase.Op) (factbase.Result, error) {
	return e.ApplyWith(ctx, user, ops, nil)
}

// ApplyWith is Apply with a hook: after the ops and before the invariant checks, with
// runs in the same transaction, so that a feature can read what the ops did and write
// its own rows (an ingest checkpoint, entities, a job's completion) atomically with
// the facts. An error from with aborts everything. The ops' texts are embedded
// before the transaction: an embedder may be a remote service that takes seconds,
// and must not hold the writer's lock meanwhile.
func (e *Engine) ApplyWith(ctx context.Context, user factbase.UserID, ops []factbase.Op, with func(w *Writer) error) (factbase.Result, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return factbase.Result{}, err
	}
	if len(ops) == 0 && with == nil {
		return factbase.Result{Duplicates: []factbase.Duplicate{}, Mutations: []factbase.Mutation{}}, nil
	}
	p, err := e.PrepareWrite(ctx, ops) // before the transaction
	if err != nil {
		return factbase.Result{}, err
	}
	return e.ApplyPrepared(ctx, user, p, with)
}

// Update runs fn in one write transaction of user, so that a feature reads, decides
// and writes at one point in time: fn reads through w.Tx, writes facts through
// w.Apply (the write path) and a feature's own rows through w.Tx. The invariants of
// every key written are checked before commit; if fn or the check fails, or the
// commit does, nothing is kept. After a commit that changed the user's facts the fact
// sheet is regenerated (SheetAfter), unless fn called w.DeferSheet.
func (e *Engine) Update(ctx context.Context, user factbase.UserID, fn func(w *Writer) error) (factbase.Result, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return factbase.Result{}, err
	}
	return e.update(ctx, user, nil, fn)
}

// UpdateEmbedded is Update with vecs, the vectors of texts its writes may store,
// made before the transaction (EmbedOps, EmbedTexts) so that an embedder that is a
// remote service does not hold the writer's lock; w.Apply embeds only what vecs
// lacks.
func (e *Engine) UpdateEmbedded(ctx context.Context, user factbase.UserID, vecs *Vectors, fn func(w *Writer) error) (factbase.Result, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return factbase.Result{}, err
	}
	return e.update(ctx, user, vecs, fn)
}

// update runs fn in a write transaction with vecs, the vectors already made for the
// facts it may store.
func (e *Engine) update(ctx context.Context, user factbase.UserID, vecs *Vectors, fn func(w *Writer) error) (factbase.Result, error) {
	var (
		res factbase.Result
		w   *Writer
	)
	start := time.Now()
	err := e.store.Update(ctx, user, func(tx factbase.Tx) error {
		res = factbase.Result{Duplicates: []factbase.Duplicate{}, Mutations: []factbase.Mutation{}}
		w = &Writer{e: e, user: user, tx: tx, ctx: ctx, res: &res, touched: map[keyRef]*touch{}, vecs: vecs}
		if err := fn(w); err != nil {
			return err
		}
		// An erased value leaves no copy in the job queue: a job whose message or
		// result holds it loses them.
		if len(w.erased) > 0 {
			if _, err := tx.ScrubJobs(ctx, w.erased); err != nil {
				return err
			}
		}
		if e.opts.BeforeCheck != nil {
			if err := e.opts.BeforeCheck(ctx, tx); err != nil {
				return err
			}
		}
		return w.check()
	})
	e.metrics.observeApply(time.Since(start), res, err)
	if err != nil {
		return factbase.Result{}, err
	}
	// The facts as the store returns them name their owner; those the write built
	// (a new row, a moved member) name it here.
	for i := range res.Facts {
		res.Facts[i].User = user
	}
	if !w.deferSheet {
		e.SheetAfter(ctx, user, SheetChanged(res) || w.touchSheet)
	}
	if res.Deleted > 0 {
		e.Audit(ctx, factbase.AuditFactsDelete, user, "", map[string]int{"facts": res.Deleted})
		// Erased data leaves the store's files too where the store can (SQLite: the
		// write-ahead log, which still holds the rows' earlier pages, is truncated).
		// Best effort: the erasure has committed.
		if _, err := e.store.Purge(ctx); err != nil {
			e.backgroundError(fmt.Errorf("purge after an erasure: %w", err))
		}
	}
	return res, nil
}

// Writer writes inside one transaction of Update (or ApplyWith): facts through Apply,
// the write path, and a feature's own rows through Tx. It is valid only during the
// call that received it.
type Writer struct {
	e          *Engine
	user       factbase.UserID
	tx         factbase.Tx
	ctx        context.Context
	res        *factbase.Result
	touched    map[keyRef]*touch
	members    []factbase.MemberKey // values the bulk set insert wrote (transcript_bulk.go)
	vecs       *Vectors             // vectors made before the transaction
	deferSheet bool
	touchSheet bool
	erased     []string // ids and values of the facts erased, for ScrubJobs
}

// Tx returns the transaction, for reads and for a feature's own rows. Facts are
// written through Apply only.
func (w *Writer) Tx() factbase.Tx { return w.tx }

// Result returns what the transaction's ops did so far; a hook may add to it.
func (w *Writer) Result() *factbase.Result { return w.res }

// DeferSheet leaves the fact sheet alone after this transaction: a feature that
// writes in many transactions (an ingest) regenerates it once at the end with
// Engine.SheetAfter.
func (w *Writer) DeferSheet() { w.deferSheet = true }

// TouchSheet has the fact sheet regenerated after the commit although no fact
// changed: what it shows changed (an entity's name, which texts render at read time).
func (w *Writer) TouchSheet() { w.touchSheet = true }

// Apply validates ops and executes them in this transaction, as Engine.Apply does;
// their results add to Result. Texts not embedded before the transaction are
// embedded here.
func (w *Writer) Apply(ops ...factbase.Op) error {
	prepared, norms, err := w.e.prepareAll(ops)
	if err != nil {
		return err
	}
	var missing []factbase.Op
	for _, op := range prepared {
		if op.Kind == factbase.OpSet && !w.vecs.has(FactText(op.Fact)) {
			missing = append(missing, op)
		}
	}
	more, err := w.e.EmbedOps(w.ctx, missing)
	if err != nil {
		return err
	}
	w.vecs = w.vecs.merge(more)
	return w.applyPrepared(prepared, norms)
}

// applyPrepared executes prepared ops, norms[i] being ops[i]'s normalised value
// (prepareAll), then writes the vectors of the facts they stored and the references
// of the facts they stored or restated.
func (w *Writer) applyPrepared(ops []factbase.Op, norms []string) error {
	facts, dups := len(w.res.Facts), len(w.res.Duplicates)
	if err := w.applyOps(ops, norms); err != nil { // see transcript_bulk.go
		return err
	}
	if err := w.e.indexFacts(w.ctx, w.tx, w.res.Facts[facts:], w.vecs); err != nil {
		return err
	}
	return writeReferences(w.ctx, w.tx, ops, norms, w.res.Facts[facts:], w.res.Duplicates[dups:]) // see reference.go
}

// touch records what the transaction did to one key, for the invariant checks.
type touch struct {
	card  factbase.Cardinality
	norms map[string]bool
}

func (w *Writer) touch(subject, key string, card factbase.Cardinality, norm string) {
	k := keyRef{subject, key}
	t := w.touched[k]
	if t == nil {
		t = &touch{card: card, norms: map[string]bool{}}
		w.touched[k] = t
	}
	if norm != "" {
		t.norms[norm] = true
	}
}

// apply executes one prepared op; norm is its value normalised (prepareAll).
func (w *Writer) apply(op factbase.Op, norm string) error {
	switch op.Kind {
	case factbase.OpSet:
		switch op.Fact.Cardinality {
		case factbase.One:
			return w.setOne(op.Fact, norm)
		case factbase.Many:
			return w.addMember(op.Fact, norm)
		default:
			return w.setRanked(op.Fact, norm)
		}
	case factbase.OpRemove:
		return w.remove(op.Fact, norm)
	case factbase.OpRetract:
		return w.retract(op)
	default:
		return w.erase(op)
	}
}

// newFact completes a fact template into a row to insert.
func (w *Writer) newFact(f factbase.Fact) factbase.Fact {
	now := w.tx.Now()
	f.ID = w.e.opts.NewID()
	f.User = ""
	f.RecordedAt = now
	if f.ValidFrom.IsZero() || f.ValidFrom.After(now) {
		f.ValidFrom = now
	}
	f.ValidTo = nil
	f.Supersedes, f.SupersededBy = "", ""
	f.Current = true
	if f.Cardinality != factbase.Ranked {
		f.Rank = 0
	}
	return f
}

func (w *Writer) insert(f factbase.Fact, norm string) error {
	if err := w.tx.Insert(w.ctx, f, norm); err != nil {
		return err
	}
	w.res.Stored++
	w.res.Facts = append(w.res.Facts, f)
	return nil
}

// setOne writes a single-valued fact: latest wins, the previous version is kept.
func (w *Writer) setOne(f factbase.Fact, norm string) error {
	w.touch(f.Subject, f.Key, factbase.One, norm)
	cur, ok, err := w.tx.Current(w.ctx, f.Subject, f.Key)
	if err != nil {
		return err
	}
	if ok && normalize.Value(cur.Value) == norm {
		w.duplicate(cur, 0)
		return nil
	}
	nf := w.newFact(f)
	if ok {
		if err := w.tx.End(w.ctx, cur.ID, nf.RecordedAt, nf.ID); err != nil {
			return err
		}
		nf.Supersedes = cur.ID
		w.res.Updated++
	}
	return w.insert(nf, norm)
}

// duplicate records that an op restated the stored fact f, which stays as it is;
// rank is the rank the result reports (a ranked member's, else 0).
func (w *Writer) duplicate(f factbase.Fact, rank int) {
	w.res.Duplicates = append(w.res.Duplicates, factbase.Duplicate{Key: f.Key, Value: f.Value, Rank: rank, FactID: f.ID})
	w.res.Facts = append(w.res.Facts, f)
}

// member marks f's key touched as a key of cardinality card and looks up its
// current member equal to f's value, norm being that value normalised.
func (w *Writer) member(f factbase.Fact, card factbase.Cardinality, norm string) (m factbase.Fact, ok bool, err error) {
	w.touch(f.Subject, f.Key, card, norm)
	return w.tx.Member(w.ctx, f.Subject, f.Key, norm)
}

// addMember adds a value to a set unless an equal value is present.
func (w *Writer) addMember(f factbase.Fact, norm string) error {
	m, ok, err := w.member(f, factbase.Many, norm)
	if err != nil {
		return err
	}
	if ok {
		w.duplicate(m, 0)
		return nil
	}
	return w.insert(w.newFact(f), norm)
}

// setRanked appends a value to a ranked list (Rank 0) or places it at Rank.
func (w *Writer) setRanked(f factbase.Fact, norm string) error {
	m, present, err := w.member(f, factbase.Ranked, norm)
	if err != nil {
		return err
	}
	if present && m.Cardinality != factbase.Ranked {
		return factbase.Errorf(factbase.ECONFLICT, "key %q holds an unranked set; it cannot take a rank", f.Key)
	}
	if present && f.Rank == 0 {
		w.duplicate(m, m.Rank)
		return nil
	}
	n, err := w.tx.MaxRank(w.ctx, f.Subject, f.Key)
	if err != nil {
		return err
	}
	var plan ranked.Plan
	if f.Rank == 0 {
		plan, _ = ranked.Add(n, 0)
	} else {
		cur := 0
		if present {
			cur = m.Rank
		}
		if plan, err = ranked.Set(n, cur, f.Rank); err != nil {
			return err
		}
	}
	mut := factbase.Mutation{Key: f.Key, Value: f.Value, Action: plan.Action, From: plan.From, To: plan.To}
	switch plan.Action {
	case factbase.NoOp:
		mut.Value = m.Value
		w.res.Mutations = append(w.res.Mutations, mut)
		w.res.Facts = append(w.res.Facts, m)
		return nil
	case factbase.Move:
		if err := w.tx.MoveTo(w.ctx, m, plan.To); err != nil {
			return err
		}
		mut.Value, mut.Shifted = m.Value, plan.Shifted()
		m.Rank = plan.To
		w.res.Facts = append(w.res.Facts, m)
	case factbase.Insert, factbase.Append:
		mut.Shifted = plan.Shifted() // the Insert below moves them down
		nf := w.newFact(f)
		nf.Rank = plan.To
		if err := w.insert(nf, norm); err != nil {
			return err
		}
		m = nf
	default:
		return factbase.Errorf(factbase.EINTERNAL, "unexpected plan action %q", plan.Action)
	}
	w.res.Mutations = append(w.res.Mutations, mut)
	return w.tx.AddListEvent(w.ctx, factbase.ListEvent{At: w.tx.Now(), Subject: f.Subject, Key: f.Key,
		Action: plan.Action, FactID: m.ID, Value: m.Value, From: plan.From, To: plan.To})
}

// remove takes a value out of a list, set or single-valued key; ranks close up.
func (w *Writer) remove(f factbase.Fact, norm string) error {
	var (
		m   factbase.Fact
		ok  bool
		err error
	)
	if f.Cardinality == factbase.One {
		m, ok, err = w.tx.Current(w.ctx, f.Subject, f.Key)
		ok = ok && normalize.Value(m.Value) == norm
	} else {
		m, ok, err = w.tx.Member(w.ctx, f.Subject, f.Key, norm)
	}
	if err != nil {
		return err
	}
	if !ok {
		return factbase.Errorf(factbase.ENOTFOUND, "%q is not in %s", f.Value, f.Key)
	}
	return w.end(m)
}

// end ends a current fact's validity; a ranked member leaves its list.
func (w *Writer) end(m factbase.Fact) error {
	w.touch(m.Subject, m.Key, m.Cardinality, "")
	n, err := w.listLength(m)
	if err != nil {
		return err
	}
	now := w.tx.Now()
	if err := w.tx.End(w.ctx, m.ID, now, ""); err != nil {
		return err
	}
	w.res.Retracted++
	m.Current, m.ValidTo = false, &now
	w.res.Facts = append(w.res.Facts, m)
	if m.Cardinality != factbase.Ranked {
		return nil
	}
	return w.closeUp(m, n, false)
}

// listLength returns the length of current ranked member m's list, read before m
// leaves it (0 for any other fact).
func (w *Writer) listLength(m factbase.Fact) (int, error) {
	if !m.Current || m.Cardinality != factbase.Ranked {
		return 0, nil
	}
	return w.tx.MaxRank(w.ctx, m.Subject, m.Key)
}

// closeUp closes the gap a ranked member left in its list of n members and, unless
// the member was erased, records the removal as a list event. An erased member's
// events go with it (Erase); an event naming it would keep its value in the store.
func (w *Writer) closeUp(m factbase.Fact, n int, erased bool) error {
	if m.Rank > n { // a broken list: let the invariant check name it
		n = m.Rank
	}
	plan, err := ranked.Remove(n, m.Rank)
	if err != nil {
		return err
	}
	// The store closed the gap when m left (End, Erase): the members after it moved up.
	mut := factbase.Mutation{Key: m.Key, Value: m.Value, Action: factbase.Remove, From: plan.From, Shifted: plan.Shifted()}
	w.res.Mutations = append(w.res.Mutations, mut)
	if erased {
		return nil
	}
	return w.tx.AddListEvent(w.ctx, factbase.ListEvent{At: w.tx.Now(), Subject: m.Subject, Key: m.Key,
		Action: factbase.Remove, FactID: m.ID, Value: m.Value, From: plan.From})
}

// retract ends the validity of one fact by id, or of a key's current facts.
func (w *Writer) retract(op factbase.Op) error {
	if op.ID != "" {
		f, err := w.tx.Fact(w.ctx, op.ID)
		if err != nil {
			return err
		}
		if !f.Current {
			return factbase.Errorf(factbase.ECONFLICT, "fact %q is not current; there is nothing to retract", op.ID)
		}
		return w.end(f)
	}
	facts, err := w.keyFacts(op, false)
	if err != nil {
		return err
	}
	for _, f := range facts {
		if err := w.end(f); err != nil {
			return err
		}
	}
	return nil
}

// keyFacts reads the facts of op's key, the current ones or (history) every
// version, from the last rank up, so that undoing a list from its end needs no
// shifting. ENOTFOUND when there are none.
func (w *Writer) keyFacts(op factbase.Op, history bool) ([]factbase.Fact, error) {
	facts, err := w.tx.Facts(w.ctx, factbase.FactFilter{Subject: op.Fact.Subject, Key: op.Fact.Key, History: history})
	if err != nil {
		return nil, err
	}
	if len(facts) == 0 {
		what := "current facts"
		if history {
			what = "facts"
		}
		return nil, factbase.Errorf(factbase.ENOTFOUND, "no %s for %s", what, op.Fact.Key)
	}
	slices.SortStableFunc(facts, func(a, b factbase.Fact) int { return cmp.Compare(b.Rank, a.Rank) })
	return facts, nil
}

// erase deletes one fact by id, or every version of a key, history included.
func (w *Writer) erase(op factbase.Op) error {
	var (
		facts []factbase.Fact
		err   error
	)
	if op.ID != "" {
		var f factbase.Fact
		f, err = w.tx.Fact(w.ctx, op.ID)
		facts = []factbase.Fact{f}
	} else {
		facts, err = w.keyFacts(op, true)
	}
	if err != nil {
		return err
	}
	for _, f := range facts {
		w.touch(f.Subject, f.Key, f.Cardinality, "")
		length, err := w.listLength(f)
		if err != nil {
			return err
		}
		n, err := w.tx.Erase(w.ctx, f.ID)
		if err != nil {
			return err
		}
		w.res.Deleted += n
		if n > 0 {
			w.erased = append(w.erased, f.ID, f.Value)
		}
		if f.Current && f.Cardinality == factbase.Ranked && n > 0 {
			if err := w.closeUp(f, length, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// check verifies the invariants of every key the transaction touched.
func (w *Writer) check() error {
	if err := w.checkMembers(); err != nil {
		return err
	}
	for k, t := range w.touched {
		// Each KeyStats call checks the whole key; with touched values, one call per
		// value also covers the key, so the bare call is needed only without any.
		if len(t.norms) == 0 {
			if err := w.checkKey(k, t, ""); err != nil {
				return err
			}
		}
		for norm := range t.norms {
			if err := w.checkKey(k, t, norm); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *Writer) checkKey(k keyRef, t *touch, norm string) error {
	s, err := w.tx.KeyStats(w.ctx, k.subject, k.key, norm)
	if err != nil {
		return err
	}
	fail := func(format string, args ...any) error {
		w.e.metrics.invariantViolation()
		return factbase.Errorf(factbase.EINVARIANT, "invariant violated for %s: "+format, append([]any{k.key}, args...)...)
	}
	if norm != "" && s.NormCount > 1 {
		return fail("the value %q appears %d times", norm, s.NormCount)
	}
	switch t.card {
	case factbase.One:
		if s.Current > 1 {
			return fail("%d current facts for a single-valued key", s.Current)
		}
	case factbase.Ranked:
		// Ranks are unique (a unique index), so they are exactly 1..N iff the lowest
		// is 1 and the highest is the member count the database keeps.
		if s.Members > 0 && s.MinRank != 1 || s.MaxRank != s.Members {
			return fail("ranks are not exactly 1..%d (lowest %d, highest %d)", s.Members, s.MinRank, s.MaxRank)
		}
	}
	return nil
}
