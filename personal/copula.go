package personal

import (
	"strings"

	"github.com/factbase/factbase/when"

	"github.com/factbase/factbase"
)

// copulaRule reads "is/are ..." predicates.
func (p *parser) copulaRule(head int, st state) int {
	s := *st.s
	hw := p.w(head)
	switch hw {
	case "in":
		if e := p.inGrade(head, st); e > head {
			return e
		}
	case "turning":
		if e := p.turns(head, st); e > head {
			return e
		}
	}
	switch {
	case hw == "born":
		return p.bornRule(head+1, st)
	case hw == "allergic":
		i := head + 1
		if p.w(i) == "to" {
			i++
		}
		return p.allergy(st, i)
	case (hw == "a" || hw == "an") && p.w(head+1) == "native":
		// "I'm a native Spanish speaker", "a native speaker of Greek"
		i := head + 2
		if p.w(i) == "speaker" && p.w(i+1) == "of" {
			i += 2
		}
		if l, e := p.phraseIn(i, languageOf); e > i && (p.w(e) == "speaker" || i > head+2) {
			if p.w(e) == "speaker" {
				e++
			}
			p.emitFx(*st.s, fx{key: factbase.KeySpeaks, value: l, rule: "is a native <language> speaker", correction: st.corr, text: func(x string) string { return x + " speaks " + l }})
			return e
		}
		return p.copulaArticle(head+1, st)
	case hw == "a" || hw == "an":
		return p.copulaArticle(head+1, st)
	case hw == "the" && (p.w(head+1) == "new" || p.w(head+1) == "current" || occupations[p.w(head+1)]):
		// "Alice is the new CTO at Acme"
		i := head + 1
		if p.w(i) == "new" || p.w(i) == "current" {
			i++
		}
		return p.occupation(i, st)
	case hw == "on" && (p.w(head+1) == "vacation" || p.w(head+1) == "holiday" || p.w(head+1) == "leave" || p.w(head+1) == "a" && (p.w(head+2) == "trip" || p.w(head+2) == "business")):
		return p.plan(head, st)
	case hw == "on":
		return p.onRule(head+1, st)
	case hw == "from" && p.isPlace(head+1):
		e := p.valueEnd(head+1, true, "but", "in", "originally")
		v := p.span(head+1, e)
		p.emitFx(s, fx{key: factbase.KeyOrigin, value: v, rule: "is from", correction: st.corr, text: func(x string) string { return x + " is from " + v }})
		return e
	case (hw == "based" || hw == "living" || hw == "settled") && (p.w(head+1) == "in" || p.w(head+1) == "out"):
		i := head + 2
		if p.w(head+1) == "out" && p.w(i) == "of" {
			i++
		}
		return p.homeCity(st, i, "is based in")
	case hw == "married" && p.w(head+1) == "to", hw == "engaged" && p.w(head+1) == "to", hw == "dating":
		i := head + 1
		if hw != "dating" {
			i++
		}
		if s.isUser() {
			return p.partnerName(i, hw)
		}
		return head
	case hw == "my" || hw == "our":
		return p.relationStatement(head, st)
	case hw == "called" || hw == "named":
		return p.nameStatement(head+1, st)
	case hw == "employed" && (p.w(head+1) == "by" || p.w(head+1) == "at"):
		return p.employer(head+2, st, "is employed by")
	case hw == "retired" && p.clauseEnd(head+1) == head+1:
		if !s.isUser() || p.o.UserBasics {
			p.emitFx(s, fx{key: factbase.KeyRole, value: "retired", rule: "is retired", correction: st.corr, text: func(x string) string { return x + " is retired" }})
		}
		return head + 1
	case likeCopula(p, head) > head:
		k := likeCopula(p, head)
		key := factbase.KeyLikes
		if fearWords[hw] {
			key = factbase.KeyFears
		}
		return p.likeObject(st, k, key, hw)
	case travelIng[hw]:
		return p.travel(head, st)
	case hw == "learning":
		return p.learning(head+1, st)
	case hw == "trying" && p.at(head+1, "to", "learn") > 0:
		return p.learning(head+3, st)
	case hw == "trying" && p.at(head+1, "to", "pick", "up") > 0:
		return p.learning(head+4, st)
	case (hw == "bilingual" || hw == "trilingual" || hw == "multilingual" || hw == "fluent") && p.w(head+1) == "in":
		return p.languagesAt(head+2, st, factbase.KeySpeaks, "is fluent in")
	case hw == "at":
		return p.isAt(head+1, st)
	case hw == "studying" || hw == "majoring" && p.w(head+1) == "in":
		i := head + 1
		if hw == "majoring" {
			i++
		}
		return p.study(i, st, "is studying")
	case hw == "doing" && (p.w(head+1) == "a" || p.w(head+1) == "an" || possessives[p.w(head+1)]) && degreeWords[p.w(head+2)]:
		return p.degreeStudy(head+2, st)
	case (hw == "cutting" || hw == "cut") && (p.w(head+1) == "back" || p.w(head+1) == "down") && p.w(head+2) == "on",
		(hw == "cutting" || hw == "cut") && p.w(head+1) == "out":
		i := head + 2
		if p.w(i) == "on" {
			i++
		}
		e := p.valueEnd(i, true)
		if e == i || objectPronouns[p.w(i)] {
			return head
		}
		p.emitList(st, i, e, factbase.KeyAvoid, "cutting back on", "avoids")
		return e
	case hw == "doing" && p.dietAt(head+1):
		st.corr = true
		return p.verbFirst(head, st)
	case hw == "in" && p.isPlace(head+1):
		// "Sarah is in Paris next week"
		if m, _, _ := p.markerIn(head+2, p.clauseEnd(head+2)); m != nil && !m.Past && m.Recur == when.Once {
			return p.travel(head, st)
		}
		return head
	case hw == "turning" || hw == "having" || hw == "getting" || hw == "starting" || hw == "doing" || hw == "taking" || hw == "playing" || hw == "hosting" || hw == "throwing" || hw == "celebrating" || hw == "attending" || hw == "running" || hw == "seeing" || hw == "meeting":
		return p.plan(head, st)
	}
	if nationalities[hw] && p.t[head].cap && (head+1 >= len(p.t) || p.w(head+1) == "," || p.w(head+1) == "and" || p.w(head+1) == "but") {
		v := p.span(head, head+1)
		p.emitFx(s, fx{key: factbase.KeyOrigin, value: v, rule: "is <nationality>", correction: st.corr, text: func(x string) string { return x + " is " + v }})
		return head + 1
	}
	if strings.HasSuffix(hw, "ing") && !staticGerunds[hw] {
		// "is interning at NASA this summer": a plan when a time follows
		if e := p.plan(head, st); e > head {
			return e
		}
	}
	if a, ok := ageNumber(hw); ok {
		return p.ageRule(head, a, st)
	}
	if a, e := p.ageAdjective(head); e > head {
		p.ageFacts(st, a)
		return e
	}
	if d, e := p.phraseIn(head, dietPhrase); e > head {
		v := d
		p.emitFx(s, fx{key: factbase.KeyDiet, value: v, rule: "is " + v, correction: st.corr, text: func(x string) string { return x + " is " + v }})
		return p.afterTail(e)
	}
	if c, e := p.phraseIn(head, conditionPhrase); e > head {
		v := c
		word := p.span(head, e)
		p.emitFx(s, fx{key: factbase.KeyCondition, value: v, rule: "is " + word, correction: st.corr, text: func(x string) string { return x + " has " + v }})
		return p.afterTail(e)
	}
	if _, e := p.name(head); st.s.isName() && e > head && len(s.refs) == 1 {
		// "my wife is Sarah", "my doctor is Dr. Patel at the Elm Street clinic"
		k := p.nameStatement(head, st)
		if k > head && p.w(k) == "at" && p.properEnd(k+1) > k+1 {
			return p.employer(k+1, st, "is <name> at")
		}
		return k
	}
	return head
}

