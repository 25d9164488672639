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
		if t, ok := nameBefore(s, ms); ok {
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
	key = strings.NewReplacer(" ", "_", "-", "_").Replace(key)
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
