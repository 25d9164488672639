package episode

import (
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
	before := len(x.facts)
	x.add(Fact{Key: "count." + name, Value: v, ValueType: factbase.Number, Confidence: conf,
		Start: i, End: j, Rule: rule, Text: "number of " + strings.ReplaceAll(name, "_", " ") + " is " + v}, ns, ne)
	return len(x.facts) > before
}

func pluralNoun(n string) string {
	n = strings.NewReplacer(" ", "_", "-", "_").Replace(strings.ToLower(n))
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
