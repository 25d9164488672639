package personal

import (
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/when"
)

// Languages spoken and learned, vehicles and hobbies.

// languageQualifiers may stand before a language without being part of it: "a
// little Japanese", "fluent German".
var languageQualifiers = []string{"a little bit of", "a little", "a bit of", "a bit", "some", "basic", "fluent",
	"conversational", "decent", "broken", "native", "good", "some basic", "rusty", "passable", "okay", "ok",
	"a tiny bit of", "a tiny bit", "limited", "schoolboy", "schoolgirl", "intermediate", "elementary", "advanced",
	"high school", "pretty good", "very good", "very basic", "survival", "solid", "reasonable", "workable",
	"perfect", "excellent", "poor", "bad", "terrible", "beginner", "beginner's", "reasonably good"}

// languageTails may follow a language without being part of it: "Polish natively".
var languageTails = []string{"natively", "fluently", "well", "too", "at home", "at work", "a bit", "a little"}

// languageOf returns the language a list item names ("a bit of French" is French).
func languageOf(item string) (string, bool) {
	v := strings.ToLower(strings.TrimSpace(item))
	for changed := true; changed; {
		changed = false
		for _, q := range languageQualifiers {
			if r, ok := strings.CutPrefix(v, q+" "); ok {
				v, changed = r, true
			}
		}
		for _, q := range languageTails {
			if r, ok := strings.CutSuffix(v, " "+q); ok {
				v, changed = r, true
			}
		}
	}
	lang, ok := languages[v]
	return lang, ok
}

// emitLanguages emits key for every language listed in [i, e) and returns how many
// it emitted.
func (p *parser) emitLanguages(st state, i, e int, key, rule string) int {
	n := 0
	for _, v := range p.listValues(i, e) {
		lang, ok := languageOf(v)
		if !ok {
			continue
		}
		says := " speaks "
		if key == factbase.KeyLearning {
			says = " is learning "
		}
		p.emitFx(*st.s, fx{key: key, value: lang, rule: rule, correction: st.corr, text: func(x string) string { return x + says + lang }})
		n++
	}
	return n
}

// languagesAt reads a list of languages at i ("Arabic, Turkish and German"); it
// returns the index after it, or i when the list names no language.
func (p *parser) languagesAt(i int, st state, key, rule string) int {
	e := p.valueEnd(i, true, "at", "with", "to", "for", "on", "in", "from", "because", "since", "before", "after", "online",
		"like", "as", "thanks", "pretty", "quite", "very", "really", "fluently", "well", "natively", "badly", "poorly")
	start := i
	for k := i; k < e; k++ {
		if p.w(k) == ":" {
			start = k + 1 // "three languages: English, Tamil and Malay"
		}
	}
	if e <= start || p.emitLanguages(st, start, e, key, rule) == 0 {
		return i
	}
	// "Polish natively and is learning Japanese": the manner is the list's, and
	// what follows it goes on
	manner := false
	for howWell[p.w(e)] {
		e, manner = e+1, true
	}
	if !manner && (p.w(e) == "at" || p.w(e) == "with" || p.w(e) == "to") {
		// "English at work and Spanish at home", "Spanish with my mom and English
		// with my friends": a short place or partner, then the next language
		for k := e + 1; k < len(p.t) && k <= e+4; k++ {
			if p.t[k].kind != kWord || p.w(k) == "and" {
				if p.w(k) == "and" || p.w(k) == "," {
					p.mentionsIn(e+1, k) // "with my mom": she is named all the same
					e, manner = k, true
				}
				break
			}
		}
	}
	// "fluent in French and conversational in Italian" (the list may have taken
	// the adjective in: "French and conversational")
	n := -1
	switch {
	case p.w(e) == "and" && p.w(e+2) == "in" && proficientIn[p.w(e+1)]:
		n = e + 3
	case p.w(e) == "in" && e-2 >= start && proficientIn[p.w(e-1)] && p.w(e-2) == "and":
		n = e + 1
	}
	if n > 0 {
		if m := p.languagesAt(n, st, key, rule); m > n {
			return m
		}
	}
	if manner && (p.w(e) == "and" || p.w(e) == ",") {
		// "German pretty well and some Italian"
		n := e + 1
		if p.w(n) == "and" {
			n++
		}
		if m := p.languagesAt(n, st, key, rule); m > n {
			return m
		}
	}
	return p.afterTail(e)
}

