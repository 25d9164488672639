package answers

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/factbase/factbase/normalize"
)

// words splits s into lower-case words: runs of letters, digits and inner
// apostrophes, after normalize.Value ("St. Mary’s" is [st mary's]).
func words(s string) []string {
	s = strings.ReplaceAll(normalize.Value(s), "’", "'")
	f := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' })
	out := f[:0]
	for _, w := range f {
		if w = strings.Trim(w, "'"); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// seq is the comparison form of a value: its words without articles.
func seq(s string) []string {
	var out []string
	for _, w := range words(s) {
		if w != "a" && w != "an" && w != "the" {
			out = append(out, w)
		}
	}
	return out
}

// contains reports whether the word sequence in holds part as a contiguous run; an
// empty part is in nothing.
func contains(in, part []string) bool {
	if len(part) == 0 || len(part) > len(in) {
		return false
	}
	for i := 0; i+len(part) <= len(in); i++ {
		ok := true
		for j, w := range part {
			if in[i+j] != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// Ground is what a scenario's user has stored, against which answer items are checked
// for invention: every value (current and past facts, pending proposals), every
// person's name, alias and relation, the dates of time anchors and validity, and
// every episode's content; and the ids of facts, episodes and entities.
type Ground struct {
	values   [][]string // short values: an item holding one, or held by one, is grounded
	passages [][]string // episode contents: an item held by one is grounded
	ids      map[string]bool
}

// Add adds stored values.
func (g *Ground) Add(values ...string) {
	for _, v := range values {
		if s := seq(v); len(s) > 0 {
			g.values = append(g.values, s)
		}
	}
}

// AddDate adds a stored date in the forms an answer may render it: 2026-06-12, June
// 12, 12 June, Jun 12, June 2026.
func (g *Ground) AddDate(t time.Time) {
	g.Add(t.Format(time.DateOnly), t.Format("January 2"), t.Format("2 January"), t.Format("Jan 2"),
		t.Format("January 2006"))
}

// AddPassage adds an episode's content.
func (g *Ground) AddPassage(text string) {
	if s := seq(text); len(s) > 0 {
		g.passages = append(g.passages, s)
	}
}

// AddID adds the id of a stored fact, episode or entity.
func (g *Ground) AddID(ids ...string) {
	if g.ids == nil {
		g.ids = map[string]bool{}
	}
	for _, id := range ids {
		g.ids[id] = true
	}
}

// Holds reports whether it is grounded in what is stored: its id (when given) is
// stored, and its value holds a stored value, or is held by a stored value or an
// episode's content. It is a lenient test: an item that shares a whole stored value is
// not invented.
func (g Ground) Holds(it Item) bool {
	if it.ID != "" && !g.ids[it.ID] {
		return false
	}
	s := seq(it.Value)
	if len(s) == 0 {
		return false
	}
	for _, v := range g.values {
		if contains(s, v) || contains(v, s) {
			return true
		}
	}
	for _, p := range g.passages {
		if contains(p, s) {
			return true
		}
	}
	return false
}

// Stores reports whether value is stored: held by a stored value or an episode's
// content. It is stricter than Holds, for checking that a scenario stored what a
// question expects.
func (g Ground) Stores(value string) bool {
	s := seq(value)
	for _, v := range append(append([][]string{}, g.values...), g.passages...) {
		if contains(v, s) {
			return true
		}
	}
	return false
}

// Verdict is the grade of one answer.
type Verdict struct {
	Correct bool `json:"correct"`
	// Abstained: the answer says it does not know, with no items.
	Abstained bool `json:"abstained"`
	// Invented are the answer's items when the question expected "I don't know", else
	// those no stored value grounds.
	Invented []string `json:"invented,omitempty"`
	// Missing are the expected items the answer lacks (or has at another rank).
	Missing []string `json:"missing,omitempty"`
	// Forbidden are the answer's items that the question's "not" names.
	Forbidden []string `json:"forbidden,omitempty"`
	// Wrong says what else is wrong: the yes or no, the count, a missing abstention.
	Wrong []string `json:"wrong,omitempty"`
}

// Grade grades answer a to question q over what g holds. An abstain question is
// right when the answer abstains (no items and "I don't know"); any item it gives is
// invented. Any other question is right when every expected item is among the
// answer's items (or, when it has none, in its reply) at its rank, none of the "not"
// items is among them, the yes or no and the count are the expected ones, and no item
// is invented.
func Grade(q Question, a Answer, g Ground) Verdict {
	v := Verdict{Abstained: a.Abstains()}
	if q.Abstain {
		for _, it := range a.Items {
			v.Invented = append(v.Invented, it.Value)
		}
		if !v.Abstained {
			v.Wrong = append(v.Wrong, "did not say it does not know")
		}
		v.Correct = v.Abstained
		return v
	}
	for _, it := range a.Items {
		if !g.Holds(it) && !(q.Count != nil && isNumber(it.Value)) { // a count is derived, not stored
			v.Invented = append(v.Invented, it.Value)
		}
	}
	for _, e := range q.Items {
		if !found(e, a) {
			v.Missing = append(v.Missing, e.String())
		}
	}
	for _, e := range q.Not {
		for _, it := range a.Items {
			if e.matches(it.Value) {
				v.Forbidden = append(v.Forbidden, it.Value)
			}
		}
	}
	if q.Yes != nil {
		yes, ok := a.YesNo()
		switch {
		case !ok:
			v.Wrong = append(v.Wrong, fmt.Sprintf("no yes or no (want %s)", yesWord(*q.Yes)))
		case yes != *q.Yes:
			v.Wrong = append(v.Wrong, fmt.Sprintf("said %s, want %s", yesWord(yes), yesWord(*q.Yes)))
		}
	}
	if q.Count != nil && !gives(a, *q.Count) {
		v.Wrong = append(v.Wrong, fmt.Sprintf("no count %d", *q.Count))
	}
	v.Correct = len(v.Missing)+len(v.Forbidden)+len(v.Wrong)+len(v.Invented) == 0
	return v
}

func yesWord(yes bool) string {
	if yes {
		return "yes"
	}
	return "no"
}

// matches reports whether an item's value holds one of e's spellings.
func (e Expected) matches(value string) bool {
	s := seq(value)
	for _, alt := range e.Values {
		if contains(s, seq(alt)) {
			return true
		}
	}
	return false
}

// found reports whether e is among a's items at its rank or, when a has no items, in
// its reply (with "#N" or an ordinal for its rank).
func found(e Expected, a Answer) bool {
	if len(a.Items) > 0 {
		for _, it := range a.Items {
			if e.matches(it.Value) && (e.Rank == 0 || it.Rank == e.Rank) {
				return true
			}
		}
		return false
	}
	if !e.matches(a.Reply) {
		return false
	}
	return e.Rank == 0 || mentionsRank(a.Reply, e.Rank)
}

// mentionsRank reports whether reply names rank n: "#2", "number 2", "2nd", "second".
func mentionsRank(reply string, n int) bool {
	mark := fmt.Sprintf("#%d", n)
	for r := reply; ; {
		_, after, ok := strings.Cut(r, mark)
		if !ok {
			break
		}
		if after == "" || after[0] < '0' || after[0] > '9' { // "#1", not the start of "#12"
			return true
		}
		r = after
	}
	w := words(reply)
	want := []string{ordinal(n)}
	if n < len(ordinalWords) {
		want = append(want, ordinalWords[n])
	}
	if n == 1 {
		want = append(want, "top")
	}
	for i, x := range w {
		for _, o := range want {
			if x == o {
				return true
			}
		}
		if x == "number" && i+1 < len(w) && w[i+1] == strconv.Itoa(n) {
			return true
		}
	}
	return false
}

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
	return strconv.Itoa(n) + suf
}

var (
	ordinalWords = []string{"zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
		"ninth", "tenth"}
	numberWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}
)

// isNumber reports whether s is a whole number in digits or words.
func isNumber(s string) bool {
	w := words(s)
	if len(w) != 1 {
		return false
	}
	if _, err := strconv.Atoi(w[0]); err == nil {
		return true
	}
	return slices.Contains(numberWords, w[0])
}

// gives reports whether a gives the count n: as its field, else as an item that is
// the number, or a number in its reply, in digits or words.
func gives(a Answer, n int) bool {
	if a.Count != nil {
		return *a.Count == n
	}
	for _, it := range a.Items {
		if w := words(it.Value); len(w) == 1 && (w[0] == strconv.Itoa(n) || n < len(numberWords) && w[0] == numberWords[n]) {
			return true
		}
	}
	for _, w := range words(a.Reply) {
		if w == strconv.Itoa(n) || n < len(numberWords) && w == numberWords[n] {
			return true
		}
	}
	return false
}
