package personal

import "github.com/factbase/factbase"

// isPlace reports whether token i starts a place name (capitalised).
func (p *parser) isPlace(i int) bool {
	if i >= len(p.t) || p.t[i].kind != kWord {
		return false
	}
	if p.w(i) == "the" {
		i++
	}
	return i < len(p.t) && p.t[i].cap && !months[p.w(i)]
}

// homeCity reads a city at i.
func (p *parser) homeCity(st state, i int, rule string) int {
	if !p.isPlace(i) {
		return i
	}
	e := p.valueEnd(i, true, "with", "for", "since", "near", "now", "in", "at", "last", "this", "next", "earlier", "ago", "back", "during")
	v := p.span(i, e)
	if p.w(e) == "in" && p.isPlace(e+1) { // "Cambridge in England": keep the city
		e = p.valueEnd(e+1, true, "with", "for", "since", "near", "now")
	}
	p.emitFx(*st.s, fx{key: factbase.KeyCity, value: v, rule: rule, correction: st.corr, text: func(x string) string { return x + " lives in " + v }})
	return p.afterTail(e)
}

// homeOrigin reads the place at i as where the subject comes from: "my hometown
// is Tampere" says nothing about where one lives now.
func (p *parser) homeOrigin(st state, i int, rule string) int {
	if !p.isPlace(i) {
		return i
	}
	e := p.valueEnd(i, true, "with", "for", "since", "near", "now", "in", "at", "last", "this", "next", "earlier", "ago", "back")
	v := p.span(i, e)
	p.emitFx(*st.s, fx{key: factbase.KeyOrigin, value: v, rule: rule, correction: st.corr, text: func(x string) string { return x + " is from " + v }})
	return p.afterTail(e)
}
