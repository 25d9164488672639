package normalize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

// MaxInput is the most bytes ParseListChecked accepts.
const MaxInput = 64 << 10

// ParseListChecked is ParseList for untrusted input: it refuses input longer than
// MaxInput bytes with an EINVALID error.
func ParseListChecked(s string) ([]string, error) {
	if len(s) > MaxInput {
		return nil, factbase.Errorf(factbase.EINVALID, "list is %d bytes, more than the limit of %d", len(s), MaxInput)
	}
	return ParseList(s), nil
}

// ParseList splits the value part of a bulk message ("BTC, ETH, and XMR") into its
// items, following the rules in the package documentation. Every item is a substring
// of s (after invalid UTF-8 is replaced by U+FFFD), in the order it appears in s, with
// no leading or trailing white space, and no two items have the same Value. It returns
// nil when s holds no item. Its cost is linear in len(s).
func ParseList(s string) []string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	p := parser{s: s}
	p.findQuotes()
	p.scan()

	// Nearly every piece is an item: size for them all at once rather than grow.
	var items []string
	seen := make(map[string]bool, len(p.pieces))
	add := func(text string) {
		v := Value(text)
		if v == "" || seen[v] {
			return
		}
		seen[v] = true
		if items == nil {
			items = make([]string, 0, len(p.pieces))
		}
		items = append(items, text)
	}
	type item struct {
		pc   piece
		text string
	}
	var full []item // the non-empty pieces of one chunk; reused
	for ci, end := range p.chunkEnds {
		start := 0
		if ci > 0 {
			start = p.chunkEnds[ci-1]
		}
		full = full[:0]
		for _, pc := range p.pieces[start:end] {
			if t := p.text(pc); t != "" {
				full = append(full, item{pc, t})
			}
		}
		switch {
		case len(full) == 0:
		case ci == len(p.chunkEnds)-1:
			// The last chunk is split on every "and" and "&".
			for _, it := range full {
				add(it.text)
			}
		case len(full) == 1:
			add(full[0].text)
		default:
			// An earlier chunk with "and" inside is one item: "salt and pepper, rice".
			add(trimItem(s[full[0].pc.outerStart:full[len(full)-1].pc.outerEnd]))
		}
	}
	return items
}

// piece is one item candidate: the text between separators and connectors.
type piece struct {
	start, end           int // the item's text: inside the quotes when quoted
	outerStart, outerEnd int // including the quotes
	quoted               bool
}

// quoteKind tells the two families of quotes apart.
type quoteKind int

const (
	noQuote quoteKind = iota
	doubleQuote
	singleQuote
)

// quoteOf returns the family of r, if r is a quote that can open or close an item.
func quoteOf(r rune) quoteKind {
	switch r {
	case '"', '\u201C', '\u201D', '\u201E', '\u201F', '\uFF02':
		return doubleQuote
	case '\'', '\u2018', '\u2019', '\u201A', '\u201B', '\uFF07':
		return singleQuote
	}
	return noQuote
}

// parser holds the state of one ParseList call.
type parser struct {
	s string
	// closes[k] lists, in order, the positions of quotes of kind k that may close an
	// item: those followed by white space and .!?: only, then a separator, a connector
	// or the end. opens[k] lists the positions of quotes of kind k at the start of a
	// word: after the start, white space, a comma or a semicolon. Both are read with
	// pointers that only move forward, which keeps the parse linear.
	closes, opens [3][]int
	ci, oi        [3]int
	// pieces holds every piece in order; chunk i (the pieces between two top-level
	// commas or semicolons) is pieces[chunkEnds[i-1]:chunkEnds[i]].
	pieces    []piece
	chunkEnds []int
}

// findQuotes fills p.closes and p.opens in one pass.
func (p *parser) findQuotes() {
	s := p.s
	wordStart := true
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if k := quoteOf(r); k != noQuote {
			if wordStart {
				p.opens[k] = append(p.opens[k], i)
			}
			if p.closesItem(i + w) {
				p.closes[k] = append(p.closes[k], i)
			}
		}
		wordStart = unicode.IsSpace(r) || r == ',' || r == ';'
		i += w
	}
}

