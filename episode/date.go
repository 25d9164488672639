package episode

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

// dates reads ISO dates and dates with a month name; the value is ISO 8601.
func (x *extractor) dates() {
	s := x.s
	low := x.low
	years := filter(digitRuns(low, "-/."), func(p int) bool {
		return p+4 < len(low) && low[p+4] == '-' && numberEnd(low, p) == p+4
	})
	for _, m := range x.matchAt(isoDateRe, years) {
		i, j := m[0], m[1]
		if gluedBefore(s, i, "-/.") || isoTail(s, j) {
			continue
		}
		y, _ := strconv.Atoi(s[m[2]:m[3]])
		mo, _ := strconv.Atoi(s[m[4]:m[5]])
		d, _ := strconv.Atoi(s[m[6]:m[7]])
		if iso, ok := isoDate(y, mo, d); ok {
			x.add(Fact{Key: "date", Value: iso, ValueType: factbase.Date, Confidence: 0.9,
				Start: i, End: j, Rule: "date.iso", Text: "Date is " + iso}, i, j)
		}
	}
	months := wordStarts(low, "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
	days := filter(x.numbers(), func(p int) bool { return p+2 < len(low) && !isDigit(low[p+2]) })
	for _, re := range []*regexp.Regexp{mdyDateRe, dmyDateRe} {
		mdy := re == mdyDateRe
		ps := days
		if mdy {
			ps = months
		}
		for _, m := range x.matchAt(re, ps) {
			i, j := m[0], m[1]
			if gluedAfter(s, j, "") {
				continue
			}
			mname, dg := s[m[2]:m[3]], s[m[4]:m[5]]
			if !mdy {
				mname, dg = dg, mname
			}
			y, _ := strconv.Atoi(s[m[6]:m[7]])
			d, _ := strconv.Atoi(dg)
			if iso, ok := isoDate(y, monthNumber(mname), d); ok {
				x.add(Fact{Key: "date", Value: iso, ValueType: factbase.Date, Confidence: 0.85,
					Start: i, End: j, Rule: "date.named", Text: "Date is " + iso}, i, j)
			}
		}
	}
}

// isoTail reports whether the ISO date ending at j runs on into something that is not a
// time ("2024-03-15T10:00" is a date; "2024-03-150" and "2024-03-15-2" are not).
func isoTail(s string, j int) bool {
	if j >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[j:])
	if (r == 'T' || r == 't') && j+1 < len(s) && isDigit(s[j+1]) {
		return false
	}
	return isWordRune(r) || r == '-' || r == '/' || (r == '.' && j+1 < len(s) && isDigit(s[j+1]))
}

func monthNumber(name string) int {
	p := strings.ToLower(name)
	if len(p) > 3 {
		p = p[:3]
	}
	return strings.Index("janfebmaraprmayjunjulaugsepoctnovdec", p)/3 + 1
}

// isoDate formats a valid calendar date as YYYY-MM-DD.
func isoDate(y, m, d int) (string, bool) {
	if y < 1 || m < 1 || m > 12 || d < 1 {
		return "", false
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && (y%4 == 0 && y%100 != 0 || y%400 == 0) {
		days = 29
	}
	if d > days {
		return "", false
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d), true
}
