package router

import "strings"

// commandKind groups the imperative verbs.
var commandKind = map[string]StmtKind{
	"add": Add, "include": Add, "put": Add, "save": Add, "insert": Add, "append": Add,
	"store": Add, "record": Add, "note": Add,
	"remove": Remove, "delete": Remove, "drop": Remove, "erase": Remove, "take": Remove,
	"get": Remove, "cross": Remove, "scratch": Remove,
	"move": SetRank, "rank": SetRank, "bump": SetRank, "make": SetRank, "send": SetRank,
	"push": SetRank,
}

// commandVerbs phrase the clarification questions.
var commandVerbs = map[StmtKind][2]string{
	Add: {"add", "to"}, Remove: {"remove", "from"}, SetRank: {"move", "in"},
}

// target is where a command puts its values: a list and maybe a rank.
type target struct {
	rank       int
	topic      string
	emptyTopic bool // "my favorites": no topic named
}

// command parses an imperative clause: "Add Y to my favorite X", "Move Y to #2 in my
// favorite X", "Remove Y from my favorite X", "Replace Y with Z in my favorite X",
// "Change my email to ...".
func (c *cl) command() (outcome, bool) {
	verb := c.w(0)
	switch verb {
	case "set", "change", "update":
		return c.change()
	case "replace":
		return c.replace()
	case "swap", "switch", "exchange", "flip":
		if o, ok := c.swap(); ok {
			return o, true
		}
		return c.replace()
	}
	kind, ok := commandKind[verb]
	if !ok {
		return none, false
	}
	k := 1
	switch {
	case verb == "take" && c.w(1) == "out":
		k = 2
	case verb == "get":
		if c.at(1, "me") > 0 {
			return c.query()
		}
		if c.at(1, "rid", "of") < 0 {
			return none, false
		}
		k = 3
	}
	// The values run up to the target, which must reach the end of the clause. A
	// target is short, so only the last few positions are tried: linear cost.
	end := c.trimPunctEnd(0, len(c.t))
	if verb == "move" || verb == "bump" {
		if o, ok := c.shift(k, end); ok {
			return o, true
		}
	}
	// A target found with no values before it ("Move Up to the top of ...", where
	// "up" reads as a direction) only asks back if no later target has values.
	fallback, found := none, false
	for p := max(k, end-maxTarget); p <= end; p++ {
		tg, ok := c.target(p, end, verb)
		if !ok {
			continue
		}
		switch {
		case kind == Remove && tg.rank != 0 && verb == "drop":
			// "Drop Dune to last place": a move.
			kind = SetRank
		case kind == Remove && tg.rank != 0:
			return none, false
		case (verb == "send" || verb == "push") && tg.rank == 0:
			return none, false
		}
		vi, vj, _ := c.trimValue(k, p)
		values := c.values(vi, vj, true)
		v := commandVerbs[kind]
		if vi < vj && c.vague(vi, vj) {
			// "take it off my favorite movies": "it" is the thing named before.
			ref, refTopic := c.resolve(vi, vj)
			switch {
			case ref == "" && tg.emptyTopic:
				return none, true
			case tg.emptyTopic && refTopic == "" && kind == Remove:
				// "I've gone off Heat. Please remove it from my favorites."
				tg.emptyTopic = false
			case ref == "":
				return c.ask("Which one should I " + v[0] + " " + v[1] + " your favorite " + tg.topic + "?"), true
			case tg.emptyTopic && refTopic == "":
				return c.ask("Which list should I " + v[0] + " " + clip(ref) + " " + v[1] + "?"), true
			case tg.emptyTopic:
				tg.topic, tg.emptyTopic = refTopic, false
			}
			values = []string{ref}
		}
		switch {
		case len(values) == 0 && tg.emptyTopic:
			if !found {
				fallback, found = none, true
			}
			continue
		case len(values) == 0:
			if !found {
				fallback, found = c.ask("What should I "+v[0]+" "+v[1]+" your favorite "+tg.topic+"?"), true
			}
			continue
		case tg.emptyTopic && (kind == Remove || tg.rank != 0) && itemLike(values):
			// "Remove pizza from my favorites": the list that holds it (Topic "").
			tg.emptyTopic = false
		case tg.emptyTopic:
			return c.ask("Which list should I " + v[0] + " " + clip(strings.Join(values, ", ")) + " " + v[1] + "?"), true
		}
		st := Statement{Kind: kind, Topic: tg.topic, Values: values}
		switch {
		case kind == Remove:
		case tg.rank != 0:
			st.Kind, st.Rank = SetRank, tg.rank
		case verb == "make":
			st.Kind, st.Rank = SetRank, 1
		case kind == SetRank:
			return c.ask("Which rank should " + clip(strings.Join(values, ", ")) + " have in your favorite " + tg.topic + "?"), true
		}
		return c.statement(st), true
	}
	if !found {
		if o, ok := c.listless(verb, kind, k, end); ok {
			return o, true
		}
	}
	return fallback, found
}

