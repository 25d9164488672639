package personal

import (
	"strconv"
	"strings"

	"github.com/factbase/factbase"
)

// subj is the subject of a clause: the user, one or more mentions.
type subj struct {
	refs        []int // mention indexes, or User
	we          bool  // "we": the user with others
	poss        bool  // the subject ended in a possessive: "Leo's", "my wife's", "his"
	skip        string
	correction  bool
	clauseStart int
}

func (s subj) isUser() bool { return len(s.refs) == 1 && s.refs[0] == User }

// nameStops are lower-case words that are never a name, even after "my son".
var nameStops = map[string]bool{
	"really": true, "also": true, "just": true, "still": true, "now": true, "always": true, "never": true,
	"usually": true, "often": true, "sometimes": true, "recently": true, "finally": true, "actually": true,
	"absolutely": true, "totally": true, "even": true, "only": true, "who": true, "which": true, "that": true,
	"and": true, "is": true, "was": true, "has": true, "had": true, "does": true, "did": true, "not": true,
	"apparently": true, "currently": true, "definitely": true, "and i": true, "too": true, "again": true,
	"will": true, "would": true, "can": true, "could": true, "might": true, "may": true, "must": true,
	"should": true, "loves": true, "likes": true, "hates": true, "works": true, "lives": true, "the": true,
	"a": true, "an": true, "of": true, "in": true, "at": true, "on": true, "to": true, "for": true,
	"with": true, "from": true, "by": true, "as": true, "so": true, "very": true, "seriously": true,
	"kind": true, "sort": true, "probably": true, "maybe": true, "perhaps": true, "here": true, "there": true,
	"is not": true, "are": true, "am": true, "be": true, "been": true, "being": true, "do": true,
}

// isName reports whether token i can be (the first word of) a person's name.
func (p *parser) isName(i int) bool {
	if i < 0 || i >= len(p.t) {
		return false
	}
	t := p.t[i]
	if t.kind != kWord || t.w == "" || t.w[0] >= '0' && t.w[0] <= '9' || t.w == selfWord {
		return false
	}
	if p.known[t.w] && !nameStops[t.w] && !notNames[t.w] {
		return true
	}
	if !t.cap || notNames[t.w] || pronouns[t.w] != anyGender || months[t.w] {
		return false
	}
	if _, ok := relations[t.w]; ok && !kinTitles[t.w] {
		return false
	}
	if pluralRelations[t.w] || languages[t.w] != "" {
		return false
	}
	return true
}

// name reads a name at i: a title ("Dr."), one to three name words; it returns the
// name as written and the index after it, or j == i.
func (p *parser) name(i int) (string, int) {
	j := i
	if titles[p.w(j)] && p.t[j].cap {
		j++
		if p.w(j) == "." {
			j++
		}
		if !p.isName(j) {
			return "", i
		}
	}
	if !p.isName(j) {
		return "", i
	}
	j++
	for n := 1; n < 3 && p.isName(j) && p.t[j-1].end+1 >= p.t[j].start && !p.t[j-1].poss && p.t[j].cap; n++ {
		j++
	}
	// "Sarah's": the name is "Sarah"
	s := p.span(i, j)
	if p.t[j-1].poss {
		s = trimPossessive(s)
	}
	return s, j
}

func trimPossessive(s string) string {
	for _, suf := range []string{"'s", "’s", "'S", "’S", "'", "’"} {
		if strings.HasSuffix(s, suf) {
			return s[:len(s)-len(suf)]
		}
	}
	return s
}

// relationAt reads a relation noun of one to three words at i (the last word may
// carry a possessive); it returns the relation info, the words as said and the index
// after them.
func (p *parser) relationAt(i int) (relInfo, string, int, bool) {
	for n := 3; n >= 1; n-- {
		if i+n > len(p.t) {
			continue
		}
		ok := true
		var ws []string
		for k := i; k < i+n; k++ {
			if p.t[k].kind != kWord || k < i+n-1 && p.t[k].poss {
				ok = false
				break
			}
			ws = append(ws, p.t[k].w)
		}
		if !ok {
			continue
		}
		phrase := strings.Join(ws, " ")
		if r, found := relations[phrase]; found {
			word := r.canon
			if word == "" {
				word = phrase
			}
			return r, word, i + n, true
		}
	}
	return relInfo{}, "", i, false
}

