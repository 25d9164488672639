// Package episode extracts facts from the narrative text of episodes by patterns, with
// no model and no I/O. Episodes are records an agent writes ("Session 14 complete:
// NEXUS v2.3.1 deployed, accuracy 94.2% on 500 questions, p50 latency 38 ms. Phase 3
// IN_PROGRESS."); Extract turns such text into keyed facts, each with its confidence,
// the rule that found it and the exact span of text it came from.
//
// # Key scheme
//
// A key is a dotted path, lower case. A name or qualifier found just before a pattern
// becomes the first segment; the rest names the measure.
//
//	<thing>.version         "NEXUS v2.3.1", "NEXUS version 2.3.1"        key nexus.version
//	<thing>.version         "Upgraded Postgres from 14.9 to 16.2"        postgres.version = "16.2"
//	version                 "v2.3.1", "version 2.3.1", "2.3.1"           with no thing known
//	<metric>                "accuracy 94.2%", "97% success rate"          value "94.2", unit "%"
//	<qualifier>.<metric>    "test success rate 97%", "retrieval accuracy: 91%"
//	latency_ms              "latency 38 ms", "took 38 ms"                value in ms, unit "ms"
//	latency.<q>_ms          "p95 latency 120 ms", "p99: 250ms", "38 ms (p50)"
//	<name>.latency[.<q>]_ms "search latency 12 ms", "search p95 latency 40 ms"
//	count.<noun>            "500 questions", "processed 12,480 invoices"  value "500", "12480"
//	count.<qualifier>_<noun> "42 passing tests", "3 tests failed", "36 SKUs failed"
//	count.<verb>_<noun>     "212 passed, 3 failed, 17 skipped" (noun from the sentence, else tests)
//	percent.[<verb>_]<noun> "98.7% of rows imported" (percent.imported_rows), "25% of traffic"
//	<thing>.status          "Phase 3 IN_PROGRESS" (phase_3.status), "Migration BLOCKED",
//	                        "Status: DONE" in an episode tagged billing (billing.status)
//	<thing>.health          "payments-api is degraded", "kafka-3 went down", "Backups healthy."
//	status                  "Status: DONE" with no thing known
//	phase, session, sprint, milestone   "Phase 3", "Session 14"          value "3", "14"
//	date                    "2024-03-15", "March 15, 2024", "15 March 2024" value ISO "2024-03-15"
//
// Metrics are accuracy, precision, recall, f1, coverage, uptime and the rates success_rate,
// pass_rate, error_rate, failure_rate and hit_rate. Latency qualifiers are pNN (p50, p95,
// p99, p99.9 as p99_9), median (stored as p50), mean (also avg, average), max and min;
// seconds and microseconds are converted to milliseconds. Count nouns are episodes,
// queries, questions, tests, test cases, sessions, facts, documents, files, records,
// samples, examples, requests, users, commits, tasks and messages, stored in the plural;
// "42/45 tests passed" and "42 of 45 tests passed" give count.tests = 45 and
// count.passed_tests = 42. Status values are canonical: COMPLETE (also COMPLETED, DONE),
// IN_PROGRESS (also "IN PROGRESS", "in-progress"), PENDING, BLOCKED, FAILED.
//
// # What a key describes
//
// A version, status or health state is keyed by the thing it describes, so that
// unrelated episodes do not overwrite each other's "status": the name before it, read
// over link words ("Kong upgraded to 3.6.1", "Next.js stays on 14.1.4") and through head
// nouns ("Churn model v5" is churn's, "EKS control plane" is EKS's); else a tag of the
// episode (ExtractTagged) that the sentence names; else, for a version, the thing an
// earlier version in the episode named ("ledger-api v0.9.12 rolled back. Running
// v0.9.11 again."); else the episode's first tag that names a thing (not "release",
// "incident", "ci", ...). Only with none of these is the key bare.
//
// A version whose clause says its deploy failed, halted or was rolled back or reverted
// is not stored: "Deploy of v2.4.0-rc1 failed; rolled back to v2.3.1" stores 2.3.1, the
// version that runs. So is the old version of "from X to Y". "Rolled out" is a deploy,
// and "3 tests failed" tells of tests, not of the deploy.
//
// # Decisions
//
//   - A name is the single word right before a pattern, on the same line, if it starts
//     with a letter, is at most 40 bytes, is not a stop word ("to", "the", "overall",
//     "version", ...) and does not end in -ed or -ing (a verb such as "Released" or
//     "running") unless a later letter is upper case ("SEEDED", "OpenTracing").
//   - A bare percentage with no metric ("100% sure") is not extracted: a key "percent"
//     would be overwritten by every unrelated number. Fractions ("accuracy 0.94") are not
//     read as percentages.
//   - A version needs a "v" prefix ("v2", "v2.3.1"), the word "version" or "ver" before
//     it ("version 3"), or three dotted parts ("2.3.1"). Two bare parts ("Python 3.12",
//     "94.2") are numbers, not versions. Four bare parts (IP addresses such as
//     192.168.1.1), bare parts with a component of four digits or more (dates such as
//     2024.03.15 and 15.03.2024) and versions inside paths ("/api/v1/") are not
//     versions.
//   - A status word in lower or title case counts only after a thing with a number
//     ("Phase 3 complete") or the label "status" ("Deployment status: done"); an upper
//     case word counts anywhere. "not DONE", "isn't COMPLETE" are skipped.
//   - A number in "N ms" is a latency unless the word before or after it says it is a
//     timeout, interval, delay, sleep, TTL, backoff, deadline, budget or limit, or a
//     bound ("under 40 ms", "max 40 ms").
//   - Numbers glued to letters, digits, dashes or slashes (phone numbers "555-0100",
//     "x86", "a/b") are not read. A number is claimed by the first rule that reads it
//     (dates, versions, latencies, metrics, phase/session, counts), so "p50 latency 38 ms"
//     is one fact, not also a bare latency_ms.
//   - Any plural noun may be counted ("4 A100s", "23 service accounts") but units and
//     spans ("3 days", "12 times", "40 points", "the last 3 releases") are not counts.
//   - A health word that qualifies a noun ("degraded performance"), a measure that goes
//     down ("latency down 20%") and counted things ("9 nodes healthy", a count) are not
//     states; "99% of the time" is not a percentage of anything.
//   - Values longer than 64 bytes (a 70-digit "count") are dropped as noise.
//   - Words, sentences and clauses are read from a parse (package text); ExtractText
//     takes one, so a caller that parses the content anyway has it scanned once. The
//     words view reads "_" and non-spacing marks as word runes and dashes, a run of
//     them too ("a--b"), inside a word. A name is the word of that view that ends
//     right before a pattern, after spaces, tabs and no-break spaces; one of
//     ": = ~ - – — (" there is a mark between a name and its value, and a line break
//     or anything else stops the search. A sentence ends at ". " (not the dots of
//     "v2.3."), "!", "?" or a line break, a clause also at ";", ", " and ": ", each
//     end on its own and with no exception for titles ("Dr. Lee" is two sentences).
//     The patterns themselves (numbers and units, versions, "from X to Y", counts,
//     percentages) match bytes of the content at triggers (a keyword at a word
//     start, a number), the glue checks at a match's edges read the rune either
//     side, and the look-aheads after a match read the next run of ASCII letters
//     ("rolled back", "42 files"), which is not a word of any view ("back2" gives
//     "back").
//   - Several facts may share a key (two versions, two dates); the result is deduplicated
//     by key and value only, keeping the highest confidence.
//
// # Confidence table
//
//	rule               example                          confidence
//	version.named      NEXUS v2.3.1, NEXUS version 2.3  0.90
//	version.keyword    version 2.3.1                    0.85
//	version.v          v2.3.1, v2.3                     0.80  (NEXUS v2: 0.80, bare v2: 0.60)
//	version.semver     Go 1.22.3 (named) / 1.22.3       0.75 / 0.60
//	version.upgrade    Airflow upgraded from 2.7 to 2.9 0.90  (no thing named: 0.85)
//	percent.of         98.7% of rows imported           0.85
//	count.verb         3 failed, 17 skipped             0.75
//	health.named       payments-api is degraded         0.85
//	health.subject     Still healthy. (tagged payments) 0.75
//	metric.percent     accuracy 94.2%, 97% success rate 0.90
//	latency.named      p95 latency 120 ms, latency 38ms 0.90
//	latency.quantile   p99: 250 ms, 38 ms (p50)         0.85
//	latency.bare       took 38 ms                       0.70
//	count.ratio        42/45 tests passed               0.85
//	count              500 questions                    0.80
//	status.thing       Phase 3 IN_PROGRESS              0.85
//	status.labelled    Status: DONE                     0.85
//	status.caps        ... BLOCKED ...                  0.80
//	ordinal            Phase 3 / phase 3                0.90 / 0.75 (lower case)
//	date.iso           2024-03-15                       0.90
//	date.named         March 15, 2024 / 15 March 2024   0.85
package episode
