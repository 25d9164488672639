package episode

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

// counts reads counts of episodes, questions, tests and the like.
func (x *extractor) counts() {
	s := x.s
	low := x.low
	if !containsAny(low, countStems) {
		x.genericCounts()
		return
	}
	ratios := filter(x.numbers(), func(p int) bool {
		q := afterNumber(low, p)
		return q < len(low) && (low[q] == '/' || low[q] == 'o')
	})
	for _, m := range x.matchAt(ratioRe, ratios) {
		a, as, ae, _ := sub(s, m, 1)
		b, bs, be, _ := sub(s, m, 2)
		if gluedBefore(s, as, numGlue) || strings.Contains(a, ".") || strings.Contains(b, ".") {
			continue
		}
		qual, _, _, _ := sub(s, m, 3)
		noun, _, _, _ := sub(s, m, 4)
		verb, vs, ve, hasVerb := sub(s, m, 5)
		x.count(m[0], m[1], b, bs, be, "", qual, noun, "count.ratio", 0.85)
		if hasVerb {
			x.count(m[0], m[1], a, as, ae, verb, qual, noun, "count.ratio", 0.85)
			x.claim(vs, ve)
		}
	}
	counted := filter(x.numbers(), func(p int) bool {
		q := numberEnd(low, p)
		return q < len(low) && isSpaceByte(low[q])
	})
	for _, m := range x.matchAt(countRe, counted) {
		n, ns, ne, _ := sub(s, m, 1)
		if gluedBefore(s, ns, numGlue) || strings.Contains(n, ".") {
			continue
		}
		qual, _, _, _ := sub(s, m, 2)
		noun, _, _, _ := sub(s, m, 3)
		verb, vs, ve, hasVerb := sub(s, m, 4)
		if x.count(m[0], m[1], n, ns, ne, verb, qual, noun, "count", 0.8) && hasVerb {
			x.claim(vs, ve)
		}
	}
	x.genericCounts()
}

// count adds one count; it reports whether it was added.
func (x *extractor) count(i, j int, n string, ns, ne int, verb, qual, noun, rule string, conf float64) bool {
	parts := make([]string, 0, 3)
	for _, w := range []string{verb, qual} {
		switch w = strings.ToLower(w); w {
		case "", "total":
		case "passing", "succeeded":
			parts = append(parts, "passed")
		case "failing":
			parts = append(parts, "failed")
		case "end-to-end":
			parts = append(parts, "e2e")
		case "evaluation":
			parts = append(parts, "eval")
		default:
			parts = append(parts, w)
		}
	}
	if len(parts) == 2 && parts[0] == parts[1] {
		parts = parts[:1]
	}
	parts = append(parts, pluralNoun(noun))
	name := strings.Join(parts, "_")
	v := strings.ReplaceAll(n, ",", "")
	x.nouns = append(x.nouns, counted{i, pluralNoun(noun)})
	// A second count of the same things in one episode is a part of the first ("12,480
	// invoices; 14 invoices were held", "18,204 files into 912 files"), not a total.
	if prev, ok := x.countOf[name]; ok && prev != v {
		return false
	}
	before := len(x.facts)
	x.add(Fact{Key: "count." + name, Value: v, ValueType: factbase.Number, Confidence: conf,
		Start: i, End: j, Rule: rule, Text: "number of " + strings.ReplaceAll(name, "_", " ") + " is " + v}, ns, ne)
	if len(x.facts) > before {
		if x.countOf == nil {
			x.countOf = map[string]string{}
		}
		x.countOf[name] = v
		return true
	}
	return false
}

func pluralNoun(n string) string {
	n = keyUnderscores.Replace(strings.ToLower(n))
	switch {
	case n == "query":
		return "queries"
	case n == "docs":
		return "documents"
	case !strings.HasSuffix(n, "s"):
		return n + "s"
	}
	return n
}

// thingUnits are the words that, with a number, name what a status refers to.
var thingUnits = setOf("phase", "session", "sprint", "milestone", "step", "stage", "task",
	"iteration", "part", "epic", "week", "day", "round", "wave", "batch", "run")

// ordinals reads phase, session, sprint and milestone numbers.
func (x *extractor) ordinals() {
	s := x.s
	for _, m := range x.matchAt(ordinalRe, wordStarts(x.low, "phase", "session", "sprint", "milestone")) {
		i, j := m[0], m[1]
		if glued(s, i, j, "_-", "") {
			continue
		}
		kw, _, _, _ := sub(s, m, 1)
		v, vs, ve, _ := sub(s, m, 2)
		key := strings.ToLower(kw)
		conf := 0.75
		if r, _ := utf8.DecodeRuneInString(kw); unicode.IsUpper(r) {
			conf = 0.9
		}
		x.add(Fact{Key: key, Value: v, ValueType: factbase.Number, Confidence: conf,
			Start: i, End: j, Rule: "ordinal", Text: key + " is " + v}, vs, ve)
	}
}

