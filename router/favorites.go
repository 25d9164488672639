package router

import "strings"

// frame is the "my [#2 | top 3 | all-time] favorite(s)" part of a clause.
type frame struct {
	rank   int  // explicit rank, 0 if none
	top    bool // "top" or a bare count: ranked from 1
	limit  int  // the count after "top", 0 if none
	plural bool // "favorites"
	fav    bool // the word "favorite(s)" was there
	least  bool // "least favorite": a dislike
	next   int  // index after the frame
}

// frame parses a frame starting at "my" at i.
func (c *cl) frame(i int) (frame, bool) {
	var f frame
	if i == 0 && (c.w(0) == "favorite" || c.w(0) == "favorites") && len(c.t) > 1 {
		// "Favorite color: blue", as in a form.
		f.fav, f.plural = true, c.w(0) == "favorites"
		f.next = c.skipAdjectives(1)
		return f, true
	}
	if i == 0 && c.w(0) == "top" {
		// "Top 3 movies: ..."
		if r, ok := c.rankAt(0); ok {
			f.top, f.limit = true, r.limit
			f.next = r.next
			if c.w(f.next) == "favorite" || c.w(f.next) == "favorites" {
				f.fav = true
				f.next++
			}
			return f, true
		}
	}
	if c.w(i) != "my" || i+1 >= len(c.t) || c.t[i+1].poss || c.t[i+1].kind == tQuoted {
		return f, false
	}
	j := i + 1
	if n := c.at(j, "list", "of"); n > 0 {
		// "my list of (my) favorite movies"
		j = n
		if c.w(j) == "my" {
			j++
		}
	}
	j = c.skipAdjectives(j)
	rankStyle := false // "#2" or "number 2": may stand without "favorite"
	if r, ok := c.rankAt(j); ok {
		f.rank, f.top, f.limit = r.rank, r.top, r.limit
		rankStyle = r.top || r.explicit
		j = r.next
	}
	j = c.skipAdjectives(j)
	if c.w(j) == "least" {
		f.least = true
		j++
	}
	switch c.w(j) {
	case "favorite":
		f.fav = true
		j++
	case "favorites":
		f.fav, f.plural = true, true
		j++
	default:
		if !rankStyle {
			return f, false
		}
	}
	if j < len(c.t) && c.t[j-1].poss {
		// "my favorite's": not a frame.
		return f, false
	}
	f.next = c.skipAdjectives(j)
	return f, true
}

// skipAdjectives skips words such as "all time", "absolute", "new" after "my".
func (c *cl) skipAdjectives(j int) int {
	for {
		switch {
		case c.w(j) == "all" && c.w(j+1) == "time":
			j += 2
		case c.w(j) == "alltime" || frameAdjectives[c.w(j)] && c.w(j+1) != "" && !c.t[j].poss:
			j++
		default:
			return j
		}
	}
}

// rankPhrase is a parsed rank: "#4", "4th", "fourth", "number four", "top 3".
type rankPhrase struct {
	rank     int
	top      bool
	limit    int
	explicit bool // "#N" or "number N"
	next     int
}

// rankAt parses a rank phrase at j.
func (c *cl) rankAt(j int) (rankPhrase, bool) {
	w := c.w(j)
	var r rankPhrase
	switch {
	case w == "#" && c.t[j].kind == tPunct:
		if n := numberValue(c.w(j + 1)); n > 0 {
			r = rankPhrase{rank: n, explicit: true, next: j + 2}
		} else if n := ordinalValue(c.w(j + 1)); n > 0 {
			r = rankPhrase{rank: n, explicit: true, next: j + 2}
		}
	case w == "number" || w == "no" || w == "num" || w == "nr" || w == "no.":
		k := j + 1
		if c.w(k) == "." {
			k++
		}
		if n, next := c.numberAt(k); n > 0 {
			r = rankPhrase{rank: n, explicit: true, next: next}
		}
	case w == "top":
		r = rankPhrase{top: true, next: j + 1}
		if n, next := c.numberAt(j + 1); n > 0 {
			r.limit, r.next = n, next
		}
	case tens[w] > 0 && ordinalUnits[c.w(j+1)] > 0 && ordinalUnits[c.w(j+1)] < 10:
		r = rankPhrase{rank: tens[w] + ordinalUnits[c.w(j+1)], next: j + 2}
	case ordinalValue(w) > 0:
		r = rankPhrase{rank: ordinalValue(w), next: j + 1}
	default:
		// A bare count before "favorite": "my 3 favorite movies are ...".
		if n, next := c.numberAt(j); n > 0 && (c.w(next) == "favorite" || c.w(next) == "favorites") {
			r = rankPhrase{top: true, limit: n, next: next}
		}
	}
	if r.next == 0 {
		return r, false
	}
	if r.rank > MaxRank || r.limit > MaxRank {
		return r, false
	}
	// "second most favorite", "#1 most".
	if c.w(r.next) == "most" && c.w(r.next+1) == "favorite" {
		r.next++
	}
	return r, true
}

