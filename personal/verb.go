package personal

import (
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/when"
)

// verbRule reads a predicate headed by a verb.
func (p *parser) verbRule(head int, st state) int {
	s := *st.s
	hw := p.w(head)
	if e := p.verbFirst(head, st); e > head {
		return e
	}
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
		if e := p.languagesAt(head+1, st, factbase.KeySpeaks, "speaks"); e > head+1 {
			return e
		}
	case (hw == "started" || hw == "began" || hw == "start" || hw == "starts") && p.w(head+1) == "learning",
		hw == "learns" || hw == "learn":
		i := head + 1
		if p.w(i) == "learning" {
			i++
		}
		return p.learning(i, st)
	case hw == "sold" || hw == "sells" || hw == "sell":
		// "sold the Focus and bought a Kia EV6": nothing to keep, but the next
		// predicate continues after it
		if _, e := p.vehicleAt(head+1, true); e > head+1 {
			return e
		}
	case (hw == "commute" || hw == "commutes") && (p.w(head+1) == "on" || p.w(head+1) == "by"):
		return p.commute(head+2, st)
	case (hw == "taken" || hw == "took" || hw == "take" || hw == "takes" || hw == "picked") && p.w(head+1) == "up":
		return p.hobbyObject(head+2, st, "took up")
	case (hw == "sings" || hw == "sing") && p.w(head+1) == "in" && (p.w(head+2) == "a" || p.w(head+2) == "the") &&
		(p.w(head+3) == "choir" || p.w(head+3) == "band" || p.w(head+3) == "chorus"):
		p.emitFx(s, fx{key: factbase.KeyHobby, value: p.span(head+3, head+4), rule: "sings in a choir", correction: st.corr})
		return head + 4
	case (hw == "takes" || hw == "take") && p.doseOf(head+1) > head+1:
		return p.medication(p.doseOf(head+1), st)
	case (hw == "uses" || hw == "use") && p.medicationAt(head+1):
		return p.medication(head+1, st)
	case hw == "got" && p.w(head+1) == "engaged" && p.w(head+2) == "to":
		return p.engagedTo(head+3, st)
	case hw == "works" || hw == "work" || hw == "worked" && st.aux:
		k := head + 1
		for workManners[p.w(k)] {
			k++ // "works nights at", "works remotely for"
		}
		switch p.w(k) {
		case "at", "for":
			return p.employer(k+1, st, "works at")
		case "as":
			return p.workAs(k+1, st)
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
		if e := p.turns(head, st); e > head {
			return e
		}
		return p.plan(head, st)
	case (hw == "adopted" || hw == "rescued" || hw == "got" || hw == "brought" && p.w(head+1) == "home") && !st.neg && !st.hypo &&
		p.petAt(head+1+b2i(hw == "brought")):
		// "We adopted two kittens, Salt and Pepper", "I just brought home a kitten
		// named Mochi": a pet joins the family
		i := head + 1 + b2i(hw == "brought")
		return max(p.petAcquired(i, st), i)
	case (hw == "named" || hw == "called") && (st.s.isUser() || st.s.we) && !st.neg && !st.hypo:
		// "We named our dog Pixel"
		if e := p.petNamed(head + 1); e > head+1 {
			return e
		}
	case hw == "has" || hw == "have" || hw == "had" && st.aux || hw == "got" && (p.w(head+1) == "a" || p.w(head+1) == "an") && p.jobAt(head+1) == head+1:
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
	case hw == "retired" && !st.aux:
		// "Dad just retired", "I retired from teaching last year"
		p.emitFx(s, fx{key: factbase.KeyRole, value: "retired", rule: "retired", correction: true, userOK: true, text: func(x string) string { return x + " is retired" }})
		if p.w(head+1) == "from" {
			return p.clauseEnd(head + 1)
		}
		return head + 1
	case hw == "started" && p.gradeEnd(head+1) > head+1:
		// "Max started kindergarten this week"
		g, e := p.gradeAt(head + 1)
		p.emitGrade(st, g, "started <grade>")
		return p.afterTail(p.skipMarker(e))
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
		if hw == "takes" || hw == "take" {
			p.languageClasses(head+1, st)
		}
		if e := p.schedule(head, p.activityStart(head), st); e > head {
			return e
		}
		if hw == "plays" || hw == "play" {
			return p.hobbyObject(head+1, st, "plays")
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
			return p.conditionBecause(e, st)
		}
	case hw == "got" && p.w(head+1) == "married":
		return p.married(head+2, st)
	}
	return head
}

