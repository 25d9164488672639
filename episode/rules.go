package episode

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

// num is a decimal number, with optional thousands separators: 38, 94.2, 1,200.
const num = `(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?`

// numGlue lists the marks that, right before a number, make it part of something else
// (a phone number, a ratio, a path, an amount).
const numGlue = ".,-/+#$€£:"

// The compiled patterns are read-only after package initialisation.
var (
	isoDateRe   = anchored(`(\d{4})-(\d{2})-(\d{2})`)
	month       = `jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?`
	mdyDateRe   = anchored(`(` + month + `)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})`)
	dmyDateRe   = anchored(`(\d{1,2})(?:st|nd|rd|th)?\s+(` + month + `)\.?,?\s+(\d{4})`)
	prerelease  = `(?:-(?:alpha|beta|rc|pre|dev|snapshot|preview|canary|nightly)(?:[.-]?\d+)*)?`
	versionRe   = anchored(`(?:(version|ver)\.?\s*[:=#]?\s*v?|(v))(\d+(?:\.\d+){0,3}` + prerelease + `)|(\d+\.\d+\.\d+` + prerelease + `)`)
	latQual     = `p\d{2,3}(?:\.\d+)?|median|mean|avg|average|maximum|max|minimum|min`
	latUnit     = `milliseconds?|millis|msecs?|ms|microseconds?|µs|μs|us|seconds?|secs?|s`
	latFiller   = `(?:\s*(?:[:=~]|\bis\b|\bwas\b|\bof\b|\bat\b|\bnow\b|\baround\b|\babout\b|\bapprox\.?|\broughly\b|\bdropped\b|\bfell\b|\brose\b|\bimproved\b|\bincreased\b|\breduced\b|\bdecreased\b|\bwent\b|\bdown\b|\bup\b|\bto\b))*?`
	latencyRe   = anchored(`(?:(` + latQual + `)\s+)?latency\b(?:\s*\(\s*(` + latQual + `)\s*\)|\s+(` + latQual + `)\b)?` + latFiller + `\s*(?:\bfrom\s+` + num + `\s?(?:` + latUnit + `)\s+to\s+)?(` + num + `)\s?(` + latUnit + `)\b`)
	quantileRe  = anchored(`(p\d{2,3}(?:\.\d+)?)(?:\s*[:=]\s*|\s+(?:(?:of|at|is|was)\s+)?)(` + num + `)\s?(` + latUnit + `)\b`)
	latRevRe    = anchored(`(` + num + `)\s?(` + latUnit + `)\b(?:\s*\(\s*(` + latQual + `)\s*\)|\s+(` + latQual + `)\b)?(\s+latency\b)?`)
	bareMsRe    = anchored(`(` + num + `)\s?(milliseconds?|msecs?|ms)\b`)
	metric      = `success[ -]rate|pass[ -]rate|error[ -]rate|failure[ -]rate|hit[ -]rate|accuracy|precision|recall|coverage|uptime|f1(?:[ -]score)?`
	metFiller   = `(?:\s*(?:[:=~(]|\bis\b|\bwas\b|\bof\b|\bat\b|\bnow\b|\breached\b|\bhit\b|\bimproved\b|\bincreased\b|\brose\b|\bdropped\b|\bfell\b|\bgrew\b|\bwent\b|\bup\b|\bdown\b|\bto\b|\babout\b|\baround\b|\bapprox\.?|\bapproximately\b|\broughly\b|\bnearly\b|\balmost\b))*?`
	metricRe    = anchored(`(` + metric + `)\b` + metFiller + `\s*(?:\bfrom\s+` + num + `\s?%\s+to\s+)?(` + num + `)\s?%`)
	metricRevRe = anchored(`(` + num + `)\s?%\s+(?:([\pL][\pL\pN_-]*)\s+)?(` + metric + `)\b`)
	ordinalRe   = anchored(`(phase|session|sprint|milestone)\s*#?\s*(\d+(?:\.\d+)?)`)
	countNoun   = `test[ -]cases?|episodes?|queries|query|questions?|tests?|sessions?|facts?|documents?|docs|files?|records?|samples?|examples?|requests?|users?|commits?|tasks?|messages?`
	countQual   = `passing|passed|failing|failed|skipped|flaky|successful|unique|new|unit|integration|e2e|end-to-end|regression|benchmark|evaluation|eval|test|total`
	countStems  = []string{"test", "episode", "quer", "question", "session", "fact", "doc", "file",
		"record", "sample", "example", "request", "user", "commit", "task", "message"}
	countVerb = `passed|passing|failed|failing|skipped|succeeded|correct`
	ratioRe   = anchored(`(` + num + `)\s*(?:/|\bof\b|\bout\s+of\b)\s*(` + num + `)\s+(?:(` + countQual + `)\s+)?(` + countNoun + `)\b(?:\s+(` + countVerb + `)\b)?`)
	countRe   = anchored(`(` + num + `)\s+(?:(` + countQual + `)\s+)?(` + countNoun + `)\b(?:\s+(` + countVerb + `)\b)?`)
	statusRe  = anchored(`(completed|complete|done|in[_ -]progress|pending|blocked|failed)\b`)
)