// proficientIn are the adjectives of "conversational in Italian".
var proficientIn = map[string]bool{"conversational": true, "fluent": true, "proficient": true, "competent": true,
	"decent": true, "good": true, "okay": true, "ok": true, "functional": true, "bilingual": true}

// howWell are the words that say how well one speaks a language.
var howWell = map[string]bool{"pretty": true, "quite": true, "very": true, "really": true, "fluently": true,
	"well": true, "natively": true, "badly": true, "poorly": true}

// learning reads what follows "learning" at i: languages, or "to play the guitar"
// (a hobby).
func (p *parser) learning(i int, st state) int {
	if p.at(i, "to", "play") > 0 {
		return p.hobbyObject(i+2, st, "learning to play")
	}
	j := i
	if p.w(j) == "some" || p.w(j) == "a" && p.w(j+1) == "bit" && p.w(j+2) == "of" {
		return p.languagesAt(i, st, factbase.KeyLearning, "learning")
	}
	return p.languagesAt(j, st, factbase.KeyLearning, "learning")
}

// languageClasses reads "Italian classes" at i (after "take"): the subject learns
// Italian. It emits nothing else and returns i: the schedule rule reads the rest.
func (p *parser) languageClasses(i int, st state) {
	if lang, ok := languages[p.w(i)]; ok && (p.w(i+1) == "classes" || p.w(i+1) == "lessons" || p.w(i+1) == "class" || p.w(i+1) == "course") {
		p.emitFx(*st.s, fx{key: factbase.KeyLearning, value: lang, rule: "takes <language> classes", correction: st.corr, text: func(x string) string { return x + " is learning " + lang }})
	}
}

// vehicleMakes are makers of cars and motorbikes: "a Toyota Corolla".
var vehicleMakes = map[string]bool{
	"toyota": true, "honda": true, "ford": true, "tesla": true, "subaru": true, "volvo": true, "kia": true,
	"mazda": true, "bmw": true, "audi": true, "mercedes": true, "mercedes-benz": true, "volkswagen": true,
	"vw": true, "nissan": true, "hyundai": true, "chevrolet": true, "chevy": true, "jeep": true, "fiat": true,
	"renault": true, "peugeot": true, "skoda": true, "škoda": true, "porsche": true, "lexus": true, "mini": true,
	"vespa": true, "ducati": true, "harley": true, "harley-davidson": true, "yamaha": true, "kawasaki": true,
	"citroen": true, "citroën": true, "dodge": true, "gmc": true, "rivian": true, "polestar": true, "byd": true,
	"jaguar": true, "mitsubishi": true, "suzuki": true, "seat": true, "opel": true, "dacia": true,
	"cadillac": true, "buick": true, "lincoln": true, "acura": true, "infiniti": true, "genesis": true,
	"alfa": true, "land": true, "range": true, "triumph": true, "lucid": true, "cupra": true, "saab": true,
	"lamborghini": true, "ferrari": true, "maserati": true, "bentley": true, "rolls-royce": true,
	"aston": true, "lotus": true, "smart": true, "ktm": true, "aprilia": true, "trek": true,
	"specialized": true, "brompton": true, "cannondale": true, "riese": true, "vanmoof": true, "cowboy": true,
}

// vehicleNouns are vehicles said as common nouns: "my car is a ...".
var vehicleNouns = map[string]bool{"car": true, "truck": true, "van": true, "minivan": true, "suv": true,
	"motorbike": true, "motorcycle": true, "bike": true, "e-bike": true, "ebike": true, "scooter": true,
	"pickup": true, "camper": true, "jeep": false}

