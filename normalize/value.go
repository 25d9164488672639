package normalize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/factbase/factbase/text"
)

// trailing is the set of characters stripped from the end of a value and of a list item.
const trailing = ".,!?;:"

// Value returns the comparison form of s: two values are the same fact value when their
// comparison forms are equal. The form is never stored; the original spelling is.
//
// The steps, in order:
//  1. Invalid UTF-8 bytes become U+FFFD; terminal escape sequences, control characters
//     and invisible format characters are dropped (Clean), so that a value padded with
//     zero-width spaces equals the value without them.
//  2. Smart quotes become ASCII: ‘ ’ ‚ ‛ ′ become ' and “ ” „ ‟ ″ become ". This runs
//     before NFKC, which would otherwise turn ″ into two primes, and again after it.
//  3. Unicode NFKC: full-width and compatibility forms fold to their plain forms
//     ("Ｂｔｃ" is "Btc", "ﬁ" is "fi", "…" is "...").
//  4. Full Unicode case folding (golang.org/x/text/cases.Fold, with Cherokee folded to
//     capitals as CaseFolding.txt says), then NFKC again so that the result is stable.
//     Full folding maps "ß" to "ss", so "Straße" and "STRASSE" compare equal; it is
//     locale-independent ("İ" folds to "i̇", not to Turkish "i").
//  5. Every run of Unicode white space becomes one ASCII space; leading and trailing
//     white space is removed.
//  6. Trailing characters from the set .,!?;: are stripped, repeatedly, together with
//     any white space before them ("btc . !" is "btc").
//
// Value is idempotent: Value(Value(s)) == Value(s). It never panics and is safe for
// concurrent use.
func Value(s string) string {
	if isPlainASCII(s) {
		return asciiValue(s)
	}
	return unicodeValue(s)
}

// unicodeValue is Value for any s.
func unicodeValue(s string) string {
	s = Clean(s)
	s = strings.Map(asciiQuote, s)
	s = norm.NFKC.String(s)
	s = strings.Map(asciiQuote, s)
	// A Caser keeps state between calls, so each call makes its own.
	s = cases.Fold().String(s)
	s = strings.Map(foldCherokee, s)
	s = norm.NFKC.String(s)
	return trimTrailing(collapseSpace(s))
}

// asciiQuote maps the smart quotes, apostrophes and primes to their ASCII forms.
func asciiQuote(r rune) rune {
	switch r {
	case '\u2018', '\u2019', '\u201A', '\u201B', '\u2032':
		return '\''
	case '\u201C', '\u201D', '\u201E', '\u201F', '\u2033':
		return '"'
	}
	return r
}

// foldCherokee maps Cherokee small letters to capitals, as Unicode's CaseFolding.txt
// does. golang.org/x/text/cases.Fold (v0.43.0) maps the capitals to small letters and the
// small letters to capitals, so without this step Value would not be idempotent.
func foldCherokee(r rune) rune {
	switch {
	case 0xAB70 <= r && r <= 0xABBF:
		return r - 0xAB70 + 0x13A0
	case 0x13F8 <= r && r <= 0x13FD:
		return r - 8
	}
	return r
}

// isPlainASCII reports whether s is all printable ASCII and white space, for which
// Clean, NFKC and the quote mapping are the identity and case folding is ASCII
// lower-casing.
func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || c == 0x7f || c < 0x20 && !asciiSpace(c) {
			return false
		}
	}
	return true
}

// asciiValue is Value for an all-ASCII s: the same result as unicodeValue, faster.
func asciiValue(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if asciiSpace(c) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return trimTrailing(b.String())
}

// asciiSpace reports whether the ASCII byte c is white space by unicode.IsSpace:
// \t \n \v \f \r and space.
func asciiSpace(c byte) bool {
	switch c {
	case '\t', '\n', '\v', '\f', '\r', ' ':
		return true
	}
	return false
}

// collapseSpace replaces every run of Unicode white space in s with one space and trims
// white space at both ends.
func collapseSpace(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// trimTrailing strips trailing characters from the set .,!?;: and white space, repeatedly.
func trimTrailing(s string) string {
	for {
		t := strings.TrimRightFunc(s, unicode.IsSpace)
		t = strings.TrimRight(t, trailing)
		if t == s {
			return s
		}
		s = t
	}
}

// Words returns the lower-case letter-and-digit runs of s after value normalisation
// (text.Words of Value(s)): "Quito, Ecuador!" reads "quito", "ecuador".
func Words(s string) []string { return text.Words(Value(s)) }
