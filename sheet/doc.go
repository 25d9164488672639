// Package sheet scores a user's facts and assembles the fact sheet: the scored selection
// of the most important facts that is injected into a prompt. It is pure: no I/O, no
// database, no clock. The engine loads the candidates from the store, passes the time
// of assembly, and persists the Sheet it gets back.
//
// # Scoring
//
// Every fact has references: the times it was extracted or referenced again. Each
// reference earns the points of the decay bucket its age falls in; with the default
// table (DefaultBuckets):
//
//	age   < 1 h    10       age < 7 days   3
//	age   < 6 h     8       age < 14 days  2
//	age   < 24 h    6       age < 30 days  1
//	age   < 3 days  4       older          0.5
//
// A bucket's bound is exclusive: a reference exactly 1 h old scores 8, one 59m59s old
// scores 10. A reference in the future counts as age 0. A fact with no reference counts
// as referenced once at its recorded time (Explain.Implicit says so).
//
// The reference score is the sum of the points; the score is the category weight
// (core 10, technical 6, project 4, transient 2 by default) times the reference score.
// Points are counted per bucket and summed in bucket order (count × points), so the
// score does not depend on the order of the references.
//
// References need not be sorted. Each one is classified independently with a binary
// search over the bucket bounds (compared as cut-off instants now - Below, not as
// ages), O(len(References) × log len(Buckets)); requiring sorted input would push a sort
// onto the caller that costs more than it saves.
//
// A store holding many references need not load them: it can count, per fact, the
// references strictly after each instant of Cutoffs (in SQL, one SUM per instant) and
// pass the per-bucket counts (BucketCounts) and the most recent reference as
// Candidate.Counts and Candidate.Last. The score, the explanation and the ranking are
// the same as with the references themselves.
//
// # Ranking and ties
//
// Facts are ranked by score (descending), then by most recent reference (descending;
// the recorded time for a fact without references), then by FactID (ascending). This
// order is total as long as fact ids are unique, so assembly is deterministic and does
// not depend on the order of the candidates.
//
// # Eligibility
//
// Only candidates with Current set are eligible; with Config.Privacy, candidates of
// Sensitivity "high" are dropped too; candidates whose category is not one of
// factbase.Categories are dropped. Sheet.Skipped counts each kind.
//
// # Deduplication
//
// Before assembly, eligible candidates are grouped by normalised text: the display text
// (Text; when Text is blank, "key: value", or whichever of the two is set) lowercased, with runs of white space
// collapsed to one space and leading and trailing white space removed. In each group the
// best-ranked candidate is kept and every other one is dropped, across categories,
// whether or not it would have made the sheet. A dropped candidate that bears on the
// sheet gets one Dedup record naming it, the kept fact and the reason: ReasonLowerScore,
// ReasonOlderReference (equal score, older last reference) or ReasonGreaterID (equal
// score and last reference, greater id). It bears on the sheet if the fact kept in its
// place is on the sheet, or if it ranked among the Config.Size best candidates of its
// category, duplicates included (only those could have been taken). The others, which
// could never have made the sheet, are dropped without a record: a user with 100,000
// facts and a few thousand repeated texts would otherwise save a log of thousands of
// records with every sheet. The log is sorted by kept id, then dropped id, and keeps at
// most MaxDedupPerKept records per kept fact (those of the least dropped ids), so that a
// text thousands of facts repeat logs ten of them: the log has at most MaxDedupPerKept
// records per fact that bears on the sheet. Candidates whose normalised text is empty
// are never deduplicated.
//
// # Assembly
//
// Assembly fills at most Config.Size entries (default 100) in three steps:
//
//	(a) minimum:    each category's Min best-ranked facts (core 5, technical 3,
//	                project 3, transient 20), or all of them if it has fewer;
//	(b) within cap: the best-ranked remaining facts across all categories, skipping a
//	                category that holds its Max (core 30, technical 25, project 25,
//	                transient 40), until the sheet is full or no category under its cap
//	                has facts left;
//	(c) fill:       if the sheet is still not full, the best-ranked remaining facts
//	                regardless of caps.
//
// Entry.Explain.Included records the step that took each entry. Entries are ordered by
// category (core, technical, project, transient), then by rank. Only the best Size
// facts of each category can ever be taken, so assembly keeps a bounded heap per
// category rather than sorting every candidate. In all, assembly takes
// O(R log len(Buckets) + n log Size) time for n candidates with R references, and
// O(n) memory; explanations are built for the entries only.
//
// # Prompt format
//
// Render writes a sheet as a compact text block. The format is stable:
//
//	# Fact sheet
//	## core
//	- <text>
//	- <text>
//	## project
//	- <text>
//
// The first line is "# Fact sheet". Then, for each category in sheet order (core,
// technical, project, transient; any other category after them, in order of first
// appearance) that has entries, a heading line "## <category>" followed by one line
// "- <text>" per entry, in the sheet's order. Every line ends with "\n". The text is the
// entry's text with control characters turned into spaces and white space collapsed, so
// an entry is always exactly one line. A sheet with no entries renders as "".
//
// A character budget (RenderOptions.MaxChars) counts Unicode code points of the whole
// block, newlines included. A token budget (RenderOptions.MaxTokens) uses the estimate
// EstimateTokens: ceil(characters / 4). When the block is over a budget, entries are
// dropped lowest-ranked first (lowest score, then oldest last reference, then greatest
// id) until it fits; a category left without entries loses its heading, and if no entry
// fits the result is "". The remaining entries keep their grouping and order. Render
// returns how many entries it dropped.
package sheet
