package chat

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/question"
	"github.com/factbase/factbase/when"
)

// Questions about days and time windows: how long until an event, whether the user
// is free or busy, which day or time something is.

// askUntil answers "How many days until my job interview?": the answer to "When is
// my job interview?", with the days from the question's day to its next date.
func (s *Service) askUntil(ctx context.Context, user factbase.UserID, plan question.Plan, out AskResult) (AskResult, bool, error) {
	q := "When is " + plan.Value + "?"
	wp, _ := question.Of(q)
	a, ok, err := s.askFacts(ctx, user, q, wp, out)
	if err != nil || !ok || len(a.Items) == 0 {
		if err == nil && !ok {
			out.Reply = "I don't know: nothing I have stored answers that."
			return out, true, nil
		}
		return a, ok, err
	}
	fs, err := s.core.Facts(ctx, user, factbase.FactFilter{ID: a.Items[0].ID})
	if err != nil || len(fs) == 0 {
		return a, true, err
	}
	f := fs[0]
	today := people.Message(ctx).Time
	today = time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, today.Location())
	if f.Anchor == nil && recallRecurrence(f) == when.Yearly {
		if ms := when.Find(f.Value, today); len(ms) > 0 {
			anchor := ms[0].Anchor
			f.Anchor = &anchor
		}
	}
	if f.Anchor == nil {
		return a, true, nil
	}
	occ := when.Occurrences(*f.Anchor, recallRecurrence(f), today, today.AddDate(2, 0, 0), 1)
	if len(occ) == 0 {
		a.Reply = "It has passed: " + a.Reply
		return a, true, nil
	}
	at := occ[0]
	days := int(time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, at.Location()).Sub(today).Hours() / 24)
	switch days {
	case 0:
		a.Reply = "Today: " + a.Reply
	case 1:
		a.Reply = "1 day, tomorrow: " + a.Reply
	default:
		a.Reply = fmt.Sprintf("%d days, on %s: %s", days, at.Format("Monday, January 2"), a.Reply)
	}
	return a, true, nil
}

// namesWeekday reports whether a question names a day of the week.
func namesWeekday(q string) bool {
	return slices.ContainsFunc(recallWords(q), func(w string) bool {
		_, ok := weekdayWords[strings.TrimSuffix(w, "s")]
		return ok
	})
}

var weekdayWords = map[string]bool{"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true,
	"saturday": true, "sunday": true}

// availabilityAsked reports whether a yes/no question asks if the user is free
// ("Am I free on Friday?", "Am I available tomorrow?") or busy.
func availabilityAsked(q string) (free, busy bool) {
	for _, w := range recallWords(q) {
		switch w {
		case "free", "available":
			free = true
		case "busy", "booked":
			busy = true
		}
	}
	return free, busy
}

// askAvailable answers whether the user is free (or busy) in the time a question
// names, from what happens then: "No: you have a haircut on Friday at 10am."
func (s *Service) askAvailable(ctx context.Context, user factbase.UserID, hits []RecallHit, free bool, out AskResult) (AskResult, bool, error) {
	events := slices.DeleteFunc(slices.Clone(hits), func(h RecallHit) bool { return h.When == nil || h.Fact.Subject != factbase.SubjectUser })
	if len(events) == 0 {
		out.Source = "facts"
		out.Reply = "No, as far as I know: nothing is planned then."
		if free {
			out.Reply = "Yes, as far as I know: nothing is planned then."
		}
		return out, true, nil
	}
	prefix := "Yes: "
	if free {
		prefix = "No: "
	}
	res, err := s.finish(ctx, user, out, "facts", hitsAnswer(events, prefix))
	return res, true, err
}

// reWithName finds the person a plan is with: "dinner with Sara", "lunch with Dr.
// Lee".
var reWithName = regexp.MustCompile(`\bwith ((?:Dr\.? |Mr\.? |Mrs\.? |Ms\.? )?[A-Z][a-z]+(?: [A-Z][a-z]+)?)`)

// withName returns the person a plan's value says it is with, or "".

// asksDay reports whether q asks for a day or a time ("Which day ...", "What time
// ...", "On which days ...").
func asksDay(q string) bool {
	lq := strings.ToLower(q)
	for _, p := range []string{"which day", "what day", "what time", "which days", "what days", "on which day"} {
		if strings.Contains(lq, p) {
			return true
		}
	}
	return false
}