// numberAt parses a number at k: "4", "four", "twenty one".
func (c *cl) numberAt(k int) (int, int) {
	w := c.w(k)
	n := numberValue(w)
	if n == 0 {
		return 0, k
	}
	if tens[w] > 0 {
		if u := cardinals[c.w(k+1)]; u > 0 && u < 10 {
			return n + u, k + 2
		}
	}
	return n, k + 1
}

// copula is how a topic is tied to its value.
type copula struct {
	form string // "is", "are", ":" (also "=", "-"), "past", "future", "" (none)
	at   int    // first token of the copula; for a possessive, the token after it
	next int    // first token after it
	poss bool   // the copula is the possessive on the topic's last word
	// modal: "would be", "has to be": with a plural topic the value is a list.
	modal bool
	// topicEnd, when not 0, ends the topic before an aside: "my favorite movie, by
	// the way, is".
	topicEnd int
}

// copulaAt finds the copula after a topic starting at j, looking at most a few words
// ahead. A possessive on a topic word ("my favorite color's blue") is read as "is".
func (c *cl) copulaAt(j int) copula {
	for k := j; k < len(c.t) && k < j+10; k++ {
		t := c.t[k]
		if t.kind == tQuoted {
			return copula{}
		}
		w := t.w
		if t.kind == tPunct {
			switch w {
			case ":", "=", "-", "–", "—":
				return copula{form: ":", at: k, next: k + 1}
			case "&", "'":
				continue
			}
			return copula{}
		}
		if t.poss && c.w(k+1) != "" {
			return copula{form: "is", at: k + 1, next: k + 1, poss: true}
		}
		switch w {
		case "is", "remains", "stays":
			return copula{form: "is", at: k, next: k + 1}
		case "are", "include", "includes", "remain", "stay":
			return copula{form: "are", at: k, next: k + 1}
		case "was", "were", "used", "had":
			return copula{form: "past", at: k, next: k + 1}
		case "would", "must":
			if c.w(k+1) == "be" {
				return copula{form: "is", at: k, next: k + 2, modal: true}
			}
			if c.w(k+1) == "have" && c.w(k+2) == "been" {
				return copula{form: "past", at: k}
			}
			if n := c.at(k+1, "have", "to", "be"); n > 0 {
				return copula{form: "is", at: k, next: n, modal: true}
			}
			return copula{}
		case "has", "have":
			if n := c.at(k+1, "to", "be"); n > 0 {
				return copula{form: "is", at: k, next: n, modal: true}
			}
			m := k + 1
			for adverbs[c.w(m)] {
				m++
			}
			if c.w(m) == "been" {
				return copula{form: "is", at: k, next: m + 1}
			}
			return copula{}
		case "will":
			m := k + 1
			if c.w(m) == "always" || c.w(m) == "forever" {
				if c.w(m+1) == "be" {
					return copula{form: "is", at: k, next: m + 2}
				}
			}
			return copula{form: "future", at: k}
		}
		if topicVerbs[w] {
			return copula{}
		}
	}
	return copula{}
}

