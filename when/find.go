package when

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/factbase/factbase/text"
)

// MaxText is the longest text Find reads; the rest is ignored.
const MaxText = 64 << 10

// Find returns the temporal markers in text, in order, resolved against now (the time
// the text was said). Overlapping readings are not returned: the longest marker at a
// position wins. Cost is linear in len(text).
func Find(text string, now time.Time) []Marker {
	if len(text) > MaxText {
		text = text[:MaxText]
	}
	return find(text, tokenize(text), now)
}

// FindText is Find reading the parse of a text: its words are cut once and shared
// with the parse's other readers.
func FindText(p *text.Parse, now time.Time) []Marker {
	if len(p.Msg) > MaxText {
		return Find(p.Msg, now)
	}
	in := p.View(frontEnd)
	return find(p.Msg, toksOf(slices.Values(in), len(in)), now)
}

// find finds the markers of text among its words toks.
func find(text string, toks []tok, now time.Time) []Marker {
	var out []Marker
	for i := 0; i < len(toks); {
		m, end, ok := matchAt(toks, i, now)
		if !ok {
			i++
			continue
		}
		m = withTime(toks, end, m, &end)
		m.Start, m.End = toks[i].start, toks[end-1].end
		m.Text = text[m.Start:m.End]
		out = append(out, m)
		i = end
	}
	return out
}

// Parse reads s as one marker (as Find would find it, the whole of s): "next Friday",
// "on Tuesdays". ok is false if s is not exactly one marker.
func Parse(s string, now time.Time) (Marker, bool) {
	ms := Find(s, now)
	if len(ms) != 1 {
		return Marker{}, false
	}
	if strings.TrimSpace(s[:ms[0].Start]) != "" || strings.Trim(s[ms[0].End:], " .,!?;:") != "" {
		return Marker{}, false
	}
	return ms[0], true
}

func w(toks []tok, i int) string {
	if i < 0 || i >= len(toks) {
		return ""
	}
	return toks[i].w
}

