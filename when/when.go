// Package when finds temporal markers in English text ("tomorrow", "next Friday", "in
// two weeks", "on June 15th", "every Tuesday") and resolves each to a time anchor
// against a reference time (the time of the message that said it). It also turns a
// question's time words into a search window ("what is happening next week?",
// "upcoming birthdays") and expands recurring markers into their occurrences in a
// window. It is pure: no I/O, no clock (the caller passes now), no global mutable state.
//
// # Resolution rules
//
// Anchors are the start of a day (or of the named period) in now's location; a time of
// day said with the day ("tomorrow at 3pm") is added to it. Days count from now's date:
//
//   - today, tonight, this morning/afternoon/evening: today; tomorrow: +1; the day after
//     tomorrow: +2; yesterday: -1 (past).
//   - "Friday", "on Friday", "this Friday": the first Friday after today ("this Friday"
//     said on a Friday is today). "next Friday": the Friday of next week (Monday to
//     Sunday) — said on a Wednesday, nine days ahead; said on a Saturday, six. "last
//     Friday": the latest Friday before today (past).
//   - this/next/last week, month, year, weekend: the first day of that period (this
//     week/month/year: today, as the period has begun).
//   - in N days/weeks/months/years, N ... from now, N ... ago; N in digits or words
//     (a, an, one to twenty, a couple of, a few = 3).
//   - dates: "June 15th", "15 June", "the 15th of June", "June 15, 2027", "2027-06-15".
//     Without a year, the next June 15 on or after today.
//   - recurring: "every Tuesday", "on Tuesdays", "Tuesdays", "weekly on Tuesday" (weekly,
//     anchor the next Tuesday on or after today), "every day"/"daily", "every
//     week"/"weekly", "every month"/"monthly", "every year"/"yearly"/"annually".
package when

import (
	"iter"
	"strconv"
	"strings"
	"time"

	"github.com/factbase/factbase/text"
)

// Recurrence says how a marker repeats.
type Recurrence string

// The recurrences.
const (
	Once    Recurrence = ""
	Daily   Recurrence = "daily"
	Weekly  Recurrence = "weekly"
	Monthly Recurrence = "monthly"
	Yearly  Recurrence = "yearly"
)

// Grain is the length of the period a marker names.
type Grain string

// The grains.
const (
	Day     Grain = "day"
	Weekend Grain = "weekend"
	Week    Grain = "week"
	Month   Grain = "month"
	Year    Grain = "year"
)

// Marker is one temporal expression found in a text.
type Marker struct {
	Text       string     `json:"text"`   // as said, cut from the text
	Start, End int        `json:"-"`      // byte offsets of Text in the text
	Anchor     time.Time  `json:"anchor"` // the resolved start (see the package doc)
	Grain      Grain      `json:"grain"`
	Recur      Recurrence `json:"recur,omitempty"`
	// Past reports an anchor before the reference day ("last Friday", "2 days ago").
	Past bool `json:"past,omitempty"`
	// HasYear reports a date said with its year; a yearly date without one (a
	// birthday) recurs on its month and day.
	HasYear bool `json:"has_year,omitempty"`
}

// PeriodEnd returns the end of the marker's period: the day after a day, the Monday
// after a week, the first of the next month or year. A period that starts mid-way
// ("this week", said on a Thursday) ends with its calendar period.
func (m Marker) PeriodEnd() time.Time {
	a := day(m.Anchor)
	switch m.Grain {
	case Week:
		return weekStart(a).AddDate(0, 0, 7)
	case Weekend:
		if a.Weekday() == time.Sunday {
			return a.AddDate(0, 0, 1)
		}
		return nextWeekday(a, time.Monday, false)
	case Month:
		return time.Date(a.Year(), a.Month()+1, 1, 0, 0, 0, 0, a.Location())
	case Year:
		return time.Date(a.Year()+1, 1, 1, 0, 0, 0, 0, a.Location())
	}
	return a.AddDate(0, 0, 1)
}

func addGrain(t time.Time, g Grain, n int) time.Time {
	switch g {
	case Week:
		return t.AddDate(0, 0, 7*n)
	case Weekend:
		return t.AddDate(0, 0, 2*n)
	case Month:
		return t.AddDate(0, n, 0)
	case Year:
		return t.AddDate(n, 0, 0)
	}
	return t.AddDate(0, 0, n)
}

