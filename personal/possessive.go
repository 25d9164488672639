package personal

import (
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/normalize"
	"github.com/factbase/factbase/when"
)

// possPredicate reads "<subject>'s <attribute> is <value>": birthday, name, email,
// phone, age, job, favorite things, a scheduled activity.
func (p *parser) possPredicate(s *subj, j int) int {
	st := state{s: s, corr: s.correction, start: j}
	if a, ok := ageNumber(p.w(j)); ok && !p.dry && len(s.refs) == 1 && s.refs[0] != User &&
		(j+1 >= len(p.t) || p.t[j+1].kind == kPunct || p.w(j+1) == "now" || p.w(j+1) == "years" || p.w(j+1) == "months" || p.w(j+1) == "and") {
		// "Sam's 15 now", "Leo's 8": the "'s" is "is"
		if e := p.ageRule(j, a, st); e > j {
			return e
		}
	}
	attrEnd := j
	for attrEnd < len(p.t) && attrEnd < j+5 && p.w(attrEnd) != "is" && p.w(attrEnd) != "are" && p.w(attrEnd) != "was" && p.w(attrEnd) != "will" && p.w(attrEnd) != ":" && p.w(attrEnd) != "has" && p.w(attrEnd) != "changed" && p.w(attrEnd) != "include" && p.w(attrEnd) != "includes" {
		attrEnd++
	}
	if attrEnd == j || attrEnd >= len(p.t) {
		return j
	}
	attr := make([]string, 0, attrEnd-j)
	for k := j; k < attrEnd; k++ {
		attr = append(attr, p.w(k))
	}
	if len(attr) > 1 && (attr[1] == "birthday" || attr[1] == "bday") {
		if _, ok := dayOfMonth(attr[0]); ok || ordinals[attr[0]] {
			attr = attr[1:] // "Dad's 70th birthday"
		} else if n := strings.TrimRight(attr[0], "stndrh"); n != attr[0] && isNumber(n) {
			attr = attr[1:]
		}
	}
	a := strings.Join(attr, " ")
	v := attrEnd + 1
	neg, past := false, p.w(attrEnd) == "was"
	switch {
	case p.w(attrEnd) == "has" && p.w(attrEnd+1) == "changed" && p.w(attrEnd+2) == "to":
		v, st.corr = attrEnd+3, true
	case p.w(attrEnd) == "changed" && p.w(attrEnd+1) == "to":
		v, st.corr = attrEnd+2, true
	case p.w(attrEnd) == "will" && p.w(attrEnd+1) == "be":
		v = attrEnd + 2
	case p.w(attrEnd) == "has" || p.w(attrEnd) == "changed":
		return j
	}
	for adverbs[p.w(v)] {
		if correctionAdverbs[p.w(v)] {
			st.corr = true
		}
		v++
	}
	if p.w(v) == "not" || p.w(v) == "never" || p.w(v) == "no" && p.w(v+1) == "longer" {
		neg = true
	}
	if neg {
		p.skip("negation: \"" + p.span(j, min(v+2, len(p.t))) + "\" is not stored as a fact")
		return p.clauseEnd(v)
	}
	switch a {
	case "birthday", "bday", "b-day", "birth day", "birthdate", "birth date", "date of birth", "dob":
		if p.w(v) == "on" || p.w(v) == "in" {
			// the marker includes "on"
		}
		m, e := p.markerAt(v)
		if m == nil && (p.w(v) == "on" || p.w(v) == "in") {
			m, e = p.markerAt(v + 1)
		}
		if m == nil {
			if v < len(p.t) && !p.o.Now.IsZero() {
				return j
			}
			// no clock: keep the date as said
			e = p.valueEnd(v, false)
			if e > v && (months[p.w(v)] || isNumber(p.w(v))) {
				val := p.span(v, e)
				p.emitFx(*s, fx{key: factbase.KeyBirthday, value: val, rule: "birthday is", correction: st.corr, text: func(x string) string { return x + "'s birthday is " + val }})
				return e
			}
			return j
		}
		if m.Grain != when.Day && m.Grain != when.Month {
			return j
		}
		p.birthday(st, m, "birthday is")
		return e
	case "name", "first name", "real name", "full name":
		if past {
			return j
		}
		return p.nameStatement(v, st)
	case "email", "email address", "e-mail", "e mail", "mail":
		if v < len(p.t) && p.t[v].kind == kEmail {
			val := strings.TrimRight(p.span(v, v+1), ".")
			p.emitFx(*s, fx{key: factbase.KeyEmail, value: val, rule: "email is", correction: st.corr, text: func(x string) string { return x + "'s email is " + val }})
			return v + 1
		}
	case "number", "phone", "phone number", "cell", "cell number", "mobile", "mobile number", "cell phone", "telephone":
		e := v
		digits := 0
		for e < len(p.t) && (p.t[e].kind == kWord && normalize.IsDigits(strings.ReplaceAll(p.w(e), "-", "")) || p.w(e) == "+" || p.w(e) == "-" || p.w(e) == "(" || p.w(e) == ")" || p.w(e) == ".") {
			if p.t[e].kind == kWord {
				digits += len(strings.ReplaceAll(p.w(e), "-", ""))
			}
			e++
		}
		for e > v && p.t[e-1].kind == kPunct && p.w(e-1) != ")" {
			e--
		}
		if digits >= 5 && digits <= 20 {
			val := p.span(v, e)
			p.emitFx(*s, fx{key: factbase.KeyPhone, value: val, rule: "number is", correction: st.corr, text: func(x string) string { return x + "'s phone number is " + val }})
			return e
		}
	case "age":
		if n, ok := ageNumber(p.w(v)); ok {
			p.ageFacts(st, n)
			return v + 1
		}
	case "job", "occupation", "profession", "job title", "role":
		if p.w(v) == "a" || p.w(v) == "an" {
			v++
		}
		e := p.valueEnd(v, true, "at", "for", "in")
		if e > v {
			val := p.span(v, e)
			p.emitFx(*s, fx{key: factbase.KeyRole, value: val, rule: "job is", correction: st.corr, text: func(x string) string { return x + " works as " + val }})
			if p.w(e) == "at" || p.w(e) == "for" {
				return p.employer(e+1, st, "job is ... at")
			}
			return e
		}
	case "employer", "company", "workplace":
		return p.employer(v, st, "employer is")
	case "native language", "first language", "mother tongue", "native tongue", "languages", "language":
		// "My partner's native language is Catalan"
		if e := p.languagesAt(v, st, factbase.KeySpeaks, "native language is"); e > v {
			return e
		}
	case "allergy", "allergies":
		if p.w(v) == "include" || p.w(v) == "are" {
			v++
		}
		if p.w(v) == "to" {
			v++ // "my husband's allergy is to shellfish"
		}
		return p.allergy(st, v)
	case "diet":
		if d, e := p.phraseIn(v, dietPhrase); e > v {
			val := d
			p.emitFx(*s, fx{key: factbase.KeyDiet, value: val, rule: "diet is", correction: st.corr, text: func(x string) string { return x + " is " + val }})
			return e
		}
	case "car", "truck", "van", "motorbike", "motorcycle", "bike", "e-bike", "new car", "family car":
		return p.vehicleVerb(v, st, true, "car is")
	case "blood pressure", "cholesterol", "blood sugar":
		if p.w(v) == "high" || p.w(v) == "low" {
			c := p.span(v, v+1) + " " + a
			p.emitFx(*s, fx{key: factbase.KeyCondition, value: c, rule: "<x> is high", correction: st.corr, text: func(x string) string { return x + " has " + c }})
			return p.afterTail(v + 1)
		}
	case "home", "city":
		return p.homeCity(st, v, "city is")
	case "hometown", "home town": // where one comes from, not where one lives now
		return p.homeOrigin(st, v, "hometown is")
	}
	if past {
		return j
	}
	if attr[0] == "favorite" || attr[0] == "favourite" || attr[0] == "fave" {
		// Another person's favorites are not kept: favorites.* lists are the user's
		// own ranked lists, and Say replies about them as such.
		return j
	}
	// "Leo's piano lesson is on Tuesdays", "Sarah's flight is tomorrow at 9"
	if m, e := p.markerAt(v); m != nil || p.w(v) == "at" {
		if m == nil {
			return j
		}
		what := p.span(j, attrEnd)
		if m.Past {
			p.skip("past: \"" + m.Text + "\" is in the past")
			return e
		}
		key := factbase.KeyPlan
		if m.Recur != when.Once {
			key = factbase.KeySchedule
		}
		if strings.Contains(what, "flight") || strings.Contains(what, "trip") {
			key = factbase.KeyTravel
		}
		value := what + " " + m.Text
		mm := *m
		p.emitFx(*s, fx{key: key, value: value, rule: "poss plan", marker: &mm, correction: st.corr, text: func(x string) string {
			return x + "'s " + value + anchorNote(mm)
		}})
		return e
	}
	return j
}
