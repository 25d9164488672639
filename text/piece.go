package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A piece is a stretch of a message that every view reads alike: a run of letters
// and digits (a word's core in any Options), a run of ASCII blanks other than a line
// break, or one other rune — a line break, other white space, punctuation, a symbol,
// a combining mark — or one invalid byte. A message is scanned into pieces once, and
// each view joins them by its Options: the runes where views differ are the
// one-rune pieces, so a view looks at those alone and steps over the runs.
type piece struct {
	start, end int
	kind       pieceKind
	r          rune // the rune of a pRune piece: utf8.RuneError for an invalid byte
}

type pieceKind uint8

const (
	pCore  pieceKind = iota // letters and digits
	pBlank                  // ASCII white space other than '\n'
	pRune                   // one other rune, or one invalid byte
)

// pieces scans msg into its pieces, in time linear in len(msg).
func pieces(msg string) []piece {
	out := make([]piece, 0, len(msg)/2+1)
	for i := 0; i < len(msg); {
		c := msg[i]
		if isBlank(c) {
			j := i + 1
			for j < len(msg) && isBlank(msg[j]) {
				j++
			}
			out = append(out, piece{start: i, end: j, kind: pBlank})
			i = j
			continue
		}
		if j := coreEnd(msg, i); j > i {
			out = append(out, piece{start: i, end: j, kind: pCore})
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(msg[i:])
		out = append(out, piece{start: i, end: i + size, kind: pRune, r: r})
		i += size
	}
	return out
}

// coreEnd returns the end of the run of letters and digits at byte i of msg (i if
// there is none).
func coreEnd(msg string, i int) int {
	for i < len(msg) {
		if c := msg[i]; c < utf8.RuneSelf {
			if !isASCIICore(c) {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(msg[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		i += size
	}
	return i
}

// isBlank reports whether c is ASCII white space other than a line break.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

func isASCIICore(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// viewOf joins the pieces ps of msg into the tokens of the view o.
func viewOf(msg string, ps []piece, o Options) []Token {
	// A token holds one piece or more, but for the second word of a contraction:
	// the pieces other than blanks are room enough but for a few contractions.
	n := 1
	for _, p := range ps {
		if p.kind != pBlank {
			n++
		}
	}
	out := make([]Token, 0, n+n/16)
	j := joiner{msg: msg, ps: ps, o: o, qf: quoteFinder{msg: msg}, yield: func(t Token) bool {
		out = append(out, t)
		return true
	}}
	j.run()
	return out
}

// joiner joins a message's pieces into the tokens of one view. It reads the one-rune
// pieces rune by rune, by its Options, and steps over a run of letters and digits
// whole: those are word runes in every view.
type joiner struct {
	msg   string
	ps    []piece
	o     Options
	qf    quoteFinder
	yield func(Token) bool
	done  bool // yield returned false
}

// emit hands t to yield.
func (s *joiner) emit(t Token) {
	if !s.done && !s.yield(t) {
		s.done = true
	}
}

// skipTo returns the index of the first piece of ps at or after k that starts at or
// after byte i.
func (s *joiner) skipTo(k, i int) int {
	for k < len(s.ps) && s.ps[k].start < i {
		k++
	}
	return k
}

func (s *joiner) run() {
	msg := s.msg
	for k := 0; k < len(s.ps) && !s.done; {
		p := s.ps[k]
		i := p.start
		if p.kind == pBlank {
			k++
			continue
		}
		r := p.r
		if p.kind == pRune {
			switch {
			case r == '\n':
				s.emit(Token{Start: i, End: i + 1, W: "\n", Kind: Newline})
				k++
				continue
			case unicode.IsSpace(r):
				k++
				continue
			}
		}
		if s.o.SkipFlags && p.kind == pRune && r == '-' {
			if n := flagLen(msg, i); n > 0 {
				k = s.skipTo(k, i+n)
				continue
			}
		}
		if s.o.URLs && p.kind == pCore {
			if n := urlLen(msg, i); n > 0 {
				s.emit(Token{Start: i, End: i + n, W: strings.ToLower(msg[i : i+n]), Kind: URL})
				k = s.skipTo(k, i+n)
				continue
			}
		}
		if s.o.Quotes && p.kind == pRune {
			if fam := QuoteFamily(r); fam != 0 && wordStart(msg, i) {
				size := p.end - p.start
				if j, closeSize := s.qf.closing(fam, i+size); j > i+size {
					if inner := strings.TrimSpace(msg[i+size : j]); inner != "" {
						s.emit(Token{Start: i, End: j + closeSize, W: Lower(inner), Kind: Quoted})
						k = s.skipTo(k, j+closeSize)
						continue
					}
				}
			}
		}
		if p.kind == pCore || s.wordRune(r) {
			e := s.scanWord(k)
			s.word(i, s.ps[e-1].end)
			k = e
			continue
		}
		kind := Punct
		size := p.end - p.start
		if unicode.Is(unicode.So, r) && size > 1 {
			kind = Symbol
		}
		s.emit(Token{Start: i, End: i + size, W: msg[i : i+size], Kind: kind})
		k++
	}
}

// core reports whether r is a letter or digit (or, with NonASCII, any non-ASCII rune):
// what may follow a joiner.
func (s *joiner) core(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || s.o.NonASCII && r >= utf8.RuneSelf
}

// wordRune reports whether r is part of a word.
func (s *joiner) wordRune(r rune) bool {
	return s.core(r) || s.o.Fields && !unicode.IsSpace(r) || s.o.Marks && unicode.IsMark(r) || s.o.NonSpacingMarks && r >= 0x300 && unicode.Is(unicode.Mn, r) ||
		s.o.WordSymbols != "" && strings.ContainsRune(s.o.WordSymbols, r)
}

// scanWord returns the index of the piece after the word starting at piece k.
func (s *joiner) scanWord(k int) int {
	msg := s.msg
	email := false
	for k < len(s.ps) {
		p := s.ps[k]
		if p.kind == pCore {
			k++
			continue
		}
		if p.kind == pBlank {
			break
		}
		r := p.r
		if s.wordRune(r) {
			k++
			continue
		}
		if s.o.JoinerRuns && r != utf8.RuneError && strings.ContainsRune(s.o.Joiners, r) {
			if e := s.joinerRunEnd(k); e < len(s.ps) && (s.ps[e].kind == pCore || s.ps[e].kind == pRune && s.wordRune(s.ps[e].r)) {
				k = e
				continue
			}
		}
		j, after := p.start, p.end
		var next rune = -1
		if after < len(msg) {
			next, _ = utf8.DecodeRuneInString(msg[after:])
		}
		if next >= 0 && s.core(next) {
			switch {
			case s.o.Emails && r == '@' && !email:
				email = true
				k++
				continue
			case s.o.Emails && r == '.' && (email || emailAhead(msg[j:])):
				k++
				continue
			case s.o.Emails && (r == '_' || r == '+' || r == '%') &&
				(email || strings.ContainsRune(msg[j:min(len(msg), j+64)], '@')):
				k++
				continue
			case r == '.' && s.o.DigitDots:
				prev, _ := utf8.DecodeLastRuneInString(msg[:j])
				if isDigit(prev) && isDigit(next) && strings.ContainsRune(s.o.Joiners, '.') {
					k++
					continue
				}
			case r != utf8.RuneError && strings.ContainsRune(s.o.Joiners, r):
				k++
				continue
			}
		}
		// A plural possessive: "parents' ".
		if s.o.PluralPossessive && (r == '\'' || r == '’') && (msg[j-1] == 's' || msg[j-1] == 'S') &&
			(next < 0 || !s.wordRune(next)) {
			k++
		}
		break
	}
	return k
}

// joinerRunEnd returns the index of the first piece at or after k that is not one of
// the Joiners.
func (s *joiner) joinerRunEnd(k int) int {
	for k < len(s.ps) && s.ps[k].kind == pRune && s.ps[k].r != utf8.RuneError && strings.ContainsRune(s.o.Joiners, s.ps[k].r) {
		k++
	}
	return k
}
