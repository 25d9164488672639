package router

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/factbase/factbase/normalize"
)

// tokKind says what a token is.
type tokKind uint8

const (
	tWord   tokKind = iota // letters, digits and in-word punctuation: "blue", "bob@x.com", "4th"
	tNum                   // digits only: "4"
	tPunct                 // one punctuation or symbol rune, or "\n"
	tQuoted                // a quoted span: "“Is This Love”"; w holds the inner text
)

// token is one unit of a message. w is the normalised form used for matching; s and e
// are the byte span of the original text, from which values are cut, so values keep
// their spelling. A contraction yields two tokens over the same span ("isn't": "is",
// "not"); the first covers the whole word and the second is empty at its end.
type token struct {
	w    string
	s, e int
	kind tokKind
	poss bool // the word ended in a possessive 's or s' (w is without it)
}

// tokenize splits msg (valid UTF-8) into tokens. Its cost is linear in len(msg): the
// search for a closing quote is shared between opening quotes (see quoteFinder).
func tokenize(msg string) []token {
	toks := make([]token, 0, len(msg)/4+1)
	qf := quoteFinder{msg: msg}
	i := 0
	for i < len(msg) {
		r, size := utf8.DecodeRuneInString(msg[i:])
		switch {
		case r == '\n':
			toks = append(toks, token{w: "\n", s: i, e: i + size, kind: tPunct})
			i += size
			continue
		case unicode.IsSpace(r):
			i += size
			continue
		}
		if n := flagLen(msg, i); n > 0 {
			// A command-line flag pasted with the message ("--json") is never its
			// content: it is skipped.
			i += n
			continue
		}
		if fam := quoteFamily(r); fam != 0 && wordStart(msg, i) {
			if j, closeSize := qf.closing(fam, i+size); j > i+size {
				inner := strings.TrimSpace(msg[i+size : j])
				if inner != "" {
					toks = append(toks, token{w: lower(inner), s: i, e: j + closeSize, kind: tQuoted})
					i = j + closeSize
					continue
				}
			}
		}
		if isWordRune(r) {
			j := i + size
			for j < len(msg) {
				r2, size2 := utf8.DecodeRuneInString(msg[j:])
				if isWordRune(r2) {
					j += size2
					continue
				}
				if joiner(r2) && j+size2 < len(msg) {
					r3, _ := utf8.DecodeRuneInString(msg[j+size2:])
					if unicode.IsLetter(r3) || unicode.IsDigit(r3) {
						j += size2
						continue
					}
				}
				// A plural possessive: "parents' ".
				if (r2 == '\'' || r2 == '’') && (msg[j-1] == 's' || msg[j-1] == 'S') {
					after := j + size2
					if after >= len(msg) || !isWordRune(mustRune(msg[after:])) {
						j += size2
					}
				}
				break
			}
			toks = appendWord(toks, msg[i:j], i, j)
			i = j
			continue
		}
		kind := tPunct
		if unicode.Is(unicode.So, r) {
			// An emoji or other symbol can be a value: "My favorite emoji is 🙂".
			kind = tWord
		}
		toks = append(toks, token{w: string(r), s: i, e: i + size, kind: kind})
		i += size
	}
	return toks
}

func mustRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// isWordRune reports whether r can be part of a word on its own.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) ||
		r == '@' || r == '_' || r == '&' || r == '+' || r == '%' || r == '$' || r == '€' || r == '£'
}

// joiner runes stay inside a word when a letter or digit follows: "node.js",
// "don't", "jay-z", "ac/dc".
func joiner(r rune) bool {
	return r == '.' || r == '\'' || r == '’' || r == '-' || r == '/' || r == '‐'
}