// socialRelations may be said of a named person without "my": "Nadia is a friend
// from college".
var socialRelations = map[string]bool{"friend": true, "colleague": true, "coworker": true, "co-worker": true,
	"neighbor": true, "neighbour": true, "classmate": true, "roommate": true, "flatmate": true,
	"good friend": true, "close friend": true, "old friend": true, "childhood friend": true}

// socialRelation reads "a friend [from college|of mine]" after "Nadia is" (i after
// the article); it returns i when none is there.
func (p *parser) socialRelation(i int, st state) int {
	s := *st.s
	if len(s.refs) != 1 || s.refs[0] == User || p.dry || p.ex.Mentions[s.refs[0]].Relation != "" {
		return i
	}
	r, word, k, ok := p.relationAt(i)
	if !ok || !socialRelations[p.span(i, k)] && !socialRelations[word] {
		return i
	}
	switch {
	case p.at(k, "of", "mine") > 0:
		k += 2
	case p.w(k) == "from" && k+1 < len(p.t) && p.t[k+1].kind == kWord:
		e := p.valueEnd(k+1, true)
		if e-k > 4 {
			return i
		}
		k = e
	case k < len(p.t) && p.w(k) != "," && p.w(k) != "and" && p.w(k) != "but":
		return i // "a friend of Sarah's": not the user's
	}
	p.setRelation(s.refs[0], r, word, User, "")
	return k
}

