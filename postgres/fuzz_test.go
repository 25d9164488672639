package postgres

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzPrefixEnd: for a valid UTF-8 prefix p, the bound is valid UTF-8, above p and
// above every string that starts with p (the key range [p, end) holds exactly the
// keys with prefix p); with no bound, p is all U+10FFFF.
func FuzzPrefixEnd(f *testing.F) {
	for _, s := range []string{"favorites.", "", "a", "caf\u00e9", "\ud7ff", "\U0010ffff", "x\U0010ffff\U0010ffff", "é\U0010ffff"} {
		f.Add(s, "suffix")
	}
	f.Fuzz(func(t *testing.T, p, suffix string) {
		if !utf8.ValidString(p) || !utf8.ValidString(suffix) {
			return
		}
		end, ok := prefixEnd(p)
		if !ok {
			if strings.Trim(p, "\U0010ffff") != "" {
				t.Fatalf("prefixEnd(%q) found no bound", p)
			}
			return
		}
		if !utf8.ValidString(end) {
			t.Fatalf("prefixEnd(%q) = %q, not valid UTF-8", p, end)
		}
		if end <= p || p+suffix >= end {
			t.Fatalf("prefixEnd(%q) = %q does not bound %q", p, end, p+suffix)
		}
		if strings.HasPrefix(end, p) && end != p {
			t.Fatalf("prefixEnd(%q) = %q itself starts with the prefix", p, end)
		}
	})
}

// FuzzFtsWords: the words are letters, digits and marks separated by single spaces,
// and splitting them again changes nothing.
func FuzzFtsWords(f *testing.F) {
	for _, s := range []string{"contact.email_address", "a@example.com", "v2.3.1 — deployed!", "  ", "naïve café", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w := ftsWords(s)
		if ftsWords(w) != w {
			t.Fatalf("ftsWords(%q) = %q is not stable", s, w)
		}
		if strings.HasPrefix(w, " ") || strings.HasSuffix(w, " ") || strings.Contains(w, "  ") {
			t.Fatalf("ftsWords(%q) = %q has stray spaces", s, w)
		}
		for _, r := range w {
			if r != ' ' && !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) && !unicode.Is(unicode.Mc, r) {
				t.Fatalf("ftsWords(%q) = %q keeps %q", s, w, r)
			}
		}
	})
}
