package when

import (
	"strings"
	"testing"
	"time"
)

// now is a Wednesday morning.
var now = time.Date(2026, time.March, 4, 9, 30, 0, 0, time.UTC)

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestFind(t *testing.T) {
	if now.Weekday() != time.Wednesday {
		t.Fatalf("test clock is a %v, want a Wednesday", now.Weekday())
	}
	cases := []struct {
		name   string
		text   string
		marker string
		anchor time.Time
		grain  Grain
		recur  Recurrence
		past   bool
	}{
		{name: "tomorrow", text: "I fly tomorrow", marker: "tomorrow", anchor: date(2026, 3, 5), grain: Day},
		{name: "today", text: "dinner today", marker: "today", anchor: date(2026, 3, 4), grain: Day},
		{name: "tonight", text: "Tonight we eat out", marker: "Tonight", anchor: date(2026, 3, 4), grain: Day},
		{name: "yesterday", text: "yesterday", marker: "yesterday", anchor: date(2026, 3, 3), grain: Day, past: true},
		{name: "day after tomorrow", text: "the day after tomorrow", marker: "the day after tomorrow", anchor: date(2026, 3, 6), grain: Day},
		{name: "next friday from wednesday", text: "I fly to Lisbon next Friday", marker: "next Friday", anchor: date(2026, 3, 13), grain: Day},
		{name: "this friday", text: "this Friday", marker: "this Friday", anchor: date(2026, 3, 6), grain: Day},
		{name: "on friday", text: "on Friday we go", marker: "on Friday", anchor: date(2026, 3, 6), grain: Day},
		{name: "bare friday", text: "Friday works", marker: "Friday", anchor: date(2026, 3, 6), grain: Day},
		{name: "on wednesday said on wednesday", text: "on Wednesday", marker: "on Wednesday", anchor: date(2026, 3, 11), grain: Day},
		{name: "next monday", text: "next Monday", marker: "next Monday", anchor: date(2026, 3, 9), grain: Day},
		{name: "last friday", text: "last Friday", marker: "last Friday", anchor: date(2026, 2, 27), grain: Day, past: true},
		{name: "in two weeks", text: "we move in two weeks", marker: "in two weeks", anchor: date(2026, 3, 18), grain: Day},
		{name: "in 3 days", text: "in 3 days", marker: "in 3 days", anchor: date(2026, 3, 7), grain: Day},
		{name: "in a couple of weeks", text: "in a couple of weeks", marker: "in a couple of weeks", anchor: date(2026, 3, 18), grain: Day},
		{name: "in a month", text: "in a month", marker: "in a month", anchor: date(2026, 4, 4), grain: Day},
		{name: "two days ago", text: "two days ago", marker: "two days ago", anchor: date(2026, 3, 2), grain: Day, past: true},
		{name: "a week from now", text: "a week from now", marker: "a week from now", anchor: date(2026, 3, 11), grain: Day},
		{name: "june 15th", text: "on June 15th", marker: "on June 15th", anchor: date(2026, 6, 15), grain: Day},
		{name: "june 15 no on", text: "June 15", marker: "June 15", anchor: date(2026, 6, 15), grain: Day},
		{name: "15 june", text: "15 June", marker: "15 June", anchor: date(2026, 6, 15), grain: Day},
		{name: "the 3rd of may", text: "the 3rd of May", marker: "the 3rd of May", anchor: date(2026, 5, 3), grain: Day},
		{name: "passed date goes to next year", text: "on January 10", marker: "on January 10", anchor: date(2027, 1, 10), grain: Day},
		{name: "date with year", text: "June 15, 2027", marker: "June 15, 2027", anchor: date(2027, 6, 15), grain: Day},
		{name: "past date with year", text: "March 1, 2020", marker: "March 1, 2020", anchor: date(2020, 3, 1), grain: Day, past: true},
		{name: "iso", text: "on 2026-07-01", marker: "on 2026-07-01", anchor: date(2026, 7, 1), grain: Day},
		{name: "every tuesday", text: "piano every Tuesday", marker: "every Tuesday", anchor: date(2026, 3, 10), grain: Day, recur: Weekly},
		{name: "on tuesdays", text: "Leo has piano on Tuesdays", marker: "on Tuesdays", anchor: date(2026, 3, 10), grain: Day, recur: Weekly},
		{name: "wednesdays includes today", text: "Wednesdays", marker: "Wednesdays", anchor: date(2026, 3, 4), grain: Day, recur: Weekly},
		{name: "every day", text: "every day", marker: "every day", anchor: date(2026, 3, 4), grain: Day, recur: Daily},
		{name: "next week", text: "next week", marker: "next week", anchor: date(2026, 3, 9), grain: Week},
		{name: "this week", text: "this week", marker: "this week", anchor: date(2026, 3, 4), grain: Week},
		{name: "next month", text: "next month", marker: "next month", anchor: date(2026, 4, 1), grain: Month},
		{name: "this weekend", text: "this weekend", marker: "this weekend", anchor: date(2026, 3, 7), grain: Weekend},
		{name: "next weekend", text: "next weekend", marker: "next weekend", anchor: date(2026, 3, 14), grain: Weekend},
		{name: "in may", text: "in May", marker: "in May", anchor: date(2026, 5, 1), grain: Month},
		{name: "tomorrow at 3pm", text: "tomorrow at 3pm", marker: "tomorrow at 3pm", anchor: date(2026, 3, 5).Add(15 * time.Hour), grain: Day},
		{name: "friday at 10:30", text: "Friday at 10:30", marker: "Friday at 10:30", anchor: date(2026, 3, 6).Add(10*time.Hour + 30*time.Minute), grain: Day},
		{name: "friday 7 pm", text: "Friday 7 pm", marker: "Friday 7 pm", anchor: date(2026, 3, 6).Add(19 * time.Hour), grain: Day},
		{name: "leap day", text: "on February 29", marker: "on February 29", anchor: date(2028, 2, 29), grain: Day},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ms := Find(tc.text, now)
			if len(ms) != 1 {
				t.Fatalf("Find(%q) = %d markers %+v, want 1", tc.text, len(ms), ms)
			}
			m := ms[0]
			if m.Text != tc.marker || !m.Anchor.Equal(tc.anchor) || m.Grain != tc.grain || m.Recur != tc.recur || m.Past != tc.past {
				t.Errorf("Find(%q) = %q %v %s %q past=%v, want %q %v %s %q past=%v", tc.text, m.Text, m.Anchor, m.Grain, m.Recur, m.Past,
					tc.marker, tc.anchor, tc.grain, tc.recur, tc.past)
			}
			if got := tc.text[m.Start:m.End]; got != m.Text {
				t.Errorf("span %d..%d = %q, want %q", m.Start, m.End, got, m.Text)
			}
		})
	}
}

