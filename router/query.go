package router

import "github.com/factbase/factbase"

// mode says how a read without a copula chooses between a list and its first member.
type mode int

const (
	modeAsk  mode = iota // "what is / are my ...": the copula decides
	modeList             // "list / show me my ...": the whole list
	modeTell             // "tell me / do you know my ...": the list if the topic is plural
)

var tellPrefixes = [][]string{
	{"tell", "me"}, {"tell", "me", "about"}, {"remind", "me"}, {"remind", "me", "of"},
	{"remind", "me", "about"}, {"do", "you", "know"}, {"do", "you", "remember"},
	{"do", "you", "recall"}, {"do", "you", "have"}, {"did", "you", "remember"},
	{"did", "you", "save"}, {"did", "you", "store"}, {"let", "me", "know"},
	{"what", "about"}, {"how", "about"}, {"recall"}, {"tell", "me", "again"},
	{"i", "forgot"}, {"i", "forget"}, {"i", "do", "not", "remember"},
	{"i", "can", "not", "remember"}, {"i", "want", "to", "know"},
	{"i", "would", "like", "to", "know"}, {"i", "wonder"}, {"i", "am", "wondering"},
	{"i", "need", "to", "know"}, {"i", "need"}, {"remind", "me", "again"},
}

var listPrefixes = [][]string{
	{"list"}, {"list", "out"}, {"show"}, {"show", "me"}, {"give", "me"}, {"display"},
	{"recite"}, {"read"}, {"read", "me"}, {"print"}, {"enumerate"}, {"name"},
	{"show", "me", "a", "list", "of"}, {"give", "me", "a", "list", "of"}, {"list", "me"},
	{"get", "me"}, {"pull", "up"},
}

// iAsks reports whether a clause opening with "I" asks: "I forgot my email".
func (c *cl) iAsks() bool {
	return c.oneOf(0, tellPrefixes...) > 0
}

// query parses a read.
func (c *cl) query() (outcome, bool) {
	i, md := 0, modeAsk
	if n := c.oneOf(0, tellPrefixes...); n > 0 {
		i, md = n, modeTell
	}
	if n := c.oneOf(0, listPrefixes...); n > i {
		i, md = n, modeList
	}
	if i > 0 {
		for c.w(i) == "all" || c.w(i) == "of" || c.w(i) == "again" || c.w(i) == "please" {
			i++
		}
		if key := c.embeddedFact(i); key != "" {
			return c.factQuery(key), true
		}
		switch c.w(i) {
		case "what", "which", "who", "where", "when":
			return c.wh(i)
		case "my":
			return c.npQuery(i, md, "")
		}
		return none, false
	}
	return c.wh(0)
}

