package text

import (
	"iter"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind says what a token is.
type Kind uint8

// The kinds of token.
const (
	Word    Kind = iota // letters and digits, joined by the options' joiners: "blue", "jay-z", "4th"
	Number              // ASCII digits only: "4", "2027"
	Punct               // one punctuation rune: ",", "—"
	Symbol              // one symbol rune (Unicode So), such as an emoji: "🙂"
	Quoted              // a quoted span, quotes included in the span; W holds the inner text
	Email               // user@host.tld (Options.Emails)
	URL                 // http://..., https://..., www.... (Options.URLs)
	Newline             // a line break
)

var kindNames = [...]string{"word", "number", "punct", "symbol", "quoted", "email", "url", "newline"}

// String returns the kind's name: "word", "number", ...
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Token is one unit of a message: a word, number, email, URL, quoted span, punctuation
// or symbol rune, or line break. Start and End are byte offsets into the message the
// token was cut from; a value is always cut from the message by span, never rebuilt
// from W, so it keeps its spelling.
//
// A contraction becomes two tokens sharing the span of the word ("isn't": "is" and
// "not"), so offsets never decrease but two tokens can have the same span.
type Token struct {
	Start, End int
	// W is the normalised form used for matching: lower case, typographic
	// apostrophes made ASCII, a possessive "'s" or "'" removed, a contraction's part.
	W    string
	Kind Kind
	Cap  bool // the word starts with an upper-case letter
	Poss bool // the word carried a possessive "'s" or "s'" ("Leo's", "parents'")
}

// Options choose the joiner and word rules of a view of a message. The zero value
// reads words as runs of letters and digits, every other rune a token of its own, and
// expands nothing. Options is comparable: Parse keeps one token list per Options.
type Options struct {
	// WordSymbols are runes that are part of a word like letters ("@_&+%$€£" for the
	// router, which reads "bob@x.com" and "$5" as words). Default: none.
	WordSymbols string
	// Marks makes combining marks word runes. Default: false.
	Marks bool
	// NonSpacingMarks makes non-spacing marks (Unicode Mn) word runes, the only
	// combining marks the episode reader reads in a word. Default: false.
	NonSpacingMarks bool
	// NonASCII makes every non-ASCII rune, and every invalid byte, a word rune (the
	// date reader, which only cares for ASCII words). Default: false.
	NonASCII bool
	// Joiners are runes kept inside a word when a letter or digit follows them
	// ("don't", "jay-z", "ac/dc", "15:30"). A dot among them joins as DigitDots says.
	// Default: none.
	Joiners string
	// Fields makes every rune but white space a word rune, so that words are the
	// white-space separated fields of strings.Fields (canon's topic words, where
	// "all-time" and "(jazz" are words). Default: false.
	Fields bool
	// JoinerRuns lets a run of Joiners join a word to any word rune after it
	// ("a--b", "a-_b"). Default: false, one joiner and then a letter or digit.
	JoinerRuns bool
	// DigitDots lets a joining dot join only digits ("15.30", not "end.Next"), or
	// with Emails, a dot inside an email. Default: false, a dot among Joiners joins
	// any letters or digits ("node.js").
	DigitDots bool
	// Emails reads user@host.tld as one Email token: "@" once, and "." "_" "+" "%"
	// inside it. Default: false.
	Emails bool
	// URLs reads http://, https:// and www. addresses up to white space (less
	// trailing punctuation) as one URL token. Default: false.
	URLs bool
	// Quotes reads a quoted span opening at the start of a word and closed by the
	// same family of quote as one Quoted token. Default: false.
	Quotes bool
	// SkipFlags skips command-line flags pasted with a message ("--json",
	// "--user=ada"): they are no token. Default: false.
	SkipFlags bool
	// PluralPossessive keeps the apostrophe of "parents'" in the word. Default: false.
	PluralPossessive bool
	// Expand expands contractions ("isn't": "is", "not", both over the word's span)
	// and cuts a possessive "'s" or "'" off W, setting Poss. Default: false: W is the
	// lower-case word as written (apostrophes made ASCII).
	Expand bool
}

// Tokenize cuts msg into tokens as o says. Its cost is linear in len(msg). Any bytes
// are accepted: an invalid byte is a Punct token of its own (a word rune with
// NonASCII).
func Tokenize(msg string, o Options) []Token {
	return viewOf(msg, pieces(msg), o)
}

// All returns the tokens Tokenize would, one at a time, for a reader that keeps
// tokens of its own and needs no slice of these.
func All(msg string, o Options) iter.Seq[Token] {
	return func(yield func(Token) bool) {
		j := joiner{msg: msg, ps: pieces(msg), o: o, qf: quoteFinder{msg: msg}, yield: yield}
		j.run()
	}
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

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

// word appends the tokens of the word msg[i:j].
func (s *joiner) word(i, j int) {
	orig := s.msg[i:j]
	first, _ := utf8.DecodeRuneInString(orig)
	capital := unicode.IsUpper(first)
	if s.o.Emails && strings.ContainsRune(orig, '@') {
		s.emit(Token{Start: i, End: j, W: strings.ToLower(orig), Kind: Email})
		return
	}
	lw := Lower(orig)
	if !s.o.Expand {
		s.emit(Token{Start: i, End: j, W: lw, Kind: numberOr(lw), Cap: capital})
		return
	}
	if parts, ok := contractions[lw]; ok {
		for k, p := range parts {
			s.emit(Token{Start: i, End: j, W: p, Cap: capital && k == 0})
		}
		return
	}
	t := Token{Start: i, End: j, W: lw, Cap: capital}
	switch {
	case strings.HasSuffix(lw, "'s"):
		t.W, t.Poss = strings.TrimSuffix(lw, "'s"), true
	case strings.HasSuffix(lw, "s'"):
		t.W, t.Poss = strings.TrimSuffix(lw, "'"), true
	default:
		for _, c := range contractionSuffixes {
			if w, ok := strings.CutSuffix(lw, c.suffix); ok {
				s.emit(Token{Start: i, End: j, W: w, Cap: capital})
				s.emit(Token{Start: i, End: j, W: c.word})
				return
			}
		}
		t.Kind = numberOr(lw)
	}
	s.emit(t)
}

func numberOr(w string) Kind {
	if w == "" {
		return Word
	}
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return Word
		}
	}
	return Number
}

