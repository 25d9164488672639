package personal

import (
	"strings"

	"github.com/factbase/factbase"
)

// schoolWords mark an organisation's name as a school's: "Oak Hill Elementary".
var schoolWords = map[string]bool{
	"school": true, "elementary": true, "primary": true, "high": true, "academy": true, "college": true,
	"university": true, "montessori": true, "preschool": true, "pre-school": true, "kindergarten": true,
	"nursery": true, "institute": true, "polytechnic": true, "gymnasium": true, "prep": true, "middle": true,
	"uni": true, "conservatory": true, "conservatoire": true, "tech": true, "lycée": true, "lycee": true,
}

// knownSchools are universities usually named without a school word.
var knownSchools = map[string]bool{
	"mit": true, "stanford": true, "harvard": true, "oxford": true, "cambridge": true, "yale": true,
	"princeton": true, "berkeley": true, "uc berkeley": true, "ucla": true, "ucl": true, "caltech": true,
	"eth": true, "eth zurich": true, "columbia": true, "cornell": true, "nyu": true, "lse": true,
	"epfl": true, "tu delft": true, "tu munich": true, "tum": true, "waterloo": true, "mcgill": true,
	"edinburgh": true, "sorbonne": true, "sciences po": true, "duke": true, "brown": false, "penn": true,
	"upenn": true, "dartmouth": true, "georgetown": true, "usc": true, "cmu": true, "carnegie mellon": true,
	"kaist": true, "ntu": true, "nus": true, "uva": true, "kth": true, "imperial": true, "warwick": true,
	"durham": true, "st andrews": true, "trinity": true, "insead": true, "wharton": true,
}

// ordinals are the ordinal words of school grades.
var ordinals = map[string]bool{
	"first": true, "second": true, "third": true, "fourth": true, "fifth": true, "sixth": true,
	"seventh": true, "eighth": true, "ninth": true, "tenth": true, "eleventh": true, "twelfth": true,
	"1st": true, "2nd": true, "3rd": true, "4th": true, "5th": true, "6th": true, "7th": true, "8th": true,
	"9th": true, "10th": true, "11th": true, "12th": true,
}

// gradeNames are grades said without a number: "is in kindergarten".
var gradeNames = map[string]bool{"kindergarten": true, "preschool": true, "pre-k": true, "pre-school": true,
	"nursery": true, "reception": false}

// classYears are the years of high school and college said as nouns: "a senior at
// Westview High".
var classYears = map[string]bool{"senior": true, "junior": true, "sophomore": true, "freshman": true}

// degreeWords may name the degree of a student or a programme: "a PhD student", "a
// master's in data science".
var degreeWords = map[string]bool{
	"phd": true, "ph.d": true, "master's": true, "masters": true, "master": true, "bachelor's": true,
	"bachelors": true, "bachelor": true, "doctorate": true, "degree": true, "ba": true, "bsc": true,
	"msc": true, "ma": true, "mba": true, "llm": true, "graduate": true, "grad": true, "undergraduate": true,
	"undergrad": true, "postgraduate": true, "postgrad": true, "doctoral": true, "law": true, "medical": true,
	"med": true, "nursing": true, "university": true, "college": true, "exchange": true, "art": true,
	"diploma": true, "postdoc": true,
}

// properEnd returns the end of a proper name at i: capitalised words (or words with
// digits), joined by "of", "de", "&" and abbreviation dots ("St. Anne's Primary",
// "University of Toronto", "Riese & Müller"); i when none starts there. A leading
// "the" belongs to it when a capitalised word follows.
func (p *parser) properEnd(i int) int {
	j := i
	if p.w(j) == "the" && j+1 < len(p.t) && p.t[j+1].cap {
		j++
	}
	start := j
	for j < len(p.t) {
		t := p.t[j]
		switch {
		case t.kind == kWord && j > start && (months[t.w] || weekdays[t.w]):
			return p.properTrim(start, j)
		case t.kind == kWord && (t.cap || t.w[0] >= '0' && t.w[0] <= '9' && j > start):
			j++
			if t.poss && !(j < len(p.t) && p.t[j].cap) {
				return p.properTrim(start, j)
			}
		case t.w == "." && j > start && abbreviations[p.w(j-1)] && t.start == p.t[j-1].end:
			j++
		case (t.w == "of" || t.w == "de" || t.w == "&" || t.w == "du" || t.w == "von") && j > start && j+1 < len(p.t) && p.t[j+1].cap:
			j++
		default:
			return p.properTrim(start, j)
		}
	}
	return p.properTrim(start, j)
}