// day returns the start of t's day in its location.
func day(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

// tok is one word of a text with its byte span.
type tok struct {
	w          string // lower case
	start, end int
}

// frontEnd are the options when reads a text with: words of ASCII letters and digits
// (every other non-ASCII rune counts as a letter), joined by ' - : / inside a word
// and by a dot between digits ("15:30", "3/4", "15.30").
var frontEnd = text.Options{NonASCII: true, Joiners: "'-:/.", DigitDots: true}

// tokenize cuts text into words.
func tokenize(s string) []tok { return toksOf(text.All(s, frontEnd), len(s)/5+1) }

// toksOf keeps the words of the front end's tokens (about n of them).
func toksOf(in iter.Seq[text.Token], n int) []tok {
	out := make([]tok, 0, n)
	for t := range in {
		if t.Kind == text.Word || t.Kind == text.Number {
			out = append(out, tok{w: t.W, start: t.Start, end: t.End})
		}
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

var weekdays = map[string]time.Weekday{
	"monday": time.Monday, "mon": time.Monday, "tuesday": time.Tuesday, "tue": time.Tuesday,
	"tues": time.Tuesday, "wednesday": time.Wednesday, "wed": time.Wednesday,
	"thursday": time.Thursday, "thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday,
	"friday": time.Friday, "fri": time.Friday, "saturday": time.Saturday, "sat": time.Saturday,
	"sunday": time.Sunday, "sun": time.Sunday,
}

// pluralWeekdays are the plural forms that mean "every ...".
var pluralWeekdays = map[string]time.Weekday{
	"mondays": time.Monday, "tuesdays": time.Tuesday, "wednesdays": time.Wednesday,
	"thursdays": time.Thursday, "fridays": time.Friday, "saturdays": time.Saturday,
	"sundays": time.Sunday,
}

var months = map[string]time.Month{
	"january": time.January, "jan": time.January, "february": time.February, "feb": time.February,
	"march": time.March, "mar": time.March, "april": time.April, "apr": time.April, "may": time.May,
	"june": time.June, "jun": time.June, "july": time.July, "jul": time.July, "august": time.August,
	"aug": time.August, "september": time.September, "sep": time.September, "sept": time.September,
	"october": time.October, "oct": time.October, "november": time.November, "nov": time.November,
	"december": time.December, "dec": time.December,
}

var numberWords = map[string]int{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
	"fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
	"few": 3, "several": 3,
}

var ordinalWords = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
	"eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
	"fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
	"nineteenth": 19, "twentieth": 20, "twenty-first": 21, "twenty-second": 22,
	"twenty-third": 23, "twenty-fourth": 24, "twenty-fifth": 25, "twenty-sixth": 26,
	"twenty-seventh": 27, "twenty-eighth": 28, "twenty-ninth": 29, "thirtieth": 30,
	"thirty-first": 31,
}

// units maps a unit word to its grain.
var units = map[string]Grain{
	"day": Day, "days": Day, "week": Week, "weeks": Week, "month": Month, "months": Month,
	"year": Year, "years": Year,
}

// dayNumber reads "15", "15th", "1st", "fifteenth" as a day of the month.
func dayNumber(w string) (int, bool) {
	if n, ok := ordinalWords[w]; ok {
		return n, true
	}
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		w = strings.TrimSuffix(w, suf)
	}
	n, err := strconv.Atoi(w)
	if err != nil || n < 1 || n > 31 || len(w) > 2 {
		return 0, false
	}
	return n, true
}

// count reads a quantity: digits or a number word.
func count(w string) (int, bool) {
	if n, ok := numberWords[w]; ok {
		return n, true
	}
	n, err := strconv.Atoi(w)
	if err != nil || n < 0 || n > 1000 {
		return 0, false
	}
	return n, true
}

func yearNumber(w string) (int, bool) {
	if len(w) != 4 {
		return 0, false
	}
	n, err := strconv.Atoi(w)
	if err != nil || n < 1800 || n > 2200 {
		return 0, false
	}
	return n, true
}

// validDate reports whether y-m-d exists (no February 30th).
func validDate(y int, m time.Month, d int) bool {
	t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return t.Day() == d && t.Month() == m
}

// NextYearly returns the first occurrence of month/day on or after from's day, in
// from's location. February 29th falls on March 1st in years without it.
func NextYearly(m time.Month, d int, from time.Time) time.Time {
	f := day(from)
	for y := f.Year(); y <= f.Year()+8; y++ {
		if !validDate(y, m, d) {
			continue
		}
		t := time.Date(y, m, d, 0, 0, 0, 0, f.Location())
		if !t.Before(f) {
			return t
		}
	}
	return time.Date(f.Year()+1, m, d, 0, 0, 0, 0, f.Location())
}

// nextWeekday returns the first day with weekday wd strictly after d (or on d when
// inclusive).
func nextWeekday(d time.Time, wd time.Weekday, inclusive bool) time.Time {
	n := (int(wd) - int(d.Weekday()) + 7) % 7
	if n == 0 && !inclusive {
		n = 7
	}
	return d.AddDate(0, 0, n)
}

// weekStart returns the Monday of d's week.
func weekStart(d time.Time) time.Time {
	n := (int(d.Weekday()) + 6) % 7
	return d.AddDate(0, 0, -n)
}
