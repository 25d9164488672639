package personal

import (
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/when"
)

// emitAge records an age for mention idx.
func (p *parser) emitAge(idx int, age, rule string) {
	if p.dry || idx < 0 {
		return
	}
	if p.ex.Mentions[idx].Age == "" {
		p.ex.Mentions[idx].Age = age
	}
	unit := " years old"
	if strings.HasSuffix(age, "months") || strings.HasSuffix(age, "weeks") {
		unit = " old"
	}
	p.emit(subj{refs: []int{idx}}, factbase.KeyAge, age, rule, func(s string) string { return s + " is " + age + unit })
}

// ageRule reads "8", "8 years old", "8 months old" after a copula.
func (p *parser) ageRule(head int, a string, st state) int {
	e := head + 1
	switch {
	case p.at(e, "years", "old") > 0 || p.at(e, "year", "old") > 0 || p.at(e, "yrs", "old") > 0:
		e += 2
	case p.w(e) == "years" && ageComparisons[p.w(e+1)]:
		return head // "is two years older than me": a difference, not an age
	case p.w(e) == "yo" || p.w(e) == "y/o" || p.w(e) == "years" || p.w(e) == "now" || p.w(e) == "already":
		e++
	case p.at(e, "months", "old") > 0:
		a += " months"
		e += 2
	case p.at(e, "weeks", "old") > 0:
		a += " weeks" // "Our baby is 8 weeks old"
		e += 2
	case e < len(p.t) && !(p.w(e) == "and" || p.w(e) == "," || p.w(e) == "but" || p.w(e) == "-" || p.w(e) == "(" || p.w(e) == "as" && p.w(e+1) == "of"):
		return head // "Leo is 8 feet tall", "is 8 minutes away"
	}
	p.ageFacts(st, a)
	return e
}

// ageComparisons after "N years" make N a difference: "two years older", "apart".
var ageComparisons = map[string]bool{"older": true, "younger": true, "apart": true, "ago": true, "later": true,
	"before": true, "after": true, "senior": true, "junior": true, "between": true, "behind": true, "ahead": true,
	"more": true, "less": true, "longer": true}

func (p *parser) ageFacts(st state, a string) {
	for _, r := range st.s.refs {
		if r == User {
			if !st.s.we {
				age := a
				p.emitFx(subj{refs: []int{User}}, fx{key: factbase.KeyAge, value: a, rule: "I am N", correction: st.corr, text: func(s string) string { return s + " is " + age + " years old" }})
			}
			continue
		}
		p.emitAge(r, a, "is N years old")
	}
}

// bornRule reads "born on June 3rd" / "born in 1990" after "was born".
func (p *parser) bornRule(i int, st state) int {
	if p.at(i, "and", "raised") > 0 || p.at(i, "and", "bred") > 0 {
		i += 2 // "born and raised in Detroit"
	}
	if p.w(i) == "in" && p.isPlace(i+1) {
		// "I was born in Accra": where one comes from
		if _, e := p.markerAt(i); e <= i {
			e = p.homeOrigin(st, i+1, "was born in")
			if m, me := p.markerAt(e); m != nil && m.Grain == when.Day {
				p.birthday(st, m, "was born on") // "... in London on May 3, 2019"
				return me
			}
			return e
		}
	}
	m, e := p.markerAt(i)
	if m == nil || m.Grain != when.Day {
		return i
	}
	p.birthday(st, m, "was born on")
	return e
}

// birthday emits a birthday with a yearly anchor.
func (p *parser) birthday(st state, m *when.Marker, rule string) {
	mm := *m
	mm.Recur = when.Yearly
	text := strings.TrimPrefix(strings.TrimPrefix(m.Text, "on "), "On ")
	if !isDateText(text) {
		// "next Tuesday", "today": keep the date it names, not the relative words
		text = m.Anchor.Format("January 2")
	}
	if !mm.HasYear && !p.o.Now.IsZero() {
		mm.Anchor = when.NextYearly(m.Anchor.Month(), m.Anchor.Day(), p.o.Now)
	}
	p.emitFx(*st.s, fx{key: factbase.KeyBirthday, value: text, rule: rule, marker: &mm, correction: st.corr, text: func(s string) string {
		return s + "'s birthday is " + text
	}})
}

// isDateText reports whether a marker names a calendar date (a month or an ISO
// date), not a day relative to the message.
func isDateText(s string) bool {
	for _, w := range strings.Fields(strings.ToLower(s)) {
		if months[strings.Trim(w, ".,")] || len(w) == 10 && w[4] == '-' {
			return true
		}
	}
	for m := range months {
		if len(m) >= 3 && strings.Contains(strings.ToLower(s), m[:3]) {
			return true
		}
	}
	return false
}

// turns reads "turns 9 on April 11", "is turning 10 on Sunday" (head at the verb):
// the day is a birthday. It returns head when no age and day follow.
func (p *parser) turns(head int, st state) int {
	if _, ok := ageNumber(p.w(head + 1)); !ok {
		return head
	}
	end := p.clauseEnd(head + 2)
	m, _, me := p.markerIn(head+2, end)
	if m == nil || m.Grain != when.Day || m.Recur != when.Once || m.Past {
		return head
	}
	p.birthday(st, m, "turns N on")
	return max(me, end)
}