// matchAt tries every pattern at i; it returns the marker and the index after it.
func matchAt(toks []tok, i int, now time.Time) (Marker, int, bool) {
	today := day(now)
	w0, w1, w2 := w(toks, i), w(toks, i+1), w(toks, i+2)
	mk := func(t time.Time, g Grain, end int) (Marker, int, bool) {
		return Marker{Anchor: t, Grain: g, Past: t.Before(today)}, end, true
	}
	switch w0 {
	case "the":
		if w1 == "day" && w2 == "after" && w(toks, i+3) == "tomorrow" {
			return mk(today.AddDate(0, 0, 2), Day, i+4)
		}
		if w1 == "day" && w2 == "before" && w(toks, i+3) == "yesterday" {
			return mk(today.AddDate(0, 0, -2), Day, i+4)
		}
		if d, ok := dayNumber(w1); ok && w2 == "of" {
			if m, ok := months[w(toks, i+3)]; ok {
				return dateMarker(toks, today, m, d, i+4)
			}
		}
	case "day":
		if w1 == "after" && w2 == "tomorrow" {
			return mk(today.AddDate(0, 0, 2), Day, i+3)
		}
	case "today", "tonight", "tonite":
		return mk(today, Day, i+1)
	case "tomorrow", "tmrw", "tmr", "tomorrow's":
		return mk(today.AddDate(0, 0, 1), Day, i+1)
	case "yesterday":
		return mk(today.AddDate(0, 0, -1), Day, i+1)
	case "every", "each":
		return everyMarker(toks, today, i)
	case "daily", "nightly":
		return Marker{Anchor: today, Grain: Day, Recur: Daily}, i + 1, true
	case "weekly":
		if w1 == "on" {
			if wd, ok := weekdays[w2]; ok {
				return Marker{Anchor: nextWeekday(today, wd, true), Grain: Day, Recur: Weekly}, i + 3, true
			}
		}
		return Marker{Anchor: today, Grain: Day, Recur: Weekly}, i + 1, true
	case "monthly":
		return Marker{Anchor: today, Grain: Day, Recur: Monthly}, i + 1, true
	case "yearly", "annually":
		return Marker{Anchor: today, Grain: Day, Recur: Yearly}, i + 1, true
	case "this", "next", "last", "coming":
		return relativeMarker(toks, today, i)
	case "on":
		if wd, ok := pluralWeekdays[w1]; ok {
			return Marker{Anchor: nextWeekday(today, wd, true), Grain: Day, Recur: Weekly}, i + 2, true
		}
		if wd, ok := weekdays[w1]; ok {
			if w2 == "and" { // "on Mondays and Wednesdays" is handled by the plural case
				break
			}
			return mk(nextWeekday(today, wd, false), Day, i+2)
		}
		if m, ok := months[w1]; ok {
			if d, ok := dayNumber(w2); ok {
				return dateMarker(toks, today, m, d, i+3)
			}
		}
		if w1 == "the" {
			if d, ok := dayNumber(w2); ok && w(toks, i+3) == "of" {
				if m, ok := months[w(toks, i+4)]; ok {
					return dateMarker(toks, today, m, d, i+5)
				}
			}
			if d, ok := dayNumber(w2); ok && w2 != strconv.Itoa(d) && isDigit(w2[0]) && !isWeekday(w(toks, i+3)) {
				// "on the 28th": that day of this month, or of the next when it has passed
				// (not "on the first Sunday of every month")
				for k := 0; k < 3; k++ {
					t := time.Date(today.Year(), today.Month()+time.Month(k), 1, 0, 0, 0, 0, today.Location())
					if validDate(t.Year(), t.Month(), d) && !t.AddDate(0, 0, d-1).Before(today) {
						return mk(t.AddDate(0, 0, d-1), Day, i+3)
					}
				}
			}
		}
		if d, ok := dayNumber(w1); ok {
			if m, ok := months[w2]; ok {
				return dateMarker(toks, today, m, d, i+3)
			}
		}
		if t, ok := isoDate(w1, today.Location()); ok {
			return Marker{Anchor: t, Grain: Day, Past: t.Before(today), HasYear: true}, i + 2, true
		}
	case "in", "within":
		if n, g, end, ok := quantity(toks, i+1); ok {
			return mk(addGrain(today, g, n), Day, end)
		}
		if m, ok := months[w1]; ok {
			if y, ok := yearNumber(w2); ok {
				t := time.Date(y, m, 1, 0, 0, 0, 0, today.Location())
				return Marker{Anchor: t, Grain: Month, HasYear: true, Past: addGrain(t, Month, 1).Before(today.AddDate(0, 0, 1))}, i + 3, true
			}
			t := time.Date(today.Year(), m, 1, 0, 0, 0, 0, today.Location())
			if addGrain(t, Month, 1).Before(today.AddDate(0, 0, 1)) {
				t = t.AddDate(1, 0, 0)
			}
			return Marker{Anchor: t, Grain: Month}, i + 2, true
		}
	}
	if wd, ok := pluralWeekdays[w0]; ok {
		return Marker{Anchor: nextWeekday(today, wd, true), Grain: Day, Recur: Weekly}, i + 1, true
	}
	if wd, ok := weekdays[w0]; ok && len(w0) > 4 { // full names only: "sat", "sun", "wed" are words
		return mk(nextWeekday(today, wd, false), Day, i+1)
	}
	if m, ok := months[w0]; ok {
		if d, ok := dayNumber(w1); ok {
			return dateMarker(toks, today, m, d, i+2)
		}
	}
	if d, ok := dayNumber(w0); ok {
		if m, ok := months[w1]; ok {
			return dateMarker(toks, today, m, d, i+2)
		}
		if w1 == "of" {
			if m, ok := months[w2]; ok {
				return dateMarker(toks, today, m, d, i+3)
			}
		}
	}
	if t, ok := isoDate(w0, today.Location()); ok {
		return Marker{Anchor: t, Grain: Day, Past: t.Before(today), HasYear: true}, i + 1, true
	}
	if n, g, end, ok := quantity(toks, i); ok {
		switch {
		case w(toks, end) == "from" && (w(toks, end+1) == "now" || w(toks, end+1) == "today"):
			return mk(addGrain(today, g, n), Day, end+2)
		case w(toks, end) == "ago":
			return mk(addGrain(today, g, -n), Day, end+1)
		case w(toks, end) == "later":
			return mk(addGrain(today, g, n), Day, end+1)
		}
	}
	return Marker{}, i, false
}

// isWeekday reports whether w names a day of the week, singular or plural.
func isWeekday(w string) bool {
	_, one := weekdays[w]
	_, many := pluralWeekdays[w]
	return one || many
}

// quantity reads "two weeks", "a couple of days", "a few months", "3 years" at i.
func quantity(toks []tok, i int) (n int, g Grain, end int, ok bool) {
	w0, w1, w2 := w(toks, i), w(toks, i+1), w(toks, i+2)
	if w0 == "a" && w1 == "couple" && w2 == "of" {
		if g, ok := units[w(toks, i+3)]; ok {
			return 2, g, i + 4, true
		}
		return 0, "", i, false
	}
	if w0 == "a" && (w1 == "few" || w1 == "couple") {
		if g, ok := units[w2]; ok {
			n := 3
			if w1 == "couple" {
				n = 2
			}
			return n, g, i + 3, true
		}
	}
	if c, ok := count(w0); ok {
		if g, ok := units[w1]; ok {
			return c, g, i + 2, true
		}
		if w1 == "and" && w2 == "a" && w(toks, i+3) == "half" { // "two and a half weeks": rounded down
			if g, ok := units[w(toks, i+4)]; ok {
				return c, g, i + 5, true
			}
		}
	}
	return 0, "", i, false
}

