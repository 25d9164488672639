package personal

import (
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/normalize"
	"github.com/factbase/factbase/when"
)

// fx is one fact to emit.
type fx struct {
	key, value, rule string
	text             func(subject string) string
	marker           *when.Marker
	correction       bool
	userOK           bool                 // a user's basic the router does not read ("got promoted to ...")
	card             factbase.Cardinality // overrides the key's spec when set
	typ              string
}

// emit records facts of s (one per subject ref).
func (p *parser) emit(s subj, key, value, rule string, text func(string) string) {
	p.emitFx(s, fx{key: key, value: value, rule: rule, text: text, correction: s.correction})
}

// emitList emits a fact of key for each value listed in [i, e), about st's subject,
// whose text is "<subject> <says> <value>".
func (p *parser) emitList(st state, i, e int, key, rule, says string) {
	for _, v := range p.listValues(i, e) {
		p.emitFx(*st.s, fx{key: key, value: v, rule: rule, correction: st.corr, text: func(x string) string {
			return x + " " + says + " " + v
		}})
	}
}

func (p *parser) emitFx(s subj, f fx) {
	if p.dry {
		return
	}
	value := strings.TrimSpace(strings.Trim(strings.TrimSpace(f.value), ".,;:!?\"'()"))
	if value == "" || normalize.Value(value) == "" {
		return
	}
	spec, ok := specs[f.key]
	if !ok {
		if !strings.HasPrefix(f.key, factbase.FavoritesPrefix) {
			return
		}
		spec = keySpec{"preference", factbase.Ranked, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.9}
	}
	if f.card != "" {
		spec.card = f.card
	}
	if f.typ != "" {
		spec.typ = f.typ
	}
	if p.emitted == nil {
		p.emitted = map[string]bool{}
	}
	refs := s.refs
	if s.we && f.key == factbase.KeyPlan {
		// "my fiancé and I are getting married on June 20": the user's plan
		refs = []int{User}
	}
	for _, ref := range refs {
		if ref == User && !p.o.UserBasics && !f.userOK && routerKeys[f.key] && len(refs) == 1 {
			continue // the router writes the user's own basics, not "my brother and I ..."
		}
		if ref >= len(p.ex.Mentions) {
			continue
		}
		if ref != User && strings.HasPrefix(f.key, factbase.CommPrefix) {
			continue
		}
		dk := string(rune(ref+2)) + "\x00" + f.key + "\x00" + normalize.Value(value)
		if p.emitted[dk] {
			continue
		}
		p.emitted[dk] = true
		fact := Fact{About: ref, SaidBy: p.saidBy, Key: f.key, Value: value, Cardinality: spec.card,
			ValueType: spec.vt, Type: spec.typ, Category: spec.cat, Confidence: spec.conf, Durability: spec.dur,
			Sensitivity: spec.sens, Correction: f.correction, Rule: f.rule, Span: p.sentenceText(), text: f.text}
		if p.saidBy != User {
			fact.Confidence -= 0.05 // second-hand, but critical types stay at or above 0.9
			if (fact.Type == "allergy" || fact.Type == "medical" || fact.Type == "health") && fact.Confidence < 0.9 {
				fact.Confidence = 0.9
			}
		}
		if f.marker != nil {
			fact.Temporal = f.marker.Text
			a := f.marker.Anchor
			fact.Anchor = &a
			fact.Recur = f.marker.Recur
		}
		if fact.text == nil {
			fact.text = func(subject string) string { return subject + " " + f.key + ": " + value }
		}
		p.ex.Facts = append(p.ex.Facts, fact)
	}
}
