package episode

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/factbase/factbase/normalize"
	"github.com/factbase/factbase/text"
)

// tokKind is the kind of a token read backwards from a match.
type tokKind int

const (
	tokWord   tokKind = iota + 1 // starts with a letter: "NEXUS", "p95", "top-1"
	tokNumber                    // ASCII digits only: "3", "14"
	tokPunct                     // one of the joining marks : = ~ - – — (
)

// token is a word, number or joining mark and its byte offsets in the content.
type token struct {
	text       string
	start, end int
	kind       tokKind
}

// maxNameLen is the longest word, in bytes, that may name a fact.
const maxNameLen = 40

func isHSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\u00a0' }

// isWordRune reports whether r is part of a word in the words view: what the glue
// checks at the edges of a match read as joining it to a neighbour.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || unicode.Is(unicode.Mn, r)
}

// joiner reports whether r is a mark that may sit between a name and its value.
func joiner(r rune) bool {
	switch r {
	case ':', '=', '~', '-', '–', '—', '(':
		return true
	}
	return false
}

// words are the options of the view of an episode its words are read from: letters,
// digits, "_" and non-spacing marks, joined by dashes, a run of them too ("a--b").
var words = text.Options{WordSymbols: "_", NonSpacingMarks: true, Joiners: "-", JoinerRuns: true}

// words returns the words view of the episode, made once per parse.
func (x *extractor) words() []text.Token {
	if x.toks == nil {
		x.toks = x.p.View(words)
	}
	return x.toks
}

// wordAt returns the index of the token of the words view holding byte i, or -1.
func (x *extractor) wordAt(i int) int {
	toks := x.words()
	k := sort.Search(len(toks), func(k int) bool { return toks[k].End > i })
	if k == len(toks) || toks[k].Start > i {
		return -1
	}
	return k
}

// prevToken returns the token ending at i in s (the content or its lower-cased copy),
// after skipping horizontal white space: the word of the words view that holds the
// rune before, up to i, or that rune if it is a joining mark. A line break or any
// other mark ends the search: ok is false.
func (x *extractor) prevToken(s string, i int) (token, bool) {
	j := i
	for j > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:j])
		if !isHSpace(r) {
			break
		}
		j -= n
	}
	if j == 0 {
		return token{}, false
	}
	r, n := utf8.DecodeLastRuneInString(s[:j])
	if joiner(r) {
		return token{text: s[j-n : j], start: j - n, end: j, kind: tokPunct}, true
	}
	if !isWordRune(r) {
		return token{}, false
	}
	k := x.wordAt(j - 1)
	if k < 0 {
		return token{}, false
	}
	t := token{text: s[x.toks[k].Start:j], start: x.toks[k].Start, end: j, kind: tokWord}
	if normalize.IsDigits(t.text) {
		t.kind = tokNumber
	}
	return t, true
}

// nameStop lists words that never name a fact: function words, verbs of change, and
// qualifiers that add nothing ("overall accuracy" is accuracy).
var nameStop = setOf(
	"a", "an", "the", "to", "from", "of", "on", "in", "at", "by", "for", "with", "and", "or",
	"but", "nor", "so", "is", "was", "are", "were", "be", "been", "being", "am", "it", "its",
	"this", "that", "these", "those", "we", "i", "you", "he", "she", "they", "our", "my",
	"your", "their", "his", "her", "me", "us", "them", "new", "latest", "current", "old",
	"previous", "now", "then", "than", "as", "via", "into", "onto", "over", "under", "after",
	"before", "since", "until", "also", "still", "just", "only", "not", "no", "yes", "all",
	"overall", "total", "final", "average", "avg", "mean", "median", "approx", "about",
	"around", "has", "have", "had", "got", "get", "gets", "hit", "hits", "use", "uses",
	"run", "runs", "version", "ver", "release", "build", "rev", "revision", "status",
	"state", "phase", "session", "sprint", "milestone", "step", "stage", "task", "tag",
	"achieve", "achieves", "reach", "reaches", "deploy", "ship", "ships", "bump", "upgrade",
	"update", "install", "at", "each", "every", "per", "both", "some", "any", "more", "most",
	"less", "least", "very", "too", "again", "there", "here", "when", "where", "while",
	"which", "who", "what", "how", "why", "if", "will", "would", "can", "could", "should",
	"may", "might", "must", "shall", "do", "does", "did", "done", "good", "great", "high",
	"higher", "low", "lower", "better", "best", "worse", "worst", "up", "down", "out",
	"off", "back", "today", "yesterday", "tomorrow", "ours", "everything", "nothing",
	"something", "anything", "later", "earlier", "finally", "initially", "eventually",
	"first", "second", "last", "next", "then", "again", "already", "yet", "currently",
)

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// isName reports whether t can name a fact; see the package documentation.
func isName(t token) bool {
	if t.kind != tokWord || len(t.text) > maxNameLen {
		return false
	}
	r, _ := utf8.DecodeRuneInString(t.text)
	if !unicode.IsLetter(r) {
		return false
	}
	low := strings.ToLower(t.text)
	if nameStop[low] {
		return false
	}
	if (strings.HasSuffix(low, "ed") || strings.HasSuffix(low, "ing")) && !shouted(t.text) {
		return false
	}
	return true
}

// shouted reports whether w has an upper-case letter after its first rune ("NEXUS",
// "OpenTracing"): such a word is a name even when it ends like a verb.
func shouted(w string) bool {
	_, n := utf8.DecodeRuneInString(w)
	for _, r := range w[n:] {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// nameBefore returns the name right before byte offset i, if there is one.
func (x *extractor) nameBefore(s string, i int) (token, bool) {
	t, ok := x.prevToken(s, i)
	if !ok || !isName(t) {
		return token{}, false
	}
	return t, true
}

// gluedBefore reports whether the rune before i joins a match starting at i to a
// neighbouring word or number, or is one of the extra marks.
func gluedBefore(s string, i int, marks string) bool {
	if i <= 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return isWordRune(r) || strings.ContainsRune(marks, r)
}

// gluedAfter reports whether the rune at j joins a match ending at j to a neighbouring
// word or number, or is one of the extra marks. A dot or comma followed by a digit
// always continues a number ("1.2.3" in "1.2.3.4").
func gluedAfter(s string, j int, marks string) bool {
	if j >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[j:])
	if isWordRune(r) || strings.ContainsRune(marks, r) {
		return true
	}
	return (r == '.' || r == ',') && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9'
}

// glued reports whether the match [i, j) is part of a larger token on either side.
func glued(s string, i, j int, before, after string) bool {
	return gluedBefore(s, i, before) || gluedAfter(s, j, after)
}

// clipRunes shortens s to at most n runes.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for k < n-1 {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
		k++
	}
	return s[:i] + "…"
}

// capFirst upper-cases the first rune of s.
func capFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// scaleDecimal multiplies the plain decimal v (digits with at most one dot) by 10^exp
// exactly, by moving the point, and returns it without redundant zeros.
func scaleDecimal(v string, exp int) string {
	ip, fp, _ := strings.Cut(v, ".")
	digits := ip + fp
	point := len(ip) + exp
	if point <= 0 {
		digits = strings.Repeat("0", 1-point) + digits
		point = 1
	}
	if point > len(digits) {
		digits += strings.Repeat("0", point-len(digits))
	}
	ip, fp = strings.TrimLeft(digits[:point], "0"), strings.TrimRight(digits[point:], "0")
	if ip == "" {
		ip = "0"
	}
	if fp == "" {
		return ip
	}
	return ip + "." + fp
}
