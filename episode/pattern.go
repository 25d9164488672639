package episode

import "strings"

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
	countVerb = `passed|passing|failed|failing|skipped|succeeded|correct|errored|blocked|rejected|merged|unhealthy|healthy`
	ratioRe   = anchored(`(` + num + `)\s*(?:/|\bof\b|\bout\s+of\b)\s*(` + num + `)\s+(?:(` + countQual + `)\s+)?(` + countNoun + `)\b(?:\s+(` + countVerb + `)\b)?`)
	countRe   = anchored(`(` + num + `)\s+(?:(` + countQual + `)\s+)?(` + countNoun + `)\b(?:\s+(` + countVerb + `)\b)?`)
	verTok    = `v?\d+(?:\.\d+)+` + prerelease + `|v\d+`
	upgradeRe = anchored(`from\s+(?:([\pL][\pL\pN_.+-]*)\s+)?(` + verTok + `)\s+to\s+(?:([\pL][\pL\pN_.+-]*)\s+)?(` + verTok + `)\b`)
	statusRe  = anchored(`(completed|complete|done|in[_ -]progress|pending|blocked|failed)\b`)
)

// sub returns the text of submatch g of m, and whether it matched.
func sub(s string, m []int, g int) (string, int, int, bool) {
	if 2*g+1 >= len(m) || m[2*g] < 0 {
		return "", -1, -1, false
	}
	return s[m[2*g]:m[2*g+1]], m[2*g], m[2*g+1], true
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

// numbers returns, once per Extract, the starts of the numbers a measure may begin with.
func (x *extractor) numbers() []int {
	if x.nums == nil {
		x.nums = digitRuns(x.low, numGlue)
	}
	return x.nums
}

// hasWord reports whether s holds one of words as a whole word (letters and digits
// either side end it).
func hasWord(s string, words ...string) bool {
	for _, w := range words {
		for i := 0; ; {
			k := strings.Index(s[i:], w)
			if k < 0 {
				break
			}
			a, b := i+k, i+k+len(w)
			if (a == 0 || !isWordByte(s[a-1])) && (b == len(s) || !isWordByte(s[b])) {
				return true
			}
			i = b
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// keyUnderscores writes the spaces and dashes of a key segment as underscores. A
// Replacer is safe for concurrent use.
var keyUnderscores = strings.NewReplacer(" ", "_", "-", "_")