func genderName(g gender) string {
	switch g {
	case male:
		return "male"
	case female:
		return "female"
	}
	return ""
}

// mention records m (or merges it with the mention of the same person earlier in the
// message) and returns its index.
func (p *parser) mention(m Mention) int {
	if p.dry {
		return len(p.ex.Mentions)
	}
	for idx := len(p.ex.Mentions) - 1; idx >= 0; idx-- {
		o := &p.ex.Mentions[idx]
		same := false
		switch {
		case m.Name != "" && o.Name != "":
			same = strings.EqualFold(m.Name, o.Name) && (m.Relation == "" || o.Relation == "" || m.Relation == o.Relation)
		case m.Name == "" && m.Relation != "":
			same = o.Relation == m.Relation && o.Owner == m.Owner
		case m.Name != "" && o.Name == "":
			// "my son ... my son Leo": the name fills in
			same = m.Relation != "" && o.Relation == m.Relation && o.Owner == m.Owner
			if same && !p.dry {
				o.Name = m.Name
			}
		}
		if !same {
			continue
		}
		if o.Relation == "" && m.Relation != "" {
			o.Relation, o.Role, o.Unique, o.Owner = m.Relation, m.Role, m.Unique, m.Owner
		}
		if o.Gender == "" {
			o.Gender = m.Gender
		}
		if o.Age == "" {
			o.Age = m.Age
		}
		p.touch(idx)
		return idx
	}
	p.ex.Mentions = append(p.ex.Mentions, m)
	idx := len(p.ex.Mentions) - 1
	p.touch(idx)
	return idx
}

// touch makes idx the most recent mention.
func (p *parser) touch(idx int) {
	for k, r := range p.recent {
		if r == idx {
			p.recent = append(p.recent[:k], p.recent[k+1:]...)
			break
		}
	}
	p.recent = append(p.recent, idx)
}

// setRelation gives mention idx a relation stated by the user and records it as a
// fact.
func (p *parser) setRelation(idx int, r relInfo, word string, owner int, ownerLabel string) {
	if p.dry || idx < 0 {
		return
	}
	m := &p.ex.Mentions[idx]
	rel := word
	role := r.role
	if owner != User {
		rel = ownerLabel + "'s " + word
		if role != factbase.RolePet {
			role = factbase.RoleOther
		}
	}
	if m.Relation == "" || m.Relation == rel {
		m.Relation, m.Role, m.Owner = rel, role, owner
		m.Unique = r.unique && owner == User
		if m.Gender == "" {
			m.Gender = genderName(r.gender)
		}
	}
	p.emit(subj{refs: []int{idx}}, factbase.KeyRelation, rel, "relation", func(s string) string {
		return s + " is the user's " + rel
	})
}

// pronoun returns the most recent mention a pronoun of gender g can refer to, or -1.
func (p *parser) pronoun(g gender) int {
	for k := len(p.recent) - 1; k >= 0; k-- {
		idx := p.recent[k]
		if p.dry && idx >= len(p.ex.Mentions) {
			continue
		}
		m := p.ex.Mentions[idx]
		if m.Role == factbase.RolePet && g != anyGender && m.Gender == "" {
			return idx
		}
		if g == anyGender || m.Gender == "" || m.Gender == genderName(g) {
			return idx
		}
	}
	return -1
}

// peekSubject parses a subject at i without recording anything.
func (p *parser) peekSubject(i int) (subj, int, bool) {
	if p.dry {
		return p.subject(i)
	}
	p.dry = true
	defer func() { p.dry = false }()
	return p.subject(i)
}

// possAttributes are the attributes "her ... is" may state: "her birthday is March 3".
var possAttributes = map[string]bool{"birthday": true, "bday": true, "name": true, "email": true, "number": true,
	"phone": true, "job": true, "age": true, "diet": true, "allergies": true}

