package transcript

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ellipsis marks where a snippet or a long object was cut.
const ellipsis = "…"

// snippet returns the text around the match text[s:e] in at most size runes: the
// sentence (or line) holding it if that fits, else a window of whole words around
// it, with white space collapsed and "…" where text was cut.
func snippet(text string, s, e, size int) string {
	// The sentence: back to the previous line break or sentence end, forward to the
	// next, looking no further than a few snippet lengths each way.
	reach := 4 * size
	left, cutL := s, false
	for {
		if left == 0 {
			break
		}
		if s-left >= reach {
			cutL = true
			break
		}
		c := text[left-1]
		if c == '\n' || left >= 2 && isSpace(c) && isSentenceEnd(text[left-2]) {
			break
		}
		left--
	}
	right, cutR := e, false
	for {
		if right >= len(text) {
			break
		}
		if right-e >= reach {
			cutR = true
			break
		}
		c := text[right]
		if c == '\n' {
			break
		}
		if isSentenceEnd(c) && (right+1 == len(text) || isSpace(text[right+1])) {
			right++
			break
		}
		right++
	}
	for left < s && !utf8.RuneStart(text[left]) {
		left++
	}
	for right > e && right < len(text) && !utf8.RuneStart(text[right]) {
		right--
	}

	// Collapse white space into runes, noting where the match lands.
	runes := make([]rune, 0, right-left)
	ks, ke := -1, -1
	space := false
	for i, r := range text[left:right] {
		at := left + i
		if at >= s && ks < 0 {
			ks = len(runes)
			if space && len(runes) > 0 {
				ks++
			}
		}
		if at >= e && ke < 0 {
			ke = len(runes)
		}
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && len(runes) > 0 {
			runes = append(runes, ' ')
		}
		space = false
		runes = append(runes, r)
	}
	if ks < 0 {
		ks = len(runes)
	}
	if ke < 0 {
		ke = len(runes)
	}
	// A match that starts in white space starts at the word after it: there may be
	// none, and the match may end in that white space too.
	ks = min(ks, len(runes))
	ke = max(ke, ks)
	// Where the look-around stopped mid-text, drop the partial words at the ends.
	if cutL {
		for i := 0; i < ks; i++ {
			if runes[i] == ' ' {
				runes, ks, ke = runes[i+1:], ks-i-1, ke-i-1
				break
			}
		}
	}
	if cutR {
		for i := len(runes) - 1; i >= ke; i-- {
			if runes[i] == ' ' {
				runes = runes[:i]
				break
			}
		}
	}
	marks := 0
	if cutL {
		marks++
	}
	if cutR {
		marks++
	}
	if len(runes)+marks <= size {
		return wrap(cutL, string(runes), cutR)
	}

	// A window around the match, grown a whole word at a time on each side in
	// turn while it fits.
	a, b := ks, ke
	for a > 0 && runes[a-1] != ' ' {
		a--
	}
	for b < len(runes) && runes[b] != ' ' {
		b++
	}
	cost := func(a, b int) int {
		n := b - a
		if a > 0 || cutL {
			n++
		}
		if b < len(runes) || cutR {
			n++
		}
		return n
	}
	if cost(a, b) > size {
		// The match's words alone do not fit: cut them.
		a = ks
		b = min(ks+size-2, len(runes))
		a = max(0, min(a, b-(size-2)))
		return wrap(a > 0 || cutL, string(runes[a:b]), b < len(runes) || cutR)
	}
	for {
		grew := false
		if a > 0 {
			na := a - 1
			for na > 0 && runes[na-1] != ' ' {
				na--
			}
			if cost(na, b) <= size {
				a, grew = na, true
			}
		}
		if b < len(runes) {
			nb := b + 1
			for nb < len(runes) && runes[nb] != ' ' {
				nb++
			}
			if cost(a, nb) <= size {
				b, grew = nb, true
			}
		}
		if !grew {
			break
		}
	}
	return wrap(a > 0 || cutL, string(runes[a:b]), b < len(runes) || cutR)
}