// counted is the noun of a count read, at its position, for a later count that names
// none ("1,390 test cases executed, 1,371 passed").
type counted struct {
	pos  int
	noun string
}

// functionWords never qualify a counted noun.
var functionWords = setOf("a", "an", "the", "to", "from", "of", "on", "in", "at", "by", "for",
	"with", "and", "or", "but", "nor", "so", "is", "was", "are", "were", "be", "been", "it",
	"this", "that", "these", "those", "we", "i", "you", "he", "she", "they", "our", "my",
	"your", "their", "his", "her", "me", "them", "than", "as", "via", "into", "onto", "over",
	"under", "after", "before", "since", "until", "also", "still", "just", "only", "not", "no",
	"all", "more", "most", "less", "least", "very", "too", "again", "there", "here", "when",
	"where", "while", "which", "who", "what", "how", "why", "if", "will", "would", "can",
	"could", "should", "may", "might", "must", "do", "does", "did", "other", "same", "each",
	"every", "both", "some", "any", "few", "many", "several", "up", "down", "out", "off",
	"back", "today", "yesterday", "tomorrow", "now", "then", "per", "about", "around", "more",
	"extra", "additional", "further", "another", "such", "own", "times", "x")

// countUnits are plural words that measure rather than count things.
var countUnits = setOf("seconds", "secs", "minutes", "mins", "hours", "hrs", "days", "weeks",
	"months", "years", "yrs", "times", "ms", "points", "pts", "percent", "bytes", "bits",
	"kbs", "mbs", "gbs", "tbs", "kbps", "mbps", "gbps", "rps", "qps", "tps", "iops", "ops",
	"degrees", "cents", "dollars", "euros", "nines", "others", "this", "was", "has", "its",
	"his", "hers", "yes", "does", "goes", "thus", "plus", "less", "across", "always",
	"perhaps", "unless", "besides", "towards", "afterwards", "minus", "series", "news",
	"canvas", "alias", "gas", "lens", "whereas", "ones", "is", "as", "us", "cs", "vs")

// countVerbs after a counted noun qualify it: "36 SKUs failed", "4 models errored".
var countVerbs = setOf("passed", "passing", "failed", "failing", "skipped", "succeeded",
	"correct", "errored", "blocked", "rejected", "merged", "unhealthy", "healthy")

// verbCounts are the verbs that count on their own: "212 passed, 3 failed, 17 skipped".
var verbCounts = setOf("passed", "failed", "skipped", "errored", "blocked")

// countModifiers ending like participles that may still qualify a counted noun.
var countModifiers = setOf("queued", "failed", "skipped", "passed", "failing", "passing",
	"blocked", "pending", "remaining", "existing", "missing", "deleted", "archived", "open",
	"new", "unique", "total", "flaky")

// notCounting, right before a number, make it a rank or a span: "the last 3 releases".
var notCounting = setOf("last", "past", "first", "next", "top", "every", "within", "per",
	"version", "v", "phase", "sprint", "session", "step", "release", "python", "node", "go")

// singularS are nouns ending in "us" or "is" that are not plurals.
var singularS = setOf("status", "bus", "bonus", "virus", "campus", "corpus", "focus", "census",
	"consensus", "nexus", "radius", "stimulus", "syllabus", "surplus", "analysis", "basis",
	"thesis", "axis", "crisis", "diagnosis", "emphasis", "hypothesis", "synopsis", "this")

// isCountNoun reports whether w is a plural noun that may be counted: "invoices",
// "GPUs", "A100s".
func isCountNoun(w string) bool {
	acronym := len(w) >= 3 && strings.ToUpper(w[:len(w)-1]) == w[:len(w)-1] && w[len(w)-1] == 's'
	w = strings.ToLower(w)
	if len(w) < 3 || !('a' <= w[0] && w[0] <= 'z') || !strings.HasSuffix(w, "s") ||
		strings.HasSuffix(w, "ss") || singularS[w] && !acronym || countUnits[w] || nameStop[w] {
		return false
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; !('a' <= c && c <= 'z' || isDigit(c) || c == '-') {
			return false
		}
	}
	return true
}

