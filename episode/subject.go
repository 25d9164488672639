package episode

import (
	"iter"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/factbase/factbase/text"
)

// A single-valued key such as "status" or "version" says nothing of what it describes:
// a billing episode's status would be overwritten by an api-gateway release. So a
// version, status or health state is keyed by the thing it describes: the name right
// before it ("billing-api v3.12.0", "Kafka upgraded to 3.7.0", "Ledger service
// healthy"), else the thing the sentence names among the episode's tags, else (for a
// version) the thing an earlier version in the episode named, else the episode's first
// tag that names a thing (not "release", "incident", ...). Only with none of these
// does the bare key remain.

// genericTags are tags that name a kind of episode, not a thing.
var genericTags = setOf("release", "releases", "deploy", "deploys", "deployment", "incident",
	"incidents", "ops", "ci", "cd", "test", "tests", "testing", "qa", "migration", "migrations",
	"prod", "production", "staging", "infra", "infrastructure", "postmortem", "hotfix", "perf",
	"performance", "benchmark", "benchmarks", "bench", "data", "import", "oncall", "on-call",
	"rollback", "maintenance", "security", "bugfix", "session", "sre", "eval", "evaluation",
	"ml", "cost", "todo", "notes", "log", "work", "project", "status", "update", "weekly",
	"daily", "standup", "retro", "review", "plan", "planning")

// headNouns name the kind of a thing; the word before them names the thing itself
// ("Ledger service", "Churn model", "Envoy sidecars").
var headNouns = setOf("service", "services", "job", "model", "app", "controller", "sidecar",
	"sidecars", "toolchain", "plane", "control", "release", "rollout", "engine", "deployment",
	"deploy", "instance", "daemon", "agent", "cli", "sdk", "library", "lib", "plugin", "operator")

// notThings are words that sit where a thing's name would but name a place or a
// stage: "production back on v4.2.0", "Canary looks healthy".
var notThings = setOf("production", "prod", "staging", "stage", "dev", "qa", "canary",
	"hotfix", "rollout", "rollback", "everything", "all", "both", "it", "we", "build",
	"candidate", "patch", "fix", "tier", "fleet", "region")

// linkWords may stand between a thing and its version or state: "Kong upgraded to
// 3.6.1", "Next.js stays on 14.1.4", "payments-api is degraded".
var linkWords = setOf("to", "on", "at", "is", "was", "are", "were", "now", "back", "still",
	"stays", "stayed", "stay", "remains", "remained", "remain", "runs", "upgraded", "upgrade",
	"bumped", "bump", "updated", "moved", "pinned", "patched", "downgraded", "looks", "look",
	"again", "currently", "been", "has", "have", "went", "reported", "marked",
	"fully")

// thingBefore returns the name of the thing that a version, status or state at i
// describes, read backwards over link words; see linkWords and headNouns.
func (x *extractor) thingBefore(s string, i int) (token, bool) {
	for k := 0; k < 4; k++ {
		t, ok := x.prevToken(s, i)
		if !ok || t.kind != tokWord {
			return token{}, false
		}
		if linkWords[strings.ToLower(t.text)] {
			i = t.start
			continue
		}
		return x.thingAt(s, t)
	}
	return token{}, false
}

// thingAt returns the thing named by t, the word before a version or state: t itself,
// or the word before a head noun ("Churn model"), with a dotted name joined
// ("Next.js").
func (x *extractor) thingAt(s string, t token) (token, bool) {
	t = x.dotted(s, t)
	for k, u := 0, t; k < 2 && headNouns[strings.ToLower(u.text)]; k++ {
		// "Churn model v5", "EKS control plane upgraded"
		var ok bool
		if u, ok = x.prevToken(s, u.start); !ok || !isName(u) || notThings[strings.ToLower(u.text)] {
			break
		}
		if !headNouns[strings.ToLower(u.text)] {
			return x.dotted(s, u), true
		}
	}
	if !isName(t) || notThings[strings.ToLower(t.text)] || len(t.text) < 2 {
		return token{}, false
	}
	return t, true
}

