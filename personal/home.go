package personal

import (
	"github.com/factbase/factbase"
	"github.com/factbase/factbase/text"
)

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
	e = p.placeEnd(i, e)
	v := p.span(i, e)
	if p.w(e) == "in" && p.isPlace(e+1) { // "Cambridge in England": keep the city
		e = p.valueEnd(e+1, true, "with", "for", "since", "near", "now")
	}
	p.emitFx(*st.s, fx{key: factbase.KeyCity, value: v, rule: rule, correction: st.corr, text: func(x string) string { return x + " lives in " + v }})
	return p.afterTail(e)
}

// placeEnd cuts a capitalised place in [i, e) before its first lower-case word
// that is not a connector of names ("Rio de Janeiro"): "Cork most of the year",
// "Leeds, close to the university" and "Rome permanently" name Cork, Leeds and Rome.
func (p *parser) placeEnd(i, e int) int {
	k := i
	if p.w(k) == "the" {
		return e // "the Netherlands", "the Bay Area"
	}
	if k >= len(p.t) || !p.t[k].cap {
		return e
	}
	for k = i + 1; k < e; k++ {
		if p.t[k].kind != kWord || p.t[k].cap || placeConnectors[p.w(k)] {
			continue
		}
		e = k
		for e > i+1 && (placeConnectors[p.w(e-1)] || p.t[e-1].kind == kPunct) {
			e--
		}
		return e
	}
	return e
}

// placeConnectors join the words of a place's name.
var placeConnectors = text.PlaceConnectors

// homeOrigin reads the place at i as where the subject comes from: "my hometown
// is Tampere" says nothing about where one lives now.
func (p *parser) homeOrigin(st state, i int, rule string) int {
	if !p.isPlace(i) {
		return i
	}
	e := p.valueEnd(i, true, "with", "for", "since", "near", "now", "in", "at", "last", "this", "next", "earlier", "ago", "back")
	e = p.placeEnd(i, e)
	v := p.span(i, e)
	p.emitFx(*st.s, fx{key: factbase.KeyOrigin, value: v, rule: rule, correction: st.corr, text: func(x string) string { return x + " is from " + v }})
	return p.afterTail(e)
}
