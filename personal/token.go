package personal

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// kind is a token's kind.
type kind uint8

const (
	kWord  kind = iota // letters, digits, hyphens inside
	kEmail             // user@host.tld
	kPunct             // one punctuation character
)

// token is one word or punctuation mark of a message. w is the lower-case word with
// contractions expanded; a contraction becomes two tokens sharing the span ("isn't":
// "is" and "not"). Values are always cut from the message by span, never rebuilt
// from w, so they keep their spelling.
type token struct {
	w          string
	kind       kind
	start, end int
	cap        bool // the word starts with an upper-case letter
	poss       bool // the word carried a possessive "'s" or "s'" ("Leo's")
}

var contractions = map[string][]string{
	"isn't": {"is", "not"}, "aren't": {"are", "not"}, "wasn't": {"was", "not"}, "weren't": {"were", "not"},
	"don't": {"do", "not"}, "doesn't": {"does", "not"}, "didn't": {"did", "not"}, "can't": {"can", "not"},
	"cannot": {"can", "not"}, "won't": {"will", "not"}, "wouldn't": {"would", "not"}, "couldn't": {"could", "not"},
	"shouldn't": {"should", "not"}, "hasn't": {"has", "not"}, "haven't": {"have", "not"}, "hadn't": {"had", "not"},
	"ain't": {"is", "not"}, "i'm": {"i", "am"}, "im": {"i", "am"}, "i've": {"i", "have"}, "i'd": {"i", "would"},
	"i'll": {"i", "will"}, "we're": {"we", "are"}, "we've": {"we", "have"}, "we'll": {"we", "will"},
	"we'd": {"we", "would"}, "they're": {"they", "are"}, "they've": {"they", "have"}, "they'll": {"they", "will"},
	"you're": {"you", "are"}, "you've": {"you", "have"}, "you'll": {"you", "will"}, "you'd": {"you", "would"},
	"he's": {"he", "is"}, "she's": {"she", "is"}, "it's": {"it", "is"}, "that's": {"that", "is"},
	"he'll": {"he", "will"}, "she'll": {"she", "will"}, "he'd": {"he", "would"}, "she'd": {"she", "would"},
	"what's": {"what", "is"}, "who's": {"who", "is"}, "where's": {"where", "is"}, "when's": {"when", "is"},
	"how's": {"how", "is"}, "there's": {"there", "is"}, "let's": {"let", "us"}, "gonna": {"going", "to"},
	"wanna": {"want", "to"},
}