// wh parses a wh-question from i.
func (c *cl) wh(i int) (outcome, bool) {
	w, j := c.w(i), i+1
	switch w {
	case "what", "which", "who":
		cw := c.w(j)
		switch cw {
		case "is", "are":
			k := j + 1
			for adverbs[c.w(k)] || c.w(k) == "all" || c.w(k) == "of" && c.w(k-1) == "all" {
				k++
			}
			if (c.w(k) == "in" || c.w(k) == "on") && c.w(k+1) == "my" {
				// "What's on my list of favorite foods?"
				return c.npQuery(k+1, modeList, "")
			}
			if c.w(k) == "my" {
				return c.npQuery(k, modeAsk, cw)
			}
			if w == "who" && c.w(k) == "" {
				return none, false
			}
			return none, false
		case "my":
			return c.npQuery(j, modeAsk, "")
		case "am":
			if w == "who" && c.trimPunctEnd(j+1, len(c.t)) == j+2 && c.w(j+1) == "i" {
				return c.factQuery(factbase.KeyName), true
			}
			return none, false
		case "do", "should", "did":
			switch {
			case c.endsAt(j, len(c.trimmedEnd()), []string{"do", "i", "do", "for", "work"}, []string{"do", "i", "do", "for", "a", "living"},
				[]string{"do", "i", "do", "professionally"}, []string{"do", "i", "do", "for", "my", "job"},
				[]string{"do", "i", "work", "as"}, []string{"do", "i", "do", "for", "money"},
				[]string{"do", "i", "do", "at", "work"}) && w == "what":
				return c.factQuery(factbase.KeyRole), true
			case w != "which" && c.endsAt(j, len(c.trimmedEnd()), []string{"do", "you", "call", "me"}, []string{"should", "you", "call", "me"},
				[]string{"do", "people", "call", "me"}, []string{"do", "i", "go", "by"}):
				return c.factQuery(factbase.KeyName), true
			case w == "who" && c.endsAt(j, len(c.trimmedEnd()), []string{"do", "i", "work", "for"}, []string{"do", "i", "work", "at"},
				[]string{"do", "i", "work", "with"}):
				return c.factQuery(factbase.KeyEmployer), true
			}
			return none, false
		case "employs":
			if w == "who" && c.at(j+1, "me") == len(c.trimmedEnd()) {
				return c.factQuery(factbase.KeyEmployer), true
			}
			return none, false
		case "was", "were", "would", "will", "used":
			return none, false
		}
		if w == "who" {
			return none, false
		}
		return c.topicFirst(j)
	case "where":
		switch n := len(c.trimmedEnd()); {
		case c.endsAt(j, n, []string{"do", "i", "live"}, []string{"am", "i", "living"}, []string{"am", "i", "based"},
			[]string{"do", "i", "reside"}, []string{"am", "i", "located"}, []string{"is", "my", "home"},
			[]string{"is", "home"}, []string{"do", "i", "live", "now"}, []string{"do", "i", "currently", "live"},
			[]string{"do", "i", "stay"}, []string{"is", "my", "home", "city"}, []string{"do", "i", "call", "home"}):
			return c.factQuery(factbase.KeyCity), true
		case c.endsAt(j, n, []string{"do", "i", "work"}, []string{"am", "i", "working"}, []string{"am", "i", "employed"},
			[]string{"do", "i", "currently", "work"}, []string{"do", "i", "work", "now"}, []string{"do", "i", "work", "at"}):
			return c.factQuery(factbase.KeyEmployer), true
		}
		return none, false
	case "when":
		if c.endsAt(j, len(c.trimmedEnd()), []string{"was", "i", "born"}) {
			return c.factQuery(factbase.KeyUserBirthday), true
		}
		if c.w(j) == "is" && c.w(j+1) == "my" {
			return c.npQuery(j+1, modeAsk, "is")
		}
		return none, false
	}
	return none, false
}

// trimmedEnd returns the clause's tokens without trailing punctuation and read tails
// ("again", "please", "now").
func (c *cl) trimmedEnd() []token {
	return c.t[:c.trimTopicTail(0, len(c.t))]
}

// factQuery builds a read of a personal fact.
func (c *cl) factQuery(key string) outcome {
	return outcome{route: RouteRead, queries: []Query{{Kind: QueryFact, Key: key, Span: c.span}}}
}

