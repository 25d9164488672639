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
	p.mentionsIn(head, vEnd) // "visiting my sister Ana in Rome": Ana is the user's sister
	if strings.HasPrefix(p.w(head), "mov") || strings.HasPrefix(p.w(head), "reloc") {
		// "moving to Berlin next month": a plan
		return p.planFact(st, what, m, end, me)
	}
	if m.Recur != when.Once {
		return head // a recurring trip is a schedule
	}
	key := factbase.KeyTravel
	if hw := p.w(head); (hw == "going" || hw == "go" || hw == "goes") && p.w(head+1) == "to" && !p.isPlace(head+2) && p.w(head+2) != "see" && p.w(head+2) != "visit" {
		key = factbase.KeyPlan // "going to the dentist on Friday"
	}
	if p.w(head) == "off" && p.w(head+1) != "to" {
		key = factbase.KeyPlan // "off work all next week" is time off, not a trip
	}
	tail := p.markerTail(me)
	value := what + " " + p.span(ms, tail)
	if ms < head {
		value = what + " " + m.Text
	}
	me = tail
	mm := *m
	p.emitFx(*st.s, fx{key: key, value: value, rule: "travel", marker: &mm, correction: st.corr, text: func(x string) string {
		return x + ": " + value + anchorNote(mm)
	}})
	return max(end, me)
}

// tripNounIn reports whether the noun phrase opening [i, e) is headed by a travel
// noun: "a flight to Lima", "our trip to Norway" (not "a school trip", a plan of
// the day).
func (p *parser) tripNounIn(i, e int) bool {
	k := i
	if objectDeterminers[p.w(k)] {
		k++
	}
	return k < e && travelNouns[p.w(k)] && (k+1 >= e || p.w(k+1) == "to" || p.w(k+1) == "from" || p.w(k+1) == "home")
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
	if p.w(head) != "expecting" && !strings.Contains(strings.ToLower(p.span(head, vEnd)), "baby") {
		// "meeting my friend Dario for dinner on Friday"; not "expecting our
		// second baby in August", who is no one yet
		p.mentionsIn(head, vEnd)
	}
	if ms > head && me < end && (p.w(me) == "off" || p.w(me) == "out") && (me+1 == end || valueStop[p.w(me+1)] || p.w(me+1) == "to" || p.w(me+1) == "for" || p.w(me+1) == ",") && !m.Past && m.Recur == when.Once {
		// "taking Friday off": the particle after the day is the plan's
		return p.emitPlan(st, factbase.KeyPlan, p.span(head, me+1), m, end, me+1)
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
	return p.emitPlan(st, key, what+" "+m.Text, m, end, me)
}

// emitPlan stores value, which holds the marker's words, under key.
func (p *parser) emitPlan(st state, key, value string, m *when.Marker, end, me int) int {
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
		e := ms
		if ms < i {
			e = end
		} else if ms <= i {
			return head
		}
		if !m.Past && p.tripNounIn(i, e) {
			// "has a flight to Lima on March 30": a trip, as "my flight to Lima is
			// on March 30" is
			return p.emitPlan(st, factbase.KeyTravel, p.span(i, e)+" "+m.Text, m, end, me)
		}
		return p.planFact(st, p.span(i, e), m, end, me)
	}
	k := i
	what := ""
	before := ms < i // "On Sundays I take the kids swimming"
	every := false
	if before {
		k = head
	}
	for {
		vEnd := p.valueEnd(k, true)
		if ms > k && ms < vEnd {
			vEnd = ms
		}
		switch {
		case vEnd > k && ms != k:
			what = p.span(k, vEnd)
		case what == "" || ms != k:
			return max(k, head)
		default:
			// "on Mondays and Fridays": the activity said before, on the next day
			vEnd = k
		}
		if m.Recur == when.Once || m.Past {
			return max(k, head)
		}
		me = p.markerTail(me)
		text := p.span(ms, me)
		switch {
		case every:
			text = "every " + text
		case before:
			text = lowerFirst(text)
		default:
			if _, day := weekdayNumbers[strings.ToLower(p.w(ms))]; day && ms == k {
				text = "on " + text
			}
		}
		value := what + " " + text
		p.mentionsIn(k, vEnd)
		mm := *m
		p.emitFx(*st.s, fx{key: factbase.KeySchedule, value: value, rule: "schedule", marker: &mm, correction: st.corr, text: func(x string) string {
			return x + " has " + value
		}})
		k = max(me, vEnd)
		before = false
		// "and soccer on Saturdays"
		if p.w(k) == "," || p.w(k) == "and" {
			n := k + 1
			if p.w(n) == "and" {
				n++
			}
			m2, ms2, me2 := p.markerIn(n, min(n+6, len(p.t)))
			if m2 == nil || p.startsPredicate(n) || p.startsClause(n) {
				return k
			}
			prevEvery := every
			every = false
			if e, ok := p.everyAgain(*m, prevEvery, m2, ms2, me2); ok {
				// "yoga every Tuesday and Thursday": the second day recurs too
				m2, every = &e, true
			}
			m, ms, me = m2, ms2, me2
			k = n
			continue
		}
		return k
	}
}

