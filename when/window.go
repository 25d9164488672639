package when

import (
	"time"
)

// Window is a span of time a question asks about, From inclusive, To exclusive.
type Window struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
	Text string    `json:"text"` // the words that named it
}

// Contains reports whether t falls in the window.
func (w Window) Contains(t time.Time) bool { return !t.Before(w.From) && t.Before(w.To) }

// DefaultUpcoming is the span of "upcoming", "soon" and "coming up": 30 days from today.
const DefaultUpcoming = 30

// QueryWindow reads the time a question asks about: "next week", "tomorrow", "this
// month", "on June 15th", "on the 28th", "in the next 10 days", "upcoming", "soon"
// (the next 30 days, unless a time is named too: "coming up this week"). ok is false
// when the question names no time. Recurring markers ("every Tuesday") name no window.
func QueryWindow(query string, now time.Time) (Window, bool) {
	today := day(now)
	toks := tokenize(query)
	// "upcoming", "soon", "coming up": the next 30 days, unless the query names a
	// time of its own ("What's coming up this week?")
	var up *Window
	for i := range toks {
		x := toks[i].w
		// "in the next 10 days", "over the coming two weeks", "next 3 days"
		j := i
		if x == "in" || x == "over" || x == "within" || x == "during" {
			j++
			if w(toks, j) == "the" {
				j++
			}
		}
		if y := w(toks, j); y == "next" || y == "coming" || y == "following" {
			if n, g, end, ok := quantity(toks, j+1); ok && n > 0 {
				return Window{From: today, To: addGrain(today, g, n), Text: query[toks[i].start:toks[end-1].end]}, true
			}
			if y != "next" {
				if g, ok := units[w(toks, j+1)]; ok && j > i { // "in the coming days": a week
					n := 7
					if g != Day {
						n = 1
					}
					return Window{From: today, To: addGrain(today, g, n*1), Text: query[toks[i].start:toks[j+1].end]}, true
				}
			}
		}
		switch x {
		case "upcoming", "soon", "soonest":
			if up == nil {
				up = &Window{From: today, To: today.AddDate(0, 0, DefaultUpcoming), Text: toks[i].w}
			}
		case "coming", "happening":
			if w(toks, i+1) == "up" && up == nil {
				up = &Window{From: today, To: today.AddDate(0, 0, DefaultUpcoming), Text: query[toks[i].start:toks[i+1].end]}
			}
		}
	}
	for _, m := range Find(query, now) {
		if m.Recur != Once {
			continue
		}
		from := day(m.Anchor)
		if m.Grain != Day && from.Before(today) && !m.Past {
			from = today
		}
		return Window{From: from, To: m.PeriodEnd(), Text: m.Text}, true
	}
	if up != nil {
		return *up, true
	}
	return Window{}, false
}

// Occurrences returns the times at which a marker anchored at anchor with recurrence
// r falls in [from, to), in order; a one-off marker occurs once, at its anchor. At most
// limit times are returned (limit <= 0: 1000).
func Occurrences(anchor time.Time, r Recurrence, from, to time.Time, limit int) []time.Time {
	if limit <= 0 {
		limit = 1000
	}
	var out []time.Time
	in := func(t time.Time) bool { return !t.Before(from) && t.Before(to) }
	switch r {
	case Once:
		if in(anchor) {
			out = append(out, anchor)
		}
		return out
	case Yearly:
		// The anchor's month and day every year; February 29th on March 1st when absent.
		tod := anchor.Sub(day(anchor))
		for y := from.Year() - 1; y <= to.Year() && len(out) < limit; y++ {
			d := anchor.Day()
			if !validDate(y, anchor.Month(), d) {
				d = 0 // the day before the 1st of the next month is normalised below
			}
			var t time.Time
			if d == 0 {
				t = time.Date(y, anchor.Month()+1, 1, 0, 0, 0, 0, anchor.Location())
			} else {
				t = time.Date(y, anchor.Month(), d, 0, 0, 0, 0, anchor.Location())
			}
			if t = t.Add(tod); in(t) {
				out = append(out, t)
			}
		}
		return out
	case Monthly:
		// The anchor's day of the month, clamped to the month's last day.
		tod := anchor.Sub(day(anchor))
		for k := monthsBetween(anchor, from) - 1; len(out) < limit; k++ {
			first := time.Date(anchor.Year(), anchor.Month()+time.Month(k), 1, 0, 0, 0, 0, anchor.Location())
			last := first.AddDate(0, 1, -1).Day()
			t := first.AddDate(0, 0, min(anchor.Day(), last)-1).Add(tod)
			if !t.Before(to) {
				break
			}
			if in(t) {
				out = append(out, t)
			}
		}
		return out
	}
	step := 1
	if r == Weekly {
		step = 7
	}
	t := anchor
	if t.After(from) {
		n := int(t.Sub(from).Hours()/24)/step + 1
		t = t.AddDate(0, 0, -n*step)
	}
	for ; t.Before(to) && len(out) < limit; t = t.AddDate(0, 0, step) {
		if in(t) {
			out = append(out, t)
		}
	}
	return out
}

// monthsBetween counts calendar months from a's month to b's (negative when b is
// earlier).
func monthsBetween(a, b time.Time) int {
	return (b.Year()-a.Year())*12 + int(b.Month()) - int(a.Month())
}
