package retrieve

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzFactSeeking checks FactSeeking's output on any input: no phrase unless the
// question seeks a fact, and a phrase made of the question's own words.
func FuzzFactSeeking(f *testing.F) {
	for _, s := range []string{"What is the NEXUS version?", "What was the test success rate?", "How many tests passed?",
		"Why did it fail?", "what's", "When is the release date?", "version?", "", "What is the a an the?", "\x00what is x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		seeking, phrase := FactSeeking(q)
		if !seeking && phrase != "" {
			t.Fatalf("FactSeeking(%q) = false with phrase %q", q, phrase)
		}
		words := questionWords(q)
		for _, w := range strings.Fields(phrase) {
			found := false
			for _, qw := range words {
				found = found || qw == w
			}
			if !found {
				t.Fatalf("FactSeeking(%q) phrase %q has %q, not a word of the question %q", q, phrase, w, words)
			}
		}
	})
}

// FuzzBestSentences checks that a passage is valid text within its size.
func FuzzBestSentences(f *testing.F) {
	f.Add("NEXUS v2.3.1 released. Test success rate 97%! Phase 3? Done.", "success rate")
	f.Add(strings.Repeat("word ", 200), "word")
	f.Add("héllo wörld. ünïcode everywhere.\nline two", "unicode")
	f.Fuzz(func(t *testing.T, content, question string) {
		if !utf8.ValidString(content) {
			return // episodes are valid UTF-8 (AddEpisode refuses anything else)
		}
		got := bestSentences(content, stems(question), 300)
		if !utf8.ValidString(got) || utf8.RuneCountInString(got) > 301 {
			t.Fatalf("bestSentences(%q) = %q: invalid or longer than 300 runes", content, got)
		}
		if strings.TrimSpace(content) != "" && got == "" {
			t.Fatalf("bestSentences(%q) is empty", content)
		}
	})
}