// listless parses a command that names no list, from its values at k to end: "move
// Dune to the bottom", "put Succession first" (SetRank), "remove it again" after a
// statement of the same message (Remove from that statement's list). A move's list
// is the one that holds the values (Topic ""), so the values must look like items:
// "move the meeting to the top" is not one.
func (c *cl) listless(verb string, kind StmtKind, k, end int) (outcome, bool) {
	switch {
	case kind == Remove:
		// "remove it (again)", "remove that one"
		p := k + 1
		if c.w(p) == "one" {
			p++
		}
		if p > end || !c.onlyFillers(p, end) {
			return none, false
		}
		ref, topic := c.resolve(k, p)
		if ref == "" || topic == "" {
			return none, false
		}
		return c.statement(Statement{Kind: Remove, Topic: topic, Values: []string{ref}}), true
	case verb == "move" || verb == "bump" || verb == "put" || verb == "make" || verb == "send" || verb == "push":
		for p := max(k+1, end-maxTarget); p < end; p++ {
			r, n := c.rankPos(p, false)
			if n == p || r == 0 || !c.onlyFillers(n, end) {
				continue
			}
			vi, vj, _ := c.trimValue(k, p)
			values := c.values(vi, vj, true)
			if len(values) == 0 || c.vague(vi, vj) || !itemLike(values) {
				return none, false
			}
			return c.statement(Statement{Kind: SetRank, Values: values, Rank: r}), true
		}
	}
	return none, false
}

// itemLike reports whether values may name members of a list that the message does
// not name: none opens with a lower-case determiner ("the meeting", "this paragraph";
// "The Wire" may be one).
func itemLike(values []string) bool {
	for _, v := range values {
		first, _, _ := strings.Cut(v, " ")
		if determiners[first] || pronouns[first] {
			return false
		}
	}
	return true
}

// determiners, lower-case, open phrases that are not names.
var determiners = map[string]bool{
	"the": true, "a": true, "an": true, "this": true, "that": true, "these": true,
	"those": true, "my": true, "your": true, "his": true, "her": true, "our": true,
	"their": true, "some": true, "all": true, "every": true, "each": true,
}

// swap parses "swap A and B (in my favorite X)", "switch (the order of) A and B":
// Swap. Without a list, the list is the one that holds both (Topic "").
func (c *cl) swap() (outcome, bool) {
	end := c.trimPunctEnd(0, len(c.t))
	k := 1
	if n := c.oneOf(k, []string{"the", "order", "of"}, []string{"the", "positions", "of"},
		[]string{"the", "places", "of"}, []string{"the", "ranks", "of"}, []string{"places", "of"},
		[]string{"positions", "of"}); n > 0 {
		k = n
	}
	p, topic := end, ""
	for q := max(k+1, end-maxTarget); q < end; q++ {
		if w := c.w(q); w != "in" && w != "on" && w != "within" && w != "of" {
			continue
		}
		var tg target
		n, ok := c.listRef(q, end, "swap", &tg)
		if !ok || tg.rank != 0 || !c.onlyFillers(n, end) {
			continue
		}
		if tg.emptyTopic {
			return c.ask("Which list should I swap them in?"), true
		}
		p, topic = q, tg.topic
		break
	}
	if topic == "" {
		for p > k && c.onlyFillers(p-1, end) || c.w(p-1) == "around" {
			p--
		}
	}
	vi, vj, _ := c.trimValue(k, p)
	and := false
	for m := vi; m < vj; m++ {
		and = and || c.w(m) == "and" || c.w(m) == "&"
		if topic == "" && (c.w(m) == "in" || c.w(m) == "on" || c.w(m) == "within" || c.w(m) == "from") {
			return none, false // "swap red and blue in the chart": another list
		}
	}
	values := c.values(vi, vj, true)
	if !and || len(values) != 2 || c.vague(vi, vj) || topic == "" && !itemLike(values) {
		return none, false
	}
	return c.statement(Statement{Kind: Swap, Topic: topic, Values: values}), true
}

