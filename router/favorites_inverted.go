package router

// Favorites said the other way round ("Helix is my favorite editor", "Dune is one
// of my favorite books"), anaphora and member-first statements.

import "strings"

// inverted parses "VALUES (is|are) my [rank] favorite TOPIC" and its variants: "Y is
// one of my favorite X", "Y is no longer my favorite X", "Y isn't my favorite X
// anymore", "Y is #2 on my list of favorite X".
func (c *cl) inverted() (outcome, bool) {
	for k := 0; k < len(c.t); k++ {
		w := c.w(k)
		from, valueEnd := 0, k
		switch {
		case c.t[k].poss && c.t[k].kind == tWord && c.w(k+1) == "my":
			// "Pizza's my favorite food": the possessive is "is".
			w, valueEnd = "is", k+1
			if anaphors[c.w(k)] {
				// "I love Go, it's my favorite language": "it" is the thing liked before.
				if from, valueEnd = c.antecedent(k); from < 0 {
					return none, true
				}
			}
		case k == 0:
			continue
		case (w == "should" || w == "must") && (c.w(k+1) == "be" || c.w(k+1) == "come" || c.w(k+1) == "go"),
			(w == "needs" || w == "need" || w == "ought" || w == "deserves") && c.at(k+1, "to", "be") > 0,
			w == "belongs" || w == "goes" || w == "comes":
			// "Radiolab should be #3 on my favorite podcasts", "Gouda belongs at
			// #3": a rank or a place in the list, not a wish for what the favorite
			// is.
			w = "should"
		case w != "is" && w != "are" && w != "remains" && w != "has" && w != "have":
			continue
		}
		if (w == "has" || w == "have") && c.at(k+1, "to", "be") > 0 {
			// "Sushi has to be my favorite food"
			w, k = "is", k+2
		}
		m := k + 1
		if w == "should" {
			if c.w(k) != "belongs" && c.w(k) != "goes" && c.w(k) != "comes" {
				m = k + 2
			}
			if c.w(m) == "to" && c.w(m+1) == "be" {
				m += 2
			}
			if c.w(m) == "at" || c.w(m) == "in" && c.w(m+1) != "my" {
				m++
			}
		}
		if w == "has" || w == "have" {
			for adverbs[c.w(m)] {
				m++
			}
			if c.w(m) != "been" {
				continue
			}
			m++
		}
		for adverbs[c.w(m)] || c.w(m) == "by" && c.w(m+1) == "far" || c.w(m) == "hands" && c.w(m+1) == "down" {
			if c.w(m) == "by" || c.w(m) == "hands" {
				m++
			}
			m++
		}
		remove, not := false, false
		switch {
		case c.w(m) == "no" && c.w(m+1) == "longer":
			remove, m = true, m+2
		case c.w(m) == "not":
			not, m = true, m+1
		}
		member := false
		if n := c.oneOf(m, []string{"one", "of"}, []string{"some", "of"}, []string{"among"},
			[]string{"amongst"}, []string{"two", "of"}, []string{"all", "of"}, []string{"another", "one", "of"},
			[]string{"part", "of"}, []string{"included", "in"}, []string{"in"}, []string{"on"}); n > 0 {
			member, m = true, n
		}
		rank := 0
		if !member {
			if r, ok := c.rankAt(m); ok && !r.top && r.rank > 0 {
				n := c.oneOf(r.next, []string{"in"}, []string{"on"}, []string{"of"}, []string{"among"}, []string{"within"})
				if n < 0 && w == "should" && c.onlyFillers(r.next, c.trimPunctEnd(0, len(c.t))) {
					// "Gouda should be #3": the list that holds it.
					vi, vj, _ := c.trimValue(0, k)
					values := c.values(vi, vj, false)
					if len(values) != 1 || c.vague(vi, vj) || c.hasVerb(vi, vj) || !itemLike(values) {
						return none, true
					}
					return c.statement(Statement{Kind: SetRank, Values: values, Rank: r.rank}), true
				}
				if n < 0 {
					continue
				}
				rank, m = r.rank, n
			} else if n := c.oneOf(m, []string{"at", "the", "top", "of"}, []string{"the", "top", "of"}, []string{"top", "of"}); n > 0 {
				rank, m = 1, n
			} else if n := c.oneOf(m, []string{"at", "the", "bottom", "of"}, []string{"the", "bottom", "of"},
				[]string{"last", "on"}, []string{"last", "in"}, []string{"last", "of"}); n > 0 {
				rank, m = Last, n
			}
		}
		if c.w(m) != "my" {
			continue
		}
		f, ok := c.frame(m)
		if !ok || !f.fav && f.rank == 0 && !f.top {
			continue
		}
		if w == "should" && rank == 0 && f.rank == 0 && !member {
			return none, true
		}

		// The values: everything before the copula, or after a colon when that is
		// "here" or "these": "Here are my favorite movies: Up, Heat".
		if from == 0 && valueEnd > 0 && anaphors[c.w(valueEnd-1)] {
			// "I love Go, it is my favorite language"
			if from, valueEnd = c.antecedent(valueEnd - 1); from < 0 {
				return none, true
			}
		}
		for q := from; q < valueEnd; q++ {
			if c.w(q) == "," && q > from && skipLeadIns(c.t[:valueEnd], q+1, nil) == valueEnd {
				// "Sushi, without a doubt, is my favorite food": an aside.
				valueEnd = q
				break
			}
		}
		if from > 0 && c.hates(from) != f.least {
			// "I hate X, it's my favorite Y" says something else.
			return none, true
		}
		vi, vj, _ := c.trimValue(from, valueEnd)
		if vj-vi == 1 && (c.w(vi) == "here" || c.w(vi) == "these" || c.w(vi) == "those") {
			for n := f.next; n < len(c.t) && n < f.next+8; n++ {
				if c.w(n) == ":" {
					topic, ok, empty := c.topic(f.next, n, false)
					if !ok || empty {
						return none, true
					}
					ai, aj, _ := c.trimValue(n+1, len(c.t))
					values := c.values(ai, aj, true)
					if len(values) == 0 {
						return c.ask(topicQuestion(topic, f, true)), true
					}
					return c.statement(Statement{Kind: Add, Topic: topic, Values: values}), true
				}
			}
		}
		if vi >= vj || c.vague(vi, vj) || c.hasVerb(vi, vj) {
			return none, true
		}
		end := len(c.t)
		if remove || not {
			if not && !c.endsAnymore(f.next) {
				return none, true
			}
			end = c.trimAnymore(f.next, end)
			remove = true
		}
		topic, ok, empty := c.topic(f.next, end, false)
		if !ok {
			return none, true
		}
		values := c.values(vi, vj, w == "are" || w == "have")
		if valueEnd > k && len(values) == 1 {
			// Cut the possessive's "'s" off the value.
			v := values[0]
			for _, suf := range []string{"'s", "’s", "'S", "’S"} {
				if s, ok := strings.CutSuffix(v, suf); ok {
					v = strings.TrimSpace(s)
					break
				}
			}
			values = []string{v}
		}
		if len(values) == 0 {
			return none, true
		}
		if empty {
			verb := "add " + clip(strings.Join(values, ", ")) + " to"
			if remove {
				verb = "remove " + clip(strings.Join(values, ", ")) + " from"
			}
			return c.ask("Which list should I " + verb + "?"), true
		}
		if f.least {
			// "Ironing is my least favorite chore."
			if remove || member || rank != 0 || f.rank > 0 || f.top || len(values) != 1 || w == "are" {
				return none, true
			}
			return c.statement(Statement{Kind: Set, Topic: topic, Values: values, Least: true}), true
		}
		st := Statement{Kind: Add, Topic: topic, Values: values}
		switch {
		case remove:
			st.Kind = Remove
		case member:
		case rank != 0:
			st.Kind, st.Rank = SetRank, rank
		case f.rank > 0:
			st.Kind, st.Rank = SetRank, f.rank
		case f.top:
			st.Kind, st.Rank = SetRank, 1
		case len(values) == 1 && !f.plural:
			// "Y is my favorite X": Y is THE favorite, #1 (see above).
			st.Kind, st.Rank = SetRank, 1
		case c.sequence(vi, vj):
			// "brie > gouda > feta are my favorite cheeses"
			st.Kind, st.Rank = SetRank, 1
		}
		return c.statement(st), true
	}
	return none, false
}