func TestFindNothing(t *testing.T) {
	for _, text := range []string{
		"", "I may go", "March on", "I sat down", "the sun is out", "my son is 8", "I have 3 kids",
		"Martin, my accountant", "February 30", "on the 45th of June", "I work 9 to 5",
		"we need to march forward", "call me at 5", "on the 3 of us", "on the 45th", "on the first",
	} {
		if ms := Find(text, now); len(ms) != 0 {
			t.Errorf("Find(%q) = %+v, want none", text, ms)
		}
	}
}

func TestParse(t *testing.T) {
	cases := []struct {
		in string
		ok bool
	}{
		{"next Friday", true}, {"on Tuesdays.", true}, {"tomorrow and Friday", false}, {"I fly tomorrow", false}, {"", false},
	}
	for _, tc := range cases {
		if _, ok := Parse(tc.in, now); ok != tc.ok {
			t.Errorf("Parse(%q) ok = %v, want %v", tc.in, ok, tc.ok)
		}
	}
}

func TestQueryWindow(t *testing.T) {
	cases := []struct {
		q        string
		from, to time.Time
		ok       bool
	}{
		{q: "What is happening next week?", from: date(2026, 3, 9), to: date(2026, 3, 16), ok: true},
		{q: "anything this week?", from: date(2026, 3, 4), to: date(2026, 3, 9), ok: true},
		{q: "upcoming birthdays", from: date(2026, 3, 4), to: date(2026, 4, 3), ok: true},
		{q: "what's coming up", from: date(2026, 3, 4), to: date(2026, 4, 3), ok: true},
		{q: "what do we have tomorrow", from: date(2026, 3, 5), to: date(2026, 3, 6), ok: true},
		{q: "plans in the next 10 days", from: date(2026, 3, 4), to: date(2026, 3, 14), ok: true},
		{q: "what's on this month", from: date(2026, 3, 4), to: date(2026, 4, 1), ok: true},
		{q: "next month", from: date(2026, 4, 1), to: date(2026, 5, 1), ok: true},
		{q: "this weekend", from: date(2026, 3, 7), to: date(2026, 3, 9), ok: true},
		{q: "on June 15th?", from: date(2026, 6, 15), to: date(2026, 6, 16), ok: true},
		{q: "What's coming up this week?", from: date(2026, 3, 4), to: date(2026, 3, 9), ok: true},
		{q: "What's happening on the 28th?", from: date(2026, 3, 28), to: date(2026, 3, 29), ok: true},
		{q: "anything on the 2nd?", from: date(2026, 4, 2), to: date(2026, 4, 3), ok: true},
		{q: "what does Martin eat?", ok: false},
		{q: "what does Leo do every Tuesday", ok: false},
	}
	for _, tc := range cases {
		w, ok := QueryWindow(tc.q, now)
		if ok != tc.ok || ok && (!w.From.Equal(tc.from) || !w.To.Equal(tc.to)) {
			t.Errorf("QueryWindow(%q) = %v..%v %v, want %v..%v %v", tc.q, w.From, w.To, ok, tc.from, tc.to, tc.ok)
		}
	}
}

