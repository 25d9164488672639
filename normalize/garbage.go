package normalize

import (
	"regexp"
	"strings"
	"unicode"
)

// The rule of issue #23 item 2: a stored value is a complete constituent of its
// clause. Garbage reports why a value breaks it. The word rules look at words as
// written in lower case, so that titles ("Let It Be", "Apocalypse Now") pass.

// functionWords may not end a value.
var functionWords = set(
	"and", "or", "but", "nor", "so", "because", "if", "when", "while", "than", "that",
	"which", "who", "whom", "whose", "where",
	"is", "are", "was", "were", "am", "be", "been", "being", "has", "have", "had",
	"do", "does", "did", "will", "would", "can", "could", "should", "may", "might", "must",
	"it", "it's", "its", "he's", "she's", "that's", "there's", "they're", "we're", "i'm",
	"the", "a", "an", "to", "of", "with", "for", "from", "in", "on", "at", "by", "about", "as",
	"into", "onto", "her", "his", "their", "my", "our", "your", "not", "very", "really",
)

// finiteVerbs make a clause of what follows a comma or a conjunction.
var finiteVerbs = set(
	"is", "are", "was", "were", "am", "has", "have", "had", "does", "did", "do", "will",
	"would", "can", "could", "should", "isn't", "aren't", "wasn't", "weren't", "doesn't",
	"don't", "didn't", "won't", "can't", "hasn't", "haven't",
	"it's", "he's", "she's", "that's", "there's", "they're", "we're", "you're", "i'm",
	"i've", "we've", "they've", "he'll", "she'll", "they'll", "i'll", "we'll", "i'd",
)

// lexicalVerbs are common finite verbs of everyday statements; after a comma or a
// conjunction they start a second clause ("Quito and works at a bank").
var lexicalVerbs = set("lives", "works", "loves", "likes", "hates", "goes", "plays", "speaks",
	"teaches", "studies", "moved", "started", "got", "said", "told", "wants", "needs", "takes",
	"drives", "owns", "lived", "worked", "loved")

// subjects are pronouns that, followed by another word, start a clause.
var subjects = set("he", "she", "they", "we", "i", "you", "it")

// relativizers after a comma or a conjunction start a clause: "Portland, where it
// rains".
var relativizers = set("where", "which", "who", "whose", "whom", "when", "because", "since", "so", "although")

// possessives after "and" start a second clause about someone: "and her husband".
var possessives = set("her", "his", "their", "its", "my", "our")

// comparisons make a value a comparison, not a thing.
var comparisons = []string{"more than", "less than", "better than", "worse than", "rather than",
	"fewer than", "instead of"}

// trailingAdverbs are time (and other) adverbs that belong to the change, not the value.
var trailingAdverbs = []string{"now", "right now", "anymore", "any more", "these days", "nowadays",
	"currently", "lately", "recently", "at the moment", "for now", "at present", "still", "already",
	"again", "too", "as well", "also"}

// reduplications are names made of one word twice.
var reduplications = set("bora bora", "walla walla", "baden baden", "pago pago", "mahi mahi",
	"sing sing", "can can", "cha cha", "bye bye", "so so", "tut tut", "dum dum", "no no")

var flagRE = regexp.MustCompile(`(^|\s)(--[A-Za-z][\w-]*|-[A-Za-z])(\s|=|$)`)

// Garbage returns why value is not a clean constituent ("" when it is): it ends in a
// function word, holds a second clause, a comparison, a repeated word, a trailing time
// adverb or a command-line flag.
func Garbage(value string) string {
	v := strings.TrimSpace(value)
	if v == "" {
		return "empty"
	}
	if flagRE.MatchString(v) {
		return "command-line flag"
	}
	toks := tokens(v)
	var words []string
	for _, t := range toks {
		if !t.sep {
			words = append(words, t.text)
		}
	}
	if len(words) == 0 {
		return ""
	}
	// joined keeps the case as written: "Apocalypse Now" does not end in "now".
	joined := strings.Join(words, " ")
	for _, a := range trailingAdverbs {
		if joined == a || strings.HasSuffix(joined, " "+a) {
			return "trailing adverb " + strqt(a)
		}
	}
	if last := words[len(words)-1]; functionWords[last] {
		return "ends in function word " + strqt(last)
	}
	for _, c := range comparisons {
		if containsPhrase(joined, c) {
			return "comparison " + strqt(c)
		}
	}
	for i := 1; i < len(words); i++ {
		pair := strings.ToLower(words[i-1] + " " + words[i])
		if strings.EqualFold(words[i], words[i-1]) && isWord(words[i]) && !reduplications[pair] {
			return "repeated word " + strqt(words[i])
		}
	}
	if r := clause(toks); r != "" {
		return r
	}
	return ""
}