// sub returns the text of submatch g of m, and whether it matched.
func sub(s string, m []int, g int) (string, int, int, bool) {
	if 2*g+1 >= len(m) || m[2*g] < 0 {
		return "", -1, -1, false
	}
	return s[m[2*g]:m[2*g+1]], m[2*g], m[2*g+1], true
}

// dates reads ISO dates and dates with a month name; the value is ISO 8601.
func (x *extractor) dates() {
	s := x.s
	if !hasDigit(s) {
		return
	}
	low := x.low
	years := filter(digitRuns(low, "-/."), func(p int) bool {
		return p+4 < len(low) && low[p+4] == '-' && numberEnd(low, p) == p+4
	})
	for _, m := range x.matchAt(isoDateRe, years) {
		i, j := m[0], m[1]
		if gluedBefore(s, i, "-/.") || isoTail(s, j) {
			continue
		}
		y, _ := strconv.Atoi(s[m[2]:m[3]])
		mo, _ := strconv.Atoi(s[m[4]:m[5]])
		d, _ := strconv.Atoi(s[m[6]:m[7]])
		if iso, ok := isoDate(y, mo, d); ok {
			x.add(Fact{Key: "date", Value: iso, ValueType: factbase.Date, Confidence: 0.9,
				Start: i, End: j, Rule: "date.iso", Text: "Date is " + iso}, i, j)
		}
	}
	months := wordStarts(low, "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
	days := filter(x.numbers(), func(p int) bool { return p+2 < len(low) && !isDigit(low[p+2]) })
	for _, re := range []*regexp.Regexp{mdyDateRe, dmyDateRe} {
		mdy := re == mdyDateRe
		ps := days
		if mdy {
			ps = months
		}
		for _, m := range x.matchAt(re, ps) {
			i, j := m[0], m[1]
			if gluedAfter(s, j, "") {
				continue
			}
			mname, dg := s[m[2]:m[3]], s[m[4]:m[5]]
			if !mdy {
				mname, dg = dg, mname
			}
			y, _ := strconv.Atoi(s[m[6]:m[7]])
			d, _ := strconv.Atoi(dg)
			if iso, ok := isoDate(y, monthNumber(mname), d); ok {
				x.add(Fact{Key: "date", Value: iso, ValueType: factbase.Date, Confidence: 0.85,
					Start: i, End: j, Rule: "date.named", Text: "Date is " + iso}, i, j)
			}
		}
	}
}

// isoTail reports whether the ISO date ending at j runs on into something that is not a
// time ("2024-03-15T10:00" is a date; "2024-03-150" and "2024-03-15-2" are not).
func isoTail(s string, j int) bool {
	if j >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[j:])
	if (r == 'T' || r == 't') && j+1 < len(s) && isDigit(s[j+1]) {
		return false
	}
	return isWordRune(r) || r == '-' || r == '/' || (r == '.' && j+1 < len(s) && isDigit(s[j+1]))
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			return true
		}
	}
	return false
}

func monthNumber(name string) int {
	p := strings.ToLower(name)
	if len(p) > 3 {
		p = p[:3]
	}
	return strings.Index("janfebmaraprmayjunjulaugsepoctnovdec", p)/3 + 1
}