// dietAt reports whether a diet is named at i.
func (p *parser) dietAt(i int) bool {
	_, e := p.phraseIn(i, dietPhrase)
	return e > i
}

// breeds are breeds of dogs and cats: "Biscuit is a golden retriever".
var breeds = map[string]bool{
	"golden retriever": true, "labrador": true, "labrador retriever": true, "lab": true, "poodle": true,
	"beagle": true, "husky": true, "siberian husky": true, "corgi": true, "pug": true, "dachshund": true,
	"chihuahua": true, "border collie": true, "collie": true, "german shepherd": true, "terrier": true,
	"jack russell": true, "jack russell terrier": true, "yorkie": true, "yorkshire terrier": true,
	"bulldog": true, "french bulldog": true, "frenchie": true, "boxer": true, "shih tzu": true,
	"greyhound": true, "whippet": true, "spaniel": true, "cocker spaniel": true, "springer spaniel": true,
	"rottweiler": true, "doberman": true, "maltese": true, "pomeranian": true, "schnauzer": true,
	"great dane": true, "bernese": true, "bernese mountain dog": true, "samoyed": true, "akita": true,
	"shiba inu": true, "shiba": true, "cavapoo": true, "cockapoo": true, "labradoodle": true,
	"goldendoodle": true, "cavalier": true, "vizsla": true, "weimaraner": true, "dalmatian": true,
	"maine coon": true, "siamese": true, "persian": true, "ragdoll": true, "bengal": true, "sphynx": true,
	"british shorthair": true, "russian blue": true, "scottish fold": true, "norwegian forest cat": true,
	"mutt": true, "rescue mutt": true, "mixed breed": true,
}

// breed reads a breed after "is a" when the subject is a pet: "a golden retriever",
// "a lab mix". It returns i when none is there.
func (p *parser) breed(i int, st state) int {
	s := *st.s
	if len(s.refs) != 1 || s.refs[0] == User || p.dry || p.ex.Mentions[s.refs[0]].Role != factbase.RolePet {
		return i
	}
	_, e := p.phraseIn(i, func(w string) (string, bool) { return w, breeds[w] })
	if e == i {
		return i
	}
	if p.w(e) == "mix" || p.w(e) == "cross" {
		e++
	}
	v := p.span(i, e)
	p.emitFx(s, fx{key: factbase.KeyBreed, value: v, rule: "is a <breed>", correction: st.corr, text: func(x string) string {
		return x + " is a " + v
	}})
	return e
}

