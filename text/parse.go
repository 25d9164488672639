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
// and lists, and the other views of it its consumers asked for. A Parse is not safe
// for concurrent use: View fills a cache.
type Parse struct {
	// Msg is the message as given.
	Msg string
	// Tokens are Msg's tokens with the Standard options.
	Tokens []Token
	// Sentences are spans of Tokens, in order, covering every token but line breaks
	// that only end a sentence.
	Sentences []Span
	// Clauses are the clauses of each sentence, in order (see Clause).
	Clauses []Clause
	// Lists are the lists found in the clauses ("Rita, Sam and Leo").
	Lists []List

	views map[Options][]Token
}

// Span is a run of tokens: Tokens[From:To].
type Span struct{ From, To int }

// Len returns the number of tokens in s.
func (s Span) Len() int { return s.To - s.From }

// New reads msg: it tokenizes it with the Standard options and segments it into
// sentences, clauses and lists. Its cost is linear in len(msg).
func New(msg string) *Parse {
	p := &Parse{Msg: msg}
	p.Tokens = Tokenize(msg, Standard)
	p.Sentences = sentences(msg, p.Tokens)
	for _, s := range p.Sentences {
		cs := clauses(p.Tokens, s)
		p.Clauses = append(p.Clauses, cs...)
		for _, c := range cs {
			p.Lists = append(p.Lists, lists(p.Tokens, c.Span)...)
		}
	}
	return p
}

// View returns Msg's tokens cut with o, made once per Options and kept. The caller
// must not change the returned slice.
func (p *Parse) View(o Options) []Token {
	if o == Standard {
		return p.Tokens
	}
	if toks, ok := p.views[o]; ok {
		return toks
	}
	toks := Tokenize(p.Msg, o)
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
	return p.Msg[p.Tokens[s.From].Start:p.Tokens[s.To-1].End]
}
