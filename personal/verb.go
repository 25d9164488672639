package personal

import (
	"strings"

	"github.com/factbase/factbase"
)

// verbRule reads a predicate headed by a verb.
func (p *parser) verbRule(head int, st state) int {
	s := *st.s
	hw := p.w(head)
	switch {
	case likeVerbs[hw]:
		if p.w(head+1) == "it" || p.w(head+1) == "that" || p.w(head+1) == "you" {
			return head
		}
		return p.likeObject(st, head+1, factbase.KeyLikes, hw)
	case dislikeVerbs[hw]:
		return p.likeObject(st, head+1, factbase.KeyDislikes, hw)
	case hw == "avoids" || hw == "avoid":
		i := head + 1
		if p.w(i) == "eating" || p.w(i) == "drinking" {
			i++
		}
		e := p.valueEnd(i, true)
		p.emitList(st, i, e, factbase.KeyAvoid, "avoids", "avoids")
		return e
	case hw == "suffers" || hw == "suffer":
		if p.w(head+1) == "from" {
			e := p.valueEnd(head+2, true)
			p.emitList(st, head+2, e, factbase.KeyCondition, "suffers from", "has")
			return e
		}
	case hw == "speaks" || hw == "speak":
		e := p.valueEnd(head+1, true, "at", "with", "to")
		n := 0
		for _, v := range p.listValues(head+1, e) {
			if lang, ok := languages[strings.ToLower(strings.TrimPrefix(v, "fluent "))]; ok {
				l := lang
				p.emitFx(s, fx{key: factbase.KeySpeaks, value: l, rule: "speaks", correction: st.corr, text: func(x string) string { return x + " speaks " + l }})
				n++
			}
		}
		if n > 0 {
			return e
		}
	case hw == "works" || hw == "work" || hw == "worked" && st.aux:
		switch p.w(head + 1) {
		case "at", "for":
			return p.employer(head+2, st, "works at")
		case "as":
			return p.workAs(head+2, st)
		}
		if e := p.schedule(head, head, st); e > head {
			return e
		}
	case hw == "lives" || hw == "live" || hw == "lived" && st.aux:
		if p.w(head+1) == "in" || p.w(head+1) == "at" {
			return p.homeCity(st, head+2, "lives in")
		}
	case hw == "moved" || hw == "moves" && st.future == false && p.w(head+1) == "to":
		if p.w(head+1) == "to" || p.w(head+1) == "back" && p.w(head+2) == "to" {
			i := head + 2
			if p.w(head+1) == "back" {
				i++
			}
			if m, _, _ := p.markerIn(st.s.clauseStart, p.clauseEnd(head)); m != nil && !m.Past && hw == "moves" {
				return p.travel(head, st)
			}
			st.corr = true
			return p.homeCity(st, i, "moved to")
		}
	case hw == "turned":
		if a, ok := ageNumber(p.w(head + 1)); ok {
			st.corr = true
			p.ageFacts(st, a)
			return head + 2
		}
	case hw == "turns":
		return p.plan(head, st)
	case hw == "has" || hw == "have" || hw == "had" && st.aux:
		return p.hasRule(head, st)
	case (hw == "takes" || hw == "take") && p.medicationAt(head+1):
		return p.medication(head+1, st)
	case travelVerbs[hw]:
		if e := p.travel(head, st); e > head {
			return e
		}
		if scheduleVerbs[hw] {
			return p.schedule(head, p.activityStart(head), st)
		}
	case scheduleVerbs[hw]:
		return p.schedule(head, p.activityStart(head), st)
	case hw == "eats" || hw == "eat":
		// "eats no meat", "only eats halal"
		if p.w(head+1) == "no" {
			e := p.valueEnd(head+2, true)
			p.emitList(st, head+2, e, factbase.KeyAvoid, "eats no", "does not eat")
			return e
		}
		if d, e := p.phraseIn(head+1, dietPhrase); e > head+1 {
			v := d
			p.emitFx(s, fx{key: factbase.KeyDiet, value: v, rule: "eats " + v, correction: st.corr, text: func(x string) string { return x + " is " + v }})
			return e
		}
	case hw == "got" && p.w(head+1) == "married":
		return head
	}
	return head
}

// hasRule reads predicates headed by "has/have": an allergy, a condition, a relation
// introduced ("I have a son named Leo"), a schedule, a plan.
func (p *parser) hasRule(head int, st state) int {
	s := *st.s
	i := head + 1
	if p.w(i) == "got" {
		i++
	}
	// "has a (severe) peanut allergy", "has allergies to X", "has an allergy to X"
	if e := p.hasAllergy(i, st); e > i {
		return e
	}
	if c, e := p.phraseIn(i, conditionNounPhrase); e > i {
		v := c
		p.emitFx(s, fx{key: factbase.KeyCondition, value: v, rule: "has <condition>", correction: st.corr, text: func(x string) string { return x + " has " + v }})
		return p.afterTail(e)
	}
	if s.isUser() || s.we {
		if e := p.relationIntro(i, st); e > i {
			return e
		}
	}
	return p.schedule(head, i, st)
}

// negativeRule reads a negated predicate that still states a fact: "can't eat
// gluten" (avoid), "doesn't like olives" (dislike), "can't stand cilantro".
func (p *parser) negativeRule(head int, st state) int {
	if st.past {
		return head
	}
	hw := p.w(head)
	switch {
	case eatVerbs[hw] && (st.aux || st.cop == false):
		i := head + 1
		if p.w(i) == "any" || p.w(i) == "anything" && p.w(i+1) == "with" {
			if p.w(i) == "anything" {
				i += 2
			} else {
				i++
			}
		}
		e := p.valueEnd(i, true, "because", "for", "anymore", "since")
		if e == i || objectPronouns[p.w(i)] {
			return head
		}
		p.emitList(st, i, e, factbase.KeyAvoid, "cannot eat", "does not eat")
		return e
	case hw == "like" || hw == "enjoy" || hw == "care" && p.w(head+1) == "for":
		if hw == "care" {
			head++
		}
		return p.likeObject(st, head+1, factbase.KeyDislikes, "does not like")
	case (hw == "stand" || hw == "bear") && st.aux:
		return p.likeObject(st, head+1, factbase.KeyDislikes, "cannot stand")
	case hw == "a" && p.w(head+1) == "fan" && p.w(head+2) == "of" && st.cop:
		return p.likeObject(st, head+3, factbase.KeyDislikes, "not a fan of")
	}
	return head
}

// pastRule reads past forms that still state a current fact: "was born on ...".
func (p *parser) pastRule(head int, st state) int {
	if p.w(head) == "born" && st.cop {
		return p.bornRule(head+1, st)
	}
	return head
}
