package personal

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/factbase/factbase"
)

// MinConfidence is the least confidence at which a mention is attached to a known
// entity. Below it the mention, and every fact about it, is skipped and reported:
// a fact stored under the wrong person is worse than a missing one.
const MinConfidence = 0.8

// Resolution says which entity a mention is.
type Resolution struct {
	Mention  int    `json:"mention"`
	EntityID string `json:"entity_id,omitempty"` // the known entity it is
	// New reports a mention that no known entity matches (or whose cues contradict
	// every entity of its name): a new entity.
	New        bool    `json:"new,omitempty"`
	Skip       bool    `json:"skip,omitempty"` // ambiguous: not attached, not created
	Confidence float64 `json:"confidence"`
	Reason     string  `json:"reason"`
	// renames: the entity matched by its relation alone, the mention's name new to it.
	renames bool
}

// genericRelations are relation words that say only the role: "child" fits "son".
var genericRelations = map[string]bool{"child": true, "partner": true, "spouse": true, "friend": true,
	"colleague": true, "sibling": true, "pet": true, "baby": true, "kid": true, "best friend": false}

// relationsAgree reports whether two relations can be the same person's; when they
// cannot it says why.
func relationsAgree(a, b string, ra, rb factbase.Role) (bool, string) {
	if a == "" || b == "" || a == b {
		return true, ""
	}
	base := func(s string) string { return strings.TrimPrefix(strings.TrimPrefix(s, "best "), "close ") }
	if base(a) == base(b) {
		return true, ""
	}
	if ra == "" {
		ra = roleOf(a)
	}
	if rb == "" {
		rb = roleOf(b)
	}
	if ra == rb && ra != factbase.RoleOther && (genericRelations[a] || genericRelations[b]) {
		return true, ""
	}
	return false, fmt.Sprintf("%q is not %q", a, b)
}

// roleOf returns the role of a relation word ("son's friend": other).
func roleOf(rel string) factbase.Role {
	if strings.Contains(rel, "'s ") {
		return factbase.RoleOther
	}
	if r, ok := relations[rel]; ok {
		return r.role
	}
	return factbase.RoleOther
}

// genderOf returns the gender a relation word implies.
func genderOf(rel string) string {
	if i := strings.LastIndex(rel, "'s "); i >= 0 {
		rel = rel[i+3:]
	}
	return genderName(relations[rel].gender)
}

// adultRoles cannot be a child's.
var adultRoles = map[factbase.Role]bool{factbase.RoleColleague: true, factbase.RoleService: true, factbase.RolePartner: true, factbase.RoleParent: true}

// ageContradiction reports cues that rule out one person being both.
func ageContradiction(m Mention, e factbase.Entity) string {
	ma, errM := strconv.Atoi(strings.Fields(m.Age + " x")[0])
	ea, errE := strconv.Atoi(strings.Fields(e.Attributes["age"] + " x")[0])
	mMonths, eMonths := strings.HasSuffix(m.Age, "months"), strings.HasSuffix(e.Attributes["age"], "months")
	if errM == nil && errE == nil && mMonths == eMonths && (ma-ea > 1 || ea-ma > 1) {
		return fmt.Sprintf("age %s is not age %s", m.Age, e.Attributes["age"])
	}
	if errM == nil && (ma < 16 || mMonths) && adultRoles[e.Role] {
		return fmt.Sprintf("a %s-year-old is not your %s", m.Age, nonEmpty(e.Relation, string(e.Role)))
	}
	if errE == nil && (ea < 16 || eMonths) && adultRoles[m.Role] {
		return fmt.Sprintf("your %s is not a %s-year-old", nonEmpty(m.Relation, string(m.Role)), e.Attributes["age"])
	}
	return ""
}

func nonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// names returns the lower-case names of an entity: its name and aliases.
func names(e factbase.Entity) []string {
	var out []string
	for _, n := range append([]string{e.Name}, e.Aliases...) {
		if n = strings.ToLower(strings.TrimSpace(n)); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// nameMatch scores how well name matches entity e: 1 for its name or an alias, 0.95
// for its first name ("Sarah" for "Sarah Connor") or a full name whose first name is
// e's name, 0 otherwise.
func nameMatch(name string, e factbase.Entity) float64 {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" {
		return 0
	}
	best := 0.0
	for _, en := range names(e) {
		switch {
		case n == en:
			return 1
		case strings.Fields(en)[0] == n, strings.Fields(n)[0] == en:
			best = 0.95
		}
	}
	return best
}

type candidate struct {
	e       factbase.Entity
	score   float64
	why     string
	byName  bool
	renames bool // matched by relation, and the mention names the entity anew
}

// Resolve matches each mention against the user's known entities (merged ones are
// ignored). A mention whose name, alias or relation matches one entity without
// contradicting it is that entity; a mention whose cues contradict every entity of
// its name (an 8-year-old Martin, Martin the accountant) is new; a mention that fits
// several entities equally (two Martins, no cue) is skipped with confidence below
// MinConfidence. It is pure and deterministic.
func Resolve(ms []Mention, known []factbase.Entity) []Resolution {
	live := make([]factbase.Entity, 0, len(known))
	for _, e := range known {
		if e.MergedInto == "" {
			live = append(live, e)
		}
	}
	out := make([]Resolution, len(ms))
	for i, m := range ms {
		out[i] = resolveOne(i, m, live)
	}
	separateNamed(ms, out)
	return out
}

// separateNamed keeps two people of one message apart: mentions of different names
// ("our twins Lea and Tim") that resolved to one entity by its relation alone (an
// unnamed daughter, taking a new name) cannot all be it, and the message does not
// say which one is: none of them takes it, and each is a new entity. A mention that
// matched the entity by name keeps it.
func separateNamed(ms []Mention, out []Resolution) {
	names := map[string]map[string]bool{} // entity id -> the names resolved to it
	for i, r := range out {
		if r.EntityID != "" && ms[i].Name != "" {
			if names[r.EntityID] == nil {
				names[r.EntityID] = map[string]bool{}
			}
			names[r.EntityID][strings.ToLower(ms[i].Name)] = true
		}
	}
	for i, r := range out {
		if !r.renames || len(names[r.EntityID]) < 2 {
			continue
		}
		out[i] = Resolution{Mention: i, New: true, Confidence: 0.9,
			Reason: fmt.Sprintf("new entity: %s is one of %d people of this message whom only the relation ties to one entity", mentionLabel(ms[i]), len(names[r.EntityID]))}
	}
}

func resolveOne(i int, m Mention, known []factbase.Entity) Resolution {
	r := Resolution{Mention: i}
	var cands []candidate
	var contradicted []string
	for _, e := range known {
		c, contra := match(m, e)
		if contra != "" {
			contradicted = append(contradicted, contra)
			continue
		}
		if c.score > 0 {
			cands = append(cands, c)
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].score > cands[b].score })
	label := mentionLabel(m)
	switch {
	case len(cands) == 0 && len(contradicted) > 0:
		r.New, r.Confidence = true, 0.9
		r.Reason = fmt.Sprintf("new entity: %s contradicts every known entity of that name (%s)", label, strings.Join(contradicted, "; "))
	case len(cands) == 0:
		if m.Name == "" && m.Relation == "" {
			r.Skip, r.Confidence, r.Reason = true, 0, fmt.Sprintf("%s names nobody", label)
			break
		}
		r.New, r.Confidence, r.Reason = true, 1, fmt.Sprintf("new entity: no known entity matches %s", label)
	case len(cands) == 1 || cands[0].score-cands[1].score >= 0.1:
		c := cands[0]
		if c.score < MinConfidence {
			r.Skip, r.Confidence = true, c.score
			r.Reason = fmt.Sprintf("ambiguous: %s matches %s only with confidence %.2f (%s)", label, c.e.Label(), c.score, c.why)
			break
		}
		r.EntityID, r.Confidence, r.Reason = c.e.ID, c.score, fmt.Sprintf("matched %s (%s)", c.e.Label(), c.why)
		r.renames = c.renames
	default:
		var which []string
		n := 0
		for _, c := range cands {
			if cands[0].score-c.score < 0.1 {
				which = append(which, fmt.Sprintf("%s (%s)", c.e.Label(), nonEmpty(c.e.Relation, string(c.e.Role))))
				n++
			}
		}
		r.Skip = true
		r.Confidence = cands[0].score / float64(n)
		r.Reason = fmt.Sprintf("ambiguous: %s could be %s; confidence %.2f is below %.2f, so nothing was stored about them",
			label, strings.Join(which, " or "), r.Confidence, MinConfidence)
	}
	return r
}

// match scores mention m against entity e, or says why they cannot be one person.
func match(m Mention, e factbase.Entity) (candidate, string) {
	c := candidate{e: e}
	ns := nameMatch(m.Name, e)
	mRole := m.Role
	switch {
	case m.Name != "" && ns > 0:
		c.byName = true
		c.score, c.why = 0.9*ns, "name"
	case m.Name != "" && e.Name != "":
		// different names: a unique relation held by someone else is a contradiction
		// worth reporting, not a new person
		if m.Unique && m.Relation != "" && m.Relation == e.Relation {
			c.score, c.why = 0.5, fmt.Sprintf("your %s is %s, not %s", e.Relation, e.Name, m.Name)
			return c, ""
		}
		return candidate{}, ""
	case m.Relation != "" && e.Relation != "":
		// a relation without a name ("my son"), or a name for an unnamed entity
		if ok, _ := relationsAgree(m.Relation, e.Relation, mRole, e.Role); !ok || m.Owner != User && !strings.Contains(e.Relation, "'s ") {
			return candidate{}, ""
		}
		if m.Relation != e.Relation && !(genericRelations[m.Relation] || genericRelations[e.Relation]) {
			return candidate{}, ""
		}
		c.score, c.why = 0.9, "relation"
		if m.Name != "" {
			c.score, c.why, c.renames = 0.85, "relation; the name is new", true
		}
	default:
		return candidate{}, ""
	}
	if ok, why := relationsAgree(m.Relation, e.Relation, mRole, e.Role); !ok {
		if c.byName {
			return candidate{}, fmt.Sprintf("%s: %s", e.Label(), why)
		}
		return candidate{}, ""
	}
	if g, eg := m.Gender, genderOf(e.Relation); g != "" && eg != "" && g != eg {
		return candidate{}, fmt.Sprintf("%s: %s is not %s", e.Label(), g, eg)
	}
	if why := ageContradiction(m, e); why != "" {
		if c.byName {
			return candidate{}, fmt.Sprintf("%s: %s", e.Label(), why)
		}
		return candidate{}, ""
	}
	if c.byName && m.Relation != "" && e.Relation != "" {
		c.score, c.why = min(1, c.score+0.1), "name and relation"
	}
	if m.Age != "" && m.Age == e.Attributes["age"] {
		c.score, c.why = min(1, c.score+0.05), c.why+" and age"
	}
	return c, ""
}

// mentionLabel names a mention in reports: "Martin (colleague)", "your son", "Martin".
func mentionLabel(m Mention) string {
	switch {
	case m.Name != "" && m.Relation != "":
		return fmt.Sprintf("%q (%s)", m.Name, m.Relation)
	case m.Name != "":
		return fmt.Sprintf("%q", m.Name)
	case m.Relation != "":
		return "your " + m.Relation
	}
	return "someone"
}
