package router

import "github.com/factbase/factbase/normalize"

// Anaphora within one message: "I'm done with Heat, take it off my favorite movies",
// "Add Tenet to my favorite movies. Hmm, no, remove it again."

// remember records what a clause just parsed names, for an "it" in a later clause
// (parser.ref): the one value of its last favorites statement, else, when it stated
// nothing, what it is about (mention). A clause that states other facts forgets.
func (p *parser) remember(toks []token, o outcome) {
	if len(o.stmts) > 0 {
		p.ref, p.refTopic = "", ""
		st := o.stmts[len(o.stmts)-1]
		if st.Key == "" && !st.Least && st.Topic != "" {
			p.listTopic = st.Topic
		}
		if st.Key == "" && !st.Least && st.Topic != "" && len(st.Values) == 1 && st.Kind != Remove {
			p.ref, p.refTopic = st.Values[0], st.Topic
		}
		return
	}
	if m := p.mention(toks); m != "" {
		p.ref, p.refTopic = m, ""
	}
}

// mention returns what a clause that states nothing is about, when it is one of a few
// forms that announce a change of heart: "I'm done with X", "I'm (so) over X", "I'm
// tired of X", "I don't like X anymore", "X closed", "X got cancelled". X must look
// like the name of an item (see itemLike); "" otherwise.
func (p *parser) mention(toks []token) string {
	for len(toks) > 0 && toks[len(toks)-1].kind == tPunct && trimPunct(toks[len(toks)-1].w) {
		toks = toks[:len(toks)-1]
	}
	start := skipLeadIns(toks, 0, nil)
	c := &cl{p: p, t: toks[start:]}
	end := c.trimAnymore(0, len(c.t))
	for end > 0 && (c.w(end-1) == "now" || c.w(end-1) == "already") {
		end--
	}
	from, to := -1, end
	if n := c.fanOf(0); n > 0 {
		// "Not a fan of Heat anymore"
		from = n
	} else if c.w(0) == "i" {
		k := 1
		switch {
		case c.fanOf(k) > 0:
			from = c.fanOf(k)
		case c.fanOf(k+1) > 0 && c.w(k) == "am":
			from = c.fanOf(k + 1)
		case c.oneOf(k, turnedAway...) > 0:
			from = c.oneOf(k, turnedAway...)
		case c.w(k) == "am":
			k++
			for adverbs[c.w(k)] || c.w(k) == "so" || c.w(k) == "kind" || c.w(k) == "sort" || c.w(k) == "of" && (c.w(k-1) == "kind" || c.w(k-1) == "sort") {
				k++
			}
			if c.w(k) == "fed" && c.w(k+1) == "up" {
				k++
			}
			if !doneWords[c.w(k)] {
				return ""
			}
			k++
			if c.w(k) == "with" || c.w(k) == "of" {
				k++
			} else if c.w(k-1) != "over" {
				return ""
			}
			from = k
		case c.at(k, "do", "not") > 0 || c.at(k, "no", "longer") > 0:
			k += 2
			if !likeVerbs[c.w(k)] && c.w(k) != "care" {
				return ""
			}
			k++
			if c.w(k) == "for" {
				k++
			}
			from = k
		default:
			return ""
		}
	} else {
		// "X closed", "X got cancelled": a short name, then the verb.
		v := 0
		for v < len(c.t) && v < 5 && c.t[v].kind != tPunct && !endVerbs[c.w(v)] {
			v++
		}
		if v == 0 || v == 5 || !endVerbs[c.w(v)] {
			return ""
		}
		from, to = 0, v
	}
	vi, vj, _ := c.trimValue(from, to)
	if vi >= vj || c.vague(vi, vj) || c.hasVerb(vi, vj) {
		return ""
	}
	v := c.single(vi, vj)
	if v == "" || !itemLike([]string{v}) || normalize.Value(v) == "" {
		return ""
	}
	return v
}

// doneWords follow "I'm" when the user is through with something.
var doneWords = map[string]bool{
	"done": true, "over": true, "finished": true, "through": true, "bored": true,
	"sick": true, "tired": true, "up": true,
}

// endVerbs say that a thing is no more, or no longer good: "Zuni closed".
var endVerbs = map[string]bool{
	"closed": true, "shut": true, "died": true, "ended": true, "broke": true,
	"got": true, "was": true, "has": true, "is": true, "went": true, "sucks": true,
	"disappointed": true, "changed": true, "jumped": true, "fell": true,
}

// cancel drops a value that a later one-value Remove of the message takes back from
// the same list ("Add Tenet to my favorite movies. Hmm, no, remove it again."):
// neither is stored, and a statement left with no value goes. Only the last earlier
// statement that adds to the list is looked at. Linear in the number of values.
func cancel(stmts []Statement) []Statement {
	last := map[string]int{} // topic -> index of the last Add or SetRank
	dropped := false
	for r := range stmts {
		st := &stmts[r]
		if st.Key != "" || st.Least || st.Topic == "" {
			continue
		}
		switch st.Kind {
		case Add, SetRank:
			last[st.Topic] = r
		case Remove:
			e, ok := last[st.Topic]
			if !ok || len(st.Values) != 1 {
				continue
			}
			n, prev := normalize.Value(st.Values[0]), &stmts[e]
			for i, x := range prev.Values {
				if normalize.Value(x) == n {
					prev.Values = append(prev.Values[:i:i], prev.Values[i+1:]...)
					st.Values, dropped = nil, true
					break
				}
			}
		}
	}
	if !dropped {
		return stmts
	}
	out := stmts[:0]
	for _, st := range stmts {
		if len(st.Values) > 0 {
			out = append(out, st)
		}
	}
	return out
}

// fanOf returns the index after "(no longer | not) a (big) fan of" at k, or -1.
func (c *cl) fanOf(k int) int {
	switch {
	case c.w(k) == "not":
		k++
	case c.at(k, "no", "longer") > 0:
		k += 2
	default:
		return -1
	}
	if c.w(k) != "a" {
		return -1
	}
	k++
	for c.w(k) == "big" || c.w(k) == "huge" || c.w(k) == "great" {
		k++
	}
	return c.at(k, "fan", "of")
}

// turnedAway are what follows "I" when the user turned away from a thing: "I've
// gone off sushi", "I never liked Heat".
var turnedAway = [][]string{
	{"have", "gone", "off"}, {"went", "off"}, {"have", "had", "enough", "of"},
	{"got", "tired", "of"}, {"got", "bored", "of"}, {"got", "sick", "of"},
	{"have", "outgrown"}, {"outgrew"}, {"gave", "up", "on"}, {"have", "given", "up", "on"},
	{"stopped", "liking"}, {"never", "liked"}, {"never", "really", "liked"},
	{"have", "never", "liked"}, {"have", "never", "really", "liked"},
}