// bareKin are relation words that name the user's relative without "my": "Mom
// loves it".
var bareKin = map[string]bool{
	"mom": true, "mum": true, "dad": true, "mommy": true, "daddy": true, "mama": true, "papa": true,
	"grandma": true, "grandpa": true, "granny": true, "nana": true,
}

// subject parses the subject of a clause at i.
func (p *parser) subject(i int) (subj, int, bool) {
	s, j, ok := p.subjectPart(i)
	if !ok {
		return s, i, false
	}
	// "Leo and Mia", "my wife and I"
	for p.w(j) == "and" || p.w(j) == "&" {
		s2, j2, ok2 := p.subjectPartDry(j + 1)
		if !ok2 || s2.skip != "" || s.poss {
			break
		}
		if !p.startsPredicate(j2) {
			break
		}
		s2, j2, _ = p.subjectPart(j + 1)
		for _, r := range s2.refs {
			if r == User {
				s.we = true
			}
		}
		s.refs = append(s.refs, s2.refs...)
		j = j2
	}
	if len(s.refs) > 1 && s.skip == "" {
		return s, j, true
	}
	if s.skip != "" {
		return s, j, true
	}
	j = p.afterMention(s, j)
	return s, j, true
}

func (p *parser) subjectPartDry(i int) (subj, int, bool) {
	was := p.dry
	p.dry = true
	s, j, ok := p.subjectPart(i)
	p.dry = was
	return s, j, ok
}

// subjectPart parses one subject: I, we, a pronoun, "my <relation> [name]", a name
// with optional apposition, a bare kin word.
func (p *parser) subjectPart(i int) (subj, int, bool) {
	w := p.w(i)
	switch w {
	case "i":
		return subj{refs: []int{User}}, i + 1, true
	case "me":
		if p.w(i+1) == "and" {
			return subj{refs: []int{User}}, i + 1, true
		}
		return subj{}, i, false
	case "we":
		return subj{refs: []int{User}, we: true}, i + 1, true
	case "my", "our":
		return p.possessive(i)
	case "he", "she", "his", "her", "him":
		g := pronouns[w]
		if w == "his" || w == "her" {
			// "his son Finn", "her husband": a relative of the one the pronoun names
			if r, word, k, ok := p.relationAt(i + 1); ok && !p.t[i+1].cap {
				idx := p.pronoun(g)
				if idx < 0 {
					return subj{skip: "pronoun: \"" + w + "\" refers to nobody named earlier in the message"}, k, true
				}
				return p.relationMention(i, k, r, word, idx, p.ownerLabel(idx))
			}
		}
		if w == "her" && !p.t[i].cap && i > 0 && !possAttributes[p.w(i+1)] {
			return subj{}, i, false
		}
		idx := p.pronoun(g)
		if idx >= 0 && p.saidBy != User && idx == p.saidBy && !p.dry {
			// "Leo's teacher told us he's allergic": not the teller of unknown gender
			// but the one the teller belongs to
			m := p.ex.Mentions[idx]
			if m.Owner >= 0 && m.Gender != genderName(g) {
				if o := p.ex.Mentions[m.Owner]; o.Gender == "" || o.Gender == genderName(g) {
					idx = m.Owner
				}
			}
		}
		if idx < 0 {
			if !p.startsPredicate(i+1) && !(w == "his" || w == "her") {
				return subj{}, i, false
			}
			return subj{skip: "pronoun: \"" + w + "\" refers to nobody named earlier in the message"}, i + 1, true
		}
		p.touch(idx)
		return subj{refs: []int{idx}, poss: w == "his" || w == "her"}, i + 1, true
	case "it", "its":
		if len(p.recent) > 0 {
			idx := p.recent[len(p.recent)-1]
			if idx < len(p.ex.Mentions) && p.ex.Mentions[idx].Role == factbase.RolePet {
				return subj{refs: []int{idx}, poss: w == "its"}, i + 1, true
			}
		}
		return subj{}, i, false
	case "they", "their", "both", "everyone", "everybody", "all":
		if p.startsPredicate(i+1) && p.looksPersonal() && (w != "all" && w != "both" || p.w(i+1) == "of") {
			return subj{skip: "group: \"" + w + "\" names several people; facts are kept per person"}, i + 1, true
		}
		return subj{}, i, false
	case "user", "users":
		// "User prefers ...", as assistants and memory systems write notes
		if p.t[i].cap && (w == "user" || p.t[i].poss) && !p.startsName(i+1) {
			return p.userSubject(i)
		}
		return subj{}, i, false
	case "the":
		if p.w(i+1) == "user" && !p.startsName(i+2) {
			return p.userSubject(i + 1)
		}
		if pluralRelations[p.w(i+1)] {
			return subj{skip: "group: \"" + p.span(i, i+2) + "\" names several people; facts are kept per person"}, i + 2, true
		}
		return subj{}, i, false
	}
	if kinTitles[w] && p.t[i].cap && !p.t[i].poss {
		// "Grandpa Joe", "Uncle Bob": a relation and a name
		if name, j := p.name(i + 1); j > i+1 {
			r := relations[w]
			word := relWord(r, w)
			idx := p.mention(Mention{Name: name, Relation: word, Role: r.role, Gender: genderName(r.gender), Owner: User, Span: p.span(i, j)})
			p.setRelation(idx, r, word, User, "")
			return subj{refs: []int{idx}, poss: p.t[j-1].poss}, j, true
		}
	}
	if bareKin[w] && (p.t[i].cap || i == 0) {
		r := relations[w]
		word := relWord(r, w)
		idx := p.mention(Mention{Relation: word, Role: r.role, Gender: genderName(r.gender), Unique: r.unique, Owner: User, Span: p.span(i, i+1)})
		p.setRelation(idx, r, word, User, "")
		return subj{refs: []int{idx}, poss: p.t[i].poss}, i + 1, true
	}
	if name, j := p.name(i); j > i {
		poss := p.t[j-1].poss
		// "Sarah's brother Tom": a relation of a named person
		if poss {
			if r, word, k, ok := p.relationAt(j); ok {
				owner := p.mention(Mention{Name: name, Owner: User, Span: p.span(i, j)})
				return p.relationMention(i, k, r, word, owner, name)
			}
		}
		idx := p.mention(Mention{Name: name, Owner: User, Span: p.span(i, j)})
		return subj{refs: []int{idx}, poss: poss}, j, true
	}
	return subj{}, i, false
}