// dateMarker finishes a month/day date at end: an optional year follows.
func dateMarker(toks []tok, today time.Time, m time.Month, d, end int) (Marker, int, bool) {
	if y, ok := yearNumber(w(toks, end)); ok {
		if !validDate(y, m, d) {
			return Marker{}, end, false
		}
		t := time.Date(y, m, d, 0, 0, 0, 0, today.Location())
		return Marker{Anchor: t, Grain: Day, HasYear: true, Past: t.Before(today)}, end + 1, true
	}
	if !validDate(2024, m, d) { // 2024 is a leap year: February 29th exists
		return Marker{}, end, false
	}
	return Marker{Anchor: NextYearly(m, d, today), Grain: Day}, end, true
}

// isoDate reads 2027-06-15.
func isoDate(s string, loc *time.Location) (time.Time, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return time.Time{}, false
	}
	y, err1 := strconv.Atoi(s[:4])
	mo, err2 := strconv.Atoi(s[5:7])
	d, err3 := strconv.Atoi(s[8:])
	if err1 != nil || err2 != nil || err3 != nil || mo < 1 || mo > 12 || !validDate(y, time.Month(mo), d) {
		return time.Time{}, false
	}
	return time.Date(y, time.Month(mo), d, 0, 0, 0, 0, loc), true
}

// everyMarker reads "every Tuesday", "every day", "every other week", "each month".
func everyMarker(toks []tok, today time.Time, i int) (Marker, int, bool) {
	j := i + 1
	if w(toks, j) == "other" || w(toks, j) == "single" {
		j++
	}
	x := w(toks, j)
	if wd, ok := weekdays[x]; ok {
		return Marker{Anchor: nextWeekday(today, wd, true), Grain: Day, Recur: Weekly}, j + 1, true
	}
	if wd, ok := pluralWeekdays[x]; ok {
		return Marker{Anchor: nextWeekday(today, wd, true), Grain: Day, Recur: Weekly}, j + 1, true
	}
	switch x {
	case "day", "morning", "evening", "night", "weekday":
		return Marker{Anchor: today, Grain: Day, Recur: Daily}, j + 1, true
	case "week":
		return Marker{Anchor: today, Grain: Day, Recur: Weekly}, j + 1, true
	case "weekend":
		return Marker{Anchor: nextWeekday(today, time.Saturday, true), Grain: Weekend, Recur: Weekly}, j + 1, true
	case "month":
		return Marker{Anchor: today, Grain: Day, Recur: Monthly}, j + 1, true
	case "year":
		return Marker{Anchor: today, Grain: Day, Recur: Yearly}, j + 1, true
	}
	if m, ok := months[x]; ok && x != "may" {
		return Marker{Anchor: time.Date(today.Year(), m, 1, 0, 0, 0, 0, today.Location()), Grain: Month, Recur: Yearly}, j + 1, true
	}
	return Marker{}, i, false
}

// relativeMarker reads "this/next/last/coming ..." at i.
func relativeMarker(toks []tok, today time.Time, i int) (Marker, int, bool) {
	rel := w(toks, i)
	j := i + 1
	if rel == "this" && w(toks, j) == "coming" {
		rel, j = "coming", j+1
	}
	x := w(toks, j)
	past := rel == "last"
	if wd, ok := weekdays[x]; ok {
		var t time.Time
		switch rel {
		case "this":
			t = nextWeekday(today, wd, true)
		case "coming":
			t = nextWeekday(today, wd, false)
		case "next":
			t = nextWeekday(today, wd, false)
			if t.Before(weekStart(today).AddDate(0, 0, 7)) {
				t = t.AddDate(0, 0, 7)
			}
		default:
			t = nextWeekday(today, wd, true).AddDate(0, 0, -7)
			if !t.Before(today) {
				t = t.AddDate(0, 0, -7)
			}
		}
		return Marker{Anchor: t, Grain: Day, Past: past}, j + 1, true
	}
	switch x {
	case "morning", "afternoon", "evening":
		if rel == "this" {
			return Marker{Anchor: today, Grain: Day}, j + 1, true
		}
	case "week":
		ws := weekStart(today)
		return relPeriod(rel, today, ws.AddDate(0, 0, -7), ws.AddDate(0, 0, 7), Week), j + 1, true
	case "weekend":
		sat := nextWeekday(today, time.Saturday, true)
		if today.Weekday() == time.Sunday {
			sat = today.AddDate(0, 0, -1)
		}
		switch rel {
		case "this", "coming":
			if today.Weekday() == time.Sunday {
				return Marker{Anchor: today, Grain: Day}, j + 1, true
			}
			return Marker{Anchor: sat, Grain: Weekend}, j + 1, true
		case "next":
			return Marker{Anchor: sat.AddDate(0, 0, 7), Grain: Weekend}, j + 1, true
		default:
			return Marker{Anchor: sat.AddDate(0, 0, -7), Grain: Weekend, Past: true}, j + 1, true
		}
	case "month":
		first := time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, today.Location())
		return relPeriod(rel, today, first.AddDate(0, -1, 0), first.AddDate(0, 1, 0), Month), j + 1, true
	case "year":
		first := time.Date(today.Year(), 1, 1, 0, 0, 0, 0, today.Location())
		return relPeriod(rel, today, first.AddDate(-1, 0, 0), first.AddDate(1, 0, 0), Year), j + 1, true
	case "night":
		if rel == "last" {
			return Marker{Anchor: today.AddDate(0, 0, -1), Grain: Day, Past: true}, j + 1, true
		}
	}
	if m, ok := months[x]; ok {
		t := time.Date(today.Year(), m, 1, 0, 0, 0, 0, today.Location())
		switch rel {
		case "next", "coming":
			if !t.After(today) {
				t = t.AddDate(1, 0, 0)
			}
		case "last":
			if !t.Before(today) {
				t = t.AddDate(-1, 0, 0)
			}
			return Marker{Anchor: t, Grain: Month, Past: true}, j + 1, true
		default:
			if addGrain(t, Month, 1).Before(today.AddDate(0, 0, 1)) {
				t = t.AddDate(1, 0, 0)
			}
		}
		return Marker{Anchor: t, Grain: Month}, j + 1, true
	}
	return Marker{}, i, false
}

