package episode

import (
	"strings"

	"github.com/factbase/factbase"
)

// metrics reads percentages named by a metric, before or after the number.
func (x *extractor) metrics() {
	s := x.s
	if !strings.Contains(s, "%") {
		return
	}
	low := x.low
	for _, m := range x.matchAt(metricRe, wordStarts(low, "success", "pass", "error", "failure", "hit",
		"accuracy", "precision", "recall", "coverage", "uptime", "f1")) {
		met, ms, _, _ := sub(s, m, 1)
		if gluedBefore(s, ms, "-_") {
			continue
		}
		var q token
		if t, ok := x.nameBefore(s, ms); ok {
			q = t
		}
		x.metric(m[0], m[1], m, 2, met, q)
	}
	percents := filter(x.numbers(), func(p int) bool {
		q := afterNumber(low, p)
		return q < len(low) && low[q] == '%'
	})
	for _, m := range x.matchAt(metricRevRe, percents) {
		met, _, _, _ := sub(s, m, 3)
		var q token
		if qs, a, b, ok := sub(s, m, 2); ok {
			q = token{text: qs, start: a, end: b, kind: tokWord}
			if !isName(q) {
				q = token{}
			}
		}
		x.metric(m[0], m[1], m, 1, met, q)
	}
}

// metric adds the percentage whose number is submatch g of m, named met, qualified by q.
func (x *extractor) metric(i, j int, m []int, g int, met string, q token) {
	s := x.s
	n, ns, ne, _ := sub(s, m, g)
	if gluedBefore(s, ns, numGlue) {
		return
	}
	key := strings.ToLower(met)
	key = keyUnderscores.Replace(key)
	if strings.HasPrefix(key, "f1") {
		key = "f1"
	}
	v := strings.ReplaceAll(n, ",", "")
	text := strings.ReplaceAll(key, "_", " ") + " is " + v + "%"
	if q.text != "" {
		key = strings.ToLower(q.text) + "." + key
		text = q.text + " " + text
		i = min(i, q.start)
	}
	x.add(Fact{Key: key, Value: v, ValueType: factbase.Number, Unit: "%", Confidence: 0.9,
		Start: i, End: j, Rule: "metric.percent", Text: text}, ns, ne)
}

// percentDeterminers are passed over after "N% of".
var percentDeterminers = setOf("the", "all", "our", "their", "its", "total", "these", "those", "your")

// percentNotOf are nouns after "N% of" that make a figure of speech: "99% of the time".
var percentNotOf = setOf("time", "cases", "it", "them", "us", "that", "this", "what")

// percents reads percentages of something: "98.7% of rows imported" is
// percent.imported_rows, "22% of overdue invoices paid" percent.overdue_invoices.
func (x *extractor) percents() {
	s := x.s
	low := x.low
	for _, p := range x.numbers() {
		q := afterNumber(low, p)
		if q >= len(low) || low[q] != '%' || x.claimed != nil && x.claimed[p] || gluedBefore(s, p, numGlue) {
			continue
		}
		n := s[p:numberEnd(s, p)]
		if w, _, b, ok := wordAfter(s, q+1); !ok || !strings.EqualFold(w, "of") {
			continue
		} else {
			q = b
		}
		w1, _, b1, ok := wordAfter(s, q)
		for k := 0; ok && k < 2 && percentDeterminers[strings.ToLower(w1)]; k++ {
			w1, _, b1, ok = wordAfter(s, b1)
		}
		l1 := strings.ToLower(w1)
		if !ok || nameStop[l1] || percentNotOf[l1] || countUnits[l1] || len(l1) < 3 {
			continue
		}
		mod, noun, after := "", l1, b1
		if w2, _, b2, ok := wordAfter(s, b1); ok && !isCountNoun(w1) && isCountNoun(w2) && isCountModifier(w1) {
			mod, noun, after = l1, strings.ToLower(w2), b2
		}
		verb := ""
		w, _, b, ok := wordAfter(s, after)
		for k := 0; ok && k < 2 && statusFiller[strings.ToLower(w)]; k++ {
			w, _, b, ok = wordAfter(s, b)
		}
		if lw := strings.ToLower(w); ok && w == lw && len(lw) > 4 && strings.HasSuffix(lw, "ed") {
			verb, after = lw, b
		}
		parts := make([]string, 0, 3)
		for _, w := range []string{verb, mod, noun} {
			if w != "" {
				parts = append(parts, strings.ReplaceAll(w, "-", "_"))
			}
		}
		name := strings.Join(parts, "_")
		v := strings.ReplaceAll(n, ",", "")
		x.add(Fact{Key: "percent." + name, Value: v, ValueType: factbase.Number, Unit: "%",
			Confidence: 0.85, Start: p, End: after, Rule: "percent.of",
			Text: "percentage of " + strings.Join(parts, " ") + " is " + v + "%"}, p, q)
	}
}
