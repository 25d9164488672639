package understanding

import (
	"errors"
	"fmt"
	"strings"

	"github.com/factbase/factbase/normalize"
)

// Label names whom a fact is about (or who said it) the way the corpus writes it:
// "user", "assistant", or a person as "Name (relation)", "Name" or "(relation)",
// where each part may list alternatives with "|" ("(Ana's husband|cousin's husband)").
type Label struct {
	User, Assistant bool
	Names           []string
	Relations       []string
}

// ParseLabel parses a label.
func ParseLabel(s string) (Label, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "":
		return Label{}, errors.New("empty label")
	case "user":
		return Label{User: true}, nil
	case "assistant":
		return Label{Assistant: true}, nil
	}
	var l Label
	name := s
	if strings.HasSuffix(s, ")") {
		open := strings.LastIndex(s, "(")
		if open < 0 {
			return l, fmt.Errorf("label %q: unbalanced parenthesis", s)
		}
		name = strings.TrimSpace(s[:open])
		rel := s[open+1 : len(s)-1]
		for _, r := range strings.Split(rel, "|") {
			if strings.TrimSpace(r) == "" {
				return l, fmt.Errorf("label %q: empty relation", s)
			}
			l.Relations = append(l.Relations, strings.TrimSpace(r))
		}
	}
	if strings.ContainsAny(name, "()") {
		return l, fmt.Errorf("label %q: want Name (relation)", s)
	}
	if name != "" {
		for _, n := range strings.Split(name, "|") {
			if strings.TrimSpace(n) == "" {
				return l, fmt.Errorf("label %q: empty name", s)
			}
			l.Names = append(l.Names, strings.TrimSpace(n))
		}
	}
	return l, nil
}

// String renders l as the corpus writes it.
func (l Label) String() string {
	switch {
	case l.User:
		return "user"
	case l.Assistant:
		return "assistant"
	}
	s := strings.Join(l.Names, "|")
	if len(l.Relations) > 0 {
		if s != "" {
			s += " "
		}
		s += "(" + strings.Join(l.Relations, "|") + ")"
	}
	return s
}

// Who is whom a stored fact is about, or who said it: the user, the assistant, or
// one of the user's entities.
type Who struct {
	User, Assistant bool
	Name, Relation  string
	Aliases         []string
}

// String renders w like a label.
func (w Who) String() string {
	switch {
	case w.User:
		return "user"
	case w.Assistant:
		return "assistant"
	case w.Relation == "":
		return w.Name
	case w.Name == "":
		return "(" + w.Relation + ")"
	}
	return w.Name + " (" + w.Relation + ")"
}

// Matches reports whether l names w. A person label matches an entity by name (or
// alias) or by relation, when neither part contradicts: "Ben (husband)" matches the
// entity Ben whose relation is unknown and the unnamed husband, not Ben the brother.
func (l Label) Matches(w Who) bool {
	switch {
	case l.User || w.User:
		return l.User && w.User
	case l.Assistant || w.Assistant:
		return l.Assistant && w.Assistant
	}
	nameEq := false
	for _, n := range l.Names {
		if sameValue(n, w.Name) {
			nameEq = true
		}
		for _, a := range w.Aliases {
			if sameValue(n, a) {
				nameEq = true
			}
		}
	}
	relEq := false
	for _, r := range l.Relations {
		if sameRelation(r, w.Relation) {
			relEq = true
		}
	}
	nameConflict := len(l.Names) > 0 && w.Name != "" && !nameEq
	relConflict := len(l.Relations) > 0 && w.Relation != "" && !relEq
	return (nameEq || relEq) && !nameConflict && !relConflict
}

// NormValue is the comparison form of a value: normalize.Value (case folded, white
// space collapsed, trailing punctuation stripped) without a leading article.
func NormValue(s string) string {
	v := normalize.Value(s)
	for _, a := range []string{"a ", "an ", "the "} {
		if rest, ok := strings.CutPrefix(v, a); ok && rest != "" {
			return rest
		}
	}
	return v
}

// sameValue compares two non-empty values by NormValue.
func sameValue(a, b string) bool {
	na := NormValue(a)
	return na != "" && na == NormValue(b)
}

// relationSynonyms fold the words of a relation that name the same one, as the
// product stores relations in one spelling ("mother" as "mom"): the corpus may use
// either.
var relationSynonyms = map[string]string{
	"mother": "mom", "mum": "mom", "mommy": "mom", "mama": "mom", "father": "dad", "daddy": "dad",
	"papa": "dad", "coworker": "colleague", "co-worker": "colleague", "workmate": "colleague",
	"grandma": "grandmother", "granny": "grandmother", "nana": "grandmother", "grandpa": "grandfather",
	"granddad": "grandfather", "fiancé": "fiance", "fiancée": "fiancee", "kid": "child", "auntie": "aunt",
	"neighbour": "neighbor", "bff": "best friend", "flatmate": "roommate", "housemate": "roommate",
	"hubby": "husband", "veterinarian": "vet", "stepmother": "stepmom", "stepfather": "stepdad",
	"sis": "sister", "bro": "brother", "buddy": "friend", "pal": "friend", "bunny": "rabbit",
}

// relationModifiers do not change whom a relation names: "older brother" is a brother.
var relationModifiers = set("little", "big", "older", "younger", "elder", "eldest", "oldest",
	"youngest", "middle", "twin", "baby", "old", "good", "close")

// canonRelation is the comparison form of a relation: NormValue, each part of a
// possessive chain ("Ana's husband") without modifiers and with synonyms folded.
func canonRelation(s string) string {
	parts := strings.Split(NormValue(s), "'s ")
	for i, p := range parts {
		words := strings.Fields(p)
		for len(words) > 1 && relationModifiers[words[0]] {
			words = words[1:]
		}
		p = strings.Join(words, " ")
		if syn, ok := relationSynonyms[p]; ok {
			p = syn
		}
		parts[i] = p
	}
	return strings.Join(parts, "'s ")
}

// sameRelation compares two non-empty relations by canonRelation.
func sameRelation(a, b string) bool {
	ca := canonRelation(a)
	return ca != "" && ca == canonRelation(b)
}