// maxTarget is the most tokens a target can span.
const maxTarget = 24

// target parses tokens [p, end) as a command's target: an optional rank position and a
// list reference, in either order: "to my favorite movies", "to #2 in my favorite
// movies", "in my favorite movies to the top", "as my second favorite movie".
func (c *cl) target(p, end int, verb string) (target, bool) {
	if p >= end || end-p > maxTarget {
		return target{}, false
	}
	m := p
	if (verb == "move" || verb == "bump") && (c.w(m) == "up" || c.w(m) == "down") && c.w(m+1) == "to" {
		m++
	}
	var tg target
	if r, n := c.rankPos(m, true); n > m {
		tg.rank, m = r, n
	}
	n, ok := c.listRef(m, end, verb, &tg)
	if !ok {
		return target{}, false
	}
	m = n
	if tg.rank == 0 {
		if r, n := c.rankPos(m, false); n > m {
			tg.rank, m = r, n
		}
	}
	// Nothing may follow but fillers.
	if !c.onlyFillers(m, end) {
		return target{}, false
	}
	return tg, true
}

// rankPos parses a rank position at m: "to #2", "at number 3", "to the top", "first",
// "to position 4", "as number one". lead says the phrase may stand before the list
// ("move Y to #2 in my ..."), where it needs a following "in/on/of".
func (c *cl) rankPos(m int, lead bool) (int, int) {
	k := m
	if w := c.w(k); w == "to" || w == "at" || w == "as" || w == "in" || w == "into" || w == "on" {
		k++
	}
	if n := c.at(k, "all", "the", "way"); n > 0 {
		// "all the way down", "all the way to the top"
		switch c.w(n) {
		case "down":
			return Last, n + 1
		case "up":
			return 1, n + 1
		case "to":
			k = n + 1
		}
	}
	if c.w(k) == "the" {
		k++
		if c.w(k) == "very" {
			k++
		}
	}
	rank := 0
	switch {
	case c.w(k) == "top" || c.w(k) == "head" || c.w(k) == "front":
		rank, k = 1, k+1
	case (c.w(k) == "bottom" || c.w(k) == "end" || c.w(k) == "back") && (c.w(k-1) == "the" || c.w(k-1) == "very"):
		rank, k = Last, k+1
	case c.w(k) == "last" || c.w(k) == "dead" && c.w(k+1) == "last":
		if c.w(k) == "dead" {
			k++
		}
		rank, k = Last, k+1
	case rankNouns[c.w(k)] && c.w(k) != "one":
		if n, next := c.numberAt(k + 1); n > 0 {
			rank, k = n, next
		} else if c.w(k+1) == "#" {
			if n, next := c.numberAt(k + 2); n > 0 {
				rank, k = n, next
			}
		}
	default:
		if r, ok := c.rankAt(k); ok && !r.top && r.rank > 0 {
			rank, k = r.rank, r.next
		} else if c.t[min(k, len(c.t)-1)].kind == tNum && k < len(c.t) && k > m {
			rank, k = numberValue(c.w(k)), k+1
		}
	}
	if rank != Last && (rank <= 0 || rank > MaxRank) {
		return 0, m
	}
	if rankNouns[c.w(k)] {
		k++
	}
	if c.w(k) == "spot" || c.w(k) == "place" || c.w(k) == "position" {
		k++
	}
	if lead {
		// The list must follow, with its preposition, which listRef reads.
		switch c.w(k) {
		case "in", "on", "of", "within", "among", "my", "to", "into":
			return rank, k
		}
		return 0, m
	}
	return rank, k
}