// flagLen returns the length of a command-line flag at byte i of msg ("--json",
// "--user=ada"): two hyphens at the start of a word, a letter, then anything up to
// white space; 0 if there is none.
func flagLen(msg string, i int) int {
	if !strings.HasPrefix(msg[i:], "--") || !wordStart(msg, i) || i+2 >= len(msg) {
		return 0
	}
	if r, _ := utf8.DecodeRuneInString(msg[i+2:]); !unicode.IsLetter(r) {
		return 0
	}
	j := i + 2
	for j < len(msg) {
		r, size := utf8.DecodeRuneInString(msg[j:])
		if unicode.IsSpace(r) {
			break
		}
		j += size
	}
	return j - i
}

// wordStart reports whether byte i of msg starts a word: at the start, or after white
// space or an opening bracket or separator.
func wordStart(msg string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(msg[:i])
	return unicode.IsSpace(r) || strings.ContainsRune("([{,;:—–-", r)
}

// quoteFamily returns 1 for double quotes, 2 for single quotes, 0 otherwise.
func quoteFamily(r rune) int {
	switch r {
	case '"', '“', '”', '„', '‟', '«', '»', '＂':
		return 1
	case '\'', '‘', '’', '‚', '‛':
		return 2
	}
	return 0
}

// quoteFinder finds closing quotes. A closing single quote must not be followed by a
// letter or digit (so "don't" does not close 'Up). Answers are remembered per family:
// the first closing quote at or after p is also the first at or after any q in
// (last query, p], so each byte is scanned at most once per family.
type quoteFinder struct {
	msg      string
	from     [3]int // the last search started here
	found    [3]int // and found this (-1: none up to the end)
	searched [3]bool
}

// closing returns the index and size of the first closing quote of family fam at or
// after p, or -1.
func (q *quoteFinder) closing(fam, p int) (int, int) {
	if q.searched[fam] && q.from[fam] <= p {
		if q.found[fam] < 0 {
			return -1, 0
		}
		if q.found[fam] >= p {
			_, size := utf8.DecodeRuneInString(q.msg[q.found[fam]:])
			return q.found[fam], size
		}
	}
	q.searched[fam], q.from[fam], q.found[fam] = true, p, -1
	for j := p; j < len(q.msg); {
		r, size := utf8.DecodeRuneInString(q.msg[j:])
		if quoteFamily(r) == fam {
			if fam == 1 {
				q.found[fam] = j
				return j, size
			}
			if j+size >= len(q.msg) {
				q.found[fam] = j
				return j, size
			}
			next := mustRune(q.msg[j+size:])
			if !unicode.IsLetter(next) && !unicode.IsDigit(next) {
				q.found[fam] = j
				return j, size
			}
		}
		j += size
	}
	return -1, 0
}

// lower returns s in lower case with typographic apostrophes made ASCII.
func lower(s string) string {
	s = strings.ToLower(s)
	if strings.ContainsRune(s, '’') {
		s = strings.ReplaceAll(s, "’", "'")
	}
	return s
}