// clause finds a second clause: "and her/his/their ...", a finite verb or a subject
// pronoun with its verb after a comma, semicolon or conjunction, or a value that is
// itself a clause ("it's my favorite language").
func clause(toks []token) string {
	for i, t := range toks {
		conj := !t.sep && t.text == t.lower && (t.lower == "and" || t.lower == "but" || t.lower == "or")
		if !(t.sep || conj) || i == 0 {
			continue
		}
		rest := toks[i+1:]
		if conj && len(rest) > 0 && rest[0].text == rest[0].lower && possessives[rest[0].lower] {
			return "second clause " + strqt(t.lower+" "+rest[0].lower)
		}
		if r := subjectVerb(rest); r != "" {
			return "second clause " + strqt(r)
		}
		if len(rest) > 1 && !rest[1].sep && rest[0].text == rest[0].lower && relativizers[rest[0].lower] {
			return "second clause " + strqt(rest[0].lower)
		}
		for _, r := range rest {
			if r.sep || !conj && r.lower == "and" {
				break
			}
			if r.text == r.lower && (finiteVerbs[r.lower] || lexicalVerbs[r.lower]) {
				return "second clause " + strqt(r.lower)
			}
		}
	}
	if r := subjectVerb(toks); r != "" {
		return "holds a clause " + strqt(r)
	}
	if len(toks) > 0 && toks[0].text == toks[0].lower && finiteVerbs[toks[0].lower] && strings.Contains(toks[0].lower, "'") {
		return "holds a clause " + strqt(toks[0].lower)
	}
	return ""
}

// subjectVerb reports a subject pronoun followed by a lower-case word at the start of
// toks ("she loves", "I love").
func subjectVerb(toks []token) string {
	if len(toks) < 2 || toks[0].sep || toks[1].sep || toks[1].text != toks[1].lower || !isWord(toks[1].lower) {
		return ""
	}
	if t := toks[0]; t.text == "I" || t.text == t.lower && subjects[t.lower] {
		return t.text + " " + toks[1].text
	}
	return ""
}

// token is a word of a value, or a separator (comma or semicolon).
type token struct {
	text, lower string
	sep         bool
}

func tokens(v string) []token {
	var out []token
	v = strings.NewReplacer("\u2019", "'", "\u2018", "'").Replace(v)
	for _, f := range strings.Fields(v) {
		trailSep := strings.HasSuffix(f, ",") || strings.HasSuffix(f, ";")
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '-' })
		w = strings.Trim(w, "'")
		if w != "" {
			out = append(out, token{text: w, lower: strings.ToLower(w)})
		}
		if trailSep {
			out = append(out, token{sep: true})
		}
	}
	return out
}

func containsPhrase(lower, p string) bool {
	return lower == p || strings.HasPrefix(lower, p+" ") || strings.HasSuffix(lower, " "+p) ||
		strings.Contains(lower, " "+p+" ")
}

func isWord(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return w != ""
}

func strqt(s string) string { return "\"" + s + "\"" }

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// trimmable are the trailing adverbs Constituent takes off a value, longest first:
// they say when the statement holds ("works at Globex now"), not what the value is.
var trimmable = []string{"at the moment", "right now", "these days", "any more", "for now", "at present",
	"nowadays", "currently", "anymore", "lately", "now"}

// Constituent is the value an extractor may store: value without trailing emoji
// or time adverbs written in lower case ("Globex now" → "Globex"; "Apocalypse Now" stays), and
// why it may not be stored at all ("" when it may): what Garbage says of it. trimmed
// reports whether an adverb was taken off, which makes the statement a change
// ("Kim works at Globex now").
func Constituent(value string) (clean, why string, trimmed bool) {
	// "Lisbon 🎉": an emoji or other pictograph after a value is no part of it.
	clean = strings.TrimRightFunc(value, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.Is(unicode.So, r) || r == '\u200d' || r == '\ufe0f' ||
			unicode.Is(unicode.Sk, r) && r >= 0x1f3fb && r <= 0x1f3ff
	})
	clean = strings.TrimSpace(clean)
	for again := true; again; {
		again = false
		for _, a := range trimmable {
			if rest, ok := strings.CutSuffix(clean, " "+a); ok && strings.TrimSpace(rest) != "" {
				clean, trimmed, again = strings.TrimRight(strings.TrimSpace(rest), ", "), true, true
				break
			}
		}
	}
	return clean, Garbage(clean), trimmed
}
