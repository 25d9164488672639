package text

// Standard are the options of a Parse's own tokens: words joined by apostrophes and
// hyphens, dots between digits ("3.5") and inside emails, emails, URLs, quoted spans,
// plural possessives, contractions expanded.
var Standard = Options{
	Joiners:          "'’-.",
	DigitDots:        true,
	Emails:           true,
	URLs:             true,
	Quotes:           true,
	PluralPossessive: true,
	Expand:           true,
}

// MaxViews bounds the token lists a Parse keeps besides its own; a view asked for
// beyond it is made anew each time.
const MaxViews = 8

// Parse is one message read once: its tokens (Standard options), sentences, clauses
// and lists, and the other views of it its consumers ask for. Each is made the first
// time it is asked for and kept, so a consumer pays only for what it reads. A Parse
// is not safe for concurrent use.
type Parse struct {
	// Msg is the message as given.
	Msg string

	pieces    []piece // the one scan of Msg every token list is joined from
	tokens    []Token
	sentences []Span
	clauses   []Clause
	lists     []List
	segmented bool
	views     map[Options][]Token
}

// Span is a run of tokens: Tokens()[From:To].
type Span struct{ From, To int }

// Len returns the number of tokens in s.
func (s Span) Len() int { return s.To - s.From }

// New returns the parse of msg. It reads nothing yet: tokens and segments are made
// when first asked for, each in time linear in len(msg).
func New(msg string) *Parse { return &Parse{Msg: msg} }

// Tokens returns Msg's tokens with the Standard options. The caller must not change
// the returned slice.
func (p *Parse) Tokens() []Token {
	if p.tokens == nil {
		p.tokens = viewOf(p.Msg, p.scan(), Standard)
	}
	return p.tokens
}

// scan returns the pieces of Msg, scanned the first time.
func (p *Parse) scan() []piece {
	if p.pieces == nil {
		p.pieces = pieces(p.Msg)
	}
	return p.pieces
}

// Sentences returns the sentences of Msg as spans of Tokens, in order, covering
// every token; a line break ends the sentence it is in.
func (p *Parse) Sentences() []Span {
	p.segment()
	return p.sentences
}

// Clauses returns the clauses of every sentence, in order, covering every token (see
// Clause).
func (p *Parse) Clauses() []Clause {
	p.segment()
	return p.clauses
}

// Lists returns the lists found in the clauses ("Rita, Sam and Leo").
func (p *Parse) Lists() []List {
	p.segment()
	return p.lists
}

func (p *Parse) segment() {
	if p.segmented {
		return
	}
	p.segmented = true
	toks := p.Tokens()
	p.sentences = Sentences(toks, StandardSentences)
	for _, s := range p.sentences {
		cs := clauses(toks, s)
		p.clauses = append(p.clauses, cs...)
		for _, c := range cs {
			p.lists = append(p.lists, lists(toks, c.Span)...)
		}
	}
}

// View returns Msg's tokens cut with o, made once per Options and kept (up to
// MaxViews of them). Every view is joined from the one scan of Msg the Parse keeps:
// Msg is read rune by rune once, however many views are asked for. The caller must not change the returned slice.
func (p *Parse) View(o Options) []Token {
	if o == Standard {
		return p.Tokens()
	}
	if toks, ok := p.views[o]; ok {
		return toks
	}
	toks := viewOf(p.Msg, p.scan(), o)
	if p.views == nil {
		p.views = map[Options][]Token{}
	}
	if len(p.views) < MaxViews {
		p.views[o] = toks
	}
	return toks
}

// Cut returns the text of the tokens in s, cut from the message: from the start of
// the first to the end of the last.
func (p *Parse) Cut(s Span) string {
	if s.From >= s.To {
		return ""
	}
	toks := p.Tokens()
	return p.Msg[toks[s.From].Start:toks[s.To-1].End]
}