// anaphors stand for a thing named before them.
var anaphors = map[string]bool{"it": true, "that": true, "this": true, "he": true, "she": true, "they": true}

// antecedent returns the span of the thing an anaphor at k stands for when the clause
// before it is "I/we (adverbs) love|like|adore|enjoy|prefer THING," ("I love Go, it's
// my favorite language"); from is -1 when the clause is not of that form, and the
// statement is then left alone rather than guessed.
func (c *cl) antecedent(k int) (from, to int) {
	to = k
	for to > 0 && (c.w(to-1) == "," || c.w(to-1) == "and" || c.w(to-1) == "so" || c.w(to-1) == "-") {
		to--
	}
	i := 0
	if c.w(i) != "i" && c.w(i) != "we" {
		return -1, k
	}
	i++
	for adverbs[c.w(i)] || c.w(i) == "really" || c.w(i) == "just" || c.w(i) == "absolutely" {
		i++
	}
	if c.at(i, "can", "not", "stand") > 0 {
		i += 2
	}
	if !likeVerbs[c.w(i)] && c.w(i) != "adore" && !hateVerbs[c.w(i)] || i+1 >= to {
		return -1, k
	}
	return i + 1, to
}

// hateVerbs say the user dislikes the thing: "I hate ironing, it's my least favorite
// chore".
var hateVerbs = map[string]bool{
	"hate": true, "dislike": true, "detest": true, "loathe": true, "stand": true,
	"despise": true,
}