// nationalities are said as adjectives: "I'm Brazilian" (home.origin).
var nationalities = map[string]bool{
	"brazilian": true, "mexican": true, "canadian": true, "american": true, "british": true, "irish": true,
	"scottish": true, "welsh": true, "english": false, "french": true, "german": true, "italian": true,
	"spanish": true, "portuguese": true, "dutch": true, "belgian": true, "swiss": true, "austrian": true,
	"polish": true, "czech": true, "hungarian": true, "romanian": true, "greek": true, "turkish": true,
	"swedish": true, "norwegian": true, "danish": true, "finnish": true, "icelandic": true, "russian": true,
	"ukrainian": true, "chinese": true, "japanese": true, "korean": true, "vietnamese": true, "thai": true,
	"filipino": true, "indonesian": true, "indian": true, "pakistani": true, "bangladeshi": true,
	"nigerian": true, "kenyan": true, "ghanaian": true, "ethiopian": true, "egyptian": true,
	"moroccan": true, "south african": false, "australian": true, "argentinian": true, "argentine": true,
	"chilean": true, "colombian": true, "peruvian": true, "venezuelan": true, "cuban": true, "israeli": true,
	"lebanese": true, "iranian": true, "iraqi": true, "syrian": true, "palestinian": true, "jamaican": true,
}

// staticGerunds state no plan even with a time: "is feeling better today".
var staticGerunds = map[string]bool{"feeling": true, "being": true, "thinking": true, "wondering": true,
	"hoping": true, "trying": true, "looking": true, "loving": true, "enjoying": true, "doing": true,
	"missing": true, "struggling": true, "living": true, "sleeping": true, "recovering": true, "healing": true}

// copulaArticle reads "a/an ..." after a copula: an age, an occupation, a diet, a
// fan of something.
func (p *parser) copulaArticle(i int, st state) int {
	if e := p.breed(i, st); e > i {
		return e
	}
	if a, e := p.ageAdjective(i); e > i {
		p.ageFacts(st, a)
		return e
	}
	if k := likeCopula(p, i); k > i {
		return p.likeObject(st, k, factbase.KeyLikes, "is a fan of")
	}
	for adjectiveBeforeFan[p.w(i)] {
		i++
		if k := likeCopula(p, i); k > i {
			return p.likeObject(st, k, factbase.KeyLikes, "is a fan of")
		}
	}
	if d, e := p.phraseIn(i, dietPhrase); e > i {
		v := d
		p.emitFx(*st.s, fx{key: factbase.KeyDiet, value: v, rule: "is a " + v, correction: st.corr, text: func(x string) string { return x + " is " + v }})
		return e
	}
	if e := p.classYear(i, st); e > i {
		return e
	}
	if e := p.socialRelation(i, st); e > i {
		return e
	}
	if e := p.degreeStudy(i, st); e > i {
		return e
	}
	return p.occupation(i, st)
}

// isAt reads "is at <school>" or, with "these days" after it or in a sentence
// about work ("doesn't work at IBM anymore, he's at Red Hat"), "is at
// <employer>" (a change of job).
func (p *parser) isAt(i int, st state) int {
	if se := p.schoolAt(i, false); se > i {
		return p.afterTail(p.emitSchool(st, i, se, "is at <school>"))
	}
	e := p.properEnd(i)
	if e == i || p.w(i) == "the" {
		return i - 1
	}
	if p.at(e, "these", "days") > 0 || p.w(e) == "nowadays" || p.workTalk {
		st.corr = true
		return p.employer(i, st, "is at <employer> now")
	}
	return i - 1
}
