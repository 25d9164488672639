package episode

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

// pairs renders facts as "key=value" in order, for compact comparison.
func pairs(fs []Fact) []string {
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		out = append(out, f.Key+"="+f.Value)
	}
	return out
}

func TestExtract(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // key=value, in output order
	}{
		// The example episode from the design.
		{name: "example episode",
			in: "Session 14 complete: NEXUS v2.3.1 deployed, accuracy 94.2% on 500 questions, p50 latency 38 ms. Phase 3 IN_PROGRESS.",
			want: []string{"session=14", "session_14.status=COMPLETE", "nexus.version=2.3.1", "accuracy=94.2",
				"count.questions=500", "latency.p50_ms=38", "phase=3", "phase_3.status=IN_PROGRESS"}},

		// Versions.
		{name: "named v version", in: "NEXUS v2.3.1 is live", want: []string{"nexus.version=2.3.1"}},
		{name: "named version keyword", in: "NEXUS version 2.3", want: []string{"nexus.version=2.3"}},
		{name: "bare v version", in: "deployed v2.3.1 today", want: []string{"version=2.3.1"}},
		{name: "version keyword with colon", in: "Version: 4.0.0-rc1", want: []string{"version=4.0.0-rc1"}},
		{name: "bare semver named", in: "Go 1.22.3 toolchain", want: []string{"go.version=1.22.3"}},
		{name: "bare semver after stop word", in: "upgraded to 1.22.3", want: []string{"version=1.22.3"}},
		{name: "sentence verb is not a name", in: "Released v2.3.1.", want: []string{"version=2.3.1"}},
		{name: "all caps -ed word is a name", in: "SEEDED v1.4", want: []string{"seeded.version=1.4"}},
		{name: "prerelease suffix", in: "api v1.2.0-beta.2 shipped", want: []string{"api.version=1.2.0-beta.2"}},
		{name: "from to keeps the new version", in: "from v2.3.0 to v2.3.1", want: []string{"version=2.3.1"}},
		{name: "v alone is not a version", in: "the v key and version control", want: nil},
		{name: "ip address is not a version", in: "host 192.168.1.1 answered", want: nil},
		{name: "two-part number is not a version", in: "Python 3.12 and 94.2 points", want: nil},
		{name: "calendar-like dotted date", in: "on 2024.03.15 we met", want: nil},
		{name: "european dotted date", in: "on 15.03.2024 we met", want: nil},
		{name: "url path segment", in: "GET /api/v1/users", want: nil},
		{name: "word glued to v", in: "dev2.3 and nav1", want: nil},

		// Metrics.
		{name: "accuracy of", in: "reached an accuracy of 91%", want: []string{"accuracy=91"}},
		{name: "named success rate", in: "test success rate 97%", want: []string{"test.success_rate=97"}},
		{name: "percent before metric", in: "97% success rate", want: []string{"success_rate=97"}},
		{name: "percent before qualified metric", in: "97% test pass rate", want: []string{"test.pass_rate=97"}},
		{name: "overall is not a qualifier", in: "overall accuracy: 88.5 %", want: []string{"accuracy=88.5"}},
		{name: "from to takes the new value", in: "accuracy improved from 90% to 94.2%", want: []string{"accuracy=94.2"}},
		{name: "hyphenated rate and f1", in: "error-rate 0.5%, F1 score 81%", want: []string{"error_rate=0.5", "f1=81"}},
		{name: "bare percent is not extracted", in: "I am 100% sure", want: nil},
		{name: "fraction is not a percentage", in: "accuracy 0.94", want: nil},

		// Latencies.
		{name: "latency ms", in: "latency 38ms", want: []string{"latency_ms=38"}},
		{name: "p95 latency of", in: "p95 latency of 120 ms", want: []string{"latency.p95_ms=120"}},
		{name: "latency qualifier after", in: "latency p99: 250 ms", want: []string{"latency.p99_ms=250"}},
		{name: "quantile without latency word", in: "p99=250ms", want: []string{"latency.p99_ms=250"}},
		{name: "quantile after the number", in: "38 ms (p50)", want: []string{"latency.p50_ms=38"}},
		{name: "seconds converted", in: "median latency 1.25 s", want: []string{"latency.p50_ms=1250"}},
		{name: "microseconds converted", in: "latency 250 µs", want: []string{"latency_ms=0.25"}},
		{name: "named latency", in: "search latency 12 ms", want: []string{"search.latency_ms=12"}},
		{name: "bare ms is a latency", in: "the call took 38 ms", want: []string{"latency_ms=38"}},
		{name: "timeout is not a latency", in: "a timeout of 500 ms and sleep(100ms)", want: nil},
		{name: "timeout after is not a latency", in: "a 5ms timeout and a 20 ms heartbeat interval", want: nil},
		{name: "bound is not a latency", in: "kept under 40 ms", want: nil},
		{name: "phone number is not a latency", in: "call 555-123-4567 or +1 415 555 0100", want: nil},
		{name: "phone number glued to ms", in: "dial 555-0100ms", want: nil},

		// Counts.
		{name: "count questions", in: "ran 500 questions", want: []string{"count.questions=500"}},
		{name: "count with thousands", in: "1,200 queries served", want: []string{"count.queries=1200"}},
		{name: "count singular", in: "1 episode", want: []string{"count.episodes=1"}},
		{name: "count with qualifier", in: "42 passing tests", want: []string{"count.passed_tests=42"}},
		{name: "count with verb after", in: "3 tests failed", want: []string{"count.failed_tests=3"}},
		{name: "count test cases", in: "120 unit test cases", want: []string{"count.unit_test_cases=120"}},
		{name: "count ratio", in: "42/45 tests passed", want: []string{"count.passed_tests=42", "count.tests=45"}},
		{name: "count ratio with of", in: "471 of 500 questions correct", want: []string{"count.correct_questions=471", "count.questions=500"}},
		{name: "any counted noun", in: "I have 3 kids", want: []string{"count.kids=3"}},
		{name: "decimal is not a count", in: "2.5 tests", want: nil},

		// Status.
		{name: "caps status named", in: "Migration BLOCKED until Monday", want: []string{"migration.status=BLOCKED"}},
		{name: "caps status after pronoun", in: "Everything BLOCKED until Monday", want: []string{"status=BLOCKED"}},
		{name: "adverb is not a name", in: "later latency 38 ms", want: []string{"latency_ms=38"}},
		{name: "caps status after stop word", in: "we are DONE", want: []string{"status=COMPLETE"}},
		{name: "labelled lower-case status", in: "Status: done", want: []string{"status=COMPLETE"}},
		{name: "labelled named status", in: "Deployment status: in progress", want: []string{"deployment.status=IN_PROGRESS"}},
		{name: "in progress with space", in: "Phase 2 IN PROGRESS", want: []string{"phase=2", "phase_2.status=IN_PROGRESS"}},
		{name: "lower-case status after thing", in: "sprint 4 completed", want: []string{"sprint=4", "sprint_4.status=COMPLETE"}},
		{name: "pending and failed", in: "Task 7 PENDING; Step 2 FAILED", want: []string{"task_7.status=PENDING", "step_2.status=FAILED"}},
		{name: "lower-case status alone is not a status", in: "I am done with the pending work", want: nil},
		{name: "negated status", in: "not DONE, isn't COMPLETE, not yet DONE", want: nil},
		{name: "incomplete is not complete", in: "INCOMPLETE and UNDONE", want: nil},

		// Ordinals.
		{name: "phase and session", in: "Phase 3, session 12", want: []string{"phase=3", "session=12"}},
		{name: "phase sub-number", in: "Phase 3.2 started", want: []string{"phase=3.2"}},
		{name: "phases plural is not an ordinal", in: "three phases 4 weeks", want: nil},

		// Dates.
		{name: "iso date", in: "on 2024-03-15 we shipped", want: []string{"date=2024-03-15"}},
		{name: "iso date time", in: "at 2024-03-15T10:00:00Z", want: []string{"date=2024-03-15"}},
		{name: "month day year", in: "March 15, 2024", want: []string{"date=2024-03-15"}},
		{name: "day month year", in: "15th Mar. 2024", want: []string{"date=2024-03-15"}},
		{name: "leap day", in: "Feb 29 2024 and Feb 29 2023", want: []string{"date=2024-02-29"}},
		{name: "invalid iso date", in: "2024-13-45 and 2024-02-30", want: nil},
		{name: "same date twice is one fact", in: "2024-03-15 (March 15, 2024)", want: []string{"date=2024-03-15"}},

		// Edge cases.
		{name: "empty", in: "", want: nil},
		{name: "no facts", in: "Nothing to report today.", want: nil},
		{name: "unicode name", in: "Café v1.2 à 90% accuracy", want: []string{"café.version=1.2", "accuracy=90"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := pairs(Extract(tc.in))
			if !slices.Equal(got, tc.want) {
				t.Errorf("Extract(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestExtractDetails checks every field of a few facts.
func TestExtractDetails(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Fact
	}{
		{name: "named version", in: "Today NEXUS v2.3.1 went out",
			want: Fact{Key: "nexus.version", Value: "2.3.1", ValueType: factbase.String, Confidence: 0.9,
				Span: "NEXUS v2.3.1", Start: 6, End: 18, Rule: "version.named", Text: "NEXUS version is 2.3.1"}},
		{name: "bare single v", in: "v2",
			want: Fact{Key: "version", Value: "2", ValueType: factbase.String, Confidence: 0.6,
				Span: "v2", Start: 0, End: 2, Rule: "version.v", Text: "Version is 2"}},
		{name: "metric", in: "test success rate 97%",
			want: Fact{Key: "test.success_rate", Value: "97", ValueType: factbase.Number, Unit: "%", Confidence: 0.9,
				Span: "test success rate 97%", Start: 0, End: 21, Rule: "metric.percent", Text: "Test success rate is 97%"}},
		{name: "latency", in: "p95 latency 120 ms",
			want: Fact{Key: "latency.p95_ms", Value: "120", ValueType: factbase.Number, Unit: "ms", Confidence: 0.9,
				Span: "p95 latency 120 ms", Start: 0, End: 18, Rule: "latency.named", Text: "P95 latency is 120 ms"}},
		{name: "bare latency", in: "took 38ms",
			want: Fact{Key: "latency_ms", Value: "38", ValueType: factbase.Number, Unit: "ms", Confidence: 0.7,
				Span: "38ms", Start: 5, End: 9, Rule: "latency.bare", Text: "Latency is 38 ms"}},
		{name: "count", in: "500 questions",
			want: Fact{Key: "count.questions", Value: "500", ValueType: factbase.Number, Confidence: 0.8,
				Span: "500 questions", Start: 0, End: 13, Rule: "count", Text: "Number of questions is 500"}},
		{name: "status thing", in: "Phase 3 IN_PROGRESS",
			want: Fact{Key: "phase_3.status", Value: "IN_PROGRESS", ValueType: factbase.String, Confidence: 0.85,
				Span: "Phase 3 IN_PROGRESS", Start: 0, End: 19, Rule: "status.thing", Text: "Phase 3 status is IN_PROGRESS"}},
		{name: "status labelled", in: "Status: done",
			want: Fact{Key: "status", Value: "COMPLETE", ValueType: factbase.String, Confidence: 0.85,
				Span: "Status: done", Start: 0, End: 12, Rule: "status.labelled", Text: "Status is COMPLETE"}},
		{name: "status caps", in: "so BLOCKED",
			want: Fact{Key: "status", Value: "BLOCKED", ValueType: factbase.String, Confidence: 0.8,
				Span: "BLOCKED", Start: 3, End: 10, Rule: "status.caps", Text: "Status is BLOCKED"}},
		{name: "lower-case phase", in: "phase 2",
			want: Fact{Key: "phase", Value: "2", ValueType: factbase.Number, Confidence: 0.75,
				Span: "phase 2", Start: 0, End: 7, Rule: "ordinal", Text: "Phase is 2"}},
		{name: "named date", in: "15 March 2024",
			want: Fact{Key: "date", Value: "2024-03-15", ValueType: factbase.Date, Confidence: 0.85,
				Span: "15 March 2024", Start: 0, End: 13, Rule: "date.named", Text: "Date is 2024-03-15"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Extract(tc.in)
			i := slices.IndexFunc(got, func(f Fact) bool { return f.Key == tc.want.Key })
			if i < 0 {
				t.Fatalf("Extract(%q) = %+v, want a fact with key %q", tc.in, got, tc.want.Key)
			}
			if got[i] != tc.want {
				t.Errorf("Extract(%q) = %+v, want %+v", tc.in, got[i], tc.want)
			}
		})
	}
}

func TestExtractDedupKeepsHighestConfidence(t *testing.T) {
	// "38 ms" twice: once bare (0.7), once as a named latency (0.9).
	in := "took 38 ms; the latency 38 ms"
	got := Extract(in)
	if len(got) != 1 {
		t.Fatalf("Extract(%q) = %+v, want one fact", in, got)
	}
	if got[0].Confidence != 0.9 || got[0].Rule != "latency.named" {
		t.Errorf("Extract(%q)[0] = %+v, want the latency.named fact at 0.9", in, got[0])
	}
}

func TestExtractLongInputs(t *testing.T) {
	// A number too long to be a value, and a thing number too long to name a key.
	in := "Phase " + strings.Repeat("9", 80) + " DONE and " + strings.Repeat("7", 70) + " tests"
	for _, f := range Extract(in) {
		if len(f.Value) > maxValueLen {
			t.Errorf("Extract: value of %d bytes kept: %q", len(f.Value), f.Key)
		}
		if err := factbase.ValidateKey(f.Key); err != nil {
			t.Errorf("Extract: key %q invalid: %v", f.Key, err)
		}
	}
	// A long name is not a name.
	long := strings.Repeat("N", maxNameLen+1)
	if got := pairs(Extract(long + " v1.2.3")); !slices.Equal(got, []string{"version=1.2.3"}) {
		t.Errorf("Extract(long name) = %q, want [version=1.2.3]", got)
	}
}

func TestScaleDecimal(t *testing.T) {
	tests := []struct {
		in   string
		exp  int
		want string
	}{
		{"1.2", 3, "1200"}, {"250", -3, "0.25"}, {"38", 0, "38"}, {"038.50", 0, "38.5"},
		{"0.5", 3, "500"}, {"1", -3, "0.001"}, {"0", 3, "0"}, {"12.345", 3, "12345"},
	}
	for _, tc := range tests {
		if got := scaleDecimal(tc.in, tc.exp); got != tc.want {
			t.Errorf("scaleDecimal(%q, %d) = %q, want %q", tc.in, tc.exp, got, tc.want)
		}
	}
}

func TestClipRunes(t *testing.T) {
	s := strings.Repeat("é", 300)
	got := clipRunes(s, factbase.MaxTextLen)
	if n := utf8.RuneCountInString(got); n != factbase.MaxTextLen {
		t.Errorf("clipRunes: %d runes, want %d", n, factbase.MaxTextLen)
	}
	if got := clipRunes("short", 10); got != "short" {
		t.Errorf("clipRunes(short) = %q, want %q", got, "short")
	}
}

// TestExtractBenchmarkEpisode pins what the benchmark's episode yields, so the
// benchmark measures a realistic, correct extraction.
func TestExtractBenchmarkEpisode(t *testing.T) {
	want := []string{
		"session=14", "session_14.status=COMPLETE", "nexus.version=2.3.1", "date=2024-03-15",
		"accuracy=94.2", "count.correct_questions=471", "count.questions=500", "latency.p50_ms=38",
		"latency.p95_ms=120", "latency.p99_ms=250", "retrieval.accuracy=91", "test.success_rate=97",
		"count.passed_tests=42", "count.tests=45", "count.failed_tests=3", "phase=3",
		"phase_3.status=IN_PROGRESS", "phase=2", "phase_2.status=COMPLETE", "migration.status=BLOCKED",
		"date=2024-03-18", "embedder.version=1.4.0", "count.episodes=1200", "status=COMPLETE",
		"error_rate=2.1", "coverage=83", "sprint=6", "sprint_6.status=PENDING",
	}
	if got := pairs(Extract(episode2KB)); !slices.Equal(got, want) {
		t.Errorf("Extract(episode2KB) = %q, want %q", got, want)
	}
}

func TestExtractTagged(t *testing.T) {
	tests := []struct {
		name string
		in   string
		tags []string
		want []string
	}{
		{name: "unnamed status keyed by tag", in: "Status: DONE.", tags: []string{"release", "billing"},
			want: []string{"billing.status=COMPLETE"}},
		{name: "no tag keeps the bare key", in: "Status: DONE.", want: []string{"status=COMPLETE"}},
		{name: "tag named in the sentence wins", in: "The api-gateway cut over. Deployed v5.1.0 to api-gateway.",
			tags: []string{"billing", "api-gateway"}, want: []string{"api-gateway.version=5.1.0"}},
		{name: "failed deploy keeps the running version", in: "Deploy of v2.4.0-rc1 failed; rolled back to v2.3.1.",
			tags: []string{"billing"}, want: []string{"billing.version=2.3.1"}},
		{name: "rollback target takes the failed thing's name", in: "ledger-api v0.9.12 rolled back after double-posting. Running v0.9.11 again.",
			want: []string{"ledger-api.version=0.9.11"}},
		{name: "rolled back a named version to another", in: "Rolled back auth-service v5.0.0 to v4.9.2 after login failures spiked.",
			want: []string{"auth-service.version=4.9.2"}},
		{name: "reverted a named version to another", in: "Reverted payments-api v3.1.0 to v3.0.4.",
			want: []string{"payments-api.version=3.0.4"}},
		{name: "back on a version", in: "Production is back on v4.2.0.", tags: []string{"orbit"},
			want: []string{"orbit.version=4.2.0"}},
		{name: "rolled out is a deploy", in: "Rolled out auth-service v1.9.3 to 25% of traffic.",
			want: []string{"auth-service.version=1.9.3", "percent.traffic=25"}},
		{name: "upgrade from to", in: "Upgraded Postgres from 14.9 to 16.2 over the weekend.",
			want: []string{"postgres.version=16.2"}},
		{name: "upgrade with inner names", in: "Moved the monorepo from Node 18.19.0 to Node 20.11.1.",
			want: []string{"node.version=20.11.1"}},
		{name: "failed upgrade stores nothing", in: "Kafka upgrade from 3.5.1 to 3.7.0 failed.", want: nil},
		{name: "measure from to is not a version", in: "latency went from 1.2 to 0.8 s", want: nil},
		{name: "head noun names the thing before it", in: "Churn model v5 is live; Ledger service healthy.",
			want: []string{"churn.version=5", "ledger.health=HEALTHY"}},
		{name: "dotted name", in: "Next.js stays on 14.1.4", want: []string{"next.js.version=14.1.4"}},
		{name: "counts with their noun", in: "Nightly run processed 12,480 invoices; 36 SKUs failed.",
			want: []string{"count.invoices=12480", "count.failed_skus=36"}},
		{name: "verb counts take the test noun", in: "Nightly e2e suite: 212 passed, 3 failed, 17 skipped.",
			want: []string{"count.passed_tests=212", "count.failed_tests=3", "count.skipped_tests=17"}},
		{name: "verb counts take the sentence's noun", in: "Imported 1,200 rows, 4 failed.",
			want: []string{"count.rows=1200", "count.failed_rows=4"}},
		{name: "a second count of the same things is a part", in: "processed 12,480 invoices; 14 invoices were held",
			want: []string{"count.invoices=12480"}},
		{name: "units are not counts", in: "took 3 days and 40 minutes, 12 times", want: nil},
		{name: "percent of", in: "98.7% of rows imported, 22% of overdue invoices paid",
			want: []string{"percent.imported_rows=98.7", "percent.overdue_invoices=22"}},
		{name: "figure of speech", in: "works 99% of the time", want: nil},
		{name: "health states", in: "payments-api is degraded. kafka-3 went down at 02:10. Cluster healthy again.",
			want: []string{"payments-api.health=DEGRADED", "kafka-3.health=DOWN", "cluster.health=HEALTHY"}},
		{name: "measures going down are not down", in: "latency down 20%, p95 2.1 s down from 5.4 s", want: []string{"latency.p95_ms=2100"}},
		{name: "counted things healthy are a count", in: "all 9 nodes healthy", want: []string{"count.healthy_nodes=9"}},
		{name: "adjective is not a state", in: "degraded performance and not healthy", want: nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := pairs(ExtractTagged(tc.in, tc.tags))
			if !slices.Equal(got, tc.want) {
				t.Errorf("ExtractTagged(%q, %q) = %q, want %q", tc.in, tc.tags, got, tc.want)
			}
		})
	}
}