// hates reports whether the verb before an antecedent starting at from dislikes it.
func (c *cl) hates(from int) bool {
	return from > 0 && hateVerbs[c.w(from-1)]
}

// hasVerb reports whether unquoted tokens [i, j) hold a finite verb of saying or
// thinking, which makes them a clause rather than a value: "everyone knows pizza".
func (c *cl) hasVerb(i, j int) bool {
	for k := i; k < j; k++ {
		if c.t[k].kind == tWord && clauseVerbs[c.t[k].w] {
			return true
		}
	}
	return false
}

// clauseVerbs in a value before "is my favorite" show it is not a value.
var clauseVerbs = map[string]bool{
	"know": true, "knows": true, "think": true, "thinks": true, "said": true, "says": true,
	"believe": true, "believes": true, "guess": true, "feel": true, "feels": true,
	"agree": true, "agrees": true, "told": true, "tell": true, "heard": true, "mean": true,
	"means": true, "is": true, "are": true, "was": true, "were": true, "if": true,
	"whether": true, "because": true, "decided": true, "realized": true, "forgot": true,
	"remember": true, "not": true, "would": true, "might": true, "maybe": true,
	"wish": true, "hope": true, "bet": true, "wonder": true, "doubt": true,
}

// topicVerbs never appear in a topic; verbs that are also nouns ("show", "work",
// "drop") may.
var topicVerbs = map[string]bool{
	"is": true, "are": true, "am": true, "was": true, "were": true, "be": true, "been": true,
	"being": true, "do": true, "does": true, "did": true, "have": true, "has": true,
	"had": true, "would": true, "will": true, "can": true, "could": true, "should": true,
	"shall": true, "may": true, "might": true, "must": true, "used": true, "think": true,
	"know": true, "said": true, "says": true, "lives": true, "works": true, "moved": true,
	"loves": true, "likes": true, "hates": true, "include": true, "includes": true,
	"remains": true, "remain": true, "stays": true, "stay": true, "go": true, "get": true,
	"got": true, "went": true, "want": true, "need": true, "thinks": true, "knows": true,
	"believe": true, "feel": true, "guess": true, "told": true, "tell": true,
}

// conditionalIn reports whether tokens [i, j) hold a condition such as "if I had to
// choose" or "unless you ask": the value is not stated as fact.
func (c *cl) conditionalIn(i, j int) bool {
	for k := i; k+1 < j; k++ {
		if w := c.w(k); (w == "if" || w == "unless" || w == "assuming") && pronouns[c.w(k+1)] {
			return true
		}
	}
	return false
}

// memberFirst parses "One of my favorite X is Y", "Among my favorite X are A and B":
// Add.
func (c *cl) memberFirst() (outcome, bool) {
	m := c.oneOf(0, []string{"one", "of"}, []string{"among"}, []string{"amongst"},
		[]string{"some", "of"}, []string{"two", "of"}, []string{"three", "of"},
		[]string{"a", "few", "of"}, []string{"a", "couple", "of"})
	if m < 0 || c.w(m) != "my" {
		return none, false
	}
	f, ok := c.frame(m)
	if !ok || !f.fav || f.least {
		return none, f.least
	}
	cop := c.copulaAt(f.next)
	if cop.form != "is" && cop.form != "are" && cop.form != ":" {
		return none, cop.form != ""
	}
	topic, ok, empty := c.topic(f.next, cop.at, false)
	if !ok || empty {
		return none, true
	}
	v := cop.next
	for adverbs[c.w(v)] {
		v++
	}
	if c.w(v) == "not" || c.w(v) == "never" || c.w(v) == "no" {
		return none, true
	}
	vi, vj, _ := c.trimValue(v, len(c.t))
	if vi >= vj || c.vague(vi, vj) || c.conditionalIn(vi, vj) {
		return none, true
	}
	values := c.values(vi, vj, cop.form != "is")
	if len(values) == 0 {
		return none, true
	}
	return c.statement(Statement{Kind: Add, Topic: topic, Values: values}), true
}