// possessive parses "my/our [modifiers] [age] <relation>['s <relation>] [name]" at i.
func (p *parser) possessive(i int) (subj, int, bool) {
	j := i + 1
	if childRanks[p.w(j)] {
		// "our youngest, Ivy, starts preschool": a child named by rank
		k := j + 1
		if p.w(k) == "," {
			k++
		}
		if name, e := p.name(k); e > k && (p.w(e) == "," || p.startsPredicate(e)) {
			r := relations["child"]
			idx := p.mention(Mention{Name: name, Relation: "child", Role: r.role, Owner: User, Span: p.span(i, e)})
			p.setRelation(idx, r, "child", User, "")
			if p.w(e) == "," {
				e++
			}
			return subj{refs: []int{idx}}, e, true
		}
	}
	if _, e := p.phraseIn(j, nativeLanguage); e > j {
		// "my mother tongue is Tamil": a language, not a mother named Tongue
		return subj{}, i, false
	}
	age, j := p.modifiersAt(j)
	if refs, e := p.pluralNames(i, j); len(refs) > 0 {
		return subj{refs: refs}, e, true
	}
	if _, _, k, ok := p.relationAt(j); ok && k > j+1 {
		// "my team lead Chloe": a relation of two words, not a group
	} else if pluralRelations[p.w(j)] || p.w(j) == "two" || p.w(j) == "three" {
		if p.startsPredicate(j+1) || p.t[min(j, len(p.t)-1)].poss {
			return subj{skip: "group: \"" + p.span(i, j+1) + "\" names several people; facts are kept per person"}, j + 1, true
		}
		return subj{}, i, false
	}
	r, word, k, ok := p.relationAt(j)
	if !ok {
		return subj{}, i, false
	}
	return p.relationMentionAge(i, k, r, word, User, "", age)
}

func (p *parser) relationMention(i, k int, r relInfo, word string, owner int, ownerLabel string) (subj, int, bool) {
	return p.relationMentionAge(i, k, r, word, owner, ownerLabel, "")
}