// listRef parses a reference to a favorites list at m and fills tg.topic; it returns
// the index after it.
func (c *cl) listRef(m, end int, verb string, tg *target) (int, bool) {
	if n := c.oneOf(m, []string{"to"}, []string{"into"}, []string{"onto"}, []string{"on"},
		[]string{"in"}, []string{"of"}, []string{"within"}, []string{"from"}, []string{"off"},
		[]string{"out", "of"}, []string{"among"}, []string{"as"}, []string{"for"}); n > 0 {
		m = n
	} else if verb != "make" && verb != "rank" && tg.rank == 0 {
		return m, false
	}
	if n := c.oneOf(m, []string{"the", "list", "of"}, []string{"the", "top", "of"},
		[]string{"the", "bottom", "of"}, []string{"the", "end", "of"}, []string{"the", "very", "top", "of"},
		[]string{"the", "very", "bottom", "of"}, []string{"the", "very", "end", "of"}); n > 0 {
		switch c.w(n - 2) {
		case "top":
			tg.rank = 1
		case "bottom", "end":
			tg.rank = Last
		}
		m = n
	}
	if n := c.oneOf(m, []string{"that", "list"}, []string{"the", "list"}, []string{"this", "list"},
		[]string{"the", "same", "list"}, []string{"that", "one"}); n > 0 && c.p.listTopic != "" {
		// "Also add baklava to that list": the list of the statement before.
		tg.topic = c.p.listTopic
		return n, true
	}
	if c.w(m) != "my" {
		return m, false
	}
	f, ok := c.frame(m)
	if ok && !f.least && (f.fav || f.rank > 0) {
		if f.rank > 0 {
			tg.rank = f.rank
		}
		e := c.topicEnd(f.next, end)
		topic, ok, empty := c.topic(f.next, e, false)
		if !ok {
			return m, false
		}
		tg.topic, tg.emptyTopic = topic, empty
		return e, true
	}
	// "my movie favorites", "my favorites list"
	for e := m + 2; e <= end && e <= m+7; e++ {
		if w := c.w(e - 1); w == "favorites" || w == "favorite" {
			topic, ok, empty := c.topic(m+1, e-1, false)
			if !ok || empty {
				return m, false
			}
			n := e
			if c.w(n) == "list" {
				n++
			}
			tg.topic = topic
			return n, true
		}
	}
	return m, false
}

// topicEnd returns where a topic starting at i ends: at a rank position ("at #2",
// "to the top") or at end.
func (c *cl) topicEnd(i, end int) int {
	for k := i; k < end; k++ {
		switch c.w(k) {
		case "at", "as", "to", "in", "on":
			if _, n := c.rankPos(k, false); n > k {
				return k
			}
		}
		if c.t[k].kind == tPunct && c.t[k].w == "," {
			return k
		}
	}
	return end
}

// change parses "(set|change|update) my KEY to V" and "... my favorite X to V".
func (c *cl) change() (outcome, bool) {
	if c.w(1) != "my" {
		return none, false
	}
	if key, j, _ := c.keyAt(2); key != "" {
		if c.w(j) != "to" {
			return none, false
		}
		return c.setFact(key, j+1, len(c.t))
	}
	f, ok := c.frame(1)
	if !ok || f.least {
		return none, false
	}
	for p := f.next; p < len(c.t) && p < f.next+8; p++ {
		if c.w(p) != "to" {
			continue
		}
		topic, ok, empty := c.topic(f.next, p, false)
		if !ok || empty {
			return none, true
		}
		vi, vj, _ := c.trimValue(p+1, len(c.t))
		values := c.values(vi, vj, f.plural || plural(topic))
		if len(values) == 0 {
			return c.ask(topicQuestion(topic, f, f.plural || plural(topic))), true
		}
		rank := f.rank
		if rank == 0 {
			rank = 1
		}
		return c.statement(Statement{Kind: SetRank, Topic: topic, Values: values, Rank: rank}), true
	}
	return none, false
}