// dotted joins t to a word glued before it by a dot: "Next.js", "socket.io".
func (x *extractor) dotted(s string, t token) token {
	if t.start < 2 || s[t.start-1] != '.' {
		return t
	}
	u, ok := x.prevToken(s, t.start-1)
	if !ok || u.kind != tokWord || u.end != t.start-1 || len(t.text)+len(u.text) >= maxNameLen {
		return t
	}
	return token{text: s[u.start:t.end], start: u.start, end: t.end, kind: tokWord}
}

// subject returns the key prefix of an unnamed fact at i: a tag the sentence names,
// else (if versions) the thing an earlier version named, else the first tag that
// names a thing. ok is false when there is none.
func (x *extractor) subject(i int, versions bool) (string, bool) {
	if len(x.tags) == 0 && (!versions || x.lastThing == "") {
		return "", false
	}
	a, b := x.sentence(i)
	for _, t := range x.tags {
		ps := x.tagPos(t)
		k, _ := slices.BinarySearch(ps, a)
		if k < len(ps) && ps[k] < b && !genericTags[t] {
			return t, true
		}
	}
	if versions && x.lastThing != "" {
		return x.lastThing, true
	}
	for _, t := range x.tags {
		if !genericTags[t] && validTag(t) {
			return t, true
		}
	}
	return "", false
}

func validTag(t string) bool {
	return t != "" && len(t) <= maxNameLen && !strings.ContainsAny(t, ". \t\n")
}

// tagPos returns, once per Extract, the sorted positions where tag t occurs as words.
func (x *extractor) tagPos(t string) []int {
	if ps, ok := x.tagAt[t]; ok {
		return ps
	}
	var ps []int
	if validTag(t) {
		ps = filter(wordStarts(x.low, t), func(p int) bool { return !gluedAfter(x.low, p+len(t), "-_") })
	}
	if x.tagAt == nil {
		x.tagAt = map[string][]int{}
	}
	x.tagAt[t] = ps
	return ps
}

// sentence returns the bounds of the sentence holding i.
func (x *extractor) sentence(i int) (int, int) {
	if x.sents == nil {
		x.sents = x.boundaries(sentenceRules(x.s, x.words(), "!?"))
	}
	return around(x.sents, i, len(x.s))
}

// clause returns the bounds of the clause holding i.
func (x *extractor) clause(i int) (int, int) {
	if x.clauses == nil {
		x.clauses = x.boundaries(sentenceRules(x.s, x.words(), "!?;,:"))
	}
	return around(x.clauses, i, len(x.s))
}

// sentenceRules are the rules that end an episode's sentences (". ", "!", "?", a
// line break) or, with ends ";,:", its clauses (";", ", ", ": " too): a dot, comma
// or colon ends one only before white space or at the end, there is no exception
// for titles ("Dr. Lee" is two), and each end stands alone (no runs: "?!" is two).
func sentenceRules(s string, toks []text.Token, ends string) text.SentenceRules {
	return text.SentenceRules{
		Ends:    ends,
		KeepDot: func(int) bool { return false },
		KeepEnd: func(i int) bool {
			switch toks[i].W {
			case ".", ",", ":":
				e := toks[i].End
				return e < len(s) && !isSpaceByte(s[e])
			}
			return false
		},
	}
}

// boundaries returns the sorted offsets of the ends of the sentences r cuts the words
// view into. Never nil.
func (x *extractor) boundaries(r text.SentenceRules) []int {
	toks := x.words()
	out := []int{}
	for _, sp := range text.Sentences(toks, r) {
		t := toks[sp.To-1]
		if t.Kind == text.Newline || t.Kind == text.Punct && sp.To < len(toks) {
			out = append(out, t.Start)
			continue
		}
		if sp.To == len(toks) && t.Kind == text.Punct && strings.Contains(r.Ends+".", t.W) && !r.KeepEnd(sp.To-1) {
			out = append(out, t.Start) // the last sentence, ended
		}
	}
	return out
}

// around returns the span between the boundaries either side of i.
func around(bs []int, i, n int) (int, int) {
	k, _ := slices.BinarySearch(bs, i)
	a, b := 0, n
	if k > 0 {
		a = bs[k-1] + 1
	}
	if k < len(bs) {
		b = bs[k]
	}
	return a, b
}