// vehicleTails may follow a vehicle's name: "a Honda Civic hybrid".
var vehicleTails = map[string]bool{"hybrid": true, "electric": true, "convertible": true, "wagon": true,
	"estate": true, "sedan": true, "coupe": true, "hatchback": true, "that": true, "which": true, "and": true,
	"but": true, "to": true, "for": true, "with": true, "in": true, "on": true, "at": true, "every": true,
	"now": true, "too": true, "since": true, "because": true, "so": true, "from": true}

// vehicleAdjectives may stand between the article and the make: colours, age.
var vehicleAdjectives = map[string]bool{
	"old": true, "new": true, "brand-new": true, "used": true, "second-hand": true, "little": true, "big": true,
	"trusty": true, "beat-up": true, "electric": true, "hybrid": true, "vintage": true, "classic": true,
	"black": true, "white": true, "red": true, "blue": true, "green": true, "silver": true, "grey": true,
	"gray": true, "yellow": true, "orange": true, "dark": true, "light": true, "beige": true, "brown": true,
	"leased": true, "rented": true, "company": true, "family": true,
}

// vehicleAt reads a vehicle at i: [a|the|my|my dad's] [adjectives] Make Model. A
// name that does not start with a known make counts only when anyName. It returns
// the value and the index after it, or "" and i.
func (p *parser) vehicleAt(i int, anyName bool) (string, int) {
	j := i
	switch {
	case p.w(j) == "a" || p.w(j) == "an" || p.w(j) == "the":
		j++
	case possessives[p.w(j)] && p.w(j) != "your":
		j++
		if _, _, k, ok := p.relationAt(j); ok && p.t[k-1].poss {
			j = k // "my dad's old F-150"
		}
	case anyName:
		return "", i // "drives Uber on weekends": a name without an article is no car
	}
	for vehicleAdjectives[p.w(j)] {
		j++
	}
	start := j
	e := p.properEnd(j)
	if e == j || p.w(j) == "the" {
		return "", i
	}
	if !vehicleMakes[p.w(start)] && !anyName {
		return "", i
	}
	if e < len(p.t) && p.t[e].kind == kWord && !p.t[e].cap && !vehicleNouns[p.w(e)] && !vehicleTails[p.w(e)] {
		return "", i // "a Toyota meeting": the name qualifies something else
	}
	// a name and a common noun: "Toyota Sienna minivan" is the Toyota Sienna
	return p.span(start, e), e
}

// emitVehicle records a vehicle of st's subject.
func (p *parser) emitVehicle(st state, v, rule string) {
	p.emitFx(*st.s, fx{key: factbase.KeyVehicle, value: v, rule: rule, correction: st.corr, text: func(x string) string {
		return x + " drives a " + v
	}})
}

// vehicleVerb reads "drives a Toyota Corolla", "has a Honda Civic", "bought a Tesla
// Model Y" (i after the verb); drive and ride take any name, other verbs a known
// make.
func (p *parser) vehicleVerb(i int, st state, anyName bool, rule string) int {
	v, e := p.vehicleAt(i, anyName)
	if e == i {
		return i
	}
	p.emitVehicle(st, v, rule)
	return p.afterTail(e)
}

// commute reads "commute on an e-bike, a Riese & Müller" (i after "on" / "by"):
// the name in the apposition, else the vehicle noun.
func (p *parser) commute(i int, st state) int {
	j := i
	if p.w(j) == "a" || p.w(j) == "an" || p.w(j) == "my" {
		j++
	}
	if !vehicleNouns[p.w(j)] {
		return p.vehicleVerb(i, st, false, "commutes on")
	}
	if p.w(j+1) == "," {
		if v, e := p.vehicleAt(j+2, true); e > j+2 {
			p.emitVehicle(st, v, "commutes on")
			return e
		}
	}
	p.emitVehicle(st, p.span(j, j+1), "commutes on")
	return j + 1
}

// vehicleStatement reads "my [family] car is a blue Subaru Outback" (i at "my");
// it returns i when none is there.
func (p *parser) vehicleStatement(i int) int {
	j := i + 1
	for vehicleAdjectives[p.w(j)] {
		j++
	}
	if !vehicleNouns[p.w(j)] || p.w(j+1) != "is" {
		return i
	}
	st := state{s: &subj{refs: []int{User}}}
	return p.vehicleVerb(j+2, st, true, "my car is")
}