// everyAgain reads a bare weekday after "every D and" as recurring like the day
// before it ("every Tuesday and Thursday"); ok is false otherwise.
func (p *parser) everyAgain(prev when.Marker, prevEvery bool, m *when.Marker, ms, me int) (when.Marker, bool) {
	if m.Recur != when.Once || prev.Recur == when.Once || p.o.Now.IsZero() || me <= ms ||
		!prevEvery && !strings.HasPrefix(strings.ToLower(prev.Text), "every ") {
		return when.Marker{}, false
	}
	if _, day := weekdayNumbers[strings.ToLower(p.w(ms))]; !day {
		return when.Marker{}, false
	}
	fs := when.Find("every "+p.span(ms, me), p.o.Now)
	if len(fs) != 1 || fs[0].Recur == when.Once {
		return when.Marker{}, false
	}
	e := fs[0]
	e.Text = m.Text
	return e, true
}

// mentionsIn records the people named with "my" inside a value ("see my therapist
// Joanne every Thursday"): their relations are facts too.
func (p *parser) mentionsIn(i, e int) {
	if p.dry {
		return
	}
	for k := i; k < e; k++ {
		if p.w(k) == "my" || p.w(k) == "our" {
			if _, j, ok := p.possessive(k); ok && j > k {
				k = j - 1
			}
		}
	}
}

// markerTail steps over what may follow a marker as part of the time: "before
// work", "after school", "for a week".
func (p *parser) markerTail(me int) int {
	switch p.w(me) {
	case "before", "after":
		if p.w(me+1) == "work" || p.w(me+1) == "school" || p.w(me+1) == "breakfast" || p.w(me+1) == "lunch" || p.w(me+1) == "dinner" || p.w(me+1) == "class" {
			return me + 2
		}
	case "for":
		if p.w(me+1) == "a" && (p.w(me+2) == "week" || p.w(me+2) == "month" || p.w(me+2) == "day" || p.w(me+2) == "fortnight" || p.w(me+2) == "few") {
			if p.w(me+2) == "few" {
				return me + 4
			}
			return me + 3
		}
		if isNumber(p.w(me+1)) && (strings.HasPrefix(p.w(me+2), "day") || strings.HasPrefix(p.w(me+2), "week") || strings.HasPrefix(p.w(me+2), "night") || strings.HasPrefix(p.w(me+2), "month")) {
			return me + 3
		}
	}
	return me
}

// lowerFirst lower-cases the first letter of a marker said at the start of a
// sentence ("On Sundays").
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// scheduleVerbs introduce an activity: "has piano", "takes swimming lessons".
var scheduleVerbs = map[string]bool{"has": true, "have": true, "takes": true, "take": true, "attends": true,
	"attend": true, "goes": true, "go": true, "plays": true, "play": true, "does": true, "do": true,
	"practices": true, "practice": true, "trains": true, "train": true, "visits": true, "visit": true,
	"sees": true, "see": true, "works": true, "volunteers": true, "swims": true, "runs": true, "meets": true,
	"coaches": true, "teaches": true, "babysits": true, "gets": true, "walks": true, "cleans": true,
	"drive": true, "drives": true, "walk": true, "run": true, "rehearse": true, "rehearses": true, "meet": true, "volunteer": true, "swim": true}

// stripVerbs name no activity of their own: "plays soccer" is soccer.
var stripVerbs = map[string]bool{"has": true, "have": true, "takes": true, "take": true, "attends": true,
	"attend": true, "plays": true, "play": true, "does": true, "do": true, "practices": true, "practice": true,
	"goes": true, "go": true, "gets": true}

// activityStart returns where the activity of a schedule verb at head starts.
func (p *parser) activityStart(head int) int {
	if !stripVerbs[p.w(head)] || possessives[p.w(head+1)] || p.at(head+1, "the", "kids") > 0 || p.at(head+1, "the", "dog") > 0 ||
		p.w(head+1) == "him" || p.w(head+1) == "her" || p.w(head+1) == "them" {
		return head // "take my dog to the park every day": the verb is the activity
	}
	i := head + 1
	if (p.w(head) == "goes" || p.w(head) == "go") && p.w(i) == "to" {
		i++
	}
	return i
}

