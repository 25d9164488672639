package sqlite

import (
	"strings"
	"unicode"
)

// ftsQuery builds an FTS5 MATCH expression that matches any of terms: each term
// double-quoted (inner quotes doubled) and joined by " OR ". Inside an FTS5 string
// nothing is syntax, so no input can inject operators, column filters, prefixes or
// NEAR groups. Control characters (NUL included) become spaces, invalid UTF-8 becomes
// U+FFFD, surrounding space is trimmed, terms without a letter or digit (which could
// never match) and repeats are dropped. It returns "" when no term is left; callers
// must not run an empty MATCH.
func ftsQuery(terms []string) string {
	var b strings.Builder
	seen := make(map[string]bool, len(terms))
	for _, t := range terms {
		t = cleanTerm(t)
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		if b.Len() > 0 {
			b.WriteString(" OR ")
		}
		b.WriteByte('"')
		b.WriteString(strings.ReplaceAll(t, `"`, `""`))
		b.WriteByte('"')
	}
	return b.String()
}

// cleanTerm prepares one ftsQuery term; "" means drop it.
func cleanTerm(t string) string {
	t = strings.ToValidUTF8(t, "\uFFFD")
	t = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, t)
	t = strings.TrimSpace(t)
	if strings.IndexFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
		return ""
	}
	return t
}
