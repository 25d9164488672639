package episode

import (
	"slices"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/normalize"
)

// latencies reads latencies in milliseconds, from the most to the least explicit form.
func (x *extractor) latencies() {
	s := x.s
	low := x.low
	for _, m := range x.matchAt(latencyRe, x.latencyStarts(low)) {
		q, _, _, _ := sub(s, m, 1)
		for g := 2; g <= 3 && q == ""; g++ {
			q, _, _, _ = sub(s, m, g)
		}
		x.latency(m[0], m[1], m, 4, q, true, "latency.named", 0.9)
	}
	quantiles := filter(wordStarts(low, "p"), func(p int) bool { return p+1 < len(low) && isDigit(low[p+1]) })
	for _, m := range x.matchAt(quantileRe, quantiles) {
		q, _, _, _ := sub(s, m, 1)
		x.latency(m[0], m[1], m, 2, q, true, "latency.quantile", 0.85)
	}
	timed := filter(x.numbers(), func(p int) bool {
		q := afterNumber(low, p)
		return q < len(low) && (low[q] == 'm' || low[q] == 's' || low[q] == 'u' ||
			strings.HasPrefix(low[q:], "µ") || strings.HasPrefix(low[q:], "μ"))
	})
	for _, m := range x.matchAt(latRevRe, timed) {
		q, _, _, _ := sub(s, m, 3)
		if q == "" {
			q, _, _, _ = sub(s, m, 4)
		}
		_, _, _, lat := sub(s, m, 5)
		if q == "" && !lat {
			continue
		}
		x.latency(m[0], m[1], m, 1, q, false, "latency.quantile", 0.85)
	}
	for _, m := range x.matchAt(bareMsRe, timed) {
		if x.notLatency(s, m[0]) || settingAfter(low, m[1]) {
			continue
		}
		x.latency(m[0], m[1], m, 1, "", false, "latency.bare", 0.7)
	}
}

// latency adds the latency whose number is submatch g of m (the unit is g+1).
func (x *extractor) latency(i, j int, m []int, g int, q string, canName bool, rule string, conf float64) {
	s := x.s
	n, ns, _, _ := sub(s, m, g)
	unit, _, ue, _ := sub(s, m, g+1)
	if gluedBefore(s, ns, numGlue) || gluedAfter(s, ue, "") {
		return
	}
	v := strings.ReplaceAll(n, ",", "")
	switch u := strings.ToLower(unit); {
	case u == "s" || strings.HasPrefix(u, "sec"):
		v = scaleDecimal(v, 3)
	case u == "us" || u == "µs" || u == "μs" || strings.HasPrefix(u, "micro"):
		v = scaleDecimal(v, -3)
	default:
		v = scaleDecimal(v, 0)
	}
	q = latencyQualifier(q)
	key, text := "latency_ms", "latency is "+v+" ms"
	if q != "" {
		key = "latency." + strings.ReplaceAll(q, ".", "_") + "_ms"
		text = q + " latency is " + v + " ms"
	}
	if canName {
		if name, ok := x.nameBefore(s, i); ok {
			key = strings.ToLower(name.text) + "." + key
			text = name.text + " " + text
			i = name.start
		}
	}
	x.add(Fact{Key: key, Value: v, ValueType: factbase.Number, Unit: "ms", Confidence: conf,
		Start: i, End: j, Rule: rule, Text: text}, ns, ue)
}

func latencyQualifier(q string) string {
	switch q = strings.ToLower(q); q {
	case "median":
		return "p50"
	case "avg", "average":
		return "mean"
	case "maximum":
		return "max"
	case "minimum":
		return "min"
	}
	return q
}

// notLatencyWords say that a number of milliseconds after them is a setting or a
// bound, not a measured latency.
var notLatencyWords = setOf("timeout", "timeouts", "interval", "delay", "sleep", "ttl",
	"backoff", "deadline", "budget", "limit", "cooldown", "debounce", "throttle", "every",
	"wait", "period", "window", "poll", "polling", "retry", "after", "within", "than",
	"under", "below", "over", "above", "max", "min", "maximum", "minimum", "tick", "heartbeat")

// notLatencySkip are words passed over when looking for such a word ("timeout of 5 ms").
var notLatencySkip = setOf("of", "is", "was", "to", "set", "at", "a", "an", "the", "set", "by")

// settingAfter reports whether the word right after j names a setting ("5ms timeout").
func settingAfter(low string, j int) bool {
	for j < len(low) && isHSpace(rune(low[j])) {
		j++
	}
	k := j
	for k < len(low) && low[k] >= 'a' && low[k] <= 'z' {
		k++
	}
	w := low[j:k]
	return w != "max" && w != "min" && w != "maximum" && w != "minimum" && notLatencyWords[w] && !notLatencySkip[w]
}

func (x *extractor) notLatency(s string, i int) bool {
	for k := 0; k < 4; k++ {
		t, ok := x.prevToken(s, i)
		if !ok {
			return false
		}
		i = t.start
		if t.kind == tokPunct {
			continue
		}
		w := strings.ToLower(t.text)
		if notLatencyWords[w] {
			return true
		}
		if !notLatencySkip[w] {
			return false
		}
	}
	return false
}

// latencyStarts returns where a latency pattern may start: at each word "latency", or
// at the quantile word before it ("p95 latency", "median latency", "p99.9 latency").
func (x *extractor) latencyStarts(low string) []int {
	ps := wordStarts(low, "latency")
	for i, p := range ps {
		t, ok := x.prevToken(low, p)
		if !ok {
			continue
		}
		if t.kind == tokWord && latQualWord(t.text) {
			ps[i] = t.start
		} else if t.kind == tokNumber && t.start > 0 && low[t.start-1] == '.' {
			if u, ok := x.prevToken(low, t.start-1); ok && u.end == t.start-1 && latQualWord(u.text) {
				ps[i] = u.start
			}
		}
	}
	slices.Sort(ps)
	return ps
}

func latQualWord(w string) bool {
	switch w {
	case "median", "mean", "avg", "average", "max", "maximum", "min", "minimum":
		return true
	}
	return len(w) >= 3 && len(w) <= 4 && w[0] == 'p' && normalize.IsDigits(w[1:])
}
