package factbase

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TextLabel is how the text of a fact names the entity it is about: "Maria
// (sister)", "Maria", "User's sister", or "Someone".
func (e Entity) TextLabel() string {
	switch {
	case e.Name != "" && e.Relation != "":
		return e.Name + " (" + e.Relation + ")"
	case e.Name != "":
		return e.Name
	case e.Relation != "":
		return "User's " + e.Relation
	}
	return "Someone"
}

// Relabeler renders the stored text of a fact about a person with the person's
// current name and relation. A fact's text names its subject as the subject was
// labelled when the fact was written (TextLabel); a rename, a merge or a split since
// then changes the label, and every text shown to people is rendered again at read
// time, so that the change shows everywhere at once.
type Relabeler struct {
	by map[string]*relabel // by subject, for entities with labels other than the current one
}

type relabel struct {
	now string   // the current label
	old []string // labels it went by, longest first
}

// NewRelabeler returns the relabeler of a user's entities (all of them, merged ones
// included: the facts moved by a merge name the merged entity).
func NewRelabeler(entities []Entity) *Relabeler {
	byID := make(map[string]Entity, len(entities))
	for _, en := range entities {
		byID[en.ID] = en
	}
	// The entities merged into each live one, transitively.
	into := map[string][]Entity{}
	for _, en := range entities {
		seen := map[string]bool{}
		for to := en.MergedInto; to != "" && !seen[to]; to = byID[to].MergedInto {
			seen[to] = true
			if _, ok := byID[to]; !ok {
				break
			}
			into[to] = append(into[to], en)
		}
	}
	r := &Relabeler{by: map[string]*relabel{}}
	for _, en := range entities {
		// An entity never changed since it was made, with no other names, is named
		// in its facts as it is named now.
		if en.MergedInto != "" || len(en.Aliases) == 0 && len(into[en.ID]) == 0 && !en.UpdatedAt.After(en.CreatedAt) {
			continue
		}
		group := append([]Entity{en}, into[en.ID]...)
		names, rels := []string{}, []string{""}
		for _, g := range group {
			names = append(append(names, g.Name), g.Aliases...)
			rels = append(rels, g.Relation)
		}
		now := en.TextLabel()
		seen := map[string]bool{now: true, "": true}
		var old []string
		add := func(l string) {
			if !seen[l] {
				seen[l] = true
				old = append(old, l)
			}
		}
		for _, n := range names {
			for _, rel := range rels {
				if n != "" {
					add(Entity{Name: n, Relation: rel}.TextLabel())
				}
			}
		}
		for _, rel := range rels {
			if rel != "" {
				add(Entity{Relation: rel}.TextLabel())
			}
		}
		if len(old) == 0 {
			continue
		}
		sort.SliceStable(old, func(i, j int) bool { return len(old[i]) > len(old[j]) })
		r.by[en.Subject()] = &relabel{now: now, old: old}
	}
	return r
}

// Stale returns the subjects whose facts' texts may name them otherwise than they
// are named now (a reader renders only those facts again).
func (r *Relabeler) Stale() []string {
	out := make([]string, 0, len(r.by))
	for s := range r.by {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// Text returns f's text as it reads today: a relation fact names the entity by its
// current label and relation; another fact whose text begins with a label the entity
// went by begins with its current label instead. Other texts are returned as they
// are.
func (r *Relabeler) Text(f Fact) string {
	if r == nil || r.by[f.Subject] == nil {
		return f.Text
	}
	rl := r.by[f.Subject]
	if f.Key == KeyRelation && f.Value != "" {
		return rl.now + " is the user's " + f.Value
	}
	if labelled(f.Text, rl.now) {
		return f.Text
	}
	for _, l := range rl.old {
		if labelled(f.Text, l) {
			return rl.now + f.Text[len(l):]
		}
	}
	return f.Text
}

// labelled reports whether text begins with the label l, followed by no letter or
// digit ("Maria" labels "Maria lives ..." but not "Mariana lives ...").
func labelled(text, l string) bool {
	rest, ok := strings.CutPrefix(text, l)
	if !ok {
		return false
	}
	c, _ := utf8.DecodeRuneInString(rest)
	return rest == "" || !unicode.IsLetter(c) && !unicode.IsDigit(c)
}