// topic validates tokens [i, j) as a topic phrase and returns it lower-cased; empty
// reports no topic words at all, ok=false a phrase that is not a list topic.
//
// lastPoss allows a possessive on the last word ("my favorite color's blue").
func (c *cl) topic(i, j int, lastPoss bool) (topic string, ok bool, empty bool) {
	j = c.trimTopicTail(i, j)
	if i >= j || j == i+1 && (c.w(i) == "list" || c.w(i) == "lists") {
		return "", true, true
	}
	if j-i > 6 {
		return "", false, false
	}
	if topicRejects[c.w(i)] {
		return "", false, false
	}
	for k := i; k < j; k++ {
		t := c.t[k]
		switch {
		case t.kind == tQuoted, t.poss && !(lastPoss && k == j-1):
			return "", false, false
		case t.kind == tPunct && t.w != "&" && t.w != "-" && t.w != "'":
			return "", false, false
		case pronouns[t.w], topicVerbs[t.w], t.w == "not", t.w == "never", t.w == "about",
			t.w == "favorite", t.w == "favorites", t.w == "my":
			return "", false, false
		case t.w == "of" && k+1 < j && specific[c.w(k+1)]:
			return "", false, false
		}
	}
	if c.w(j-1) == "and" || c.w(j-1) == "of" || c.w(j-1) == "or" {
		return "", false, false
	}
	return c.words(i, j), true, false
}

// specific words after "of" tie a topic to one thing: "part of this song".
var specific = map[string]bool{
	"this": true, "that": true, "my": true, "your": true, "his": true, "her": true,
	"their": true, "our": true, "its": true, "these": true, "those": true, "it": true,
}

// trimTopicTail drops trailing phrases such as "of all time" from tokens [i, j).
func (c *cl) trimTopicTail(i, j int) int {
	for j > i && c.t[j-1].kind == tPunct && trimPunct(c.t[j-1].w) {
		j--
	}
	for changed := true; changed; {
		changed = false
		for _, ph := range topicTails {
			if k := j - len(ph); k > i && matchWords(c.t, k, ph) {
				j, changed = k, true
				for j > i && c.t[j-1].kind == tPunct && trimPunct(c.t[j-1].w) {
					j--
				}
			}
		}
	}
	return j
}

// myStatement parses a clause that starts with "my".
func (c *cl) myStatement() (outcome, bool) {
	if o, ok := c.keyStatement(0); ok {
		return o, true
	}
	return c.favStatement(0)
}

