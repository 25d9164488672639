package router

import (
	"iter"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/factbase/factbase/normalize"
	"github.com/factbase/factbase/text"
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

// frontEnd are the options the router reads a message with: "@_&+%$€£" and marks
// are word runes, . ' ’ - / ‐ join letters and digits ("node.js", "ac/dc"), quoted
// spans are one token, pasted command-line flags ("--json") are skipped.
var frontEnd = text.Options{
	WordSymbols: "@_&+%$€£", Marks: true, Joiners: ".'’-/‐",
	Quotes: true, SkipFlags: true, PluralPossessive: true,
}

// tokenize splits msg (valid UTF-8) into tokens. Its cost is linear in len(msg).
func tokenize(msg string) []token { return tokensOf(msg, text.All(msg, frontEnd), len(msg)/4+1) }

// ParseText is Parse reading the parse of a message: the router's view of it is cut
// once and shared with the message's other readers. A message Parse would clean or
// refuse goes through Parse.
func ParseText(tp *text.Parse) (Result, error) {
	if len(tp.Msg) > MaxMessage || !utf8.ValidString(tp.Msg) {
		return Parse(tp.Msg)
	}
	in := tp.View(frontEnd)
	return parse(tp.Msg, in, tokensOf(tp.Msg, slices.Values(in), len(in)+len(in)/8))
}

// tokensOf converts the front end's tokens of msg (about n router tokens). Words go through appendWord, the
// router's own reading of contractions, possessives, "favourite" and hyphens; a
// symbol (an emoji) is a word, as it can be a value: "My favorite emoji is 🙂".
func tokensOf(msg string, in iter.Seq[text.Token], n int) []token {
	toks := make([]token, 0, n)
	for t := range in {
		switch t.Kind {
		case text.Word, text.Number, text.Email, text.URL:
			toks = appendWord(toks, msg[t.Start:t.End], t.Start, t.End)
		case text.Quoted:
			toks = append(toks, token{w: t.W, s: t.Start, e: t.End, kind: tQuoted})
		case text.Symbol:
			toks = append(toks, token{w: t.W, s: t.Start, e: t.End, kind: tWord})
		default:
			toks = append(toks, token{w: t.W, s: t.Start, e: t.End, kind: tPunct})
		}
	}
	return toks
}

// quoteFamily returns 1 for double quotes, 2 for single quotes, 0 otherwise.
func quoteFamily(r rune) int { return text.QuoteFamily(r) }

// appendWord appends the tokens of one raw word spanning [s, e).
func appendWord(toks []token, raw string, s, e int) []token {
	lw := text.Lower(raw)
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

// sentences returns the sentences of p.toks as spans of them: the front end's
// sentences of p.view by the router's rules. A sentence ends at . ! ? … and line
// breaks, not at ";"; a run of . ! ? … stays with the sentence it ends; a dot right
// after a word the router reads as an abbreviation ("Dr. No") or a single letter
// ("J. R. R. Tolkien") is no end. Such dots are still clause connectors, so "... is
// J. My favorite ..." is cut when the rest is a clause.
func (p *parser) sentences() []text.Span {
	rules := text.SentenceRules{Ends: "!?…", Runs: ".!?…", KeepDot: func(i int) bool {
		d := p.tokenAt(p.view[i].Start)
		if d <= 0 {
			return false
		}
		prev := p.toks[d-1]
		return prev.e == p.toks[d].s && prev.kind == tWord &&
			(abbreviations[prev.w] || utf8.RuneCountInString(prev.w) == 1)
	}}
	var out []text.Span
	j := 0
	for _, s := range text.Sentences(p.view, rules) {
		end := p.view[s.To-1].End
		from := j
		for j < len(p.toks) && p.toks[j].e <= end {
			j++
		}
		if j > from {
			out = append(out, text.Span{From: from, To: j})
		}
	}
	if j < len(p.toks) {
		out = append(out, text.Span{From: j, To: len(p.toks)})
	}
	return out
}

// tokenAt returns the index in p.toks of the punctuation token starting at byte s
// of the message, or -1.
func (p *parser) tokenAt(s int) int {
	i := sort.Search(len(p.toks), func(i int) bool { return p.toks[i].s >= s })
	for ; i < len(p.toks) && p.toks[i].s == s; i++ {
		if p.toks[i].kind == tPunct {
			return i
		}
	}
	return -1
}
