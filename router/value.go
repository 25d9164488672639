package router

import (
	"strings"
	"unicode/utf8"

	"github.com/factbase/factbase/normalize"
)

// orderPhrases at the end of a list make it ranked: "A, B and C, in that order".
var orderPhrases = [][]string{
	{"in", "that", "order"}, {"in", "this", "order"}, {"in", "order"},
	{"in", "order", "of", "preference"}, {"ranked"}, {"in", "ranked", "order"},
	{"from", "best", "to", "worst"}, {"from", "most", "to", "least", "favorite"},
	{"best", "to", "worst"}, {"most", "to", "least", "favorite"}, {"from", "most", "to", "least"},
	{"in", "descending", "order"}, {"in", "order", "of", "preference"}, {"ranked", "from", "best", "to", "worst"},
}

// trimPunct reports whether punctuation token w is dropped from the ends of a value.
// Closing brackets and quotes stay: "Up (2009)".
func trimPunct(w string) bool {
	switch w {
	case ")", "]", "}", "\"", "'", "%", "+", "#", "$", "€", "£", "&":
		return false
	}
	return true
}

// trimValue narrows tokens [i, j) to the value: separators at the start, punctuation
// and fillers ("blue, thanks") at the end. inOrder reports an ordering phrase ("in
// that order") that was dropped. Its cost is linear in the number of tokens dropped.
func (c *cl) trimValue(i, j int) (int, int, bool) {
	for i < j && c.t[i].kind == tPunct && leadPunct(c.t[i].w) {
		i++
	}
	inOrder := false
	for changed := true; changed && j > i; {
		changed = false
		for j > i && c.t[j-1].kind == tPunct && trimPunct(c.t[j-1].w) {
			j--
			changed = true
		}
		if j-1 > i && isEmoticon(c.t[j-2], c.t[j-1]) {
			j -= 2
			changed = true
		}
		for _, ph := range orderPhrases {
			if k := j - len(ph); k > i && matchWords(c.t, k, ph) {
				j, inOrder, changed = k, true, true
				break
			}
		}
		for _, ph := range fillers {
			k := j - len(ph)
			if k <= i || !matchWords(c.t, k, ph) {
				continue
			}
			if c.t[k-1].kind == tPunct || safeFillers[strings.Join(ph, " ")] {
				j, changed = k, true
				break
			}
		}
	}
	return i, j, inOrder
}

// single returns the one value in tokens [i, j), unquoted when it is one quoted token.
func (c *cl) single(i, j int) string {
	if j-i == 1 && c.t[i].kind == tQuoted {
		return unquote(c.text(i, j))
	}
	return strings.TrimSpace(strings.TrimRight(c.text(i, j), ".,!?;:"))
}

// list returns the values of tokens [i, j), split with normalize.ParseList, or at
// the steps of a ranking ("Rust > Go > Python", "tiramisu, then flan, then
// baklava", "tiramisu, followed by flan").
func (c *cl) list(i, j int) []string {
	if !c.sequence(i, j) {
		return normalize.ParseList(c.text(i, j))
	}
	var out []string
	seen := map[string]bool{}
	from := i
	for k := i; k <= j; k++ {
		n := k
		if k < j {
			if n = c.step(k); n == k {
				continue
			}
		}
		a, b, _ := c.trimValue(from, k)
		for b > a && c.t[b-1].kind == tPunct && (c.t[b-1].w == "-" || c.t[b-1].w == "=") {
			b-- // "->", "=>"
		}
		if v := c.single(a, b); v != "" && !seen[normalize.Value(v)] {
			seen[normalize.Value(v)] = true
			out = append(out, v)
		}
		if k == j {
			break
		}
		from, k = n, n-1
	}
	return out
}

// step returns the index after a ranking step at k (">", ", then", ", and then",
// ", followed by"), or k if there is none.
func (c *cl) step(k int) int {
	switch {
	case c.t[k].kind == tPunct && c.t[k].w == ">":
		return k + 1
	case c.w(k) == "," && c.w(k+1) == "then":
		return k + 2
	case c.w(k) == "," && c.at(k+1, "and", "then") > 0:
		return k + 3
	case c.w(k) == "," && c.at(k+1, "followed", "by") > 0:
		return k + 3
	}
	return k
}

// sequence reports whether tokens [i, j) are a ranking written with steps (see
// step): "Alien > Heat > Up".
func (c *cl) sequence(i, j int) bool {
	for k := i; k < j; k++ {
		if c.step(k) > k {
			return true
		}
	}
	return false
}

// unquote strips one pair of quotes around s.
func unquote(s string) string {
	r1, n1 := utf8.DecodeRuneInString(s)
	r2, n2 := utf8.DecodeLastRuneInString(s)
	if len(s) >= n1+n2 && quoteFamily(r1) != 0 && quoteFamily(r1) == quoteFamily(r2) {
		return strings.TrimSpace(s[n1 : len(s)-n2])
	}
	return s
}

// vague reports whether tokens [i, j) are only pronouns and determiners ("that one",
// "this"), which name nothing the router can store.
func (c *cl) vague(i, j int) bool {
	for k := i; k < j; k++ {
		w := c.w(k)
		if !pronouns[w] && w != "the" && w != "a" && w != "an" && w != "one" && w != "ones" && w != "same" && w != "other" && c.t[k].kind != tPunct {
			return false
		}
	}
	return true
}

// values returns the values of [i, j): one value, or a list when asList.
func (c *cl) values(i, j int, asList bool) []string {
	if i >= j {
		return nil
	}
	if asList {
		return c.list(i, j)
	}
	if v := c.single(i, j); v != "" {
		return []string{v}
	}
	return nil
}

// clip shortens s for a clarification question.
func clip(s string) string {
	if len(s) <= 60 {
		return s
	}
	cut := 60
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// ordinal formats n as "1st", "2nd", "3rd", "4th", "11th", "21st".
func ordinal(n int) string {
	suf := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suf = "st"
	case n%10 == 2:
		suf = "nd"
	case n%10 == 3:
		suf = "rd"
	}
	return itoa(n) + suf
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// plural reports whether a topic phrase looks plural: its head word ends in "s" (not
// "ss", "us", "is") or is an irregular plural.
func plural(topic string) bool {
	words := strings.Fields(topic)
	if len(words) == 0 {
		return false
	}
	head := words[len(words)-1]
	for k, w := range words {
		if k > 0 && (w == "of" || w == "in" || w == "from" || w == "to" || w == "by" || w == "for" || w == "on") {
			head = words[k-1]
			break
		}
	}
	switch head {
	case "people", "children", "men", "women", "mice", "geese", "teeth", "feet", "data", "media":
		return true
	case "news", "series", "species", "sushi", "tennis", "chess", "physics", "music", "jazz":
		return false
	}
	return strings.HasSuffix(head, "s") && !strings.HasSuffix(head, "ss") &&
		!strings.HasSuffix(head, "us") && !strings.HasSuffix(head, "is") && len(head) > 3
}

// leadPunct reports whether punctuation token w is dropped from the start of a value:
// separators, not opening brackets or quotes ("(555) 010-9999").
func leadPunct(w string) bool {
	switch w {
	case ":", "-", "–", "—", ",", "=", ".", "!", "?", ";", "…", "*":
		return true
	}
	return false
}

// isEmoticon reports whether a and b are an emoticon such as ":)" or ";(".
func isEmoticon(a, b token) bool {
	return a.kind == tPunct && b.kind == tPunct && a.e == b.s &&
		(a.w == ":" || a.w == ";" || a.w == "=") && (b.w == ")" || b.w == "(" || b.w == "]" || b.w == "[")
}
