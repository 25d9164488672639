package chat

import (
	"slices"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

// TestEpisodeQuestionHolds: what an episode must hold to answer a question, word by
// word, by verb class, by implication and by the kind of value asked for.
func TestEpisodeQuestionHolds(t *testing.T) {
	now := time.Date(2026, time.April, 10, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, q, episode string
		want             bool
	}{
		{"a word by its stem", "How many invoices failed validation?", "37 invoices failed validation.", true},
		{"a verb by its class", "How did we fix INC-204?", "INC-204: checkout down. Resolved by failing over to the replica.", true},
		{"a frame word is not asked about", "What happened to the api-gateway release?", "api-gateway v1.12.0 release halted.", true},
		{"a rate is implied by a percentage", "What's the crash-free rate on iOS?", "iOS app: crash-free sessions at 99.6%.", true},
		{"a version is implied by its number", "Which version of the API gateway is live?", "api-gateway release halted, rolled back to v1.11.3.", true},
		{"a missing word", "How many invoices were refunded?", "Processed 48,200 invoices.", false},
		{"another thing", "What's the error rate on checkout?", "Canary error rate jumped to 4.5% on the api-gateway.", false},
		{"how long needs a duration", "How long did the billing run take?", "Billing run processed 48,200 invoices.", false},
		{"how long with one", "How long did the search rebuild take?", "Search index rebuild finished in 42 minutes.", true},
		{"how big needs a size", "How big was the backup?", "Backup completed; 1,284 files uploaded, size 86 GB.", true},
		{"a named version must be there", "When was billing 3.8.1 deployed?", "Deployed billing v3.8.0 to production.", false},
		{"failing over is no failure", "Which deploy failed?", "Resolved by failing over to the replica.", false},
		{"running out is no deploy", "Which deploy failed?", "Checkout ran out of memory; the failover failed.", false},
		{"which services: the kind of answer", "Which services did we roll back?", "Rolled back auth-service v5.0.0 to v4.9.2.", true},
		{"how much data needs a size", "How much data was in the billing backup?", "Billing backup completed; backup size 86 GB.", true},
		{"how many needs a count of it", "How many invoices were generated in March?", "Invoice generation p95 latency 230 ms.", false},
		{"a count of it", "How many invoices were processed?", "Processed 48,200 invoices; 37 failed.", true},
		{"tests counted without the word", "How many tests failed?", "CI run: 214 passed, 3 failed.", true},
		{"a failure is no count of tests", "How many tests failed?", "The ORBIT deployment failed.", false},
		{"a latency is no time taken", "How long did the Kafka upgrade take?", "Kafka upgraded to 3.7.0. Consumer lag under 200 ms.", false},
		{"a frame word after the thing", "What version of Airflow were we on before?", "Upgraded Airflow from 2.7.3 to 2.9.1.", true},
		{"why needs a reason", "Why did gpu-5 go down?", "GPU node gpu-3 went down overnight; jobs were requeued on gpu-5.", false},
		{"why with one", "Why did we drop mixed precision?", "Decided to drop mixed precision because the loss diverged.", true},
		{"the kind of thing asked for", "What optimizer did we switch to?", "Run 42: switched to AdamW with a cosine schedule.", true},
		{"a blocker is something blocked", "Any blockers?", "ORBIT shipped. Migration BLOCKED on the schema review.", true},
		{"went wrong is a failure", "What went wrong with the ORBIT deployment?", "The ORBIT deployment on Tuesday failed because the migration timed out.", true},
		{"a decimal is no version", "What version is search on?", "Search p95 latency 40 ms; accuracy 94.2%.", false},
		{"production is where a version runs", "Which version of billing is in production?", "Deployed billing v3.8.1 with the tax fix.", true},
		{"new asks for the latest", "How many classes does the new dataset have?", "Dataset v3 published: 2.4 million images across 1,000 classes.", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eq := readEpisodeQuestion(tc.q, now)
			if got := eq.holds(newEpisodeText(tc.episode)); got != tc.want {
				t.Errorf("readEpisodeQuestion(%q).holds(%q) = %v, want %v (words %q)", tc.q, tc.episode, got, tc.want, eq.words)
			}
		})
	}
}