// relationMentionAge finishes a relation mention whose relation words end at k: a
// nested relation ("my son's friend"), a name ("my son Leo", "my wife, Sarah,").
func (p *parser) relationMentionAge(i, k int, r relInfo, word string, owner int, ownerLabel, age string) (subj, int, bool) {
	last := p.t[k-1]
	if last.poss {
		// "my son's friend Martin": the friend of the son
		if r2, word2, k2, ok := p.relationAt(k); ok {
			var o int
			label := word
			if owner == User {
				o = p.mention(Mention{Relation: word, Role: r.role, Gender: genderName(r.gender), Unique: r.unique, Owner: User, Span: p.span(i, k)})
			} else {
				o = p.mention(Mention{Relation: ownerLabel + "'s " + word, Role: factbase.RoleOther, Owner: owner, Span: p.span(i, k)})
				label = ownerLabel + "'s " + word
			}
			return p.relationMentionAge(i, k2, r2, word2, o, label, age)
		}
	}
	name, j := "", k
	if !last.poss {
		name, j = p.relationName(k)
	}
	m := Mention{Name: name, Relation: word, Role: r.role, Gender: genderName(r.gender), Unique: r.unique && owner == User,
		Owner: owner, Age: age, Span: p.span(i, j)}
	if owner != User {
		m.Relation, m.Role, m.Unique = ownerLabel+"'s "+word, factbase.RoleOther, false
	}
	idx := p.mention(m)
	p.setRelation(idx, r, word, owner, ownerLabel)
	if age != "" {
		p.emitAge(idx, age, "age")
	}
	poss := p.t[j-1].poss && (j == k || name != "")
	if name != "" && p.t[j-1].poss {
		poss = true
	}
	return subj{refs: []int{idx}, poss: poss}, j, true
}

// relationName reads the name after a relation noun at k: "Leo", ", Sarah,", "leo"
// (lower case, when a predicate follows).
func (p *parser) relationName(k int) (string, int) {
	if name, j := p.name(k); j > k {
		return name, j
	}
	if p.w(k) == "," {
		if name, j := p.name(k + 1); j > k+1 && (p.w(j) == "," || j >= len(p.t) || p.startsPredicate(j)) {
			if p.w(j) == "," {
				j++
			}
			return name, j
		}
	}
	// a lower-case name: "my son leo is 8"
	if k < len(p.t) && p.t[k].kind == kWord && !nameStops[p.w(k)] && !notNames[p.w(k)] && !p.isVerbish(k) && !eventNouns[p.w(k)] &&
		relations[p.w(k)].role == "" && !pluralRelations[p.w(k)] && p.startsPredicate(k+1) && len(p.w(k)) > 1 {
		if _, err := strconv.Atoi(p.w(k)); err != nil {
			return p.span(k, k+1), k + 1
		}
	}
	return "", k
}

// ageAdjective reads "8-year-old", "8 year old", "two-year-old" at j.
func (p *parser) ageAdjective(j int) (string, int) {
	w := p.w(j)
	if strings.HasSuffix(w, "-year-old") || strings.HasSuffix(w, "-years-old") {
		n := strings.TrimSuffix(strings.TrimSuffix(w, "-year-old"), "-years-old")
		if a, ok := ageNumber(n); ok {
			return a, j + 1
		}
	}
	if strings.HasSuffix(w, "-month-old") {
		n := strings.TrimSuffix(w, "-month-old")
		if a, ok := ageNumber(n); ok {
			return a + " months", j + 1
		}
	}
	if a, ok := ageNumber(w); ok && (p.at(j+1, "year", "old") > 0 || p.at(j+1, "year-old") > 0) {
		if p.at(j+1, "year", "old") > 0 {
			return a, j + 3
		}
		return a, j + 2
	}
	return "", j
}

var ageWords = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
	"seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
	"sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}

