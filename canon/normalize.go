package canon

import (
	"strings"

	"github.com/factbase/factbase/normalize"
	"github.com/factbase/factbase/text"
)

// Normalize returns the normal form of a raw topic phrase: the comparison form of
// normalize.Value (NFKC, smart quotes to ASCII, white space collapsed, trailing
// .,!?;: stripped, case-folded), with
//
//   - surrounding quotes and brackets removed;
//   - leading "my", "favorite(s)", "favourite(s)", "fav(s)", "fave(s)", "top", "most",
//     "all-time" and the articles "the", "a", "an" removed, and a trailing "list"
//     ("movie list"), as long as a word is left;
//   - "genre(s) of X" turned into "X genre" ("genres of music" is "music genre");
//   - one word folded to its singular: the word before the first preposition when there
//     is one ("places to visit" is "place to visit", "types of tea" is "type of tea"),
//     else the last word ("vacation destinations" is "vacation destination").
//
// Normalize is idempotent and returns "" when nothing is left.
func Normalize(raw string) string {
	s := normalize.Value(raw)
	// Each step can expose work for another ("a (" loses "a", then "("), so the
	// steps repeat until nothing changes; every round but the last shortens s or
	// swaps a plural ending, so few rounds are ever needed.
	for i := 0; i < 16; i++ {
		next := normalizeOnce(s)
		if next == s {
			break
		}
		s = next
	}
	return s
}

// normalizeOnce is one round of Normalize over a normalize.Value form.
func normalizeOnce(s string) string {
	s = strings.TrimLeft(s, "\"'`([{<«*_ ")
	s = strings.TrimRight(s, "\"'`)]}>»*_ .,!?;:")
	words := topicWords(s)
	for changed := true; changed && len(words) > 1; {
		changed = false
		if strip[words[0]] {
			words, changed = words[1:], true
			continue
		}
		if words[0] == "all" && words[1] == "time" && len(words) > 2 {
			words, changed = words[2:], true
			continue
		}
		if last := words[len(words)-1]; last == "list" || last == "lists" {
			words, changed = words[:len(words)-1], true
			continue
		}
		if (words[0] == "genre" || words[0] == "genres") && words[1] == "of" && len(words) > 2 {
			rest := append([]string(nil), words[2:]...)
			rest[len(rest)-1] = singular(rest[len(rest)-1])
			words, changed = append(rest, "genre"), true
		}
	}
	if len(words) == 0 {
		return ""
	}
	i := len(words) - 1
	for j := 1; j < len(words); j++ {
		if prepositions[words[j]] {
			i = j - 1
			break
		}
	}
	words[i] = singular(words[i])
	if classifiers[words[i]] && i < len(words)-1 {
		// "kinds of films": the kind's object is folded too.
		words[len(words)-1] = singular(words[len(words)-1])
	}
	if len(words) == 1 && strip[words[0]] && words[0] != "the" && words[0] != "a" && words[0] != "an" {
		// "my favorite" names no topic.
		return ""
	}
	return strings.Join(words, " ")
}

// fields are the options of a topic phrase's words: its white-space separated fields,
// so that "all-time", "sci-fi" and "(jazz" are words.
var fields = text.Options{Fields: true}

// topicWords returns the words of the topic phrase s, cut from it: the Word and
// Number tokens of the fields view.
func topicWords(s string) []string {
	out := make([]string, 0, strings.Count(s, " ")+1) // s is a normalize.Value form
	for t := range text.All(s, fields) {
		if t.Kind == text.Word || t.Kind == text.Number {
			out = append(out, s[t.Start:t.End])
		}
	}
	return out
}

// strip are the leading words Normalize removes.
var strip = map[string]bool{
	"my": true, "favorite": true, "favorites": true, "favourite": true, "favourites": true,
	"fav": true, "favs": true, "fave": true, "faves": true, "top": true, "most": true,
	"all-time": true, "the": true, "a": true, "an": true,
}

// prepositions end the head of a topic phrase: its head noun is the word before.
var prepositions = map[string]bool{
	"of": true, "in": true, "from": true, "for": true, "to": true, "on": true, "at": true,
	"by": true, "with": true, "about": true, "under": true, "during": true,
}

// classifiers head phrases such as "kind of film", whose object is folded as well.
var classifiers = map[string]bool{
	"kind": true, "type": true, "sort": true, "variety": true, "style": true, "genre": true,
}