// topicFirst parses "what/which TOPIC (is|are) my favorite(s)", "which TOPIC do I
// like (the) most", "what city do I live in", "which company do I work for", from the
// topic at j.
func (c *cl) topicFirst(j int) (outcome, bool) {
	end := len(c.trimmedEnd())
	for k := j + 1; k < end && k <= j+6; k++ {
		switch c.w(k) {
		case "is", "are":
			m := k + 1
			for adverbs[c.w(m)] {
				m++
			}
			f, ok := c.frame(m)
			if !ok || f.least {
				return none, false
			}
			rest := f.next
			if c.w(rest) == "one" || c.w(rest) == "ones" {
				rest++
			}
			if rest != end {
				return none, false
			}
			topic, ok, empty := c.topic(j, k, false)
			if !ok || empty {
				return none, false
			}
			return c.listQuery([]string{topic}, f, modeAsk, c.w(k)), true
		case "do":
			if c.w(k+1) != "i" {
				return none, false
			}
			topic, ok, empty := c.topic(j, k, false)
			if !ok || empty {
				return none, false
			}
			m := k + 2
			switch {
			case (c.w(j) == "city" || c.w(j) == "town" || c.w(j) == "place") && k == j+1 &&
				c.endsAt(m, end, []string{"live", "in"}, []string{"reside", "in"}, []string{"call", "home"}):
				return c.factQuery(factbase.KeyCity), true
			case (c.w(j) == "company" || c.w(j) == "employer" || c.w(j) == "firm" || c.w(j) == "organization" || c.w(j) == "organisation" || c.w(j) == "business") && k == j+1 &&
				c.endsAt(m, end, []string{"work", "for"}, []string{"work", "at"}):
				return c.factQuery(factbase.KeyEmployer), true
			case (c.w(j) == "job" || c.w(j) == "role") && k == j+1 && c.endsAt(m, end, []string{"have"}, []string{"do"}):
				return c.factQuery(factbase.KeyRole), true
			}
			if !likeVerbs[c.w(m)] {
				return none, false
			}
			m++
			if c.w(m) == "the" {
				m++
			}
			f := frame{}
			switch {
			case m == end:
				return c.listQuery([]string{topic}, f, modeList, ""), true
			case (c.w(m) == "most" || c.w(m) == "best") && m+1 == end:
				f.rank = 1
				return c.listQuery([]string{topic}, f, modeAsk, "is"), true
			}
			return none, false
		case "am":
			if (c.w(j) == "city" || c.w(j) == "town") && k == j+1 &&
				c.endsAt(k+1, end, []string{"i", "living", "in"}, []string{"i", "based", "in"}, []string{"i", "in"}) {
				return c.factQuery(factbase.KeyCity), true
			}
			return none, false
		}
		if c.t[k].kind != tWord {
			return none, false
		}
	}
	return none, false
}

// likeVerbs ask for a preference: "which movies do I like most".
var likeVerbs = map[string]bool{"like": true, "love": true, "prefer": true, "enjoy": true, "favor": true, "favour": true}

// npQuery parses the "my ..." phrase of a read at i. cop is the copula already read
// ("is", "are") or "" when it may come at the end ("what my favorite color is").
func (c *cl) npQuery(i int, md mode, cop string) (outcome, bool) {
	if c.w(i) != "my" || i+1 >= len(c.t) || c.t[i+1].poss {
		return none, false
	}
	end := len(c.t)
	for k := i + 1; k < end; k++ {
		if c.t[k].kind == tPunct && (c.t[k].w == "," || c.t[k].w == ";") {
			// "my email, what is it?"
			end = k
			break
		}
	}
	end = c.trimPunctEnd(i, end)
	if cop == "" && end-1 > i+1 && (c.w(end-1) == "is" || c.w(end-1) == "are") {
		cop, end = c.w(end-1), end-1
		if md == modeTell || md == modeList {
			md = modeAsk
		}
	}
	if w := c.w(end - 1); w == "list" || w == "lists" {
		// "What's my favorite food list?" asks for the list.
		md, cop = modeList, ""
	}
	if key, j, poss := c.keyAt(i + 1); key != "" && !poss {
		if c.onlyFillers(j, end) {
			return c.factQuery(key), true
		}
	}
	f, ok := c.frame(i)
	if !ok {
		return none, false
	}
	e := c.trimTopicTail(f.next, end)
	if f.least {
		// "What's my least favorite food?": the one value kept for the topic.
		topic, ok, empty := c.topic(f.next, e, false)
		if !ok || empty || f.rank > 0 || f.top {
			return none, false
		}
		return outcome{route: RouteRead, queries: []Query{{Kind: QueryFact, Topic: topic, Least: true, Span: c.span}}}, true
	}
	if c.w(e-1) == "one" || c.w(e-1) == "ones" {
		e--
	}
	// "my favorite movies and books": one query per topic.
	var topics []string
	from := f.next
	for k := f.next; k <= e; k++ {
		if k < e && c.w(k) != "and" && c.w(k) != "," && c.w(k) != "or" && c.w(k) != "&" {
			continue
		}
		if k == from {
			from = k + 1
			continue
		}
		topic, ok, empty := c.topic(from, k, false)
		if !ok {
			return none, false
		}
		if !empty {
			topics = append(topics, topic)
		}
		from = k + 1
	}
	if len(topics) == 0 {
		return outcome{route: RouteRead, clarify: "Which of your favorites do you mean?"}, true
	}
	return c.listQuery(topics, f, md, cop), true
}