func TestOccurrences(t *testing.T) {
	fmtAll := func(ts []time.Time) string {
		var s []string
		for _, t := range ts {
			s = append(s, t.Format("2006-01-02"))
		}
		return strings.Join(s, " ")
	}
	cases := []struct {
		name     string
		anchor   time.Time
		r        Recurrence
		from, to time.Time
		want     string
	}{
		{"weekly forward", date(2026, 3, 10), Weekly, date(2026, 3, 9), date(2026, 3, 30), "2026-03-10 2026-03-17 2026-03-24"},
		{"weekly before anchor", date(2026, 3, 10), Weekly, date(2026, 2, 20), date(2026, 3, 4), "2026-02-24 2026-03-03"},
		{"yearly birthday", date(1990, 6, 15), Yearly, date(2026, 6, 1), date(2026, 7, 1), "2026-06-15"},
		{"yearly across new year", date(2001, 1, 2), Yearly, date(2026, 12, 20), date(2027, 1, 10), "2027-01-02"},
		{"yearly leap day", date(2000, 2, 29), Yearly, date(2027, 2, 20), date(2027, 3, 5), "2027-03-01"},
		{"once in", date(2026, 3, 13), Once, date(2026, 3, 9), date(2026, 3, 16), "2026-03-13"},
		{"once out", date(2026, 3, 23), Once, date(2026, 3, 9), date(2026, 3, 16), ""},
		{"monthly clamped", date(2026, 1, 31), Monthly, date(2026, 2, 1), date(2026, 4, 1), "2026-02-28 2026-03-31"},
		{"daily", date(2026, 3, 1), Daily, date(2026, 3, 4), date(2026, 3, 7), "2026-03-04 2026-03-05 2026-03-06"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := fmtAll(Occurrences(tc.anchor, tc.r, tc.from, tc.to, 0)); got != tc.want {
				t.Errorf("Occurrences = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNextYearly(t *testing.T) {
	if got, want := NextYearly(time.March, 4, now), date(2026, 3, 4); !got.Equal(want) {
		t.Errorf("NextYearly(today) = %v, want %v", got, want)
	}
	if got, want := NextYearly(time.March, 3, now), date(2027, 3, 3); !got.Equal(want) {
		t.Errorf("NextYearly(yesterday) = %v, want %v", got, want)
	}
}