// isCountModifier reports whether w (as written) may qualify a counted noun: "3 open
// incidents", "52,000 concurrent connections", "23 service accounts".
func isCountModifier(w string) bool {
	low := strings.ToLower(w)
	if len(w) < 2 || w != low || countModifiers[low] {
		return countModifiers[low]
	}
	for i := 0; i < len(w); i++ {
		if !('a' <= w[i] && w[i] <= 'z' || w[i] == '-') {
			return false
		}
	}
	return !functionWords[low] && !countUnits[low] && !strings.HasSuffix(low, "ed") &&
		!strings.HasSuffix(low, "ing")
}

// wordAfter returns the word after i and horizontal white space: a letter, then
// letters, digits, dashes. ok is false when a mark or a line break comes first.
func wordAfter(s string, i int) (w string, a, b int, ok bool) {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	j := i
	for j < len(s) && (isAlpha(s[j]) || j > i && (isDigit(s[j]) || s[j] == '-')) {
		j++
	}
	if j == i || j < len(s) && s[j] >= 0x80 {
		return "", i, i, false
	}
	return s[i:j], i, j, true
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// genericCounts reads counts of any plural noun ("processed 12,480 invoices", "N of M
// pods healthy") and counts by a verb alone ("3 failed, 17 skipped"), whose noun is the
// one last counted in the sentence, else tests in an episode about tests.
func (x *extractor) genericCounts() {
	s := x.s
	var pending [][3]int // number start, number end, verb end
	for _, p := range x.numbers() {
		ne := numberEnd(s, p)
		n := s[p:ne]
		if x.claimed != nil && x.claimed[p] || strings.ContainsAny(n, ".") || strings.HasSuffix(n, ",") ||
			ne >= len(s) || s[ne] != ' ' {
			continue
		}
		if t, ok := x.prevToken(s, p); ok && notCounting[strings.ToLower(t.text)] {
			continue
		}
		total, ts, te, end := n, p, ne, ne
		part := ""
		if w, _, b, ok := wordAfter(s, ne); ok && strings.EqualFold(w, "of") {
			// "2 of 3 ingress pods healthy"
			q := b
			for q < len(s) && s[q] == ' ' {
				q++
			}
			qe := numberEnd(s, q)
			if qe == q || qe >= len(s) || s[qe] != ' ' || strings.ContainsAny(s[q:qe], ".") {
				continue
			}
			part, total, ts, te, end = n, s[q:qe], q, qe, qe
		}
		w1, _, b1, ok := wordAfter(s, end)
		if !ok {
			continue
		}
		l1 := strings.ToLower(w1)
		mod, noun, after := "", "", b1
		switch {
		case isCountNoun(w1):
			noun = l1
		case verbCounts[l1] && part == "":
			if w2, _, _, ok := wordAfter(s, b1); !ok || !isCountNoun(w2) {
				pending = append(pending, [3]int{p, ne, b1})
				continue
			}
			fallthrough
		case isCountModifier(w1):
			if w2, _, b2, ok := wordAfter(s, b1); ok && isCountNoun(w2) {
				mod, noun, after = l1, strings.ToLower(w2), b2
			}
		}
		if noun == "" {
			continue
		}
		verb := ""
		if w, _, b, ok := wordAfter(s, after); ok && countVerbs[strings.ToLower(w)] {
			verb, after = strings.ToLower(w), b
		}
		if part != "" {
			x.count(p, after, total, ts, te, "", mod, noun, "count.ratio", 0.85)
			if verb != "" {
				x.count(p, after, part, p, ne, verb, mod, noun, "count.ratio", 0.85)
			}
			continue
		}
		x.count(p, after, n, p, ne, verb, mod, noun, "count", 0.8)
	}
	if len(pending) == 0 {
		return
	}
	slices.SortFunc(x.nouns, func(a, b counted) int { return a.pos - b.pos })
	// Verb counts count tests where the text speaks of tests or of a CI run.
	tests := containsAny(x.low, []string{"test", "suite", "spec"}) || hasWord(x.low, "ci", "pipeline", "build", "checks")
	for _, c := range pending {
		a, _ := x.sentence(c[0])
		noun := ""
		k, _ := slices.BinarySearchFunc(x.nouns, c[0], func(e counted, p int) int { return e.pos - p })
		if k > 0 && x.nouns[k-1].pos >= a {
			noun = x.nouns[k-1].noun
		} else if tests {
			noun = "tests"
		}
		if noun == "" {
			continue
		}
		verb := strings.ToLower(s[c[1]:c[2]])
		verb = strings.TrimSpace(verb)
		x.count(c[0], c[2], s[c[0]:c[1]], c[0], c[1], verb, "", noun, "count.verb", 0.75)
	}
}