// isoDate formats a valid calendar date as YYYY-MM-DD.
func isoDate(y, m, d int) (string, bool) {
	if y < 1 || m < 1 || m > 12 || d < 1 {
		return "", false
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && (y%4 == 0 && y%100 != 0 || y%400 == 0) {
		days = 29
	}
	if d > days {
		return "", false
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d), true
}

// versions reads version numbers and the name before them.
func (x *extractor) versions() {
	s := x.s
	if !hasDigit(s) {
		return
	}
	low := x.low
	ps := wordStarts(low, "ver")
	ps = append(ps, filter(digitRuns(low, `./-_\`), func(p int) bool {
		q := afterNumber(low, p)
		return q-p >= 5 && strings.Count(low[p:q], ".") >= 2
	})...)
	for p := 0; p+1 < len(low); p++ {
		if low[p] == 'v' && isDigit(low[p+1]) && !gluedBefore(low, p, `./-_\`) {
			ps = append(ps, p)
		}
	}
	slices.Sort(ps)
	for _, m := range x.matchAt(versionRe, ps) {
		i, j := m[0], m[1]
		_, _, _, isKw := sub(s, m, 1)
		_, _, _, isV := sub(s, m, 2)
		v, vs, ve, ok := sub(s, m, 3)
		if !ok {
			v, vs, ve, _ = sub(s, m, 4)
		}
		if isKw {
			if gluedBefore(s, i, "") || gluedAfter(s, j, `/_\`) {
				continue
			}
		} else if glued(s, i, j, `./-_\`, `/_\`) {
			continue
		}
		if !isKw && !isV {
			// Bare x.y.z: a part of four digits or more makes a calendar date
			// (2024.03.15, 15.03.2024), not a version.
			if slices.ContainsFunc(strings.Split(v, "."), func(p string) bool { return len(p) > 3 }) {
				continue
			}
		}
		f := Fact{Value: v, ValueType: factbase.String, Start: i, End: j}
		name, named := nameBefore(s, i)
		switch {
		case isKw && named:
			f.Rule, f.Confidence = "version.named", 0.9
		case isKw:
			f.Rule, f.Confidence = "version.keyword", 0.85
		case isV && named:
			f.Rule, f.Confidence = "version.named", 0.9
			if !strings.Contains(v, ".") {
				f.Confidence = 0.8
			}
		case isV:
			f.Rule, f.Confidence = "version.v", 0.8
			if !strings.Contains(v, ".") {
				f.Confidence = 0.6
			}
		case named:
			f.Rule, f.Confidence = "version.semver", 0.75
		default:
			f.Rule, f.Confidence = "version.semver", 0.6
		}
		f.Key, f.Text = "version", "Version is "+v
		if named {
			f.Key = strings.ToLower(name.text) + ".version"
			f.Text = name.text + " version is " + v
			f.Start = name.start
		}
		x.add(f, vs, ve)
	}
}

// latencies reads latencies in milliseconds, from the most to the least explicit form.
func (x *extractor) latencies() {
	s := x.s
	if !hasDigit(s) {
		return
	}
	low := x.low
	for _, m := range x.matchAt(latencyRe, latencyStarts(low)) {
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
		if notLatency(s, m[0]) || settingAfter(low, m[1]) {
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
		if name, ok := nameBefore(s, i); ok {
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

func notLatency(s string, i int) bool {
	for k := 0; k < 4; k++ {
		t, ok := prevToken(s, i)
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

// ordinals reads phase, session, sprint and milestone numbers.
func (x *extractor) ordinals() {
	s := x.s
	if !hasDigit(s) {
		return
	}
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

// counts reads counts of episodes, questions, tests and the like.
func (x *extractor) counts() {
	s := x.s
	if !hasDigit(s) {
		return
	}
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

// statusFiller are the words passed over between a thing and its status word.
var statusFiller = setOf("is", "was", "are", "were", "now", "status", "state", "marked",
	"as", "has", "have", "been", "be", "currently", "fully", "officially")

// statuses reads status words and the thing they refer to.
func (x *extractor) statuses() {
	s := x.s
	low := x.low
	ps := wordStarts(low, "complete", "done", "pending", "blocked", "failed")
	for _, p := range wordStarts(low, "in") {
		if p+3 < len(low) && strings.HasPrefix(low[p+3:], "progress") {
			ps = append(ps, p)
		}
	}
	slices.Sort(ps)
	for _, m := range x.matchAt(statusRe, ps) {
		i, j := m[0], m[1]
		if glued(s, i, j, "-_", "-_") || negated(s, i) {
			continue
		}
		word := s[i:j]
		caps := strings.ToUpper(word) == word
		// Walk back over joining marks and filler words to the thing, noting a label.
		labelled, pos := false, i
		var thing token
		for k := 0; k < 6; k++ {
			t, ok := prevToken(s, pos)
			if !ok {
				break
			}
			w := strings.ToLower(t.text)
			if t.kind == tokPunct || statusFiller[w] {
				labelled = labelled || w == "status" || w == "state"
				pos = t.start
				continue
			}
			thing = t
			break
		}
		f := Fact{Key: "status", Value: canonicalStatus(word), ValueType: factbase.String,
			Start: i, End: j, Rule: "status.caps", Confidence: 0.8}
		thingText, thingKey := "", ""
		if thing.kind == tokNumber && len(thing.text) <= 9 {
			if u, ok := prevToken(s, thing.start); ok && u.kind == tokWord && thingUnits[strings.ToLower(u.text)] {
				thingText = s[u.start:thing.end]
				thingKey = strings.ToLower(u.text) + "_" + thing.text
				f.Start = u.start
			}
		} else if isName(thing) && (caps || labelled) {
			thingText, thingKey = thing.text, strings.ToLower(thing.text)
			f.Start = thing.start
		}
		switch {
		case thingKey != "":
			f.Key, f.Rule, f.Confidence = thingKey+".status", "status.thing", 0.85
			f.Text = thingText + " status is " + f.Value
		case labelled:
			f.Rule, f.Confidence = "status.labelled", 0.85
			f.Text = "status is " + f.Value
			if st := labelStart(s, i); st >= 0 {
				f.Start = st
			}
		case caps:
			f.Text = "status is " + f.Value
		default:
			continue
		}
		x.add(f, i, j)
	}
}

// labelStart returns the start of the word "status" or "state" among the filler before
// i, or -1.
func labelStart(s string, i int) int {
	at := -1
	for k := 0; k < 6; k++ {
		t, ok := prevToken(s, i)
		if !ok {
			break
		}
		w := strings.ToLower(t.text)
		if t.kind != tokPunct && !statusFiller[w] {
			break
		}
		if w == "status" || w == "state" {
			at = t.start
		}
		i = t.start
	}
	return at
}

func canonicalStatus(w string) string {
	switch w = strings.ToUpper(w); w {
	case "COMPLETED", "DONE":
		return "COMPLETE"
	case "IN PROGRESS", "IN-PROGRESS":
		return "IN_PROGRESS"
	}
	return w
}

// negated reports whether one of the two words before i negates it ("not DONE",
// "not yet DONE", "isn't DONE").
func negated(s string, i int) bool {
	for k := 0; k < 2; k++ {
		t, ok := prevToken(s, i)
		if !ok || t.kind != tokWord {
			return false
		}
		switch strings.ToLower(t.text) {
		case "not", "never", "no", "nothing":
			return true
		case "t":
			if r, _ := utf8.DecodeLastRuneInString(s[:t.start]); r == '\'' || r == '’' {
				return true
			}
		}
		i = t.start
	}
	return false
}

// latencyStarts returns where a latency pattern may start: at each word "latency", or
// at the quantile word before it ("p95 latency", "median latency", "p99.9 latency").
func latencyStarts(low string) []int {
	ps := wordStarts(low, "latency")
	for i, p := range ps {
		t, ok := prevToken(low, p)
		if !ok {
			continue
		}
		if t.kind == tokWord && latQualWord(t.text) {
			ps[i] = t.start
		} else if t.kind == tokNumber && t.start > 0 && low[t.start-1] == '.' {
			if u, ok := prevToken(low, t.start-1); ok && u.end == t.start-1 && latQualWord(u.text) {
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
	return len(w) >= 3 && len(w) <= 4 && w[0] == 'p' && allDigits(w[1:])
}

// numbers returns, once per Extract, the starts of the numbers a measure may begin with.
func (x *extractor) numbers() []int {
	if x.nums == nil {
		x.nums = digitRuns(x.low, numGlue)
	}
	return x.nums
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
