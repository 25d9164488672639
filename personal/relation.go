package personal

import (
	"strings"

	"github.com/factbase/factbase"
)

// relationStatement reads "Sarah is my wife" (head at "my").
func (p *parser) relationStatement(head int, st state) int {
	s := *st.s
	if len(s.refs) != 1 || s.refs[0] == User {
		return head
	}
	rel, ok := p.relationAfterMy(head)
	if !ok {
		return head
	}
	idx := s.refs[0]
	if m := p.ex.Mentions[idx]; rel.via == "" && m.Relation != "" && m.Relation != rel.word {
		return head
	}
	p.setRelation(idx, rel.r, rel.word, rel.owner, rel.via)
	return rel.end
}

// nameStatement reads a name at i for a relation-only subject: "my wife is Sarah",
// "my son is called Leo", "my wife's name is Sarah".
func (p *parser) nameStatement(i int, st state) int {
	s := *st.s
	if len(s.refs) != 1 || s.refs[0] == User || p.dry {
		return i
	}
	name, e := p.name(i)
	if e == i {
		// lower case names after "called": "my son is called leo"
		if i < len(p.t) && p.t[i].kind == kWord && !notNames[p.w(i)] && !nameStops[p.w(i)] && p.clauseEnd(i+1) == i+1 {
			name, e = p.span(i, i+1), i+1
		} else {
			return i
		}
	}
	m := &p.ex.Mentions[s.refs[0]]
	if m.Name == "" {
		m.Name = name
	} else if !strings.EqualFold(m.Name, name) {
		return i
	}
	return e
}

// partnerName reads "married to Sarah" for the user.
func (p *parser) partnerName(i int, verb string) int {
	name, e := p.name(i)
	if e == i {
		return i
	}
	r := relations["spouse"]
	word := "spouse"
	switch verb {
	case "engaged":
		r, word = relations["fiance"], "fiance"
	case "dating":
		r, word = relations["partner"], "partner"
	}
	idx := p.mention(Mention{Name: name, Owner: User, Span: p.span(i, e)})
	p.setRelation(idx, r, word, User, "")
	return e
}

// relationIntro reads "a son named Leo", "a dog called Rex", "two kids, Leo and Mia"
// after "I have" / "we have".
func (p *parser) relationIntro(i int, st state) int {
	return p.relationIntroOf(i, st, User)
}

// relationIntroOf reads "a daughter named Freya", "a beagle called Toby" after
// "<owner> has" (owner User: the user's own, as relationIntro).
func (p *parser) relationIntroOf(i int, st state, owner int) int {
	j := i
	count := 1
	switch p.w(j) {
	case "a", "an", "one":
		j++
	case "two", "three", "four", "2", "3", "4":
		count = 0
		j++
	default:
		return i
	}
	age, j := p.modifiersAt(j)
	if count == 0 {
		// "two kids, Leo and Mia" / "two sons named Leo and Max"
		plural := p.w(j)
		single := map[string]string{"kids": "child", "children": "child", "sons": "son", "daughters": "daughter",
			"dogs": "dog", "cats": "cat", "brothers": "brother", "sisters": "sister", "boys": "son", "girls": "daughter",
			"kittens": "kitten", "puppies": "puppy"}[plural]
		if single == "" {
			return i
		}
		r := relations[single]
		k := j + 1
		if p.w(k) == "," || p.w(k) == ":" || p.w(k) == "named" || p.w(k) == "called" {
			k++
		}
		e := k
		n := 0
		for {
			name, ne := p.name(e)
			if ne == e {
				break
			}
			word := relWord(r, single)
			m := Mention{Name: name, Relation: word, Role: r.role, Gender: genderName(r.gender), Owner: User, Span: p.span(e, ne)}
			label := ""
			if owner != User {
				// "my coworker Raj has two kids, Anil and Maya": Raj's children
				label = p.ownerLabel(owner)
				m.Relation, m.Owner = label+"'s "+word, owner
				if r.role != factbase.RolePet {
					m.Role = factbase.RoleOther
				}
			}
			idx := p.mention(m)
			p.setRelation(idx, r, word, owner, label)
			n++
			e = ne
			if p.w(e) == "," {
				e++
			}
			if p.w(e) == "and" {
				e++
			}
		}
		if n == 0 {
			return i
		}
		return e
	}
	if e := p.breedIntro(j, owner); e > j {
		return e
	}
	r, word, k, ok := p.relationAt(j)
	if !ok || eventNouns[p.w(k)] || p.w(k) == "visit" {
		return i // "a dentist appointment"
	}
	n := k
	if p.w(n) == "named" || p.w(n) == "called" || p.w(n) == "," {
		n++
	}
	name, e := p.name(n)
	if e == n {
		name, e = "", k
	}
	if owner != User && name == "" {
		return i // "Sarah has a dog": too little to tell one from another
	}
	m := Mention{Name: name, Relation: word, Role: r.role, Gender: genderName(r.gender), Unique: r.unique, Owner: User, Age: age, Span: p.span(i, e)}
	label := ""
	if owner != User {
		label = p.ownerLabel(owner)
		m.Relation, m.Owner, m.Unique = label+"'s "+word, owner, false
		if r.role != factbase.RolePet {
			m.Role = factbase.RoleOther
		}
	}
	idx := p.mention(m)
	p.setRelation(idx, r, word, owner, label)
	if age != "" {
		p.emitAge(idx, age, "age")
	}
	// "a son named Leo who is 8"
	if p.w(e) == "who" || p.w(e) == "," && p.w(e+1) == "who" {
		w := e + 1
		if p.w(e) == "," {
			w++
		}
		inner := subj{refs: []int{idx}, clauseStart: w}
		if end := p.predicate(&inner, w); end > w {
			return end
		}
	}
	// "a dog named Pepper and a cat called Miso"
	if p.w(e) == "and" && (p.w(e+1) == "a" || p.w(e+1) == "an") {
		if e2 := p.relationIntroOf(e+1, st, owner); e2 > e+1 {
			return e2
		}
	}
	return e
}

