package personal

// Subjects that name several people or name someone through another: "our twins
// Lea and Tim", "my kids are Sofia, 9, and Mateo, 6", "our youngest, Ivy,", "The
// user's daughter".

// userSubject reads "user" at i, the user in the third person: "User is
// vegetarian", "The user's daughter Mila".
func (p *parser) userSubject(i int) (subj, int, bool) {
	if p.t[i].poss {
		if s, j, ok := p.possessive(i); ok {
			return s, j, ok
		}
		return subj{refs: []int{User}, poss: true}, i + 1, true
	}
	return subj{refs: []int{User}}, i + 1, true
}

// startsName reports whether a name starts at i ("User Anna" is not the user).
func (p *parser) startsName(i int) bool {
	_, j := p.name(i)
	return j > i
}

// ownerLabel names mention idx as the owner of a relation: "Ana", "cousin".
func (p *parser) ownerLabel(idx int) string {
	if idx < 0 || idx >= len(p.ex.Mentions) {
		return ""
	}
	m := p.ex.Mentions[idx]
	if m.Name != "" {
		return m.Name
	}
	return m.Relation
}

// pluralSingular is the relation of each person a plural relation names: "our
// twins Lea and Tim" are children.
var pluralSingular = map[string]string{"kids": "child", "children": "child", "sons": "son", "daughters": "daughter",
	"twins": "child", "boys": "son", "girls": "daughter", "brothers": "brother", "sisters": "sister",
	"friends": "friend", "colleagues": "colleague", "coworkers": "colleague", "co-workers": "colleague",
	"cousins": "cousin", "parents": "parent", "grandparents": "grandparent", "dogs": "dog", "cats": "cat", "roommates": "roommate", "neighbors": "neighbor",
	"neighbours": "neighbor", "grandkids": "grandchild", "grandchildren": "grandchild", "siblings": "sibling"}

// pluralNames reads the names after a plural relation at j ("twins Lea and Tim",
// "kids are Sofia, 9, and Mateo, 6"): one mention each, with the singular relation
// and any age given after the name. It returns the mentions and the index after the
// list; none when the list does not hold two names or more.
func (p *parser) pluralNames(i, j int) ([]int, int) {
	single := pluralSingular[p.w(j)]
	if single == "" {
		return nil, i
	}
	r := relations[single]
	word := relWord(r, single)
	type named struct {
		name, age  string
		start, end int
	}
	var list []named
	k := j + 1
	if p.w(k) == "are" || p.w(k) == ":" || p.w(k) == "," {
		k++
	}
	for {
		name, e := p.name(k)
		if e == k {
			break
		}
		n := named{name: name, start: k, end: e}
		if p.w(e) == "," {
			if a, ok := ageNumber(p.w(e + 1)); ok && (p.w(e+2) == "," || p.w(e+2) == "and" || e+2 >= len(p.t)) {
				n.age = a
				e += 2
			}
		} else if p.w(e) == "(" && p.w(e+2) == ")" {
			if a, ok := ageNumber(p.w(e + 1)); ok {
				n.age = a
				e += 3
			}
		}
		list = append(list, n)
		k = e
		if p.w(k) == "," {
			k++
		}
		if p.w(k) == "and" || p.w(k) == "&" {
			k++
		} else if p.w(k-1) != "," {
			break
		}
	}
	if len(list) < 2 || p.w(k-1) == "and" || p.w(k-1) == "," && !p.startsPredicate(k) {
		return nil, i
	}
	if p.dry {
		return make([]int, len(list)), k
	}
	refs := make([]int, 0, len(list))
	for _, n := range list {
		idx := p.mention(Mention{Name: n.name, Relation: word, Role: r.role, Gender: genderName(r.gender), Owner: User, Age: n.age, Span: p.span(n.start, n.end)})
		p.setRelation(idx, r, word, User, "")
		if n.age != "" {
			p.emitAge(idx, n.age, "age")
		}
		refs = append(refs, idx)
	}
	return refs, k
}

// childRanks name a child by birth order: "our youngest, Ivy,".
var childRanks = map[string]bool{"youngest": true, "oldest": true, "eldest": true, "middle": false}