// Lower returns s in lower case with typographic apostrophes made ASCII.
func Lower(s string) string {
	s = strings.ToLower(s)
	if strings.ContainsRune(s, '’') {
		s = strings.ReplaceAll(s, "’", "'")
	}
	return s
}

// contractions are the words Expand splits in two.
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

// contractionSuffixes split a word the contractions table does not list into the
// word and the verb the suffix stands for: "Anna'll" is Anna will.
var contractionSuffixes = []struct{ suffix, word string }{
	{"'re", "are"}, {"'ll", "will"}, {"'d", "would"}, {"n't", "not"},
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

// urlLen returns the length of a URL at byte i of msg, or 0: "http://", "https://"
// or "www." at the start of a word, then anything up to white space, less trailing
// punctuation ("see https://go.dev." ends before the dot).
func urlLen(msg string, i int) int {
	rest := msg[i:]
	var n int
	switch {
	case hasPrefixFold(rest, "https://"):
		n = len("https://")
	case hasPrefixFold(rest, "http://"):
		n = len("http://")
	case hasPrefixFold(rest, "www."):
		n = len("www.")
	default:
		return 0
	}
	if !wordStart(msg, i) {
		return 0
	}
	j := i + n
	for j < len(msg) {
		r, size := utf8.DecodeRuneInString(msg[j:])
		if unicode.IsSpace(r) || r == '"' || r == '<' || r == '>' || r == '“' || r == '”' {
			break
		}
		j += size
	}
	for j > i+n && strings.IndexByte(".,;:!?)]}'", msg[j-1]) >= 0 {
		j--
	}
	if j == i+n {
		return 0
	}
	return j - i
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
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

// QuoteFamily returns 1 for double quotes, 2 for single quotes, 0 otherwise.
func QuoteFamily(r rune) int {
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
		if QuoteFamily(r) == fam {
			if fam == 1 || j+size >= len(q.msg) {
				q.found[fam] = j
				return j, size
			}
			next, _ := utf8.DecodeRuneInString(q.msg[j+size:])
			if !unicode.IsLetter(next) && !unicode.IsDigit(next) {
				q.found[fam] = j
				return j, size
			}
		}
		j += size
	}
	return -1, 0
}

// Words returns the runs of letters and digits of s, cut from s: the Word and Number
// tokens of the zero Options. Everything else separates words, so "v2.3" gives "v2"
// and "3", as full-text indexes split. The result is never nil.
func Words(s string) []string {
	out := make([]string, 0, len(s)/6+1)
	for t := range All(s, Options{}) {
		if t.Kind == Word || t.Kind == Number {
			out = append(out, s[t.Start:t.End])
		}
	}
	return out
}