// eventNouns name things that happen at a time: "my flight is on March 20".
var eventNouns = map[string]bool{
	"appointment": true, "appt": true, "meeting": true, "flight": true, "trip": true, "surgery": true,
	"operation": true, "test": true, "exam": true, "interview": true, "conference": true, "dinner": true,
	"lunch": true, "breakfast": true, "brunch": true, "party": true, "wedding": true, "move": true,
	"haircut": true, "checkup": true, "check-up": true, "concert": true, "recital": true, "presentation": true,
	"vacation": true, "holiday": true, "night": true, "class": true, "lesson": true, "session": true,
	"reservation": true, "visit": true, "rehearsal": true, "practice": true, "club": true, "ceremony": true,
	"graduation": true, "funeral": true, "shower": true, "date": true, "game": true, "match": true,
	"cruise": true, "procedure": true, "scan": true, "mri": true, "physio": true, "therapy": true,
	"deadline": true, "launch": true, "race": true, "marathon": true, "tournament": true, "show": true,
	"premiere": true, "reunion": true, "barbecue": true, "bbq": true, "hearing": true, "consultation": true,
}

// travelNouns make an event a trip.
var travelNouns = map[string]bool{"flight": true, "trip": true, "vacation": true, "holiday": true, "cruise": true}

// eventClause reads a clause whose subject is an event: "my flight to Berlin is on
// March 20", "poker night with the guys is every other Friday", "my book club meets
// on the first Sunday of every month", "Doctor's appointment Monday at 9:15". The
// event is the user's. It returns the index after what it read, or i.
func (p *parser) eventClause(i int) int {
	j := i
	if p.w(j) == "my" || p.w(j) == "our" {
		if _, _, k, ok := p.relationAt(j + 1); ok && (!eventNouns[p.w(k)] || p.t[k-1].poss) {
			return i
		}
		j++
	}
	np := j
	event, travel := false, false
	cut := -1 // "with the guys" is not part of the event's name
	for ; j < len(p.t) && j < np+7; j++ {
		t := p.t[j]
		if t.kind != kWord {
			return i
		}
		if m, _ := p.markerAt(j); m != nil || p.w(j) == "is" || p.w(j) == "are" || p.w(j) == "meets" || p.w(j) == "meet" {
			break
		}
		if subjectPronouns[t.w] || p.isVerbish(j) && t.w != "test" || t.w == "anniversary" || t.w == "birthday" || t.w == "bday" {
			return i
		}
		if t.poss && (p.isName(j) && !eventNouns[t.w] && t.w != "doctor" && t.w != "dentist" && t.w != "vet") {
			return i // "Sarah's flight": the possessive rules read it
		}
		if eventNouns[t.w] {
			event = true
			travel = travel || travelNouns[t.w]
		}
		if t.w == "with" && cut < 0 && event {
			cut = j
		}
	}
	if !event || j == np || j >= len(p.t) {
		return i
	}
	npEnd := j
	if cut > 0 {
		npEnd = cut
	}
	v := j
	verb := p.w(j) == "is" || p.w(j) == "are" || p.w(j) == "meets" || p.w(j) == "meet"
	if verb {
		v++
	}
	keep := v // "scheduled for April 8" stays in the value
	if p.w(v) == "scheduled" || p.w(v) == "booked" || p.w(v) == "planned" || p.w(v) == "set" {
		v++
		if p.w(v) == "for" {
			v++
		}
	}
	m, me := p.markerAt(v)
	if m == nil && (p.w(v) == "on" || p.w(v) == "for") {
		m, me = p.markerAt(v + 1)
	}
	if m == nil || m.Past {
		return i
	}
	me = p.markerTail(me)
	end := me
	if !verb {
		// a fragment: the whole clause is the event ("Dinner with Omar on Friday at
		// 8 at Zuma")
		end = p.clauseEnd(me)
		npEnd = np
		keep = np
		for k := me; k < end; k++ {
			if w := p.w(k); eventFates[w] || p.isVerbish(k) {
				// "My dentist appointment on Friday got cancelled": the event is the
				// subject of a clause that says what became of it, not a plan;
				// nothing else is read from it either
				return end
			}
		}
	}
	what := p.span(np, npEnd)
	if what != "" {
		what += " "
	}
	value := what + p.span(keep, end)
	if p.w(keep) == "meets" || p.w(keep) == "meet" {
		value = what + p.span(keep+1, end)
	}
	key := factbase.KeyPlan
	switch {
	case m.Recur != when.Once:
		key = factbase.KeySchedule
	case travel:
		key = factbase.KeyTravel
	}
	mm := *m
	p.emitFx(subj{refs: []int{User}}, fx{key: key, value: value, rule: "event is <time>", marker: &mm, text: func(x string) string {
		return x + ": " + value + anchorNote(mm)
	}})
	return end
}

// eventFates say what became of an event: after one, the event is no plan.
var eventFates = map[string]bool{"got": true, "was": true, "were": true, "has": true, "had": true,
	"been": true, "cancelled": true, "canceled": true, "postponed": true, "delayed": true,
	"rescheduled": true, "moved": true, "called": true, "is": true, "are": true}
