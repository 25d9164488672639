package personal

import (
	"strconv"
	"strings"
	"time"

	"github.com/factbase/factbase/when"
)

// The markers of package when, completed with what everyday plans say around them:
// a part of the day ("Wednesday evenings" recur weekly), a range ("from March 16 to
// March 19"), "the first Sunday of every month", a day of the month ("on the 23rd"),
// a season ("this summer") and a holiday ("over Easter"). One pass over the tokens.

// partsOfDay are the parts of a day that may follow a day: "Saturday morning".
var partsOfDay = map[string]int{"morning": 8, "afternoon": 14, "evening": 18, "night": 20, "mornings": 8,
	"afternoons": 14, "evenings": 18, "nights": 20}

// weekdayNumbers are the weekdays, singular and plural.
var weekdayNumbers = map[string]time.Weekday{
	"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday,
	"thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday,
	"sundays": time.Sunday, "mondays": time.Monday, "tuesdays": time.Tuesday, "wednesdays": time.Wednesday,
	"thursdays": time.Thursday, "fridays": time.Friday, "saturdays": time.Saturday,
}

// weekOrdinals pick a weekday within a month: "the first Sunday of every month".
var weekOrdinals = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "last": -1, "1st": 1,
	"2nd": 2, "3rd": 3, "4th": 4}

// seasons start in these months (meteorological seasons, northern hemisphere).
var seasons = map[string]time.Month{"spring": time.March, "summer": time.June, "fall": time.September,
	"autumn": time.September, "winter": time.December}

// refineMarkers completes markers (sorted by start, as when.Find returns them)
// against the tokens of msg.
func refineMarkers(msg string, toks []token, ms []when.Marker, now time.Time) []when.Marker {
	if now.IsZero() {
		return ms
	}
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	// at[k] is the index of the marker starting in token k, or -1
	at := make([]int, len(toks))
	for k := range at {
		at[k] = -1
	}
	mi := 0
	for k, t := range toks {
		for mi < len(ms) && ms[mi].Start < t.start {
			mi++
		}
		if mi < len(ms) && ms[mi].Start >= t.start && ms[mi].Start < t.end {
			at[k] = mi
		}
	}
	endTok := func(m when.Marker, k int) int {
		for k < len(toks) && toks[k].start < m.End {
			k++
		}
		return k
	}
	w := func(k int) string {
		if k < 0 || k >= len(toks) {
			return ""
		}
		return toks[k].w
	}
	span := func(m *when.Marker, from, to int) {
		m.Start, m.End = toks[from].start, toks[to-1].end
		m.Text = msg[m.Start:m.End]
	}
	var out []when.Marker
	for k := 0; k < len(toks); k++ {
		if at[k] < 0 {
			if m, e, ok := newMarker(toks, k, today); ok {
				span(&m, k, e)
				out = append(out, m)
				k = e - 1
			}
			continue
		}
		m := ms[at[k]]
		start, e := k, endTok(m, k)
		last := lastWord(m.Text)
		// "the first Sunday of every month" ("the last Friday": when reads "last
		// Friday" as a past day)
		ord, th := k-1, k-2
		if w(k) == "last" && w(k-1) == "the" {
			ord, th = k, k-1
		}
		if n, ok := weekOrdinals[w(ord)]; ok && w(th) == "the" && m.Recur == when.Once {
			if wd, ok := weekdayNumbers[last]; ok && w(e) == "of" {
				f := e + 1
				if w(f) == "every" || w(f) == "each" || w(f) == "the" {
					f++
				}
				if w(f) == "month" {
					start = th
					if w(th-1) == "on" {
						start = th - 1
					}
					m.Recur, m.Grain, m.Past = when.Monthly, when.Day, false
					m.Anchor = nthWeekday(today, wd, n)
					e = f + 1
				}
			}
		}
		// "Wednesday evenings", "Saturday morning", "every Thursday night"
		if h, ok := partsOfDay[w(e)]; ok {
			if wd, isDay := weekdayNumbers[last]; isDay {
				if strings.HasSuffix(w(e), "s") && m.Recur == when.Once {
					m.Recur = when.Weekly
					m.Anchor = weekdayFrom(today, wd, now.Hour() < h)
					m.Past = false
				}
				e++
			} else if last == "tomorrow" || last == "today" {
				e++
			}
		}
		// "from March 16 to March 19"
		if (w(e) == "to" || w(e) == "until" || w(e) == "till" || w(e) == "through" || w(e) == "-") && e+1 < len(toks) && at[e+1] >= 0 {
			m2 := ms[at[e+1]]
			if m2.Recur == when.Once && m.Recur == when.Once {
				if w(start-1) == "from" {
					start--
				}
				e = endTok(m2, e+1)
			}
		}
		span(&m, start, e)
		out = append(out, m)
		k = e - 1
	}
	return out
}