// closesItem reports whether a quote ending just before position k closes an item:
// what follows it is white space and .!?: only, up to a separator, a connector or the
// end of the text. The characters skipped are never quotes, so the total work over all
// quotes is linear.
func (p *parser) closesItem(k int) bool {
	s := p.s
	for k < len(s) {
		r, w := utf8.DecodeRuneInString(s[k:])
		if unicode.IsSpace(r) || r == '.' || r == '!' || r == '?' || r == ':' {
			k += w
			continue
		}
		return r == ',' || r == ';' || p.connector(k) > 0
	}
	return true
}

// connector returns the length of the connector "and" (any case) or "&" at position i,
// or 0 if there is none. A connector is a whole word: it is preceded by the start of the
// text, white space, a comma or a semicolon, and followed by the end of the text, white
// space, a comma or a semicolon. So "AT&T", "R&B" and "Anderson" are not split.
func (p *parser) connector(i int) int {
	s := p.s
	n := 0
	switch {
	case s[i] == '&':
		n = 1
	case i+3 <= len(s) && (s[i]|0x20) == 'a' && (s[i+1]|0x20) == 'n' && (s[i+2]|0x20) == 'd':
		n = 3
	default:
		return 0
	}
	if i > 0 {
		r, _ := utf8.DecodeLastRuneInString(s[:i])
		if !unicode.IsSpace(r) && r != ',' && r != ';' {
			return 0
		}
	}
	if i+n < len(s) {
		r, _ := utf8.DecodeRuneInString(s[i+n:])
		if !unicode.IsSpace(r) && r != ',' && r != ';' {
			return 0
		}
	}
	return n
}

// quoteClose returns the position of the quote that closes an item opened by a quote of
// kind k at position i, or -1 if the quote at i opens nothing: there is no closing quote,
// or another quote of the same kind starts a word before the closing one.
func (p *parser) quoteClose(k quoteKind, i int) int {
	cl := p.closes[k]
	for p.ci[k] < len(cl) && cl[p.ci[k]] <= i {
		p.ci[k]++
	}
	if p.ci[k] == len(cl) {
		return -1
	}
	c := cl[p.ci[k]]
	op := p.opens[k]
	for p.oi[k] < len(op) && op[p.oi[k]] <= i {
		p.oi[k]++
	}
	if p.oi[k] < len(op) && op[p.oi[k]] < c {
		return -1
	}
	return c
}

// scan splits p.s into chunks of pieces.
func (p *parser) scan() {
	s := p.s
	// Most pieces end at a comma or a semicolon; counting them first avoids regrowing.
	p.pieces = make([]piece, 0, strings.Count(s, ",")+strings.Count(s, ";")+1)
	start := 0      // start of the current raw piece
	atStart := true // no non-space character of the current piece seen yet
	quoted := false // the current piece was a quoted one and is already recorded
	endPiece := func(i int) {
		if !quoted && !atStart {
			p.pieces = append(p.pieces, piece{start: start, end: i, outerStart: start, outerEnd: i})
		}
		atStart, quoted = true, false
	}
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if atStart && !quoted {
			if unicode.IsSpace(r) {
				i += w
				continue
			}
			if k := quoteOf(r); k != noQuote {
				if c := p.quoteClose(k, i); c >= 0 {
					_, cw := utf8.DecodeRuneInString(s[c:])
					p.pieces = append(p.pieces, piece{start: i + w, end: c, outerStart: i, outerEnd: c + cw, quoted: true})
					quoted = true
					// Only white space and .!?: lie between the quote and the next
					// separator or connector; the loop skips them.
					i = c + cw
					continue
				}
			}
			atStart = false
			start = i
		}
		if r == ',' || r == ';' {
			endPiece(i)
			p.chunkEnds = append(p.chunkEnds, len(p.pieces))
			i += w
			continue
		}
		if n := p.connector(i); n > 0 {
			endPiece(i)
			i += n
			continue
		}
		i += w
	}
	endPiece(len(s))
	p.chunkEnds = append(p.chunkEnds, len(p.pieces))
}

// text returns the item text of pc: a quoted item trimmed of white space, a raw one also
// of trailing .,!?;:.
func (p *parser) text(pc piece) string {
	t := p.s[pc.start:pc.end]
	if pc.quoted {
		return strings.TrimSpace(t)
	}
	return trimItem(t)
}

// trimItem trims white space at both ends of s and trailing .,!?;: characters.
func trimItem(s string) string {
	return trimTrailing(strings.TrimLeftFunc(s, unicode.IsSpace))
}
