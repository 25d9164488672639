package chat

import (
	"context"
	"strings"
	"unicode"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/normalize"
	"github.com/factbase/factbase/router"
)

// correctable reports whether Say may read the message as an elliptical correction
// (router.Correction) of the previous one: nothing else in it is stored, save the
// removal of the wrong value it names ("Actually, it's Norwegian, not Danish").
func correctable(p router.Result, pp people.PersonalPlan, fix router.Fix) bool {
	if p.Route == router.RouteRead || len(pp.Facts) > 0 || len(pp.Created) > 0 || len(pp.Updated) > 0 || len(pp.Conflicts) > 0 {
		return false
	}
	if len(pp.Ended) != len(pp.Ops) {
		return false
	}
	for _, st := range p.Statements {
		if st.Kind != router.Remove || fix.Not == "" {
			return false
		}
		for _, v := range st.Values {
			if normalize.Value(v) != normalize.Value(fix.Not) {
				return false
			}
		}
	}
	return true
}

// correct applies fix to the one fact the user's previous message stored that it
// fits; done is false, and nothing is written, when no single fact fits it.
func (s *Service) correct(ctx context.Context, user factbase.UserID, fix router.Fix, pp people.PersonalPlan) (out SayResult, done bool, err error) {
	var target factbase.Fact
	var found bool
	err = s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		recent, err := tx.Facts(ctx, factbase.FactFilter{NewestFirst: true, Limit: 32})
		if err != nil {
			return err
		}
		target, found = correctionTarget(recent, fix)
		return nil
	})
	if err != nil || !found {
		return SayResult{}, false, err
	}
	for _, e := range pp.Ended {
		if e.ID != target.ID {
			return SayResult{}, false, nil // the message ends another fact as well
		}
	}
	set := factbase.Fact{Subject: target.Subject, Key: target.Key, Value: fix.Value, Type: target.Type,
		Category: target.Category, Confidence: target.Confidence, Scope: target.Scope,
		Durability: target.Durability, Sensitivity: target.Sensitivity, SaidBy: target.SaidBy,
		Temporal: target.Temporal, Anchor: target.Anchor, Extractor: target.Extractor,
		Source: factbase.Source{Kind: factbase.SourceMessage}}
	if strings.Contains(target.Text, target.Value) {
		set.Text = strings.Replace(target.Text, target.Value, fix.Value, 1)
	}
	ops := []factbase.Op{{Kind: factbase.OpRetract, ID: target.ID}, {Kind: factbase.OpSet, Fact: set}}
	vecs, err := s.core.EmbedOps(ctx, ops)
	if err != nil {
		return SayResult{}, false, err
	}
	res, err := s.core.UpdateEmbedded(ctx, user, vecs, func(w *core.Writer) error { return w.Apply(ops...) })
	if err != nil {
		return SayResult{}, false, err
	}
	res.Facts = nil
	out = SayResult{Route: router.RouteWrite, Result: res, Reply: "Corrected: " + fix.Value + ", not " + target.Value + "."}
	for _, op := range ops {
		out.Ops = append(out.Ops, OpView{Kind: op.Kind, Key: target.Key, Value: op.Fact.Value})
	}
	out.Ops[0].Value = target.Value
	return out, true, nil
}

// correctionTarget picks the fact fix corrects among the user's current facts,
// newest first: one of those the last write stored (the previous message's), the
// one holding the wrong value when fix names it, else the only one, and only when
// the right value has the shape of the wrong one (a number for a number, an address
// for an address, a name for a name). Relations, ranked lists and dated plans are
// never corrected this way: a relation is who someone is, and a list or a plan has
// commands of its own.
func correctionTarget(recent []factbase.Fact, fix router.Fix) (factbase.Fact, bool) {
	if len(recent) == 0 {
		return factbase.Fact{}, false
	}
	var cands []factbase.Fact
	for _, f := range recent {
		if !f.RecordedAt.Equal(recent[0].RecordedAt) {
			break
		}
		if f.Key == factbase.KeyRelation || f.Key == factbase.KeyPlan || f.Key == factbase.KeyTravel ||
			f.Key == factbase.KeySchedule || f.Cardinality == factbase.Ranked || f.Source.Kind != factbase.SourceMessage {
			continue
		}
		if fix.Not != "" && normalize.Value(f.Value) != normalize.Value(fix.Not) {
			continue
		}
		cands = append(cands, f)
	}
	if len(cands) != 1 {
		return factbase.Fact{}, false
	}
	f := cands[0]
	if normalize.Value(f.Value) == normalize.Value(fix.Value) || !sameShape(f.Value, fix.Value, fix.Strong) {
		return factbase.Fact{}, false
	}
	return f, true
}

// sameShape reports whether the right value can stand where the wrong one stood:
// a phone number for a phone number, an address for an address, a capitalised
// name for one; strong corrections may also put a word for a word.
func sameShape(old, value string, strong bool) bool {
	phone := func(s string) bool {
		d := 0
		for _, r := range s {
			switch {
			case unicode.IsDigit(r):
				d++
			case unicode.IsLetter(r):
				return false
			}
		}
		return d >= 5
	}
	email := func(s string) bool { return strings.Count(s, "@") == 1 && !strings.ContainsAny(s, " \t") }
	upper := func(s string) bool { r := []rune(s); return len(r) > 0 && unicode.IsUpper(r[0]) }
	switch {
	case phone(old) || phone(value):
		return phone(old) && phone(value)
	case email(old) || email(value):
		return email(old) && email(value)
	case upper(old) || upper(value):
		return upper(old) && upper(value)
	}
	return strong
}
