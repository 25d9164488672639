package personal

import (
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/when"
)

// travelIng are the present participles of travel verbs ("is flying to").
var travelIng = map[string]bool{"flying": true, "going": true, "heading": true, "traveling": true, "travelling": true,
	"driving": true, "leaving": true, "visiting": true, "moving": true, "off": true, "coming": true,
	"returning": true, "taking": false, "sailing": true, "cycling": false, "relocating": true}

// travelVerbs are travel verbs in the simple present.
var travelVerbs = map[string]bool{"fly": true, "flies": true, "travel": true, "travels": true, "go": true,
	"goes": true, "head": true, "heads": true, "leave": true, "leaves": true, "drive": true, "drives": true,
	"visit": true, "visits": true, "return": true, "returns": true, "come": true, "comes": true, "move": true,
	"moves": true, "relocate": true, "relocates": true}

// travel reads "fly to Lisbon next Friday", "is going to Rome in two weeks": a trip
// with a future one-off marker (or a schedule with a recurring one).
func (p *parser) travel(head int, st state) int {
	end := p.clauseEnd(head)
	m, ms, me := p.markerIn(st.s.clauseStart, end)
	if m == nil {
		return head
	}
	if m.Past {
		p.skip("past: \"" + m.Text + "\" is in the past")
		return end
	}
	i := head + 1
	if p.w(head) == "in" {
		i = head
	}
	// the trip's words: from the verb to the end, without the marker
	vEnd := end
	if ms >= head && ms < vEnd {
		vEnd = ms
	}
	if vEnd <= i {
		return head
	}
	what := p.span(head, vEnd)
	if p.w(head) == "in" {
		what = "be " + what
	}
	if strings.HasPrefix(p.w(head), "mov") || strings.HasPrefix(p.w(head), "reloc") {
		// "moving to Berlin next month": a plan
		return p.planFact(st, what, m, end, me)
	}
	if m.Recur != when.Once {
		return head // a recurring trip is a schedule
	}
	key := factbase.KeyTravel
	value := what + " " + m.Text
	mm := *m
	p.emitFx(*st.s, fx{key: key, value: value, rule: "travel", marker: &mm, correction: st.corr, text: func(x string) string {
		return x + ": " + value + anchorNote(mm)
	}})
	return max(end, me)
}

// anchorNote renders an anchor as " (2026-03-13)".
func anchorNote(m when.Marker) string {
	if m.Anchor.IsZero() {
		return ""
	}
	if m.Recur != when.Once {
		return " (" + string(m.Recur) + ")"
	}
	if m.Anchor.Hour() != 0 || m.Anchor.Minute() != 0 {
		return " (" + m.Anchor.Format("2006-01-02 15:04") + ")"
	}
	return " (" + m.Anchor.Format("2006-01-02") + ")"
}

// plan reads a plan with a future marker: "is having surgery next week", "has a
// dentist appointment tomorrow", "turns 9 on Friday".
func (p *parser) plan(head int, st state) int {
	end := p.clauseEnd(head)
	m, ms, me := p.markerIn(st.s.clauseStart, end)
	if m == nil {
		return head
	}
	vEnd := end
	if ms >= head && ms < vEnd {
		vEnd = ms
	}
	if vEnd <= head {
		return head
	}
	return p.planFact(st, p.span(head, vEnd), m, end, me)
}

func (p *parser) planFact(st state, what string, m *when.Marker, end, me int) int {
	if m.Past {
		p.skip("past: \"" + m.Text + "\" is in the past")
		return max(end, me)
	}
	key := factbase.KeyPlan
	if m.Recur != when.Once {
		key = factbase.KeySchedule
	}
	value := what + " " + m.Text
	mm := *m
	p.emitFx(*st.s, fx{key: key, value: value, rule: "plan", marker: &mm, correction: st.corr, text: func(x string) string {
		return x + ": " + value + anchorNote(mm)
	}})
	return max(end, me)
}

// schedule reads an activity with a recurring marker: "has piano on Tuesdays", "goes
// swimming every Saturday". Several "X on D" pairs may follow one verb.
func (p *parser) schedule(head, i int, st state) int {
	end := p.clauseEnd(i)
	m, ms, me := p.markerIn(st.s.clauseStart, end)
	if m == nil {
		return head
	}
	if m.Recur == when.Once {
		if ms < i {
			return p.planFact(st, p.span(i, end), m, end, me)
		}
		if ms <= i {
			return head
		}
		return p.planFact(st, p.span(i, ms), m, end, me)
	}
	k := i
	for {
		vEnd := p.valueEnd(k, true)
		if ms > k && ms < vEnd {
			vEnd = ms
		}
		if vEnd <= k {
			return max(k, head)
		}
		what := p.span(k, vEnd)
		if m.Recur == when.Once || m.Past {
			return max(k, head)
		}
		value := what + " " + m.Text
		mm := *m
		p.emitFx(*st.s, fx{key: factbase.KeySchedule, value: value, rule: "schedule", marker: &mm, correction: st.corr, text: func(x string) string {
			return x + " has " + value
		}})
		k = max(me, vEnd)
		// "and soccer on Saturdays"
		if p.w(k) == "," || p.w(k) == "and" {
			n := k + 1
			if p.w(n) == "and" {
				n++
			}
			m2, ms2, me2 := p.markerIn(n, p.clauseEnd(n))
			if m2 == nil || p.startsPredicate(n) || p.startsClause(n) {
				return k
			}
			m, ms, me = m2, ms2, me2
			k = n
			continue
		}
		return k
	}
}

// scheduleVerbs introduce an activity: "has piano", "takes swimming lessons".
var scheduleVerbs = map[string]bool{"has": true, "have": true, "takes": true, "take": true, "attends": true,
	"attend": true, "goes": true, "go": true, "plays": true, "play": true, "does": true, "do": true,
	"practices": true, "practice": true, "trains": true, "train": true, "visits": true, "visit": true,
	"sees": true, "see": true, "works": true, "volunteers": true, "swims": true, "runs": true, "meets": true,
	"coaches": true, "teaches": true, "babysits": true, "gets": true, "walks": true, "cleans": true}

// stripVerbs name no activity of their own: "plays soccer" is soccer.
var stripVerbs = map[string]bool{"has": true, "have": true, "takes": true, "take": true, "attends": true,
	"attend": true, "plays": true, "play": true, "does": true, "do": true, "practices": true, "practice": true,
	"goes": true, "go": true, "gets": true}

// activityStart returns where the activity of a schedule verb at head starts.
func (p *parser) activityStart(head int) int {
	if !stripVerbs[p.w(head)] {
		return head
	}
	i := head + 1
	if (p.w(head) == "goes" || p.w(head) == "go") && p.w(i) == "to" {
		i++
	}
	return i
}