// appendWord appends the tokens of one raw word spanning [s, e).
func appendWord(toks []token, raw string, s, e int) []token {
	lw := lower(raw)
	add := func(w string, poss bool) {
		kind := tWord
		if normalize.IsDigits(w) {
			kind = tNum
		}
		toks = append(toks, token{w: w, s: s, e: e, kind: kind, poss: poss})
	}
	// The second token of a contraction is empty at the end of the span.
	add2 := func(first, second string) {
		add(first, false)
		toks = append(toks, token{w: second, s: e, e: e, kind: tWord})
	}
	if exp, ok := expansions[lw]; ok {
		add2(exp[0], exp[1])
		return toks
	}
	if f, ok := favForms[lw]; ok {
		add(f, false)
		return toks
	}
	switch {
	case strings.HasSuffix(lw, "n't") && len(lw) > 3:
		base := lw[:len(lw)-3]
		switch base {
		case "can", "ca":
			base = "can"
		case "won", "wo":
			base = "will"
		case "ain":
			base = "is"
		case "shan":
			base = "shall"
		}
		add2(base, "not")
		return toks
	case strings.HasSuffix(lw, "'s") && len(lw) > 2:
		base := lw[:len(lw)-2]
		if sIsIs[base] {
			add2(base, "is")
			return toks
		}
		if base == "let" {
			add2("let", "us")
			return toks
		}
		if f, ok := favForms[base]; ok {
			base = f
		}
		add(base, true)
		return toks
	case strings.HasSuffix(lw, "s'") && len(lw) > 2:
		add(lw[:len(lw)-1], true)
		return toks
	}
	for suf, w := range contractionSuffixes {
		if strings.HasSuffix(lw, suf) && len(lw) > len(suf) {
			add2(lw[:len(lw)-len(suf)], w)
			return toks
		}
	}
	if strings.ContainsAny(lw, "-‐") {
		parts := strings.FieldsFunc(lw, func(r rune) bool { return r == '-' || r == '‐' })
		split := false
		for _, p := range parts {
			if splitHyphen[p] || favForms[p] != "" || ordinalValue(p) > 0 {
				split = true
			}
		}
		if joined, ok := hyphenJoin[strings.Join(parts, "")]; ok && len(parts) > 1 {
			add(joined, false)
			return toks
		}
		if split {
			for _, p := range parts {
				if f, ok := favForms[p]; ok {
					p = f
				}
				add(p, false)
			}
			return toks
		}
	}
	add(lw, false)
	return toks
}

// expansions are contractions written without an apostrophe, and a few with one that
// the suffix rules would get wrong.
var expansions = map[string][2]string{
	"im": {"i", "am"}, "i'm": {"i", "am"}, "ive": {"i", "have"}, "whats": {"what", "is"},
	"wheres": {"where", "is"}, "whos": {"who", "is"}, "thats": {"that", "is"},
	"hows": {"how", "is"}, "whens": {"when", "is"}, "isnt": {"is", "not"},
	"arent": {"are", "not"}, "wasnt": {"was", "not"}, "werent": {"were", "not"},
	"dont": {"do", "not"}, "doesnt": {"does", "not"}, "didnt": {"did", "not"},
	"cant": {"can", "not"}, "cannot": {"can", "not"}, "wont": {"will", "not"},
	"wouldnt": {"would", "not"}, "couldnt": {"could", "not"}, "shouldnt": {"should", "not"},
	"havent": {"have", "not"}, "hasnt": {"has", "not"}, "aint": {"is", "not"},
	"whatre": {"what", "are"}, "what're": {"what", "are"}, "id": {"i", "would"},
}

// contractionSuffixes expand "'m", "'re", "'ve", "'ll" and "'d".
var contractionSuffixes = map[string]string{
	"'m": "am", "'re": "are", "'ve": "have", "'ll": "will", "'d": "would",
}

// sIsIs are the words whose "'s" means "is" rather than a possessive.
var sIsIs = map[string]bool{
	"what": true, "that": true, "it": true, "he": true, "she": true, "who": true,
	"where": true, "when": true, "how": true, "there": true, "here": true, "which": true,
	"this": true, "why": true,
}

// favForms folds the spellings of "favorite".
var favForms = map[string]string{
	"favorite": "favorite", "favourite": "favorite", "fav": "favorite", "fave": "favorite",
	"favorit": "favorite", "favourit": "favorite", "favrite": "favorite", "favorate": "favorite",
	"favorites": "favorites", "favourites": "favorites", "favs": "favorites", "faves": "favorites",
	"favorits": "favorites", "favorates": "favorites",
}

// splitHyphen are parts that make a hyphenated word split: "all-time", "second-most".
var splitHyphen = map[string]bool{
	"all": true, "time": true, "most": true, "least": true, "top": true, "number": true,
}

// hyphenJoin are hyphenated words read as one: "e-mail".
var hyphenJoin = map[string]string{
	"email": "email", "emailaddress": "email", "bday": "bday", "cellphone": "cellphone",
}