// properTrim returns j when a name was read from start, else the start of the scan.
func (p *parser) properTrim(start, j int) int {
	if j == start {
		if start > 0 && p.w(start-1) == "the" {
			return start - 1
		}
		return start
	}
	return j
}

var weekdays = map[string]bool{"monday": true, "tuesday": true, "wednesday": true, "thursday": true,
	"friday": true, "saturday": true, "sunday": true, "mondays": true, "tuesdays": true, "wednesdays": true,
	"thursdays": true, "fridays": true, "saturdays": true, "sundays": true}

// schoolAt reads a school's name at i: a proper name holding a school word, or a
// known university; any proper name when anyOrg. It returns the index after it, or i.
func (p *parser) schoolAt(i int, anyOrg bool) int {
	e := p.properEnd(i)
	if e == i {
		return i
	}
	if anyOrg {
		return e
	}
	var ws []string
	for k := i; k < e; k++ {
		if p.t[k].kind != kWord || p.w(k) == "the" {
			continue
		}
		if schoolWords[p.w(k)] {
			return e
		}
		ws = append(ws, p.w(k))
	}
	if knownSchools[strings.Join(ws, " ")] {
		return e
	}
	return i
}

// emitSchool records the school [i, e) of st's subject.
func (p *parser) emitSchool(st state, i, e int, rule string) int {
	v := p.span(i, e)
	p.emitFx(*st.s, fx{key: factbase.KeySchool, value: v, rule: rule, correction: st.corr, text: func(x string) string {
		return x + " goes to " + v
	}})
	return e
}

// gradeAt reads a school grade at i: "first grade", "7th grade", "grade 3", "year 3",
// "kindergarten". It returns the grade as said and the index after it.
func (p *parser) gradeAt(i int) (string, int) {
	switch {
	case ordinals[p.w(i)] && p.w(i+1) == "grade":
		return p.span(i, i+2), i + 2
	case (p.w(i) == "grade" || p.w(i) == "year" || p.w(i) == "class") && isNumber(p.w(i+1)) && p.w(i+2) != "old":
		return p.span(i, i+2), i + 2
	case gradeNames[p.w(i)]:
		return p.span(i, i+1), i + 1
	}
	return "", i
}

// gradeEnd returns the index after a grade at i, or i.
func (p *parser) gradeEnd(i int) int {
	_, e := p.gradeAt(i)
	return e
}

// emitGrade records a grade of st's subject.
func (p *parser) emitGrade(st state, v, rule string) {
	p.emitFx(*st.s, fx{key: factbase.KeyGrade, value: v, rule: rule, correction: st.corr, text: func(x string) string {
		return x + " is in " + v
	}})
}

// inGrade reads "in first grade [at Lincoln Middle School]" after a copula (head at
// "in"); it returns head when no grade follows.
func (p *parser) inGrade(head int, st state) int {
	g, e := p.gradeAt(head + 1)
	if e == head+1 {
		return head
	}
	p.emitGrade(st, g, "is in <grade>")
	if p.w(e) == "at" {
		if se := p.schoolAt(e+1, true); se > e+1 {
			return p.emitSchool(st, e+1, se, "is in <grade> at")
		}
	}
	return p.afterTail(e)
}

// classYear reads "senior at Westview High", "freshman in college" after an article
// at i; it returns i when none is there.
func (p *parser) classYear(i int, st state) int {
	if !classYears[p.w(i)] {
		return i
	}
	switch {
	case p.w(i+1) == "at":
		se := p.schoolAt(i+2, true)
		if se == i+2 {
			return i
		}
		p.emitGrade(st, p.span(i, i+1), "is a <class year> at")
		return p.emitSchool(st, i+2, se, "is a <class year> at")
	case p.at(i+1, "in", "high", "school") > 0 || p.at(i+1, "in", "college") > 0:
		p.emitGrade(st, p.span(i, i+1), "is a <class year> in")
		return p.clauseEnd(i + 1)
	}
	return i
}

// notFields start no field of study: "studying hard", "studying for her exams".
var notFields = map[string]bool{"hard": true, "late": true, "a": true, "for": true, "at": true, "in": true,
	"with": true, "to": true, "on": true, "abroad": true, "together": true, "again": true, "all": true,
	"every": true, "tonight": true, "today": true, "tomorrow": true, "now": true, "more": true, "less": true,
	"lots": true, "online": true, "up": true, "from": true, "remotely": true}