// favStatement parses "my [rank] favorite(s) TOPIC (is|are|:) VALUES" from i.
func (c *cl) favStatement(i int) (outcome, bool) {
	f, ok := c.frame(i)
	if !ok {
		return none, false
	}
	cop := c.copulaAt(f.next)
	orderedAt := -1
	for k := f.next; k < len(c.t) && k < f.next+8; k++ {
		if c.w(k) != "," {
			continue
		}
		// "My favorite fruits, in order, are ...", "My favorite movie, by the way, is ..."
		for _, ph := range orderPhrases {
			if n := c.at(k+1, ph...); n > 0 && c.w(n) == "," {
				orderedAt, cop = k, c.copulaAt(n+1)
				break
			} else if n > 0 && c.w(n) == ":" {
				// "My favorite movies, in order: Alien > Heat > Up"
				orderedAt, cop = k, copula{form: ":", at: n, next: n + 1}
				break
			}
		}
		if orderedAt < 0 {
			if n := skipLeadIns(c.t, k+1, nil); n > k+1 && c.w(n-1) == "," {
				aside := c.copulaAt(n)
				aside.topicEnd = k
				cop = aside
			}
		}
		break
	}
	switch cop.form {
	case "":
		return none, false
	case "past", "future":
		return none, true
	}
	topicEnd, ordered := cop.at, false
	if cop.topicEnd > 0 {
		topicEnd = cop.topicEnd
	}
	if orderedAt >= 0 {
		topicEnd, ordered = orderedAt, true
	}
	for _, ph := range orderPhrases {
		if k := topicEnd - len(ph); k > f.next && matchWords(c.t, k, ph) {
			// "My favorite colors in order are ..."
			topicEnd, ordered = k, true
			break
		}
	}
	topic, ok, empty := c.topic(f.next, topicEnd, cop.poss && !ordered)
	if !ok {
		return none, true
	}
	v := cop.next
	for adverbs[c.w(v)] {
		v++
	}
	remove := false
	switch {
	case c.w(v) == "no" && c.w(v+1) == "longer":
		remove, v = true, v+2
	case c.w(v) == "not":
		// "My favorite color is not blue anymore" removes; "... is not blue" denies.
		if !c.endsAnymore(v + 1) {
			return none, true
		}
		remove, v = true, v+1
	case c.w(v) == "never" || c.w(v) == "none" || c.w(v) == "nothing":
		return none, true
	}
	if n := c.oneOf(v, []string{"the", "following"}, []string{"as", "follows"}, []string{"these"}); n > 0 && c.w(n) == ":" {
		// "My favorite movies are the following: ..."
		v = n + 1
	}
	vi, vj, inOrder := c.trimValue(v, c.trimAnymore(v, len(c.t)))
	seq := c.sequence(vi, vj)
	inOrder = inOrder || ordered || seq
	if c.conditionalIn(vi, vj) {
		return none, true
	}
	asList := cop.form == "are" || f.plural || f.top || inOrder || seq ||
		(cop.form == ":" || cop.modal) && plural(topic)
	if vi < vj && c.vague(vi, vj) {
		return none, true
	}
	values := c.values(vi, vj, asList)
	switch {
	case empty && len(values) == 0:
		return none, true
	case empty:
		return c.ask("Which list should I add " + clip(strings.Join(values, ", ")) + " to?"), true
	case len(values) == 0:
		return c.ask(topicQuestion(topic, f, cop.form == "are" || f.plural)), true
	}
	if f.least {
		// "My least favorite vegetable is okra": one value, no list.
		if remove || f.rank > 0 || f.top || inOrder || asList || len(values) != 1 {
			return none, true
		}
		return c.statement(Statement{Kind: Set, Topic: topic, Values: values, Least: true}), true
	}
	st := Statement{Kind: Add, Topic: topic, Values: values}
	switch {
	case remove:
		st.Kind = Remove
	case f.rank > 0:
		st.Kind, st.Rank = SetRank, f.rank
	case f.top || inOrder:
		st.Kind, st.Rank = SetRank, 1
	case !asList && len(values) == 1 && !cop.modal:
		// "My favorite X is Y" names THE favorite: Y takes #1, so that "What is my
		// favorite X?" answers Y right after, whatever the list held before.
		st.Kind, st.Rank = SetRank, 1
	}
	return c.statement(st), true
}

// topicQuestion asks for the value of a topic: "What is your 4th favorite color?"
func topicQuestion(topic string, f frame, pl bool) string {
	verb := "is"
	if pl || f.top {
		verb = "are"
	}
	rank := ""
	switch {
	case f.rank > 0:
		rank = ordinal(f.rank) + " "
	case f.top && f.limit > 0:
		return "What are your top " + itoa(f.limit) + " " + topic + "?"
	case f.top:
		return "What are your top " + topic + "?"
	}
	return "What " + verb + " your " + rank + "favorite " + topic + "?"
}

// endsAnymore reports whether the clause ends with "anymore", "any more" or "any
// longer" (after trailing punctuation).
func (c *cl) endsAnymore(from int) bool {
	return c.trimAnymore(from, len(c.t)) < c.trimPunctEnd(from, len(c.t))
}

func (c *cl) trimPunctEnd(i, j int) int {
	for j > i && c.t[j-1].kind == tPunct && trimPunct(c.t[j-1].w) {
		j--
	}
	return j
}

// trimAnymore drops a trailing "anymore", "any more" or "any longer".
func (c *cl) trimAnymore(i, j int) int {
	j = c.trimPunctEnd(i, j)
	switch {
	case j-1 > i && c.w(j-1) == "anymore":
		return j - 1
	case j-2 > i && (c.at(j-2, "any", "more") > 0 || c.at(j-2, "any", "longer") > 0):
		return j - 2
	}
	return j
}
