package personal

import (
	"strings"

	"github.com/factbase/factbase"
)

// roleModifiers may precede an occupation.
var roleModifiers = map[string]bool{"senior": true, "junior": true, "lead": true, "head": true, "chief": true,
	"principal": true, "staff": true, "freelance": true, "registered": true, "trainee": true, "qualified": true,
	"certified": true, "professional": true, "full-time": true, "part-time": true, "retired": true,
	"pediatric": true, "school": true, "primary": true, "high": true, "middle": true, "assistant": true,
	"associate": true, "volunteer": true, "practicing": true, "licensed": true}

// occupation reads "[senior] nurse [at St. Mary's]" at i (after an article).
func (p *parser) occupation(i int, st state) int {
	j := i
	for roleModifiers[p.w(j)] {
		j++
	}
	_, e := p.phraseIn(j, func(w string) (string, bool) { return w, occupations[w] })
	if e == j {
		return i
	}
	role := p.span(i, e)
	s := *st.s
	p.emitFx(s, fx{key: factbase.KeyRole, value: role, rule: "is a <occupation>", correction: st.corr, text: func(x string) string {
		return x + " works as " + article(role) + " " + role
	}})
	if p.w(e) == "at" || p.w(e) == "for" || p.w(e) == "with" {
		return p.employer(e+1, st, "is a <occupation> at")
	}
	if p.w(e) == "in" && p.isPlace(e+1) && !months[p.w(e+1)] {
		// "a teacher in Boston"
		return p.homeCity(st, e+1, "is a <occupation> in")
	}
	return e
}

func article(s string) string {
	if s != "" && strings.ContainsRune("aeiouAEIOU", rune(s[0])) {
		return "an"
	}
	return "a"
}

// employer reads an organisation at i.
func (p *parser) employer(i int, st state, rule string) int {
	if p.w(i) == "a" || p.w(i) == "an" {
		// "works at a bakery called Crumbs": the name after "called"
		for m := i + 1; m < len(p.t) && m <= i+5 && p.t[m].kind == kWord; m++ {
			if (p.w(m) == "called" || p.w(m) == "named") && p.isPlace(m+1) {
				return p.employer(m+1, st, rule)
			}
		}
		return i // "works at a bank": not a name
	}
	e := p.valueEnd(i, true, "as", "in", "since", "for", "where", "on", "with", "near", "now", "nowadays", "anymore")
	if p.at(e-2, "these", "days") == e && e-2 > i {
		e -= 2
	}
	if p.w(e) == "now" || p.at(e, "these", "days") > 0 {
		st.corr = true
	}
	if e == i || objectPronouns[p.w(i)] {
		return i
	}
	v := p.span(i, e)
	if p.w(i) == "the" && !p.t[min(i+1, len(p.t)-1)].cap && !(workplaces[p.w(i+1)] && e == i+2) {
		return i
	}
	p.emitFx(*st.s, fx{key: factbase.KeyEmployer, value: v, rule: rule, correction: st.corr, text: func(x string) string { return x + " works at " + v }})
	if p.w(e) == "as" {
		return p.workAs(e+1, st)
	}
	if p.w(e) == "in" && p.isPlace(e+1) {
		// "an engineer at Toyota in Nagoya": where the subject lives and works
		return p.homeCity(st, e+1, "works at ... in")
	}
	return p.afterTail(e)
}

// workplaces may be named as "the hospital" when one works there.
var workplaces = map[string]bool{"hospital": true, "clinic": true, "library": true, "airport": true,
	"university": true, "museum": true, "zoo": true, "bank": true, "pharmacy": true, "post office": false}

// workAs reads "[a] nurse [at X]" after "works as".
func (p *parser) workAs(i int, st state) int {
	if p.w(i) == "a" || p.w(i) == "an" || p.w(i) == "the" {
		i++
	}
	e := p.valueEnd(i, true, "at", "for", "in", "since", "with")
	if e == i {
		return i
	}
	v := p.span(i, e)
	p.emitFx(*st.s, fx{key: factbase.KeyRole, value: v, rule: "works as", correction: st.corr, text: func(x string) string { return x + " works as " + article(v) + " " + v }})
	if p.w(e) == "at" || p.w(e) == "for" {
		return p.employer(e+1, st, "works as ... at")
	}
	if p.w(e) == "in" && p.isPlace(e+1) && !months[p.w(e+1)] {
		return p.homeCity(st, e+1, "works as ... in")
	}
	return e
}