// TestEpisodeQuestionRead: how a question is read for the episodes.
func TestEpisodeQuestionRead(t *testing.T) {
	now := time.Date(2026, time.June, 11, 9, 30, 0, 0, time.UTC) // a Thursday
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 0, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		q                                     string
		who, when, yesNo, recent, many, story bool
		answer                                answerKind
		from                                  time.Time // the window's start; zero: none
		factFirst                             bool
	}{
		{q: "What version is running on billing?", factFirst: true},
		{q: "Who was on call during INC-204?", who: true, factFirst: true},
		{q: "When did we last roll back?", when: true, recent: true},
		{q: "Is the orders migration finished?", yesNo: true},
		{q: "Am I allergic to peanuts?", factFirst: true},
		{q: "Which deploy failed?", many: true},
		{q: "Which version of the API gateway is live?", factFirst: true},
		{q: "What incidents did we have?", many: true},
		{q: "Why was the Android rollout paused?", story: true},
		{q: "How did we fix INC-204?", story: true},
		{q: "What took checkout down?", story: true},
		{q: "What Kafka version did we upgrade from?", story: true},
		{q: "How long was checkout down?", answer: answerDuration},
		{q: "How big was last night's backup?", answer: answerSize, recent: true, from: day(time.June, 10)},
		{q: "How many ETL jobs succeeded last week?", answer: answerNumber, recent: true, from: day(time.June, 1)},
		{q: "What did we do on Tuesday?", story: true, from: day(time.June, 9)},
		{q: "What caused the June 3 outage?", story: true, from: day(time.June, 3)},
		{q: "What's planned for next week?", factFirst: true},
		{q: "What happened in session 12?", story: true},
		{q: "Tell me about the auth-service rollback.", story: true},
		{q: "What did we fix in session 13?", story: true},
		{q: "How much data was in the backup?", answer: answerSize},
		{q: "What's the latest on ORBIT?", story: true, recent: true},
		{q: "Tell me the current NEXUS version.", recent: true, factFirst: true},
		{q: "What rolled back on April 8?", story: true, from: day(time.April, 8)},
	} {
		eq := readEpisodeQuestion(tc.q, now)
		got := []bool{eq.who, eq.when, eq.yesNo, eq.recent, eq.many, eq.story, eq.factFirst()}
		want := []bool{tc.who, tc.when, tc.yesNo, tc.recent, tc.many, tc.story, tc.factFirst}
		if !slices.Equal(got, want) || eq.answer != tc.answer {
			t.Errorf("readEpisodeQuestion(%q): who, when, yes/no, recent, many, story, fact first = %v, answer %d; want %v, %d",
				tc.q, got, eq.answer, want, tc.answer)
		}
		var from time.Time
		if eq.window != nil {
			from = eq.window.From
		}
		if !from.Equal(tc.from) {
			t.Errorf("readEpisodeQuestion(%q): window from %v, want %v", tc.q, from, tc.from)
		}
	}
}

// TestEpisodeQuestionPick: which episodes answer, and the yes or no.
func TestEpisodeQuestionPick(t *testing.T) {
	now := time.Date(2026, time.April, 10, 9, 0, 0, 0, time.UTC)
	ep := func(id, at, content string, tags ...string) scoredEpisode {
		t.Helper()
		ts, err := time.Parse(time.RFC3339, at)
		if err != nil {
			t.Fatal(err)
		}
		return scoredEpisode{Episode: factbase.Episode{ID: id, Content: content, Tags: tags, CreatedAt: ts}}
	}
	log := []scoredEpisode{
		ep("gw", "2026-03-31T11:00:00Z", "api-gateway v1.12.0 release halted: error rate 4.5%, rolled back to v1.11.3.", "deploy"),
		ep("billing", "2026-04-06T10:00:00Z", "Deployed billing v3.8.1 with the tax rounding fix.", "deploy"),
		ep("auth", "2026-04-08T16:00:00Z", "Rolled back auth-service v5.0.0 to v4.9.2 after login failures spiked.", "deploy"),
		ep("orders", "2026-04-03T18:00:00Z", "Migrated the orders table; migration status COMPLETE."),
		ep("android", "2026-04-02T10:00:00Z", "Android 7.4.0 rollout paused at 20%."),
	}
	for _, tc := range []struct {
		q       string
		ids     []string
		verdict string
	}{
		{"Which deploy failed?", []string{"gw", "auth"}, ""},
		{"When did we last roll back?", []string{"auth"}, ""},
		{"Is the orders migration finished?", []string{"orders"}, "Yes"},
		{"Did the Android rollout finish?", []string{"android"}, "No"},
		{"Did the api-gateway release go out?", []string{"gw"}, "No"},
		{"Did the billing deploy go out?", []string{"billing"}, "Yes"},
		{"Is the Android rollout still paused?", []string{"android"}, "Yes"},
		{"Was the orders migration successful?", []string{"orders"}, "Yes"},
		{"Was the api-gateway release successful?", []string{"gw"}, "No"},
		{"Is the payments migration finished?", nil, ""},
		{"What version is the payments service running?", nil, ""},
	} {
		eq := readEpisodeQuestion(tc.q, now)
		picked, verdict := eq.pick(log)
		var ids []string
		for _, p := range picked {
			ids = append(ids, p.ID)
		}
		if !slices.Equal(ids, tc.ids) || verdict != tc.verdict {
			t.Errorf("pick(%q) = %q, %q; want %q, %q", tc.q, ids, verdict, tc.ids, tc.verdict)
		}
	}
}

// TestClassOrder: every verb class is in classOrder once, and every class an
// opposite or an asked word names exists.
func TestClassOrder(t *testing.T) {
	for c := range verbClasses {
		if n := slices.Index(classOrder, c); n < 0 || slices.Index(classOrder[n+1:], c) >= 0 {
			t.Errorf("class %q is in classOrder %d times, want once", c, len(slices.DeleteFunc(slices.Clone(classOrder), func(x string) bool { return x != c })))
		}
	}
	if len(classOrder) != len(verbClasses) {
		t.Errorf("classOrder has %d classes, verbClasses %d", len(classOrder), len(verbClasses))
	}
	for c, os := range opposites {
		for _, o := range append([]string{c}, os...) {
			if _, ok := verbClasses[o]; !ok {
				t.Errorf("opposites names class %q, which verbClasses has not", o)
			}
		}
	}
	for w, c := range askedClass {
		if _, ok := verbClasses[c]; !ok {
			t.Errorf("askedClass[%q] = %q, which verbClasses has not", w, c)
		}
	}
}
