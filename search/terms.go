package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxTerms is the most terms Terms returns; the rest of a longer query is ignored, so
// that one question cannot make a full-text query of unbounded size.
const MaxTerms = 64

// stopWords are dropped by Terms: English function words, the question words people
// ask with ("what", "which", "who", "when", "where", "how"), auxiliaries ("did",
// "does", "is", "was") and the leftovers of contractions ("s", "t", "ll"). Content words
// that carry meaning in a memory ("like", "favorite", "name", "remember") are kept.
var stopWords = func() map[string]bool {
	words := strings.Fields(`
		a about above after again against all also am an and another any anybody anyone
		anything are as at be because been before being below between both but by can
		could d did do does doing done down during each either else etc ever every
		everything few for from further get gets got had has have having he her here hers
		herself him himself his how however i if in into is it its itself just let ll m
		may me might mine more most much must my myself no nor not now of off on once only
		or other others ought our ours ourselves out over own please re s same shall she
		should so some something such t than that the their theirs them themselves then
		there these they this those through to too under until up upon us ve very was we
		were what whatever when whenever where wherever whether which while who whoever
		whom whose why will with within without would yet you your yours yourself
		yourselves tell say said`)
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}()

// IsStopWord reports whether Terms drops w (lower case).
func IsStopWord(w string) bool { return stopWords[w] }

// contractionSuffixes are the endings after an apostrophe that Terms drops with it:
// "what's" is "what", "they're" is "they", "don't" is "do".
var contractionSuffixes = map[string]bool{"s": true, "re": true, "ve": true, "ll": true, "d": true, "m": true, "t": true}

func isApostrophe(r rune) bool { return r == '\'' || r == '’' || r == 'ʼ' }

func isTermRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func isMark(r rune) bool { return unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) }

// Terms splits a question into lower-case search terms: runs of Unicode letters and
// digits (with their combining marks), split on everything else, so "v2.3" gives "v2"
// and "3" as FTS5's unicode61 tokenizer would. An apostrophe followed by a contraction
// ending drops the ending ("what's" → "what", "don't" → "do", "can't" → "can",
// "won't" → "will"); any other apostrophe splits ("o'brien" → "o", "brien"). Stop words
// are dropped, repeats are dropped (first occurrence kept), and at most MaxTerms terms
// are returned. The result is nil when nothing is left.
func Terms(query string) []string {
	var out []string
	seen := make(map[string]bool)
	emit := func(w string) {
		w = strings.ToLower(w)
		if w == "" || stopWords[w] || seen[w] {
			return
		}
		seen[w] = true
		out = append(out, w)
	}
	start := -1 // byte offset of the current word, -1 outside a word
	for i := 0; i < len(query) && len(out) < MaxTerms; {
		r, n := utf8.DecodeRuneInString(query[i:])
		switch {
		case isTermRune(r) || start >= 0 && isMark(r):
			if start < 0 {
				start = i
			}
			i += n
		case start >= 0 && isApostrophe(r):
			word := query[start:i]
			j := i + n
			for j < len(query) {
				r2, n2 := utf8.DecodeRuneInString(query[j:])
				if !unicode.IsLetter(r2) {
					break
				}
				j += n2
			}
			if suf := strings.ToLower(query[i+n : j]); contractionSuffixes[suf] {
				if suf == "t" {
					word = negationBase(word)
				}
				emit(word)
				start, i = -1, j
				continue
			}
			emit(word)
			start, i = -1, i+n
		default:
			if start >= 0 {
				emit(query[start:i])
				start = -1
			}
			i += n
		}
	}
	if start >= 0 && len(out) < MaxTerms {
		emit(query[start:])
	}
	return out
}

// negationBase returns the verb of a "n't" contraction given the text before the
// apostrophe: "don" → "do", "isn" → "is", "can" → "can", "won" → "will".
func negationBase(w string) string {
	switch strings.ToLower(w) {
	case "can":
		return w
	case "won":
		return "will"
	case "shan":
		return "shall"
	}
	if strings.HasSuffix(w, "n") || strings.HasSuffix(w, "N") {
		return w[:len(w)-1]
	}
	return w
}