// verbFirst reads the verb rules that, when they read nothing, leave the verb to the
// others: "drives a Volvo" (else a trip), "starts kindergarten in September".
func (p *parser) verbFirst(head int, st state) int {
	hw := p.w(head)
	if hw == "drives" || hw == "drive" || hw == "rides" || hw == "ride" || vehicleBuyVerbs[hw] {
		if e := p.vehicleVerb(head+1, st, !vehicleBuyVerbs[hw], hw); e > head+1 {
			return e
		}
	}
	switch {
	case hw == "starts" || hw == "start" || hw == "begins":
		return p.plan(head, st)
	case hw == "booked" || hw == "booking":
		return p.booked(head, st)
	case hw == "gets" || hw == "get":
		if e := p.condition(head+1, st, "gets <condition>"); e > head+1 {
			return e
		}
	case (hw == "struggles" || hw == "struggle" || hw == "lives" || hw == "live" || hw == "deals" || hw == "deal") && p.w(head+1) == "with":
		if e := p.condition(head+2, st, hw+" with <condition>"); e > head+2 {
			return e
		}
	case (hw == "broke" || hw == "broken") && possessives[p.w(head+1)] && bodyParts[p.w(head+2)]:
		v := "broken " + p.span(head+2, head+3)
		p.emitFx(*st.s, fx{key: factbase.KeyCondition, value: v, rule: "broke my <body part>", correction: st.corr, text: func(x string) string { return x + " has a " + v }})
		return head + 3
	case hw == "became" || hw == "become" || hw == "went" || hw == "gone" || hw == "do" || hw == "does" || hw == "doing":
		i := head + 1
		for p.w(i) == "fully" || p.w(i) == "full" || p.w(i) == "completely" || p.w(i) == "strictly" || p.w(i) == "a" {
			i++
		}
		if d, e := p.phraseIn(i, dietPhrase); e > i {
			v := d
			st.corr = st.corr || hw == "became" || hw == "become" || hw == "went" || hw == "gone"
			p.emitFx(*st.s, fx{key: factbase.KeyDiet, value: v, rule: hw + " <diet>", correction: st.corr, text: func(x string) string { return x + " is " + v }})
			return p.conditionBecause(p.afterTail(e), st)
		}
	case petVerbs[hw] && (p.w(head+1) == "a" || p.w(head+1) == "an"):
		_, _, k, ok := p.relationAt(head + 2)
		if _, age := p.modifiersAt(head + 2); !ok && age > head+2 {
			_, _, k, ok = p.relationAt(age)
		}
		if ok && relations[p.w(k-1)].role == factbase.RolePet {
			owner := User
			if !st.s.isUser() && !st.s.we {
				if len(st.s.refs) != 1 {
					return head
				}
				owner = st.s.refs[0]
			}
			return p.relationIntroOf(head+1, st, owner)
		}
	}
	if hw == "got" || hw == "have" || hw == "has" || hw == "bought" || hw == "booked" {
		if e := p.tickets(head+1, st); e > head+1 {
			return e
		}
	}
	return head
}

// engagedTo reads "Luis got engaged to Marisol" (i at the name): Marisol is Luis's
// fiancée. The user's own engagement is read by "I'm engaged to".
func (p *parser) engagedTo(i int, st state) int {
	s := *st.s
	name, e := p.name(i)
	if e == i || len(s.refs) != 1 || p.dry {
		return i
	}
	owner := s.refs[0]
	if owner == User {
		return p.partnerName(i, "engaged")
	}
	word := "fiance"
	switch p.ex.Mentions[owner].Gender {
	case "male":
		word = "fiancée"
	case "female":
		word = "fiancé"
	}
	idx := p.mention(Mention{Name: name, Owner: owner, Span: p.span(i, e)})
	p.setRelation(idx, relations[word], word, owner, p.ownerLabel(owner))
	return e
}