// tokenize cuts a message into tokens.
func tokenize(msg string) []token {
	var out []token
	i := 0
	for i < len(msg) {
		r, size := utf8.DecodeRuneInString(msg[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
		case isWordRune(r):
			j := scanWord(msg, i)
			out = appendWord(out, msg, i, j)
			i = j
		default:
			p := msg[i : i+size]
			if p == "’" || p == "‘" {
				p = "'"
			} else if p == "“" || p == "”" {
				p = "\""
			} else if p == "–" || p == "—" {
				p = "-"
			}
			out = append(out, token{w: p, kind: kPunct, start: i, end: i + size})
			i += size
		}
	}
	return out
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// scanWord returns the end of the word starting at i: letters and digits, joined by
// an apostrophe, hyphen, dot (inside numbers, emails and initials), @, _, + or %
// inside an email.
func scanWord(msg string, i int) int {
	j := i
	email := false
	for j < len(msg) {
		r, size := utf8.DecodeRuneInString(msg[j:])
		if isWordRune(r) {
			j += size
			continue
		}
		if j+size >= len(msg) {
			break
		}
		next, _ := utf8.DecodeRuneInString(msg[j+size:])
		switch r {
		case '\'', '’', '-':
			if isWordRune(next) {
				j += size
				continue
			}
			if (r == '\'' || r == '’') && j > i && (msg[j-1] == 's' || msg[j-1] == 'S') { // "parents'"
				j += size
				return j
			}
		case '@':
			if isWordRune(next) && !email {
				email = true
				j += size
				continue
			}
		case '.':
			prev, _ := utf8.DecodeLastRuneInString(msg[:j])
			if isWordRune(next) && (email || unicode.IsDigit(prev) && unicode.IsDigit(next) || emailAhead(msg[j:])) {
				j += size
				continue
			}
		case '_', '+', '%':
			if isWordRune(next) && (email || strings.ContainsRune(msg[j:min(len(msg), j+64)], '@')) {
				j += size
				continue
			}
		}
		break
	}
	return j
}

// emailAhead reports whether the word going on at the start of s holds an "@"
// ("jamal.k@fastmail.com" read at ".k@").
func emailAhead(s string) bool {
	for i := 0; i < len(s) && i < 64; i++ {
		switch c := s[i]; {
		case c == '@':
			return true
		case c == ' ' || c == '\t' || c == '\n' || c == ',' || c == ';' || c == '!' || c == '?':
			return false
		}
	}
	return false
}

// contractionSuffixes split a word the contractions table does not list into the
// word and the verb the suffix stands for: "Anna'll" is Anna will.
var contractionSuffixes = []struct{ suffix, word string }{
	{"'re", "are"}, {"'ll", "will"}, {"'d", "would"}, {"n't", "not"},
}

// appendWord appends the word msg[i:j], expanding contractions and possessives.
func appendWord(out []token, msg string, i, j int) []token {
	orig := msg[i:j]
	first, _ := utf8.DecodeRuneInString(orig)
	capital := unicode.IsUpper(first)
	if strings.ContainsRune(orig, '@') {
		return append(out, token{w: strings.ToLower(orig), kind: kEmail, start: i, end: j})
	}
	lw := strings.ToLower(strings.ReplaceAll(orig, "’", "'"))
	if parts, ok := contractions[lw]; ok {
		for _, p := range parts {
			out = append(out, token{w: p, kind: kWord, start: i, end: j, cap: capital && p == parts[0]})
		}
		return out
	}
	t := token{w: lw, kind: kWord, start: i, end: j, cap: capital}
	switch {
	case strings.HasSuffix(lw, "'s"):
		t.w, t.poss = strings.TrimSuffix(lw, "'s"), true
	case strings.HasSuffix(lw, "s'"):
		t.w, t.poss = strings.TrimSuffix(lw, "'"), true
	default:
		for _, c := range contractionSuffixes {
			if w, ok := strings.CutSuffix(lw, c.suffix); ok {
				return append(out, token{w: w, kind: kWord, start: i, end: j, cap: capital},
					token{w: c.word, kind: kWord, start: i, end: j})
			}
		}
	}
	return append(out, t)
}

// sentences splits tokens at sentence ends (. ! ? ; and line breaks), keeping the
// terminators with their sentence. A dot after a title ("Dr.") or a single capital
// letter (an initial) does not end a sentence.
func sentences(msg string, toks []token) [][]token {
	var out [][]token
	start := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		end := false
		if t.kind == kPunct {
			switch t.w {
			case "!", "?", ";":
				end = true
			case ".":
				end = true
				if i > 0 && toks[i-1].kind == kWord && toks[i-1].end == t.start &&
					(titles[toks[i-1].w] || abbreviations[toks[i-1].w] || len(toks[i-1].w) == 1 && toks[i-1].cap) {
					end = false
				}
			}
		}
		if !end && i+1 < len(toks) && toks[i+1].start > t.end && strings.ContainsRune(msg[t.end:toks[i+1].start], '\n') {
			end = true
		}
		if !end {
			continue
		}
		for i+1 < len(toks) && toks[i+1].kind == kPunct && strings.Contains(".!?", toks[i+1].w) {
			i++ // "?!" and "..." stay with the sentence they end
		}
		out = append(out, toks[start:i+1])
		start = i + 1
	}
	if start < len(toks) {
		out = append(out, toks[start:])
	}
	return out
}
