package router

import "github.com/factbase/factbase/text"

// parser holds the state of one Parse call.
type parser struct {
	msg     string
	toks    []token
	view    []text.Token // the front end's tokens of msg, which toks are made from
	stmts   []Statement
	queries []Query
	clarify []string
	// writeClarify and readClarify record which kind of clause asked back.
	writeClarify, readClarify bool
	// greeted says the sentence before was only a greeting ("Hello! I'm Tom.").
	greeted bool
	// greetedClause passes greeted to the first clause of the next sentence.
	greetedClause bool
	// ref is the last thing an earlier clause of the message named, which "it" in a
	// later command stands for: the one value of a favorites statement (refTopic is
	// then its list), or what a clause that stated nothing was about ("I'm done with
	// Heat", "Zuni closed"; see mention).
	ref, refTopic string
	// listTopic is the list of the message's last favorites statement, which "that
	// list" names ("... Also add baklava to that list.").
	listTopic string
	// jobCue says the sentence speaks of jobs ("quit", "job", "hired"), so that "I'm
	// at Datadog now" names an employer rather than a place.
	jobCue bool
}

// outcome is what one clause says.
type outcome struct {
	route    Route
	stmts    []Statement
	queries  []Query
	clarify  string
	subjectI bool // the clause's subject was "I": a following "and work at X" shares it
	// conditional: the clause opened with "if", "maybe", "when", ...; the rest of its
	// sentence states nothing as fact ("If I had to choose, my favorite is red").
	conditional bool
}

var none = outcome{route: RouteNone}

// run cuts the message's tokens into sentences and clauses and parses each.
func (p *parser) run() {
	p.toks = thirdPerson(p.toks)
	for _, s := range p.sentences() {
		p.sentence(s.From, s.To)
	}
}

func isTerminal(w string) bool { return w == "." || w == "!" || w == "?" || w == "…" }

// sentence parses tokens [a, b) as one sentence.
func (p *parser) sentence(a, b int) {
	// Terminal punctuation: note a question, then drop it.
	question := false
	for b > a && p.toks[b-1].kind == tPunct && (isTerminal(p.toks[b-1].w) || p.toks[b-1].w == "\n" || p.toks[b-1].w == ";") {
		if p.toks[b-1].w == "?" {
			question = true
		}
		b--
	}
	if a >= b {
		return
	}
	toks := p.toks[a:b]
	p.jobCue = false
	for _, t := range toks {
		p.jobCue = p.jobCue || t.kind == tWord && jobCues[t.w]
	}

	// Connector regions: maximal runs of connector tokens inside the sentence.
	type region struct{ s, e int }
	var regions []region
	for i := 1; i < len(toks); i++ {
		if toks[i].kind != tPunct && toks[i].kind != tWord || !connectors[toks[i].w] {
			continue
		}
		j := i
		for j < len(toks) && (toks[j].kind == tPunct || toks[j].kind == tWord) && connectors[toks[j].w] {
			j++
		}
		if j < len(toks) {
			regions = append(regions, region{i, j})
		}
		i = j
	}

	// Cut at a region when what follows reads as a clause of its own. Each segment is
	// parsed at most once here, so the cost stays linear.
	// verbsBefore[i] counts the clause-marking tokens in toks[:i], so that whether a
	// stretch holds a verb is known in constant time.
	verbsBefore := make([]int, len(toks)+1)
	for i, t := range toks {
		verbsBefore[i+1] = verbsBefore[i]
		if clauseMarker(t) {
			verbsBefore[i+1]++
		}
	}
	cuts := []region{}
	from := 0
	for k, r := range regions {
		segEnd := len(toks)
		if k+1 < len(regions) {
			segEnd = regions[k+1].s
		}
		seg := toks[r.e:segEnd]
		last := segEnd == len(toks)
		// What comes before must be a clause too: "Tokyo and Kyoto are my favorite
		// cities" is one clause, and so is "Hi, I'm Sam".
		if verbsBefore[r.s] == verbsBefore[from] && !startsCommand(seg) {
			continue
		}
		if p.startsClause(seg) || p.parseClause(seg, question && last, true).route != RouteNone {
			cuts = append(cuts, r)
			from = r.e
		}
	}

	prevI := false
	from = 0
	greeted := p.greeted
	p.greeted = false
	if st := (leadState{}); skipLeadIns(toks, 0, &st) == len(toks) && st.greeted {
		p.greeted = true
		return
	}
	conditional := false
	emit := func(to int, last bool) {
		p.greetedClause = greeted && from == 0
		o := p.parseClause(toks[from:to], question && last, prevI)
		p.greetedClause = false
		if o.conditional {
			conditional = true
		}
		if conditional {
			return
		}
		prevI = o.subjectI
		p.remember(toks[from:to], o)
		p.stmts = append(p.stmts, o.stmts...)
		p.queries = append(p.queries, o.queries...)
		if o.clarify != "" {
			p.clarify = append(p.clarify, o.clarify)
			if o.route == RouteWrite {
				p.writeClarify = true
			} else {
				p.readClarify = true
			}
		}
	}
	for _, r := range cuts {
		emit(r.s, false)
		from = r.e
	}
	emit(len(toks), true)
}

// startsClause reports whether seg opens with "my" or "I" (after lead-ins) and holds a
// verb: "and my sister's is green", "and I love it". Such a segment is a clause even
// when it states nothing the router keeps, so it must not be read as a list item.
func (p *parser) startsClause(seg []token) bool {
	i := skipLeadIns(seg, 0, nil)
	if i >= len(seg) || (seg[i].w != "my" && seg[i].w != "i") || seg[i].kind == tQuoted {
		return false
	}
	for _, t := range seg[i+1:] {
		// "... and I watch it every year": "I" and another word make a clause.
		if seg[i].w == "i" && t.kind == tWord || clauseMarker(t) {
			return true
		}
	}
	return false
}

// clauseMarker reports whether t marks a clause: a verb, or the ":" of "my favorite
// foods: ...".
func clauseMarker(t token) bool {
	return t.kind == tWord && (verbs[t.w] || moreVerbs[t.w] || t.w == "i") || t.kind == tPunct && t.w == ":"
}

// jobCues in a sentence make it speak of jobs.
var jobCues = map[string]bool{
	"quit": true, "job": true, "jobs": true, "hired": true, "resigned": true,
	"switched": true, "employer": true, "joined": true, "laid": true, "fired": true,
}

// startsCommand reports whether seg opens, after lead-ins, with an imperative verb
// followed by a list reference ("Not a fan of Heat anymore, remove it from my
// favorite movies"): a clause whatever comes before.
func startsCommand(seg []token) bool {
	i := skipLeadIns(seg, 0, nil)
	if i >= len(seg) || seg[i].kind != tWord || !commands[seg[i].w] {
		return false
	}
	for _, t := range seg[i+1:] {
		if t.kind == tWord && (t.w == "favorite" || t.w == "favorites") {
			return true
		}
	}
	return false
}