// married reads "Lucas and I got married on June 9, 2018" (i after "married"): the
// other one is the user's spouse, the day the anniversary.
func (p *parser) married(i int, st state) int {
	s := *st.s
	if !s.we || len(s.refs) != 2 {
		return i
	}
	other := s.refs[0]
	if other == User {
		other = s.refs[1]
	}
	if other < 0 || p.dry {
		return i
	}
	if p.ex.Mentions[other].Relation == "" {
		p.setRelation(other, relations["spouse"], "spouse", User, "")
	}
	m, e := p.markerAt(i)
	if m == nil || m.Grain != when.Day || m.Recur != when.Once {
		return i
	}
	mm := *m
	mm.Recur = when.Yearly
	if !p.o.Now.IsZero() {
		mm.Anchor = when.NextYearly(m.Anchor.Month(), m.Anchor.Day(), p.o.Now)
	}
	text := strings.TrimPrefix(strings.TrimPrefix(m.Text, "on "), "On ")
	p.emitFx(subj{refs: []int{User}}, fx{key: factbase.KeyAnniversary, value: text, rule: "got married on", marker: &mm, text: func(x string) string {
		return x + "'s wedding anniversary is " + text
	}})
	return e
}

// booked reads "booked two weeks in Bali starting August 3" (head at the verb): a
// trip when it names a place, else a plan.
func (p *parser) booked(head int, st state) int {
	end := p.clauseEnd(head + 1)
	m, ms, me := p.markerIn(head+1, end)
	if m == nil || m.Past || m.Recur != when.Once || ms == head+1 {
		return head
	}
	key := factbase.KeyPlan
	for k := head + 1; k < ms; k++ {
		if (p.w(k) == "in" || p.w(k) == "to") && p.isPlace(k+1) || travelNouns[p.w(k)] || p.w(k) == "hotel" {
			key = factbase.KeyTravel
		}
	}
	value := p.span(head+1, max(end, me))
	mm := *m
	p.emitFx(*st.s, fx{key: key, value: value, rule: "booked", marker: &mm, correction: st.corr, text: func(x string) string {
		return x + ": " + value + anchorNote(mm)
	}})
	return max(end, me)
}

// tickets reads "got tickets to see Beyoncé on May 30" (i after the verb).
func (p *parser) tickets(i int, st state) int {
	if p.w(i) != "tickets" && p.w(i) != "ticket" || p.w(i+1) != "to" && p.w(i+1) != "for" {
		return i
	}
	v := i + 2
	end := p.clauseEnd(v)
	m, _, me := p.markerIn(v, end)
	if m == nil || m.Past || m.Recur != when.Once {
		return i
	}
	value := p.span(v, max(end, me))
	mm := *m
	p.emitFx(*st.s, fx{key: factbase.KeyPlan, value: value, rule: "got tickets to", marker: &mm, correction: st.corr, text: func(x string) string {
		return x + ": " + value + anchorNote(mm)
	}})
	return max(end, me)
}

// condition reads a health condition at i ("asthma", "Parkinson's", "a broken
// wrist") and what may follow it ("for years"); it returns i when none is there.
func (p *parser) condition(i int, st state, rule string) int {
	j := i
	if p.w(j) == "a" || p.w(j) == "an" {
		j++
	}
	v, e := "", i
	if _, ce := p.phraseIn(i, conditionNounPhrase); ce > i {
		v, e = p.span(i, ce), ce
	} else if p.w(j) == "broken" && bodyParts[p.w(j+1)] {
		v, e = p.span(j, j+2), j+2
	}
	if e == i {
		return i
	}
	v = strings.TrimPrefix(strings.TrimPrefix(v, "a "), "an ")
	p.emitFx(*st.s, fx{key: factbase.KeyCondition, value: v, rule: rule, correction: st.corr, text: func(x string) string { return x + " has " + v }})
	return p.afterTail(e)
}

// hasCapital reports whether a word in [i, e) is capitalised (a place's name).
func (p *parser) hasCapital(i, e int) bool {
	for k := i; k < e; k++ {
		if p.t[k].cap {
			return true
		}
	}
	return false
}

// bodyParts are what one breaks: "I broke my wrist".
var bodyParts = map[string]bool{"wrist": true, "arm": true, "leg": true, "ankle": true, "foot": true, "hand": true,
	"finger": true, "toe": true, "collarbone": true, "rib": true, "ribs": true, "nose": true, "hip": true,
	"elbow": true, "knee": true, "shoulder": true, "jaw": true, "back": false, "thumb": true, "pelvis": true}