func wrap(left bool, s string, right bool) string {
	if left {
		s = ellipsis + s
	}
	if right {
		s += ellipsis
	}
	return s
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isSentenceEnd(c byte) bool { return c == '.' || c == '!' || c == '?' }

// meaningful counts the letters and digits of s.
func meaningful(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

// cleanMatch trims white space, surrounding quotes and brackets and trailing
// punctuation from a matched object, and a trailing slash from anything longer
// than "/".
func cleanMatch(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "'\"`([{<")
	s = strings.TrimRight(s, ".,;:!?'\"`)]}>")
	for len(s) > 1 && strings.HasSuffix(s, "/") {
		s = s[:len(s)-1]
	}
	return strings.TrimSpace(s)
}

// taskText returns the start of a request: white space collapsed, at most max
// runes, cut at a word boundary with "…" when longer.
func taskText(text string, max int) string {
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) <= max {
		return text
	}
	runes := []rune(text)[:max-1]
	cut := len(runes)
	for i := len(runes) - 1; i > max/2; i-- {
		if runes[i] == ' ' {
			cut = i
			break
		}
	}
	return strings.TrimSpace(string(runes[:cut])) + ellipsis
}

// appendLower appends s to dst with ASCII letters lower-cased; byte offsets are
// unchanged.
func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// wordEdge reports whether b[s:e] starts and ends at word boundaries where its own
// first and last characters are word characters. When strict, a neighbouring
// slash, or a dot or hyphen joined to a further word character, also counts as
// part of the word, so that "error" is not found in "error.log", "/var/error/" or
// "non-error".
func wordEdge(b []byte, s, e int, strict bool) bool {
	if first, _ := utf8.DecodeRune(b[s:]); isWordRune(first) && s > 0 {
		prev, n := utf8.DecodeLastRune(b[:s])
		if isWordRune(prev) || strict && (prev == '/' || prev == '\\') {
			return false
		}
		if strict && (prev == '.' || prev == '-') {
			if before, _ := utf8.DecodeLastRune(b[:s-n]); s-n > 0 && isWordRune(before) {
				return false
			}
		}
	}
	if last, _ := utf8.DecodeLastRune(b[:e]); isWordRune(last) && e < len(b) {
		next, n := utf8.DecodeRune(b[e:])
		if isWordRune(next) || strict && (next == '/' || next == '\\') {
			return false
		}
		if strict && (next == '.' || next == '-') {
			if after, _ := utf8.DecodeRune(b[e+n:]); e+n < len(b) && isWordRune(after) {
				return false
			}
		}
	}
	return true
}

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// redactions are the secrets Redact hides: each pattern's last group is the secret.
var redactions = []*regexp.Regexp{
	regexp.MustCompile(`(\bsshpass\s+-p\s*)('[^']*'|"[^"]*"|\S+)`),
	regexp.MustCompile(`(?i)(--?(?:password|passwd|pass|token|secret|api-?key|auth-token)(?:=|\s+))('[^']*'|"[^"]*"|[^\s'"]+)`),
	regexp.MustCompile(`(?i)(\b[A-Za-z_]*(?:PASSWORD|PASSWD|TOKEN|SECRET|API_?KEY)[A-Za-z_]*=)('[^']*'|"[^"]*"|[^\s'"]+)`),
	regexp.MustCompile(`(\b(?:mysql|mysqldump|mariadb)\b[^\n]*?\s-p)('[^']*'|"[^"]*"|[^\s'"-][^\s'"]*)`),
	regexp.MustCompile(`(://[^/\s:@]+:)([^@\s/]+)(?:@)`),
	regexp.MustCompile(`(?i)(\b(?:bearer|basic)\s+)([A-Za-z0-9._~+/=-]{8,})`),
}

// Redact replaces the passwords and tokens in s with "***" (see
// ExtractorOptions.Redact). It leaves everything else as it is.
func Redact(s string) string {
	for _, re := range redactions {
		if !re.MatchString(s) {
			continue
		}
		s = re.ReplaceAllStringFunc(s, func(m string) string {
			loc := re.FindStringSubmatchIndex(m)
			n := len(loc)/2 - 1
			return m[:loc[2*n]] + "***" + m[loc[2*n+1]:]
		})
	}
	return s
}
