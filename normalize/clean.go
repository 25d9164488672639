package normalize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clean returns s as it may be stored: invalid UTF-8 bytes become U+FFFD, terminal
// escape sequences (ANSI CSI "ESC [ ... m", OSC "ESC ] ... BEL", and two-byte "ESC x")
// are removed, and so are control characters other than white space (tab, newline,
// ...) and every invisible format character (Unicode category Cf: zero-width
// spaces and joiners, bidirectional controls, the byte-order mark, soft hyphens).
// What remains is the spelling the user sees; nothing else changes. A value that
// Clean empties had nothing visible in it.
func Clean(s string) string {
	if !needsClean(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if n := escapeLen(s[i:]); n > 0 {
			i += n
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if invisible(r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// needsClean reports whether Clean would change s: a byte that is not printable ASCII
// or common white space may need it.
func needsClean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && !asciiSpace(c) || c >= 0x7f {
			return true
		}
	}
	return false
}

// invisible reports whether r is removed by Clean: a control character that is not
// white space, or a format character.
func invisible(r rune) bool {
	return unicode.Is(unicode.Cc, r) && !unicode.IsSpace(r) || unicode.Is(unicode.Cf, r)
}

// escapeLen returns the length of the terminal escape sequence s starts with, or 0:
// CSI (ESC [ or U+009B, parameters, intermediates, a final byte), OSC (ESC ], up to
// BEL or ESC \), or ESC and one more character. An unfinished sequence runs to the end.
func escapeLen(s string) int {
	var i int
	switch {
	case strings.HasPrefix(s, "\x1b["):
		i = 2
	case strings.HasPrefix(s, "\u009b"):
		i = len("\u009b")
	case strings.HasPrefix(s, "\x1b]"):
		for i = 2; i < len(s); i++ {
			if s[i] == '\a' {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	case strings.HasPrefix(s, "\x1b"):
		if len(s) == 1 {
			return 1
		}
		_, size := utf8.DecodeRuneInString(s[1:])
		return 1 + size
	default:
		return 0
	}
	// CSI: parameter bytes 0x30-0x3F, intermediate bytes 0x20-0x2F, one final byte.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}