// fieldEnd returns the end of a field of study at i ("law", "computer science"): at
// most four words, ending before "at", "in", a clause or a marker.
func (p *parser) fieldEnd(i int) int {
	if p.w(i) == "a" || p.w(i) == "an" || p.w(i) == "the" || objectPronouns[p.w(i)] || possessives[p.w(i)] ||
		notFields[p.w(i)] || strings.HasSuffix(p.w(i), "ly") || i < len(p.t) && p.t[i].kind != kWord {
		return i
	}
	if m, _ := p.markerAt(i); m != nil {
		return i // "I study every evening"
	}
	e := p.valueEnd(i, true, "at", "in", "from", "since", "for", "with", "because", "online", "part-time", "full-time", "abroad", "now")
	if e-i > 4 {
		return i
	}
	for k := i; k < e; k++ {
		if p.t[k].kind != kWord || p.isVerbish(k) || p.w(k) == "and" && k == e-1 {
			return i
		}
	}
	return e
}

// study reads what follows "studying/studies/a degree in" at i: a field, then "at
// <school>" and "in <city>" in either order. It returns i when no field or school is
// there.
func (p *parser) study(i int, st state, rule string) int {
	e := p.fieldEnd(i)
	if e > i {
		v := p.span(i, e)
		p.emitFx(*st.s, fx{key: factbase.KeyField, value: v, rule: rule, correction: st.corr, text: func(x string) string {
			return x + " studies " + v
		}})
	}
	return p.studyPlaces(e, st, rule)
}

// studyPlaces reads "at <school>" and "in <city>" after a field of study at e.
func (p *parser) studyPlaces(e int, st state, rule string) int {
	for n := 0; n < 2; n++ {
		switch {
		case p.w(e) == "at" || p.w(e) == "from":
			se := p.schoolAt(e+1, true)
			if se == e+1 {
				return e
			}
			e = p.emitSchool(st, e+1, se, rule+" at")
		case p.w(e) == "in" && p.isPlace(e+1):
			if se := p.schoolAt(e+1, false); se > e+1 {
				e = p.emitSchool(st, e+1, se, rule+" in")
				continue
			}
			ce := p.properEnd(e + 1)
			if ce == e+1 {
				return e
			}
			v := p.span(e+1, ce)
			p.emitFx(*st.s, fx{key: factbase.KeyCity, value: v, rule: rule + " in <city>", correction: st.corr, text: func(x string) string {
				return x + " lives in " + v
			}})
			e = ce
		default:
			return p.afterTail(e)
		}
	}
	return p.afterTail(e)
}

// degreeStudy reads "[a] [PhD] student in linguistics at Edinburgh", "a master's in
// data science at TU Delft" at i (after the article); it returns i when none is
// there.
func (p *parser) degreeStudy(i int, st state) int {
	j := i
	for n := 0; n < 2 && degreeWords[strings.TrimSuffix(p.w(j), ".")]; n++ {
		j++
	}
	switch {
	case p.w(j) == "student" && j > i || p.w(j) == "student" && (p.w(j+1) == "in" || p.w(j+1) == "of" || p.w(j+1) == "at"):
		j++
	case j > i && (p.w(j) == "in" || p.w(j) == "at"):
		// "a master's in data science"
	case j > i && (p.w(j) == "degree" || p.w(j) == "programme" || p.w(j) == "program") && (p.w(j+1) == "in" || p.w(j+1) == "at"):
		j++
	default:
		return i
	}
	switch p.w(j) {
	case "in", "of":
		if e := p.fieldEnd(j + 1); e > j+1 {
			return p.study(j+1, st, "studies")
		}
		return p.studyPlaces(j, st, "studies")
	case "at":
		return p.studyPlaces(j, st, "studies")
	}
	return i
}

// startedAt reads "started at MIT", "got into Stanford", "graduated from Georgia
// Tech" (i after the preposition): a school when the name says so, or when the
// verb can only mean one (schoolVerb); else, for "started at", an employer.
func (p *parser) startedAt(i int, st state, schoolVerb bool, rule string) int {
	if se := p.schoolAt(i, schoolVerb); se > i {
		return p.afterTail(p.emitSchool(st, i, se, rule))
	}
	if schoolVerb {
		return i
	}
	if e := p.properEnd(i); e > i && p.w(i) != "the" {
		return p.employer(i, st, rule)
	}
	return i
}