// newMarker reads a marker package when does not know at k: "on the 23rd", "this
// summer", "in the spring", "over Easter".
func newMarker(toks []token, k int, today time.Time) (when.Marker, int, bool) {
	w := func(i int) string {
		if i < 0 || i >= len(toks) {
			return ""
		}
		return toks[i].w
	}
	i := k
	if w(i) == "on" || w(i) == "in" || w(i) == "over" || w(i) == "at" || w(i) == "for" || w(i) == "this" || w(i) == "next" || w(i) == "by" {
		i++
	}
	// "on the 23rd"
	if w(i) == "the" && (w(k) == "on" || w(k) == "by") {
		if d, ok := dayOfMonth(w(i + 1)); ok && w(i+2) != "of" && !months[w(i+2)] {
			a := time.Date(today.Year(), today.Month(), d, 0, 0, 0, 0, today.Location())
			if d < today.Day() || a.Month() != today.Month() {
				a = time.Date(today.Year(), today.Month()+1, d, 0, 0, 0, 0, today.Location())
			}
			return when.Marker{Anchor: a, Grain: when.Day}, i + 2, true
		}
	}
	// "this summer", "in the spring", "next winter"
	j := i
	if w(k) == "in" && w(j) == "the" {
		j++
	}
	if sm, ok := seasons[w(j)]; ok && (w(k) == "this" || w(k) == "next" || w(k) == "in" || w(k) == "over") {
		a := time.Date(today.Year(), sm, 1, 0, 0, 0, 0, today.Location())
		switch {
		case !today.Before(a) && today.Before(a.AddDate(0, 3, 0)):
			a = today
		case today.After(a):
			a = a.AddDate(1, 0, 0)
		}
		if w(k) == "next" && a.Equal(today) {
			a = time.Date(today.Year()+1, sm, 1, 0, 0, 0, 0, today.Location())
		}
		return when.Marker{Anchor: a, Grain: when.Month}, j + 1, true
	}
	// "over Easter", "at Christmas", "for Thanksgiving"
	if w(k) == "over" || w(k) == "at" || w(k) == "for" || w(k) == "on" || w(k) == "this" || w(k) == "next" {
		var a time.Time
		switch w(i) {
		case "easter":
			a = easter(today.Year(), today.Location())
			if a.Before(today) {
				a = easter(today.Year()+1, today.Location())
			}
		case "christmas", "xmas":
			a = time.Date(today.Year(), time.December, 25, 0, 0, 0, 0, today.Location())
			if w(i+1) == "eve" {
				a = a.AddDate(0, 0, -1)
			}
		case "thanksgiving":
			a = nthWeekday(time.Date(today.Year(), time.November, 1, 0, 0, 0, 0, today.Location()), time.Thursday, 4)
		default:
			return when.Marker{}, k, false
		}
		e := i + 1
		if w(i+1) == "eve" || w(i+1) == "break" || w(i+1) == "weekend" || w(i+1) == "holidays" {
			e++
		}
		if a.Before(today) {
			a = a.AddDate(1, 0, 0)
		}
		return when.Marker{Anchor: a, Grain: when.Day}, e, true
	}
	return when.Marker{}, k, false
}

// dayOfMonth reads "23rd", "1st", "2nd" as a day of the month.
func dayOfMonth(w string) (int, bool) {
	if len(w) < 3 {
		return 0, false
	}
	suf := w[len(w)-2:]
	if suf != "st" && suf != "nd" && suf != "rd" && suf != "th" {
		return 0, false
	}
	d, err := strconv.Atoi(w[:len(w)-2])
	if err != nil || d < 1 || d > 31 {
		return 0, false
	}
	return d, true
}

// lastWord is the last word of s, lower case.
func lastWord(s string) string {
	f := strings.Fields(strings.ToLower(s))
	if len(f) == 0 {
		return ""
	}
	return strings.Trim(f[len(f)-1], ".,")
}

// weekdayFrom returns the first wd on or after today (after today unless
// includeToday).
func weekdayFrom(today time.Time, wd time.Weekday, includeToday bool) time.Time {
	d := (int(wd) - int(today.Weekday()) + 7) % 7
	if d == 0 && !includeToday {
		d = 7
	}
	return today.AddDate(0, 0, d)
}

// nthWeekday returns the next n-th (or, n < 0, last) wd of a month on or after
// from's day.
func nthWeekday(from time.Time, wd time.Weekday, n int) time.Time {
	for add := 0; add < 14; add++ {
		first := time.Date(from.Year(), from.Month()+time.Month(add), 1, 0, 0, 0, 0, from.Location())
		var d time.Time
		if n > 0 {
			d = weekdayFrom(first, wd, true).AddDate(0, 0, 7*(n-1))
		} else {
			next := first.AddDate(0, 1, 0)
			d = weekdayFrom(next.AddDate(0, 0, -7), wd, true)
		}
		if d.Month() == first.Month() && !d.Before(from) {
			return d
		}
	}
	return from
}

// easter returns Easter Sunday of year y (the anonymous Gregorian algorithm).
func easter(y int, loc *time.Location) time.Time {
	a, b, c := y%19, y/100, y%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	month := (h + l - 7*m + 114) / 31
	day := (h+l-7*m+114)%31 + 1
	return time.Date(y, time.Month(month), day, 0, 0, 0, 0, loc)
}