// replace parses "replace Y with Z in my favorite X" and "swap Y for Z in ...".
func (c *cl) replace() (outcome, bool) {
	end := c.trimPunctEnd(0, len(c.t))
	with := -1
	for k := 2; k < end; k++ {
		if w := c.w(k); w == "with" || w == "for" || w == "by" {
			with = k
			break
		}
	}
	if with < 0 {
		return none, false
	}
	for p := max(with+2, end-maxTarget); p < end; p++ {
		var tg target
		n, ok := c.listRef(p, end, "replace", &tg)
		if !ok || c.trimPunctEnd(n, end) > n || tg.rank != 0 {
			continue
		}
		if c.w(p) != "in" && c.w(p) != "on" && c.w(p) != "from" && c.w(p) != "within" && c.w(p) != "of" {
			continue
		}
		oi, oj, _ := c.trimValue(1, with)
		ni, nj, _ := c.trimValue(with+1, p)
		old, nw := c.single(oi, oj), c.single(ni, nj)
		if old == "" || nw == "" || c.vague(oi, oj) || c.vague(ni, nj) {
			return none, true
		}
		if tg.emptyTopic {
			return c.ask("Which list should I replace " + clip(old) + " in?"), true
		}
		kind := Replace
		if c.w(0) != "replace" && c.w(with) == "with" {
			// "Swap Heat with Up": exchange places if Up is in the list too.
			kind = Swap
		}
		return c.statement(Statement{Kind: kind, Topic: tg.topic, Values: []string{old, nw}}), true
	}
	return none, false
}

// onlyFillers reports whether tokens [i, j) are only punctuation, fillers ("thanks",
// "please") and topic tails ("list", "again").
func (c *cl) onlyFillers(i, j int) bool {
	for i < j {
		if c.t[i].kind == tPunct && trimPunct(c.t[i].w) {
			i++
			continue
		}
		n := -1
		for _, ph := range fillers {
			if k := c.at(i, ph...); k > n && k <= j {
				n = k
			}
		}
		for _, ph := range topicTails {
			if k := c.at(i, ph...); k > n && k <= j {
				n = k
			}
		}
		if n < 0 {
			return false
		}
		i = n
	}
	return true
}

// resolve returns what an anaphor in tokens [i, j) ("it", "that", "this one") stands
// for: the thing an earlier clause of the message named ("I'm done with Heat, take it
// off ..."; see parser.ref), with the list it was put in when that clause was a
// statement. "" when [i, j) is not such an anaphor or nothing was named.
func (c *cl) resolve(i, j int) (ref, topic string) {
	switch {
	case j-i == 1 && anaphors[c.w(i)] && c.w(i) != "he" && c.w(i) != "she" && c.w(i) != "they":
	case j-i == 2 && (c.w(i) == "that" || c.w(i) == "this") && c.w(i+1) == "one":
	default:
		return "", ""
	}
	return c.p.ref, c.p.refTopic
}

// shift parses "move X up/down (by) N (spots) (in my favorite Y)" from the values at
// k: Shift by N places, up being negative. Without a list, the list is the one that
// holds X (Topic "").
func (c *cl) shift(k, end int) (outcome, bool) {
	for u := k + 1; u < end && u < k+maxTarget; u++ {
		if c.w(u) != "up" && c.w(u) != "down" {
			continue
		}
		n := u + 1
		if c.w(n) == "by" {
			n++
		}
		count := 0
		switch {
		case c.w(n) == "a" || c.w(n) == "an":
			count, n = 1, n+1
		default:
			count, n = c.numberAt(n)
		}
		if count <= 0 || count > MaxRank {
			return none, false
		}
		if shiftNouns[c.w(n)] {
			n++
		}
		vi, vj, _ := c.trimValue(k, u)
		values := c.values(vi, vj, false)
		if len(values) != 1 || c.vague(vi, vj) {
			return none, false
		}
		if c.w(u) == "up" {
			count = -count
		}
		if c.onlyFillers(n, end) {
			if !itemLike(values) {
				return none, false
			}
			return c.statement(Statement{Kind: Shift, Values: values, Rank: count}), true
		}
		var tg target
		m, ok := c.listRef(n, end, "move", &tg)
		if !ok || tg.rank != 0 || !c.onlyFillers(m, end) {
			return none, false
		}
		if tg.emptyTopic {
			return c.ask("Which list should I move " + clip(values[0]) + " in?"), true
		}
		return c.statement(Statement{Kind: Shift, Topic: tg.topic, Values: values, Rank: count}), true
	}
	return none, false
}

// shiftNouns count the places of a shift: "up two spots".
var shiftNouns = map[string]bool{
	"spot": true, "spots": true, "place": true, "places": true, "position": true,
	"positions": true, "notch": true, "notches": true, "rank": true, "ranks": true,
	"step": true, "steps": true, "slot": true, "slots": true, "level": true,
}