// failWords, in the clause of a version, say it does not run: its deploy failed or was
// rolled back ("Deploy of v2.4.0-rc1 failed", "v0.9.12 rolled back after ...").
var failWords = setOf("failed", "fails", "failing", "failure", "crashed", "crashing", "broke",
	"aborted", "abort", "halted", "paused", "reverted", "revert", "rollback", "rolled",
	"yanked", "pulled", "cancelled", "canceled")

// runWords, right before a version, say that it is the one running ("rolled back to
// v2.3.1", "production back on v4.2.0", "still runs v2.6.0").
var runWords = setOf("back", "reverted", "still", "stays", "stayed", "remains", "remained",
	"keeping", "kept", "running", "runs", "pinned", "served", "serves")

// backWords are the run words that name the version left behind when a thing follows
// them ("rolled back auth-service v5.0.0 to v4.9.2"), and the one running only with
// "to" or "on" between ("rolled back to v4.9.2").
var backWords = setOf("back", "reverted")

// targetWords, in the clause before "to" and a version, make it the version running:
// "Rolled back auth-service v5.0.0 to v4.9.2", "Reverted the API from v2 to v1".
var targetWords = setOf("back", "reverted", "revert", "reverting", "downgraded", "downgrade")

// outcome classifies the version at [i, j) by its clause: running when a run word
// precedes it, failed when its clause, from lo on, says its deploy failed or was
// rolled back.
func (x *extractor) outcome(i, j, lo int) (running, failed bool) {
	p, after := i, ""
	for k := 0; k < 3; k++ {
		t, ok := x.prevToken(x.s, p)
		if !ok || t.kind != tokWord {
			break
		}
		w := strings.ToLower(t.text)
		if k == 0 && w == "to" && x.rollbackBefore(t.start) {
			return true, false
		}
		if runWords[w] && (!backWords[w] || after == "to" || after == "on") {
			return true, false
		}
		p, after = t.start, w
	}
	a, b := x.clause(i)
	a, b = max(a, i-200, lo), min(b, j+200)
	for w := range x.wordsIn(a, b) {
		p, q := w.start, w.end
		w := x.low[p:q]
		if w == "rolled" && nextWord(x.low, q) != "back" { // "rolled out" is a deploy
			w = ""
		}
		if (p < i || p >= j) && failWords[w] && !x.countedBefore(x.s, p) {
			return false, true
		}
	}
	return false, false
}

// wordsIn yields the words of the words view in [a, b), cut at a and b, with no
// dash at their start; a word a dash follows before b keeps its dashes ("failed-"),
// as it is no word of a list.
func (x *extractor) wordsIn(a, b int) iter.Seq[token] {
	return func(yield func(token) bool) {
		toks := x.words()
		k := x.wordAt(a)
		if k < 0 {
			k = sort.Search(len(toks), func(k int) bool { return toks[k].Start >= a })
		}
		for ; k < len(toks) && toks[k].Start < b; k++ {
			t := toks[k]
			if t.Kind != text.Word && t.Kind != text.Number {
				continue
			}
			p, q := max(t.Start, a), min(t.End, b)
			for p < q { // a word starts at a word rune, not at a dash or mid-rune
				r, n := utf8.DecodeRuneInString(x.s[p:q])
				if isWordRune(r) {
					break
				}
				p += n
			}
			for q == t.End && q < b && x.s[q] == '-' {
				q++
			}
			if p < q && !yield(token{text: x.s[p:q], start: p, end: q, kind: tokWord}) {
				return
			}
		}
	}
}

// rollbackBefore reports whether the clause holding i says, before i, that something
// was rolled back or reverted: the version after its "to" is the one that runs.
func (x *extractor) rollbackBefore(i int) bool {
	a, _ := x.clause(i)
	for t := range x.wordsIn(a, i) {
		for _, w := range strings.Split(x.low[t.start:t.end], "-") {
			if targetWords[w] {
				return true
			}
		}
	}
	return false
}

// countedBefore reports whether a number is one of the two tokens before i: "3 tests
// failed" tells of tests, not of a deploy.
func (x *extractor) countedBefore(s string, i int) bool {
	for k := 0; k < 2; k++ {
		t, ok := x.prevToken(s, i)
		if !ok {
			return false
		}
		if t.kind == tokNumber {
			return !gluedBefore(s, t.start, ".,") // not the end of "v4.2.1"
		}
		i = t.start
	}
	return false
}