// withTime adds a time of day that follows a day marker: "at 3pm", "at 15:30", "at
// noon", "3 pm". It updates *end when it reads one.
func withTime(toks []tok, i int, m Marker, end *int) Marker {
	if m.Grain != Day {
		return m
	}
	j := i
	if w(toks, j) == "at" || w(toks, j) == "around" || w(toks, j) == "by" {
		j++
	}
	h, mins, n, ok := clock(toks, j)
	if !ok || j == i && n == 0 {
		return m
	}
	if j == i && !strings.HasSuffix(w(toks, j+n-1), "m") { // a bare number needs "at" or am/pm
		return m
	}
	m.Anchor = m.Anchor.Add(time.Duration(h)*time.Hour + time.Duration(mins)*time.Minute)
	*end = j + n
	return m
}

// clock reads a time of day at i: "3pm", "3 pm", "15:30", "3:30pm", "noon", "midnight".
// n is the number of tokens read.
func clock(toks []tok, i int) (h, mins, n int, ok bool) {
	x := w(toks, i)
	switch x {
	case "noon", "midday":
		return 12, 0, 1, true
	case "midnight":
		return 0, 0, 1, true
	}
	suffix := ""
	for _, s := range []string{"am", "pm", "a.m", "p.m"} {
		if strings.HasSuffix(x, s) && len(x) > len(s) {
			suffix, x = s[:1], strings.TrimSuffix(x, s)
			break
		}
	}
	n = 1
	if suffix == "" {
		switch w(toks, i+1) {
		case "am", "a.m":
			suffix, n = "a", 2
		case "pm", "p.m":
			suffix, n = "p", 2
		}
	}
	hs, ms, colon := strings.Cut(strings.ReplaceAll(x, ".", ":"), ":")
	hh, err := strconv.Atoi(hs)
	if err != nil || hh < 0 || hh > 23 {
		return 0, 0, 0, false
	}
	mm := 0
	if colon {
		if mm, err = strconv.Atoi(ms); err != nil || mm < 0 || mm > 59 || len(ms) != 2 {
			return 0, 0, 0, false
		}
	}
	if suffix == "" && !colon {
		if hh < 1 || hh > 12 {
			return 0, 0, 0, false
		}
		// "at 7" with no am/pm: a plan's hour, read as afternoon or evening for 1-7.
		if hh < 8 {
			hh += 12
		}
		return hh, mm, n, true
	}
	if suffix != "" {
		if hh < 1 || hh > 12 {
			return 0, 0, 0, false
		}
		if suffix == "p" && hh != 12 {
			hh += 12
		}
		if suffix == "a" && hh == 12 {
			hh = 0
		}
	}
	return hh, mm, n, true
}

// relPeriod is the week, month or year of grain g that rel names: "this" one (from
// today), the "next" or "coming" one (starting at next), or else the last one
// (starting at last, in the past).
func relPeriod(rel string, today, last, next time.Time, g Grain) Marker {
	switch rel {
	case "this":
		return Marker{Anchor: today, Grain: g}
	case "next", "coming":
		return Marker{Anchor: next, Grain: g}
	}
	return Marker{Anchor: last, Grain: g, Past: true}
}
