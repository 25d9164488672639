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
	case (hw == "goes" || hw == "go") && p.w(head+1) == "to" && p.schoolAt(head+2, false) > head+2,
		(hw == "attends" || hw == "attend") && p.schoolAt(head+1, false) > head+1:
		i := head + 1
		if p.w(i) == "to" {
			i++
		}
		return p.afterTail(p.emitSchool(st, i, p.schoolAt(i, false), hw+" <school>"))
	case (hw == "flies" || hw == "fly") && p.w(head+1) == "for" && p.properEnd(head+2) > head+2 && p.w(head+2) != "the":
		return p.employer(head+2, st, "flies for")
	case hw == "studies" || hw == "study":
		return p.study(head+1, st, "studies")
	case (hw == "started" || hw == "starts" || hw == "start") && p.w(head+1) == "at":
		return p.startedAt(head+2, st, false, "started at")
	case hw == "graduated" && p.w(head+1) == "from":
		return p.startedAt(head+2, st, true, "graduated from")
	case hw == "got" && p.w(head+1) == "into":
		return p.startedAt(head+2, st, true, "got into")
	case hw == "joined" || hw == "joins" || hw == "join":
		if p.properEnd(head+1) > head+1 && p.w(head+1) != "the" {
			st.corr = true
			return p.employer(head+1, st, "joined")
		}
	case jobVerbs[hw] && p.jobAt(head+1) > head+1:
		st.corr = true
		return p.employer(p.jobAt(head+1), st, hw+" a job at")
	case (hw == "got" || hw == "gets") && p.w(head+1) == "promoted":
		return p.promoted(head+2, st)
	case travelVerbs[hw]:
		if e := p.travel(head, st); e > head {
			return e
		}
		if scheduleVerbs[hw] {
			return p.schedule(head, p.activityStart(head), st)
		}
	case scheduleVerbs[hw]:
		if e := p.schedule(head, p.activityStart(head), st); e > head {
			return e
		}
		if hw == "teaches" || hw == "teach" {
			return p.teaches(head+1, st)
		}
		return head
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

// pastRule reads past forms that still state a current fact: "was born on ...",
// "was promoted to ...", "graduated from ...".
func (p *parser) pastRule(head int, st state) int {
	switch {
	case p.w(head) == "born" && st.cop:
		return p.bornRule(head+1, st)
	case p.w(head) == "promoted" && st.cop:
		return p.promoted(head+1, st)
	case p.w(head) == "graduated" && p.w(head+1) == "from":
		return p.startedAt(head+2, st, true, "graduated from")
	}
	return head
}

// jobVerbs take "a (new) job at X": "started a new job at Deloitte", "got a job at
// Canva".
var jobVerbs = map[string]bool{"started": true, "starts": true, "got": true, "gets": true, "took": true,
	"landed": true, "accepted": true, "found": true, "start": true}

// jobAt reads "a (new) job at" at i and returns the index of the employer, or i.
func (p *parser) jobAt(i int) int {
	j := i
	if p.w(j) != "a" && p.w(j) != "an" {
		return i
	}
	j++
	for p.w(j) == "new" || p.w(j) == "full-time" || p.w(j) == "part-time" || p.w(j) == "great" || p.w(j) == "better" {
		j++
	}
	if (p.w(j) == "job" || p.w(j) == "position" || p.w(j) == "role") && (p.w(j+1) == "at" || p.w(j+1) == "with") &&
		p.properEnd(j+2) > j+2 && p.w(j+2) != "the" {
		return j + 2
	}
	return i
}

// promoted reads what follows "got promoted" / "was promoted" at i: "to lead
// designer [at Figma]". A promotion is a change: it applies at once. The user's own
// promotion is kept too (the router reads no promotions).
func (p *parser) promoted(i int, st state) int {
	if p.w(i) == "," && (p.w(i+1) == "he" || p.w(i+1) == "she" || p.w(i+1) == "i") && (p.w(i+2) == "is" || p.w(i+2) == "am") {
		// "got promoted, he's design director now"
		i += 2
	} else if p.w(i) != "to" {
		return i
	}
	i++
	if p.w(i) == "a" || p.w(i) == "an" {
		i++
	}
	e := p.valueEnd(i, true, "at", "for", "in", "with", "after", "today", "yesterday", "last", "this", "now")
	if e == i || e-i > 5 {
		return i
	}
	for k := i; k < e; k++ {
		if p.t[k].kind != kWord || subjectPronouns[p.w(k)] {
			return i
		}
	}
	v := p.span(i, e)
	st.corr = true
	p.emitFx(*st.s, fx{key: factbase.KeyRole, value: v, rule: "promoted to", correction: true, userOK: true, text: func(x string) string {
		return x + " was promoted to " + v
	}})
	if p.w(e) == "at" && p.properEnd(e+1) > e+1 && p.w(e+1) != "the" {
		return p.employer(e+1, st, "promoted to ... at")
	}
	return p.afterTail(p.skipMarker(e))
}

// teaches reads "teaches chemistry": the subject is a teacher of it.
func (p *parser) teaches(i int, st state) int {
	e := p.fieldEnd(i)
	if e == i || e-i > 2 {
		return i
	}
	v := p.span(i, e) + " teacher"
	p.emitFx(*st.s, fx{key: factbase.KeyRole, value: v, rule: "teaches", correction: st.corr, text: func(x string) string {
		return x + " works as a " + v
	}})
	return p.afterTail(e)
}
