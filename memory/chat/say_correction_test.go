package chat

import (
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/router"
)

func TestCorrectionTarget(t *testing.T) {
	t1, t0 := time.Date(2026, 3, 4, 9, 31, 0, 0, time.UTC), time.Date(2026, 3, 4, 9, 30, 0, 0, time.UTC)
	msg := factbase.Source{Kind: factbase.SourceMessage}
	fact := func(id, key, value string, at time.Time) factbase.Fact {
		return factbase.Fact{ID: id, Key: key, Value: value, RecordedAt: at, Source: msg, Cardinality: factbase.One}
	}
	tests := []struct {
		name   string
		recent []factbase.Fact
		fix    router.Fix
		want   string // the target's id; "" for none
	}{
		{name: "only fact", recent: []factbase.Fact{fact("a", "home.city", "Bern", t1)}, fix: router.Fix{Value: "Basel", Strong: true}, want: "a"},
		{name: "relation skipped", recent: []factbase.Fact{fact("r", "relation", "son", t1), fact("a", "allergy", "peanuts", t1)}, fix: router.Fix{Value: "almonds", Strong: true}, want: "a"},
		{name: "two facts ambiguous", recent: []factbase.Fact{fact("a", "home.city", "Ghent", t1), fact("b", "contact.email", "an@example.com", t1)}, fix: router.Fix{Value: "Bruges", Strong: true}, want: ""},
		{name: "named wrong value", recent: []factbase.Fact{fact("a", "hobby", "pottery", t1), fact("b", "hobby", "chess", t1)}, fix: router.Fix{Value: "painting", Not: "pottery", Strong: true}, want: "a"},
		{name: "named value from older message", recent: []factbase.Fact{fact("a", "hobby", "chess", t1), fact("b", "hobby", "pottery", t0)}, fix: router.Fix{Value: "painting", Not: "pottery", Strong: true}, want: ""},
		{name: "number for a city", recent: []factbase.Fact{fact("a", "home.city", "Bern", t1)}, fix: router.Fix{Value: "555-0112"}, want: ""},
		{name: "weak word for word", recent: []factbase.Fact{fact("a", "allergy", "kiwi", t1)}, fix: router.Fix{Value: "mango"}, want: ""},
		{name: "weak number for number", recent: []factbase.Fact{fact("a", "contact.phone", "555-0111", t1)}, fix: router.Fix{Value: "555-0112"}, want: "a"},
		{name: "plan never", recent: []factbase.Fact{fact("a", "travel", "flying to Paris on Friday", t1)}, fix: router.Fix{Value: "Rome", Strong: true}, want: ""},
		{name: "same value", recent: []factbase.Fact{fact("a", "home.city", "Bern", t1)}, fix: router.Fix{Value: "bern", Strong: true}, want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, ok := correctionTarget(tc.recent, tc.fix)
			got := ""
			if ok {
				got = f.ID
			}
			if got != tc.want {
				t.Errorf("correctionTarget(%s) = %q, want %q", tc.name, got, tc.want)
			}
		})
	}
}
