package when

import (
	"testing"
	"time"
)

func FuzzFind(f *testing.F) {
	for _, s := range []string{"next Friday at 3pm", "in a couple of weeks", "every Tuesday", "on the 3rd of May 2027",
		"the day after tomorrow", "2026-02-30", "this coming weekend", "Friday 7 pm", "12:99pm"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ms := Find(s, now)
		last := 0
		for _, m := range ms {
			if m.Start < last || m.End <= m.Start || m.End > len(s) || s[m.Start:m.End] != m.Text {
				t.Fatalf("Find(%q): bad span %d..%d %q after %d", s, m.Start, m.End, m.Text, last)
			}
			last = m.End
			if m.Anchor.IsZero() || m.PeriodEnd().Before(m.Anchor) {
				t.Fatalf("Find(%q): anchor %v ends %v", s, m.Anchor, m.PeriodEnd())
			}
			if m.Past != day(m.Anchor).Before(day(now)) && m.Grain == Day && m.Recur == Once {
				t.Fatalf("Find(%q): %q past=%v for anchor %v", s, m.Text, m.Past, m.Anchor)
			}
		}
		if w, ok := QueryWindow(s, now); ok && !w.To.After(w.From) {
			t.Fatalf("QueryWindow(%q) = empty window %v..%v", s, w.From, w.To)
		}
		_ = time.Now
	})
}