// listQuery builds the reads of topics for frame f.
func (c *cl) listQuery(topics []string, f frame, md mode, cop string) outcome {
	o := outcome{route: RouteRead}
	for _, topic := range topics {
		q := Query{Kind: QueryList, Topic: topic, Span: c.span}
		switch {
		case f.rank > 0:
			q.Kind, q.Rank = QueryRank, f.rank
		case f.top && f.limit > 0:
			q.Limit = f.limit
		case f.top && cop == "is":
			q.Kind, q.Rank = QueryRank, 1
		case f.top:
		case md == modeAsk && cop == "is" && !f.plural:
			q.Kind, q.Rank = QueryRank, 1
		case md == modeAsk && cop == "are":
		case md == modeList:
		case f.plural || plural(topic):
		default:
			q.Kind, q.Rank = QueryRank, 1
		}
		o.queries = append(o.queries, q)
	}
	return o
}

// yesNo parses "Is Y my favorite X?" (QueryRank) and "Are A and B my favorite X?"
// (QueryList).
func (c *cl) yesNo() (outcome, bool) {
	end := c.trimPunctEnd(0, len(c.t))
	for k := 2; k < end; k++ {
		if c.w(k) != "my" {
			continue
		}
		if c.hasVerb(1, k) || c.vague(1, k) {
			return none, false
		}
		f, ok := c.frame(k)
		if !ok || f.least || !f.fav && f.rank == 0 {
			return none, false
		}
		topic, ok, empty := c.topic(f.next, end, false)
		if !ok || empty {
			return none, false
		}
		return c.listQuery([]string{topic}, f, modeAsk, c.w(0)), true
	}
	return none, false
}

// endsAt reports whether one of phrases matches at i and ends exactly at end.
func (c *cl) endsAt(i, end int, phrases ...[]string) bool {
	for _, ph := range phrases {
		if c.at(i, ph...) == end {
			return true
		}
	}
	return false
}

// embeddedFact reads an indirect question about a personal fact after "do you know",
// "tell me", ...: "where I live", "who I work for", "when I was born".
func (c *cl) embeddedFact(i int) string {
	end := len(c.trimmedEnd())
	switch c.w(i) {
	case "where":
		switch {
		case c.endsAt(i+1, end, []string{"i", "live"}, []string{"i", "am", "living"}, []string{"i", "currently", "live"},
			[]string{"i", "am", "based"}, []string{"i", "reside"}):
			return factbase.KeyCity
		case c.endsAt(i+1, end, []string{"i", "work"}, []string{"i", "am", "working"}, []string{"i", "currently", "work"}):
			return factbase.KeyEmployer
		}
	case "who":
		switch {
		case c.endsAt(i+1, end, []string{"i", "work", "for"}, []string{"my", "employer", "is"}):
			return factbase.KeyEmployer
		case c.endsAt(i+1, end, []string{"i", "am"}):
			return factbase.KeyName
		}
	case "when":
		if c.endsAt(i+1, end, []string{"i", "was", "born"}) {
			return factbase.KeyUserBirthday
		}
	case "what":
		if c.endsAt(i+1, end, []string{"i", "do", "for", "work"}, []string{"i", "do", "for", "a", "living"},
			[]string{"i", "do"}, []string{"i", "work", "as"}) {
			return factbase.KeyRole
		}
	}
	return ""
}
