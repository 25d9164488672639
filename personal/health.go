package personal

import (
	"strings"

	"github.com/factbase/factbase"
)

// allergy reads the allergens at i.
func (p *parser) allergy(st state, i int) int {
	if m, _ := p.markerAt(i); m != nil || jokeAllergens[p.w(i)] {
		// "allergic to Mondays", "allergic to mornings": a figure of speech, no allergen
		return i
	}
	if objectPronouns[p.w(i)] {
		// "allergic to something in this soap", "allergic to it": no allergen named
		return i
	}
	e := p.valueEnd(i, true, "since", "for", "in", "at", "around", "during", "whenever")
	if e == i {
		return i
	}
	for k := i; k < e; k++ {
		if p.w(k) == ":" {
			// "allergic to the same things as my mom: dust and pollen": the
			// allergens are the list after the colon
			i = k + 1
		}
	}
	if i >= e {
		return i
	}
	p.emitList(st, i, e, factbase.KeyAllergy, "is allergic to", "is allergic to")
	return p.afterTail(e)
}

// jokeAllergens are said to be allergies in jest: "I'm allergic to mornings".
var jokeAllergens = map[string]bool{"mornings": true, "morning": true, "mondays": true, "monday": true,
	"weekends": true, "work": true, "homework": true, "exercise": true, "people": true, "effort": true,
	"commitment": true, "responsibility": true, "adulting": true, "math": true, "meetings": true}

// hasAllergy reads "a peanut allergy", "a severe nut allergy", "allergies to X",
// "an allergy to X", "a lot of allergies" at i.
func (p *parser) hasAllergy(i int, st state) int {
	j := i
	if p.w(j) == "a" || p.w(j) == "an" || p.w(j) == "severe" || p.w(j) == "mild" || p.w(j) == "bad" {
		j++
	}
	for p.w(j) == "severe" || p.w(j) == "mild" || p.w(j) == "bad" || p.w(j) == "serious" || p.w(j) == "life-threatening" || p.w(j) == "deadly" {
		j++
	}
	if p.w(j) == "allergy" || p.w(j) == "allergies" {
		if p.w(j+1) == "to" {
			return p.allergy(st, j+2)
		}
		return i
	}
	// "a peanut allergy", "peanut and egg allergies"
	for k := j; k < j+6 && k < len(p.t); k++ {
		if k > j && (p.w(k) == "a" || p.w(k) == "an") {
			// "hay fever and a nut allergy": the article opens another noun
			// phrase; what is before it is no allergen
			return i
		}
		if p.w(k) == "allergy" || p.w(k) == "allergies" {
			if k == j {
				return i
			}
			p.emitList(st, j, k, factbase.KeyAllergy, "has an allergy", "is allergic to")
			return p.afterTail(k + 1)
		}
		if p.w(k) == "," && p.w(k+1) != "and" || valueStop[p.w(k)] {
			break
		}
	}
	return i
}

// dietPhrase and conditionPhrase match one or two words to a diet or condition.
func dietPhrase(w string) (string, bool) {
	w = strings.ReplaceAll(w, " ", "-")
	v, ok := dietWords[w]
	if !ok {
		v, ok = dietWords[strings.ReplaceAll(w, "-", " ")]
	}
	return v, ok
}

func conditionPhrase(w string) (string, bool) {
	v, ok := conditionWords[w]
	return v, ok && v != ""
}

func conditionNounPhrase(w string) (string, bool) {
	if possConditions[w] {
		return w + "'s", true
	}
	if conditionNouns[w] {
		return strings.TrimPrefix(strings.TrimPrefix(w, "a "), "an "), true
	}
	return "", false
}

// possConditions are conditions named after someone, read without their "'s":
// "Parkinson's".
var possConditions = map[string]bool{"parkinson": true, "alzheimer": true, "crohn": true, "hashimoto": true,
	"parkinson's disease": false}

var eatVerbs = map[string]bool{"eat": true, "eats": true, "drink": true, "drinks": true, "touch": true,
	"have": true, "tolerate": true, "digest": true, "handle": true, "consume": true}

// onRule reads "on ..." after a copula: a diet ("on a keto diet"), a medication.
func (p *parser) onRule(i int, st state) int {
	if p.w(i) == "a" || p.w(i) == "an" {
		if d, e := p.phraseIn(i+1, dietPhrase); e > i+1 && p.w(e) == "diet" {
			v := d
			p.emitFx(*st.s, fx{key: factbase.KeyDiet, value: v, rule: "is on a diet", correction: st.corr, text: func(x string) string { return x + " is on a " + v + " diet" }})
			return e + 1
		}
		if p.w(i+2) == "diet" && p.t[i+1].kind == kWord {
			v := p.span(i+1, i+2)
			p.emitFx(*st.s, fx{key: factbase.KeyDiet, value: v, rule: "is on a diet", correction: st.corr, text: func(x string) string { return x + " is on a " + v + " diet" }})
			return i + 3
		}
	}
	return p.medication(i, st)
}

// medication reads a known medication at i.
func (p *parser) medication(i int, st state) int {
	if _, e := p.phraseIn(i, medicationPhrase); e > i {
		v := p.span(i, e)
		p.emitFx(*st.s, fx{key: factbase.KeyMedication, value: v, rule: "takes <medication>", correction: st.corr, text: func(x string) string { return x + " takes " + v }})
		return p.conditionBecause(p.afterTail(e), st)
	}
	return i
}

// medicationAt reports whether a known medication starts at i.
func (p *parser) medicationAt(i int) bool {
	_, e := p.phraseIn(i, medicationPhrase)
	return e > i
}

// medicationPhrase matches one to three words to a known medication.
func medicationPhrase(w string) (string, bool) { return w, medications[w] }