// conditionBecause reads "because of celiac", "for my diabetes" after a diet or a
// medication at e: the condition it is for.
func (p *parser) conditionBecause(e int, st state) int {
	i := e
	switch {
	case p.at(i, "because", "of") > 0:
		i += 2
	case p.w(i) == "for":
		i++
	default:
		return e
	}
	if possessives[p.w(i)] {
		i++
	}
	if c := p.condition(i, st, "because of <condition>"); c > i {
		return c
	}
	return e
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
	if e := p.condition(i, st, "has <condition>"); e > i {
		return e
	}
	if p.at(i, "to", "avoid") > 0 {
		e := p.valueEnd(i+2, true)
		p.emitList(st, i+2, e, factbase.KeyAvoid, "has to avoid", "avoids")
		return e
	}
	if e := p.vehicleVerb(i, st, false, "has"); e > i {
		return e
	}
	if s.isUser() || s.we {
		if e := p.relationIntro(i, st); e > i {
			return e
		}
	} else if len(s.refs) == 1 {
		if e := p.relationIntroOf(i, st, s.refs[0]); e > i {
			return e
		}
	}
	return p.schedule(head, i, st)
}

// allergyReason reports whether "because ..." at e gives an allergy as the reason,
// before the clause ends.
func (p *parser) allergyReason(e int) bool {
	if p.w(e) != "because" {
		return false
	}
	for k := e + 1; k < e+6 && k < len(p.t); k++ {
		switch p.w(k) {
		case "allergy", "allergies", "allergic":
			return true
		case ",", "and", "but", "so":
			return false
		}
	}
	return false
}

// negativeRule reads a negated predicate that still states a fact: "can't eat
// gluten" (avoid), "doesn't like olives" (dislike), "can't stand cilantro".
func (p *parser) negativeRule(head int, st state) int {
	if st.past {
		return head
	}
	hw := p.w(head)
	switch {
	case eatVerbs[hw] && (st.aux || st.cop == false) && (hw != "have" && hw != "has" || st.modal):
		// "can't have dairy" avoids it; "don't have a car" says nothing we keep
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
		if p.allergyReason(e) {
			// "can't eat shellfish because of an allergy", "... because I'm allergic"
			p.emitList(st, i, e, factbase.KeyAllergy, "cannot eat: allergy", "is allergic to")
			return e
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
	case hw == "a" && st.cop:
		k := head + 1
		for adjectiveBeforeFan[p.w(k)] {
			k++
		}
		if p.w(k) == "fan" && p.w(k+1) == "of" {
			return p.likeObject(st, k+2, factbase.KeyDislikes, "not a fan of")
		}
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
	case p.w(head) == "went" || p.w(head) == "grew" && p.at(head+1, "up", "in") > 0:
		if p.w(head) == "grew" {
			i := head + 3
			e := p.valueEnd(i, true, "with", "for", "before", "until")
			if e == i || !p.hasCapital(i, e) {
				return head
			}
			v := p.span(i, e)
			p.emitFx(*st.s, fx{key: factbase.KeyOrigin, value: v, rule: "grew up in", correction: st.corr, text: func(x string) string { return x + " grew up in " + v }})
			return e
		}
		st.past = false
		return p.verbRule(head, st)
	case p.w(head) == "took" && p.w(head+1) == "up":
		return p.hobbyObject(head+2, st, "took up")
	case p.w(head) == "graduated" && p.w(head+1) == "from":
		return p.startedAt(head+2, st, true, "graduated from")
	}
	return head
}

// petVerbs bring a pet home: "we just adopted a kitten".
var petVerbs = map[string]bool{"adopted": true, "adopt": true, "rescued": true, "keep": true, "keeps": true,
	"got": true, "bought": true, "have": true, "has": true}

// vehicleBuyVerbs take a vehicle of a known make: "bought a Tesla Model Y".
var vehicleBuyVerbs = map[string]bool{"bought": true, "buys": true, "got": true, "leased": true, "owns": true,
	"own": true, "rent": false, "purchased": true}

// doseOf reads "50mg of" at i and returns the index after it, or i.
func (p *parser) doseOf(i int) int {
	w := p.w(i)
	if len(w) > 0 && w[0] >= '0' && w[0] <= '9' && (strings.HasSuffix(w, "mg") || strings.HasSuffix(w, "ml") ||
		strings.HasSuffix(w, "mcg") || p.w(i+1) == "mg" || p.w(i+1) == "milligrams") {
		j := i + 1
		if p.w(j) == "mg" || p.w(j) == "milligrams" {
			j++
		}
		if p.w(j) == "of" && p.medicationAt(j+1) {
			return j + 1
		}
	}
	return i
}

// workManners may stand between "works" and "at": "works remotely for Spotify".
var workManners = map[string]bool{"nights": true, "days": true, "weekends": true, "evenings": true,
	"mornings": true, "shifts": true, "remotely": true, "part-time": true, "full-time": true, "freelance": true,
	"mostly": true, "currently": true, "now": true}

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