// breedIntro reads "a golden retriever named Bailey" at j: a pet named after its
// breed, whose relation is its species (dog, or cat for a cat breed) and whose
// breed is a fact. Only with a name: "I have a poodle" alone is too little. A breed
// that is a relation word of its own ("a beagle called Toby") is left to the
// relation rule. It returns j when none is there.
func (p *parser) breedIntro(j, owner int) int {
	b, be := p.phraseIn(j, func(w string) (string, bool) { return w, breeds[w] })
	if be == j || p.w(be) != "named" && p.w(be) != "called" {
		return j
	}
	if _, ok := relations[b]; ok {
		return j
	}
	name, ne := p.name(be + 1)
	if ne == be+1 {
		return j
	}
	species := "dog"
	if catBreeds[b] {
		species = "cat"
	}
	r := relations[species]
	m := Mention{Name: name, Relation: species, Role: r.role, Gender: genderName(r.gender), Owner: User, Span: p.span(j, ne)}
	label := ""
	if owner != User {
		label = p.ownerLabel(owner)
		m.Relation, m.Owner = label+"'s "+species, owner
	}
	idx := p.mention(m)
	p.setRelation(idx, r, species, owner, label)
	v := p.span(j, be)
	p.emitFx(subj{refs: []int{idx}}, fx{key: factbase.KeyBreed, value: v, rule: "a <breed> named", text: func(x string) string {
		return x + " is a " + v
	}})
	return ne
}

// petAcquired reads the pets after "adopted", "rescued", "got", "brought home" at
// i: "a kitten named Mochi", "two kittens, Salt and Pepper", "a greyhound called
// Bolt". Anything but a named pet is left alone ("got a job", "adopted a routine").
func (p *parser) petAcquired(i int, st state) int {
	s := *st.s
	owner := User
	switch {
	case s.isUser() || s.we:
	case len(s.refs) == 1:
		owner = s.refs[0]
	default:
		return i
	}
	if !p.petAt(i) {
		return i
	}
	return p.relationIntroOf(i, st, owner)
}

// petNamed reads "our dog Pixel" after "we named" at i: the user's pet and its
// name. It returns i when none is there.
func (p *parser) petNamed(i int) int {
	j := i
	if p.w(j) != "my" && p.w(j) != "our" && p.w(j) != "the" {
		return i
	}
	j++
	for relationModifiers[p.w(j)] {
		j++
	}
	r, word, k, ok := p.relationAt(j)
	if !ok || r.role != factbase.RolePet {
		return i
	}
	name, e := p.name(k)
	if e == k || p.dry {
		return i
	}
	word = relWord(r, word)
	idx := p.mention(Mention{Name: name, Relation: word, Role: r.role, Gender: genderName(r.gender), Owner: User, Span: p.span(i, e)})
	p.setRelation(idx, r, word, User, "")
	return e
}

// petAt reports whether a pet is introduced at i: an article or a number, then a
// pet noun or a breed ("a kitten", "two rescue puppies", "a greyhound").
func (p *parser) petAt(i int) bool {
	j := i
	switch p.w(j) {
	case "a", "an", "one", "two", "three", "four", "2", "3", "4":
		j++
	default:
		return false
	}
	for relationModifiers[p.w(j)] || p.w(j) == "rescue" {
		j++
	}
	w := p.w(j)
	if w == "kittens" || w == "puppies" || w == "dogs" || w == "cats" {
		return true
	}
	if r, ok := relations[w]; ok && r.role == factbase.RolePet {
		return true
	}
	_, e := p.phraseIn(j, func(x string) (string, bool) { return x, breeds[x] })
	return e > j
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// catBreeds are the breeds of cats among breeds.
var catBreeds = map[string]bool{"maine coon": true, "siamese": true, "persian": true, "ragdoll": true,
	"bengal": true, "sphynx": true, "british shorthair": true, "russian blue": true, "scottish fold": true,
	"norwegian forest cat": true}

func relWord(r relInfo, word string) string {
	if r.canon != "" {
		return r.canon
	}
	return word
}

// modifiersAt steps over the relation modifiers and age adjectives before a relation
// word at j ("little", "8-year-old"): it returns the last age read ("" if none) and
// the index after them.
func (p *parser) modifiersAt(j int) (age string, k int) {
	for {
		if relationModifiers[p.w(j)] {
			j++
			continue
		}
		if a, k := p.ageAdjective(j); k > j {
			age, j = a, k
			continue
		}
		return age, j
	}
}