// hobbyObject reads the object of "plays", "learning to play", "took up" at i: "chess",
// "the guitar" (kept without the article), "bass". It returns i when there is none.
func (p *parser) hobbyObject(i int, st state, rule string) int {
	j := i
	if p.w(j) == "a" || p.w(j) == "an" {
		return i // "plays a doctor on TV": a part, not a pastime
	}
	if p.w(j) == "the" {
		j++
	}
	if objectPronouns[p.w(j)] || possessives[p.w(j)] || p.t[min(j, len(p.t)-1)].kind != kWord || p.isName(j) || j >= len(p.t) {
		return i
	}
	e := p.valueEnd(j, true, "in", "at", "with", "for", "online", "on", "every", "most", "professionally",
		"competitively", "again", "together", "against", "after", "before", "during", "from", "to")
	if e == j || e-j > 3 {
		return i
	}
	n := 0
	for _, v := range p.listValues(j, e) {
		val := v
		if st.s.isUser() {
			p.lastHobby = val
		}
		p.emitFx(*st.s, fx{key: factbase.KeyHobby, value: val, rule: rule, correction: st.corr, text: func(x string) string {
			return x + " has the hobby " + val
		}})
		n++
	}
	if n == 0 {
		return i
	}
	return p.afterTail(e)
}

// thereIsClass reads "there's a class every Thursday night" after a hobby was said
// ("I've taken up pottery, ..."): the hobby's schedule.
func (p *parser) thereIsClass(i int) int {
	if p.lastHobby == "" || p.at(i, "there", "is") < 0 {
		return i
	}
	j := i + 2
	if p.w(j) == "a" || p.w(j) == "an" {
		j++
	}
	if !eventNouns[p.w(j)] {
		return i
	}
	m, me := p.markerAt(j + 1)
	if m == nil || m.Recur == when.Once {
		return i
	}
	value := p.lastHobby + " " + p.span(j, me)
	mm := *m
	p.emitFx(subj{refs: []int{User}}, fx{key: factbase.KeySchedule, value: value, rule: "there is a class", marker: &mm, text: func(x string) string {
		return x + " has " + value
	}})
	return me
}

// hobbyStatement reads "my hobbies are knitting and birdwatching" (i at "my"), and
// "rock climbing is my hobby" (the clause at i); it returns i when neither is there.
func (p *parser) hobbyStatement(i int) int {
	st := state{s: &subj{refs: []int{User}}}
	if p.w(i) == "my" || p.w(i) == "our" {
		j := i + 1
		if p.w(j) == "favorite" || p.w(j) == "favourite" || p.w(j) == "main" {
			j++
		}
		if (p.w(j) == "hobby" || p.w(j) == "hobbies" || p.w(j) == "pastime" || p.w(j) == "pastimes") &&
			(p.w(j+1) == "is" || p.w(j+1) == "are" || p.w(j+1) == "include") {
			v := j + 2
			e := p.valueEnd(v, true)
			if e == v {
				return i
			}
			p.emitList(st, v, e, factbase.KeyHobby, "my hobby is", "has the hobby")
			return e
		}
		return i
	}
	// "<activity> is my hobby": the activity is a few words before "is my hobby"
	for k := i + 1; k < i+5 && k < len(p.t); k++ {
		if p.t[k].kind != kWord || p.t[k].poss {
			return i
		}
		if (p.w(k) == "is" || p.w(k) == "are") && (p.w(k+1) == "my" || p.w(k+1) == "our") {
			h := k + 2
			if p.w(h) == "favorite" || p.w(h) == "favourite" || p.w(h) == "main" || p.w(h) == "new" {
				h++
			}
			if p.w(h) != "hobby" && p.w(h) != "hobbies" && p.w(h) != "passion" && p.w(h) != "pastime" {
				return i
			}
			p.emitList(st, i, k, factbase.KeyHobby, "is my hobby", "has the hobby")
			return h + 1
		}
	}
	return i
}
