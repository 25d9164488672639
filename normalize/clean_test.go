package normalize

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"BTC", "BTC"},
		{"B\u200bTC", "BTC"},                           // zero-width space
		{"\u200b", ""},                                 // nothing visible
		{"\ufeffBTC\u2060", "BTC"},                     // byte-order mark, word joiner
		{"\u202eCTB", "CTB"},                           // right-to-left override
		{"\x1b[31mred\x1b[0m", "red"},                  // ANSI colour
		{"\x1b]0;title\aname", "name"},                 // OSC window title
		{"\x1b]8;;http://x\x1b\\link", "link"},         // OSC hyperlink, ST-terminated
		{"a\x1bMb", "ab"},                              // two-byte escape
		{"\u009b2Jclear", "clear"},                     // C1 CSI
		{"a\x00b\x07c", "abc"},                         // NUL, BEL
		{"line 1\nline 2\ttab", "line 1\nline 2\ttab"}, // white space stays
		{"Straße ☕", "Straße ☕"},
		{"x\xffy", "x\ufffdy"},
		{"\x1b[", ""},
	}
	for _, tc := range tests {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestValueIgnoresInvisible: values that look identical compare equal.
func TestValueIgnoresInvisible(t *testing.T) {
	for _, s := range []string{"B\u200bTC", "\u2060BTC", "BTC\u200d", "\x1b[1mBTC\x1b[0m", "B\x00TC", "\u00adBTC"} {
		if Value(s) != Value("BTC") {
			t.Errorf("Value(%q) = %q, want %q", s, Value(s), Value("BTC"))
		}
	}
	if Value("\u200b\u200b") != "" {
		t.Errorf("Value of zero-width spaces = %q, want empty", Value("\u200b\u200b"))
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"", "BTC", "B\u200bTC", "\x1b[31mred", "\x1b]0;t\a", "a\xffb", "\u009b1m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := Clean(s)
		if Clean(c) != c {
			t.Errorf("Clean(Clean(%q)) = %q, want %q", s, Clean(c), c)
		}
		if !utf8.ValidString(c) {
			t.Errorf("Clean(%q) = %q, not valid UTF-8", s, c)
		}
		for _, r := range c {
			if invisible(r) {
				t.Errorf("Clean(%q) = %q keeps %U", s, c, r)
			}
		}
		if strings.ContainsRune(c, 0x1b) {
			t.Errorf("Clean(%q) = %q keeps an escape", s, c)
		}
		if Value(c) != Value(s) {
			t.Errorf("Value(Clean(%q)) = %q, Value = %q", s, Value(c), Value(s))
		}
		_ = unicode.IsSpace
	})
}