// ageNumber reads an age in digits or words.
func ageNumber(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	if s[0] >= '0' && s[0] <= '9' {
		n, err := strconv.Atoi(s)
		if err != nil || n > 120 {
			return "", false
		}
		return strconv.Itoa(n), true
	}
	if n, ok := ageWords[s]; ok {
		return strconv.Itoa(n), true
	}
	// "twenty-five"
	if a, b, ok := strings.Cut(s, "-"); ok {
		if x, ok1 := ageWords[a]; ok1 && x >= 20 && x%10 == 0 {
			if y, ok2 := ageWords[b]; ok2 && y < 10 {
				return strconv.Itoa(x + y), true
			}
		}
	}
	return "", false
}

// afterMention reads what may follow a single-mention subject before its predicate:
// "(8)", ", 8,", ", who is 8,", ", my accountant,", ", my son's friend,".
func (p *parser) afterMention(s subj, j int) int {
	if len(s.refs) != 1 || s.refs[0] == User || s.poss {
		return j
	}
	idx := s.refs[0]
	for {
		switch {
		case p.w(j) == "(":
			end := j + 1
			for end < len(p.t) && p.w(end) != ")" {
				end++
			}
			if a, ok := ageNumber(p.w(j + 1)); ok && end == j+2 {
				p.emitAge(idx, a, "age")
			}
			if end >= len(p.t) {
				return j
			}
			j = end + 1
			continue
		case p.w(j) == ",":
			k := j + 1
			if a, ok := ageNumber(p.w(k)); ok && p.w(k+1) == "," {
				p.emitAge(idx, a, "age")
				j = k + 2
				continue
			}
			if p.w(k) == "aged" {
				if a, ok := ageNumber(p.w(k + 1)); ok {
					p.emitAge(idx, a, "age")
					j = k + 2
					if p.w(j) == "," {
						j++
					}
					continue
				}
			}
			if p.w(k) == "my" || p.w(k) == "our" {
				if k2 := p.apposition(idx, k); k2 > k {
					j = k2
					if p.w(j) == "," {
						j++
					}
					continue
				}
			}
			if p.w(k) == "who" || p.w(k) == "whom" {
				inner := subj{refs: []int{idx}, clauseStart: k}
				_, end := p.predicates(&inner, k+1)
				if end > k+1 && p.w(end) == "," {
					j = end + 1
					continue
				}
				if end > k+1 {
					return end
				}
			}
			return j
		}
		return j
	}
}

// myRelation is a relation read after "my" at i, modifiers skipped ("my little
// brother"). In a chain ("my wife's sister") the first relation becomes a mention of
// its own: owner is that mention and via its relation word; otherwise owner is User.
type myRelation struct {
	r     relInfo
	word  string
	end   int // the index after the relation
	owner int
	via   string
	age   string // "our 6-year-old boxer"
}

// relationAfterMy reads the relation after "my" at i; ok is false if there is none.
func (p *parser) relationAfterMy(i int) (rel myRelation, ok bool) {
	age, j := p.modifiersAt(i + 1)
	r, word, e, ok := p.relationAt(j)
	if !ok {
		return myRelation{}, false
	}
	if !p.t[e-1].poss {
		return myRelation{r: r, word: word, end: e, owner: User, age: age}, true
	}
	r2, word2, e2, ok := p.relationAt(e)
	if !ok {
		return myRelation{}, false
	}
	o := p.mention(Mention{Relation: word, Role: r.role, Gender: genderName(r.gender), Unique: r.unique, Owner: User, Span: p.span(i, e)})
	return myRelation{r: r2, word: word2, end: e2, owner: o, via: word}, true
}

// apposition reads ", my accountant," after a name at k ("my" at k) and gives the
// mention that relation; it returns the index after the relation or k.
func (p *parser) apposition(idx, k int) int {
	rel, ok := p.relationAfterMy(k)
	if !ok {
		return k
	}
	if rel.via != "" && !p.dry {
		m := &p.ex.Mentions[idx]
		if m.Relation == "" {
			m.Relation, m.Role, m.Owner = rel.via+"'s "+rel.word, factbase.RoleOther, rel.owner
			if m.Gender == "" {
				m.Gender = genderName(rel.r.gender)
			}
		}
	}
	p.setRelation(idx, rel.r, rel.word, rel.owner, rel.via)
	if rel.age != "" {
		p.emitAge(idx, rel.age, "age")
	}
	return rel.end
}
