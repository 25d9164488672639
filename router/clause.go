package router

import (
	"strings"
)

// leadState records what the skipped lead-ins said.
type leadState struct {
	request bool // "can you", "please", "remember that": a request, even if it ends in "?"
	greeted bool // "hi", "hello": "Hi, I'm Sam" gives a name
}

// skipLeadIns returns the index of the first token at or after i that is not part of a
// lead-in, with the separators after lead-ins (",", ":", "-", "!", "that").
func skipLeadIns(t []token, i int, st *leadState) int {
	for i < len(t) {
		if t[i].kind == tPunct {
			switch t[i].w {
			case ",", ":", "-", "–", "—", "!", "(", ")", "*", "…", "'", "\"", ".":
				i++
				continue
			}
			return i
		}
		if t[i].kind == tQuoted {
			return i
		}
		if colonLeads[t[i].w] && i+1 < len(t) && t[i+1].kind == tPunct && (t[i+1].w == ":" || t[i+1].w == "," || t[i+1].w == "-") {
			i += 2
			continue
		}
		// "Hey Claude, ..."
		if greetings[t[i].w] && i+2 < len(t) && t[i+1].kind == tWord && t[i+2].w == "," && (!pronouns[t[i+1].w] || t[i+1].w == "there") {
			if st != nil {
				st.greeted = true
			}
			i += 3
			continue
		}
		n := 0
		var phrase []string
		for _, l := range leadIndex[t[i].w] {
			if len(l) > n && matchWords(t, i, l) {
				n, phrase = len(l), l
			}
		}
		if n == 0 {
			return i
		}
		// "i think" before "is": "I think is ..." is not a lead-in; leave it.
		if st != nil {
			if greetings[phrase[0]] {
				st.greeted = true
			}
			if requestLeadIns[phrase[0]] || contains(phrase, "you") {
				st.request = true
			}
		}
		i += n
		if i < len(t) && t[i].w == "that" && t[i].kind == tWord {
			i++
		}
	}
	return i
}

func contains(ws []string, w string) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

// matchWords reports whether the words of t from i are ws.
func matchWords(t []token, i int, ws []string) bool {
	if i+len(ws) > len(t) {
		return false
	}
	for k, w := range ws {
		if t[i+k].kind == tQuoted || t[i+k].w != w {
			return false
		}
	}
	return true
}

// cl is one clause being parsed.
type cl struct {
	p        *parser
	t        []token // after lead-ins, without trailing punctuation
	span     string
	question bool
	impliedI bool
	leadState
}

// w returns the normalised word at i, "" out of range, and a sentinel for a quoted
// token so that quoted text never matches a keyword.
func (c *cl) w(i int) string {
	if i < 0 || i >= len(c.t) {
		return ""
	}
	if c.t[i].kind == tQuoted {
		return "\x00quoted"
	}
	return c.t[i].w
}

// at reports whether the words from i are ws; it returns the index after them, or -1.
func (c *cl) at(i int, ws ...string) int {
	if matchWords(c.t, i, ws) {
		return i + len(ws)
	}
	return -1
}

// oneOf returns the index after the longest of phrases matching at i, or -1.
func (c *cl) oneOf(i int, phrases ...[]string) int {
	best := -1
	for _, ph := range phrases {
		if j := c.at(i, ph...); j > best {
			best = j
		}
	}
	return best
}

// text returns the original text of tokens [i, j).
func (c *cl) text(i, j int) string {
	if i >= j || i < 0 || j > len(c.t) {
		return ""
	}
	s, e := c.t[i].s, c.t[j-1].e
	if e < s {
		return ""
	}
	return strings.TrimSpace(c.p.msg[s:e])
}

// words returns the normalised words of tokens [i, j) joined by spaces.
func (c *cl) words(i, j int) string {
	var b strings.Builder
	for k := i; k < j; k++ {
		if k > i {
			b.WriteByte(' ')
		}
		b.WriteString(c.t[k].w)
	}
	return b.String()
}

// parseClause parses one clause. impliedI says the previous clause's subject was "I",
// so a clause may start with its verb ("... and work at Google").
func (p *parser) parseClause(toks []token, question, impliedI bool) outcome {
	// Trim punctuation at both ends.
	for len(toks) > 0 && toks[len(toks)-1].kind == tPunct && trimPunct(toks[len(toks)-1].w) {
		toks = toks[:len(toks)-1]
	}
	if len(toks) == 0 {
		return none
	}
	c := &cl{p: p, question: question, impliedI: impliedI}
	c.greeted = p.greetedClause
	c.span = strings.TrimSpace(p.msg[toks[0].s:toks[len(toks)-1].e])
	start := skipLeadIns(toks, 0, &c.leadState)
	c.t = toks[start:]
	if len(c.t) == 0 {
		return none
	}
	if guards[c.w(0)] || (c.w(0) == "when" || c.w(0) == "whenever" || c.w(0) == "after") && !c.question {
		return outcome{route: RouteNone, conditional: true}
	}
	if key, j, _ := c.keyAt(0); key != "" && c.w(j) == ":" {
		// "Email: bob@example.com", as in a form.
		if o, ok := c.setFact(key, j+1, len(c.t)); ok {
			return o
		}
		return none
	}
	first := c.w(0)
	if !c.question {
		if o, ok := c.basics(); ok {
			return o
		}
	}
	switch {
	case readStarts[first] || first == "i" && c.iAsks():
		if o, ok := c.query(); ok {
			return o
		}
		return none
	case first == "is" || first == "are":
		if c.question {
			if o, ok := c.yesNo(); ok {
				return o
			}
		}
		return none
	case commands[first]:
		if o, ok := c.command(); ok {
			return o
		}
		return none
	}
	if c.question {
		// "My favorite movies?" asks; "My favorite color is blue?" states nothing,
		// unless it was asked for politely: "Can you remember that ...?"
		if first == "my" {
			if o, ok := c.npQuery(0, modeTell, ""); ok {
				return o
			}
		}
		if !c.request {
			return none
		}
	}
	switch {
	case first == "my":
		if o, ok := c.myStatement(); ok {
			return o
		}
	case first == "one" || first == "among" || first == "amongst" || first == "some" || first == "two" || first == "three" || first == "a":
		if o, ok := c.memberFirst(); ok {
			return o
		}
	case first == "favorite" || first == "favorites" || first == "top":
		if o, ok := c.favStatement(0); ok {
			return o
		}
	case first == "i":
		if o, ok := c.iStatement(1); ok {
			return o
		}
		if o, ok := c.reachMe(); ok {
			return o
		}
	case c.impliedI && iVerbs[first]:
		if o, ok := c.iStatement(0); ok {
			return o
		}
	case first == "we":
		if o, ok := c.weStatement(); ok {
			return o
		}
	case first == "been":
		if o, ok := c.beenAt(1); ok {
			return o
		}
	case first == "call" || first == "reach" || first == "contact" || first == "email" || first == "text" || first == "you" || first == "people" || first == "everyone" || first == "everybody" || first == "they" || first == "friends":
		if o, ok := c.callMe(); ok {
			return o
		}
	}
	if o, ok := c.inverted(); ok {
		return o
	}
	// "I teach yoga in the mornings and work as a barista at ...": the clause states
	// nothing the router keeps, but its subject carries to the next.
	return outcome{route: RouteNone, subjectI: first == "i" || c.impliedI && iVerbs[first]}
}

// readStarts open a read.
var readStarts = map[string]bool{
	"what": true, "which": true, "who": true, "where": true, "when": true, "list": true,
	"show": true, "tell": true, "give": true, "remind": true, "display": true, "recite": true,
	"do": true, "does": true, "did": true, "name": true, "whats": true, "how": true,
	"let": true, "read": true, "print": true, "enumerate": true, "recall": true,
}

// commands open an imperative write.
var commands = map[string]bool{
	"add": true, "include": true, "put": true, "save": true, "insert": true, "append": true,
	"remove": true, "delete": true, "drop": true, "erase": true, "take": true, "move": true,
	"make": true, "replace": true, "swap": true, "set": true, "change": true, "update": true,
	"rank": true, "bump": true, "store": true, "record": true, "note": true, "get": true,
	"cross": true, "scratch": true, "switch": true, "exchange": true, "flip": true,
	"send": true, "push": true,
}

// iVerbs may open a clause whose subject "I" was given by the clause before.
var iVerbs = map[string]bool{
	"live": true, "work": true, "moved": true, "am": true, "relocated": true, "just": true,
	"currently": true, "now": true, "recently": true, "also": true, "still": true,
	"have": true, "reside": true, "go": true, "was": true, "living": true, "based": true,
	"working": true, "residing": true,
}

// statement builds an outcome with one statement.
func (c *cl) statement(st Statement) outcome {
	st.Span = c.span
	return outcome{route: RouteWrite, stmts: []Statement{st}}
}

// ask builds a write outcome asking back.
func (c *cl) ask(q string) outcome {
	return outcome{route: RouteWrite, clarify: q}
}
