package personal

import (
	"strings"
	"unicode/utf8"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/text"
	"github.com/factbase/factbase/when"
)

// MaxMessage is the longest message Extract reads, in bytes; longer messages are
// read up to it (a personal fact is a sentence, not a document).
const MaxMessage = 16 << 10

// Extract finds the personal facts a message states, the people they are about and
// the statements it recognised but would not store (Skips). It is deterministic and
// pure; its cost is linear in the length of the message.
func Extract(msg string, o Options) Extraction { return ExtractText(text.New(msg), o) }

// ExtractText is Extract reading the parse of a message, whose views it shares with
// the message's other readers.
func ExtractText(tp *text.Parse, o Options) Extraction {
	tp = readable(tp)
	msg := tp.Msg
	p := &parser{msg: msg, o: o, ex: &Extraction{Mentions: []Mention{}, Facts: []Fact{}, Skips: []Skip{}}}
	p.known = map[string]bool{}
	for _, e := range o.Known {
		if e.MergedInto != "" {
			continue
		}
		for _, n := range append([]string{e.Name}, e.Aliases...) {
			if f := strings.Fields(strings.ToLower(n)); len(f) > 0 {
				p.known[f[0]] = true
			}
		}
	}
	toks := viewOf(tp)
	if !o.Now.IsZero() {
		p.markers = refineMarkers(msg, toks, when.FindText(tp, o.Now), o.Now)
		p.markerAtTok = make(map[int]int, len(p.markers))
		mi := 0
		for _, t := range toks {
			for mi < len(p.markers) && p.markers[mi].Start < t.start {
				mi++
			}
			if mi < len(p.markers) && p.markers[mi].Start < t.end {
				p.markerAtTok[t.start] = mi
			}
		}
	}
	if o.Speaker == SpeakerAssistant {
		toks = swapPerson(toks)
	}
	for _, s := range sentences(tp, toks) {
		p.sentence(s)
	}
	p.dropTellerRelations()
	p.dropGone()
	return *p.ex
}

// dropGone drops the facts this message gives about people or pets it says died
// ("Our dog Rufus died last spring"): they are no current relation.
func (p *parser) dropGone() {
	if len(p.gone) == 0 {
		return
	}
	out := p.ex.Facts[:0]
	for _, f := range p.ex.Facts {
		if !p.gone[f.About] {
			out = append(out, f)
		}
	}
	p.ex.Facts = out
}

// dropTellerRelations drops the relation facts of unnamed people who only tell
// something about someone else ("Leo's teacher told us he's allergic to kiwi", "My
// doctor says I have high blood pressure", "Mom says ..."): the teller is who said
// it, not a fact of its own. The entity keeps its relation.
func (p *parser) dropTellerRelations() {
	teller := map[int]bool{}
	about := map[int]bool{}
	for _, f := range p.ex.Facts {
		if f.SaidBy != User {
			teller[f.SaidBy] = true
		}
		if f.Key != factbase.KeyRelation {
			about[f.About] = true
		}
	}
	if len(teller) == 0 {
		return
	}
	out := p.ex.Facts[:0]
	for _, f := range p.ex.Facts {
		if f.Key == factbase.KeyRelation && teller[f.About] && !about[f.About] && f.SaidBy == User {
			if m := p.ex.Mentions[f.About]; m.Name == "" {
				continue
			}
		}
		out = append(out, f)
	}
	p.ex.Facts = out
}

// swapPerson rewrites an assistant's message so that it reads as the user's: "you"
// becomes "i", "your" becomes "my", and the assistant's own "i" and "my" name nobody.
func swapPerson(toks []token) []token {
	out := make([]token, len(toks))
	copy(out, toks)
	for i := range out {
		switch out[i].w {
		case "you":
			out[i].w = "i"
			if i+1 < len(out) && out[i+1].w == "are" {
				out[i+1].w = "am"
			}
		case "your":
			out[i].w = "my"
		case "yours":
			out[i].w = "mine"
		case "yourself":
			out[i].w = "myself"
		case "i", "me", "my", "mine", "myself", "we", "our", "us":
			out[i].w = selfWord
		}
	}
	return out
}

// selfWord stands for the assistant's own "I", "my", "we" in an assistant's message:
// it names nobody.
const selfWord = "\x00self"

// parser reads one message.
type parser struct {
	msg     string
	o       Options
	ex      *Extraction
	markers []when.Marker
	// markerAtTok maps the start offset of a token to the marker that starts in it.
	markerAtTok map[int]int
	known       map[string]bool // first names of known entities, lower case
	gone        map[int]bool    // mentions the message says died

	// the sentence being read
	t []token
	// recent holds mentions in the order the message named them, for pronouns.
	recent []int
	// saidBy is who states the clause being read (User: the speaker).
	saidBy int
	// dry parses without recording mentions or facts (to look ahead).
	dry bool
	// workTalk reports a sentence about jobs ("quit", "work", "job").
	workTalk bool
	// first is the index of the sentence's first word after its lead-ins.
	first int
	// lastHobby is the user's hobby said last in the message ("pottery").
	lastHobby string
	// emitted dedupes facts within the message.
	emitted map[string]bool
}

func (p *parser) w(i int) string {
	if i < 0 || i >= len(p.t) {
		return ""
	}
	return p.t[i].w
}

// at reports whether the words starting at i are ws; it returns the index after them
// or -1.
func (p *parser) at(i int, ws ...string) int {
	for k, x := range ws {
		if p.w(i+k) != x {
			return -1
		}
	}
	return i + len(ws)
}

// span returns the message text of tokens [i, j).
func (p *parser) span(i, j int) string {
	if i >= j || i >= len(p.t) {
		return ""
	}
	j = min(j, len(p.t))
	return p.msg[p.t[i].start:p.t[j-1].end]
}

// sentenceText is the whole sentence, for skip reports.
func (p *parser) sentenceText() string {
	s := p.span(0, len(p.t))
	if utf8.RuneCountInString(s) > 200 {
		s = string([]rune(s)[:199]) + "…"
	}
	return s
}

func (p *parser) skip(reason string) {
	p.ex.Skips = append(p.ex.Skips, Skip{Span: p.sentenceText(), Reason: reason})
}

// questionStarts open a question when they lead a sentence.
var questionStarts = map[string]bool{
	"what": true, "who": true, "whom": true, "whose": true, "where": true, "when": true, "why": true,
	"how": true, "which": true, "do": true, "does": true, "did": true, "is": true, "are": true, "am": true,
	"was": true, "were": true, "can": true, "could": true, "would": true, "will": true, "should": true,
	"have": true, "has": true, "shall": true, "may": false, "any": false, "anything": false,
}

// conditionStarts open a sentence that states nothing: a condition or a supposition.
var conditionStarts = map[string]bool{
	"if": true, "suppose": true, "supposing": true, "imagine": true, "unless": true, "hypothetically": true,
	"assuming": true, "assume": true, "pretend": true, "when": false, "whenever": true, "say": false,
	"in case": true, "maybe": true, "perhaps": true, "possibly": true, "probably": true, "hopefully": true,
}

// leadIns are skipped at the start of a sentence or clause.
var leadIns = [][]string{
	{"just", "so", "you", "know"}, {"for", "your", "information"}, {"for", "the", "record"},
	{"by", "the", "way"}, {"fun", "fact"}, {"quick", "note"}, {"heads", "up"}, {"note", "that"},
	{"please", "note", "that"}, {"please", "note"}, {"remember", "that"}, {"please", "remember", "that"},
	{"please", "remember"}, {"keep", "in", "mind", "that"}, {"good", "to", "know"}, {"oh", "and"},
	{"and", "also"}, {"also"}, {"and"}, {"but"}, {"so"}, {"oh"}, {"well"}, {"btw"}, {"fyi"}, {"ok"},
	{"okay"}, {"hey"}, {"hi"}, {"hello"}, {"yeah"}, {"yes"}, {"anyway"}, {"anyways"}, {"plus"}, {"ah"},
	{"um"}, {"hmm"}, {"update"}, {"reminder"}, {"correction"}, {"news"}, {"context"}, {"ps"},
	{"big", "news"}, {"great", "news"}, {"good", "news"}, {"exciting", "news"}, {"sad", "news"},
	{"bad", "news"}, {"happy", "news"}, {"actually"}, {"now"}, {"then"}, {"lastly"}, {"finally"}, {"firstly"}, {"secondly"}, {"sadly"},
	{"luckily"}, {"fortunately"}, {"unfortunately"}, {"apparently"}, {"honestly"}, {"basically"},
	{"as", "you", "know"}, {"you", "know"}, {"you", "should", "know", "that"}, {"important"},
	{"fyi"}, {"side", "note"}, {"random", "fact"}, {"also", "worth", "knowing"}, {"worth", "knowing"},
	{"lol"}, {"omg"}, {"ugh"}, {"haha"}, {"lmao"}, {"tbh"}, {"ngl"}, {"guess", "what"},
}

// correctionLeads mark a clause as an explicit correction.
var correctionLeads = map[string]bool{"actually": true, "correction": true, "update": true, "now": true}

// skipLeadIns skips lead-ins and punctuation at i; it reports whether one of them
// marked a correction.
func (p *parser) skipLeadIns(i int) (int, bool) {
	corr := false
	for {
		moved := false
		for i < len(p.t) && p.t[i].kind == kPunct && p.t[i].w != "(" {
			i++
			moved = true
		}
		for _, li := range leadIns {
			if j := p.at(i, li...); j > 0 {
				if len(li) == 1 && correctionLeads[li[0]] {
					corr = true
				}
				// "now" and "then" lead in only when a comma or a subject follows
				if (li[0] == "now" || li[0] == "then" || li[0] == "so") && len(li) == 1 && p.w(j) != "," {
					if _, _, ok := p.peekSubject(j); !ok {
						continue
					}
				}
				i, moved = j, true
				break
			}
		}
		if !moved {
			return i, corr
		}
	}
}

// sentence reads one sentence.
func (p *parser) sentence(t []token) {
	// trim trailing punctuation, but remember a question mark
	question := false
	for len(t) > 0 && t[len(t)-1].kind == kPunct && t[len(t)-1].w != ")" && t[len(t)-1].w != "\"" {
		if t[len(t)-1].w == "?" {
			question = true
		}
		t = t[:len(t)-1]
	}
	if len(t) == 0 {
		return
	}
	p.t = copulaAfterAnd(t)
	t = p.t
	p.saidBy = User
	p.workTalk = false
	for _, tk := range t {
		if workWords[tk.w] {
			p.workTalk = true
			break
		}
	}
	i, corr := p.skipLeadIns(0)
	if i >= len(t) {
		return
	}
	p.first = i
	first := p.w(i)
	if (first == "can" || first == "could" || first == "would" || first == "will") && p.w(i+1) == "you" {
		if k := p.commPref(i); k > i {
			return
		}
	}
	if question || questionStarts[first] && !(first == "will" || first == "can" || first == "could" || first == "would") && p.isQuestionInversion(i) ||
		(first == "can" || first == "could" || first == "would" || first == "will") && p.w(i+1) != "you" && p.isQuestionInversion(i) {
		if (first == "can" || first == "could" || first == "would" || first == "will") && p.w(i+1) == "you" {
			p.commCues(i) // "Could you get to the point?" is a request, not a question
			return
		}
		if p.looksPersonal() {
			p.skip("question: nothing is stored from a question")
		}
		return
	}
	if p.trailingHedge() {
		// "I have a dentist appointment on Friday, I think": the teller is unsure
		if p.looksPersonal() {
			p.skip("uncertain: a trailing hedge makes the statement a guess")
		}
		return
	}
	if conditionStarts[first] || p.at(i, "in", "case") > 0 || p.at(i, "what", "if") > 0 {
		if p.looksPersonal() {
			p.skip("hypothetical: a condition or supposition states nothing")
		}
		return
	}
	if e := p.subjectlessTrip(i); e > i {
		return
	}
	before := len(p.ex.Facts)
	p.clauses(i, corr)
	if len(p.ex.Facts) == before && !question {
		p.commCues(i)
	}
}

// subjectlessTrip reads a note that drops its "I'm": "Flying to Rome on Friday",
// "Leaving for Japan in two weeks", "off to tokyo on monday". Only a travel
// participle followed by where to, and not the subject of a copula ("Flying to Rome
// on Friday is cheaper").
func (p *parser) subjectlessTrip(i int) int {
	w, next := p.w(i), p.w(i+1)
	if p.o.Speaker == SpeakerAssistant || !travelIng[w] || w == "coming" || w == "moving" || w == "visiting" || w == "going" && next != "to" ||
		next != "to" && next != "for" && next != "out" && next != "back" && next != "home" && next != "up" && next != "down" {
		return i
	}
	end := p.clauseEnd(i)
	for k := i + 1; k < end; k++ {
		if nounClauseVerbs[p.w(k)] {
			return i
		}
	}
	s := subj{refs: []int{User}, clauseStart: i}
	return p.travel(i, state{s: &s, start: i})
}

// trailingHedges end a sentence that is a guess, after a comma: "..., I think".
var trailingHedges = [][]string{{"i", "think"}, {"i", "guess"}, {"i", "believe"}, {"i", "suppose"},
	{"i", "assume"}, {"i", "reckon"}, {"i", "hope"}, {"probably"}, {"maybe"}, {"perhaps"}, {"possibly"},
	{"not", "sure"}, {"i'm", "not", "sure"}, {"if", "i", "remember", "correctly"}, {"i", "think", "so"}}

// trailingHedge reports whether the sentence ends with a hedge after a comma.
func (p *parser) trailingHedge() bool {
	for _, h := range trailingHedges {
		k := len(p.t) - len(h)
		if k >= 2 && p.w(k-1) == "," && p.at(k, h...) > 0 {
			return true
		}
	}
	return false
}

// copulaHeads are complements that continue a copula after "and": "is vegetarian and
// allergic to shellfish", "is 8 and afraid of dogs".
var copulaHeads = map[string]bool{"allergic": true, "afraid": true, "scared": true, "terrified": true,
	"vegan": true, "vegetarian": true, "pescatarian": true, "lactose": true, "gluten": true, "intolerant": true,
	"diabetic": true, "pregnant": true, "married": true, "engaged": true, "retired": true}

// copulaAfterAnd repeats a sentence's copula after an "and" that a complement follows
// ("Sara is vegetarian and allergic to shellfish" reads as "... and is allergic to
// shellfish"), so that the second complement is read as the predicate it is. The
// inserted token has an empty span at the start of the complement; values are cut
// from spans, so none holds it. Only when the copula is the last verb before the
// "and".
func copulaAfterAnd(t []token) []token {
	cop := -1
	var out []token
	for i, tk := range t {
		switch tk.w {
		case "is", "are", "am", "was", "were":
			cop = i
		case "has", "have", "lives", "works", "loves", "likes", "goes", "plays", "drives", "speaks", "studies":
			cop = -1
		}
		out = append(out, tk)
		n := i + 1
		for n < len(t) && n <= i+2 && adverbs[t[n].w] && t[n].w != "so" && t[n].w != "too" {
			n++ // "slightly allergic to wool and very allergic to down feathers"
		}
		if tk.w == "and" && cop >= 0 && n < len(t) && copulaHeads[t[n].w] && i-cop <= 8 {
			out = append(out, token{w: t[cop].w, kind: kWord, start: t[i+1].start, end: t[i+1].start})
		}
	}
	return out
}

// isQuestionInversion reports whether the sentence at i opens like a question: a
// question word, or an auxiliary followed by a subject ("Is Leo ...", "Does she ...").
func (p *parser) isQuestionInversion(i int) bool {
	switch p.w(i) {
	case "what", "who", "whom", "whose", "where", "when", "why", "how", "which":
		// "When Leo was born, ..." is not a question, but it states nothing we keep
		return true
	}
	_, _, ok := p.peekSubject(i + 1)
	return ok || p.w(i+1) == "you" || p.w(i+1) == "there" || p.w(i+1) == "it"
}

// looksPersonal reports whether the sentence talks about someone, so that skipping
// it is worth reporting (small talk is dropped silently).
func (p *parser) looksPersonal() bool {
	for i, t := range p.t {
		switch t.w {
		case "my", "our", "i", "he", "she", "his", "her", "we":
			return true
		}
		if relations[t.w].role != "" || p.isName(i) {
			return true
		}
	}
	return false
}

// boundary words end a clause.
var boundaryWords = map[string]bool{
	"but": true, "because": true, "since": true, "so": true, "although": true, "though": true,
	"while": true, "whereas": true, "and": true, "or": true, "plus": true, "also": true, "then": true,
	"when": true, "if": true, "unless": true, "until": true, "which": true, "who": true, "that": false,
}

// conditionBoundaries open a clause that is a condition or an indirect question.
var conditionBoundaries = map[string]bool{"if": true, "unless": true, "whether": true}

// clauses reads the clauses of a sentence from i.
func (p *parser) clauses(i int, corr bool) {
	for i < len(p.t) {
		if i > 0 && conditionBoundaries[p.w(i-1)] {
			// "My doctor asked if I'm allergic to penicillin", "call me if I'm late":
			// a clause under "if" or "whether" states nothing.
			if p.looksPersonal() {
				p.skip("hypothetical: a clause under \"" + p.w(i-1) + "\" states nothing")
			}
			i = p.nextClause(i)
			continue
		}
		start := i
		var c bool
		i, c = p.skipLeadIns(i)
		corr = corr || c
		if i >= len(p.t) {
			return
		}
		if k := p.commPref(i); k > i {
			i = p.nextClause(k)
			continue
		}
		// "Next Monday my sister ...": the marker belongs to the clause
		if m, e := p.markerAt(i); m != nil && e < len(p.t) {
			if p.w(e) == "," {
				e++
			}
			if _, _, ok := p.peekSubject(e); ok {
				i = e
			}
		}
		if k := p.leadClause(i); k > i {
			i = p.nextClause(k)
			continue
		}
		if elidedI[p.w(i)] && p.t[i].cap && i == p.first && p.saidBy == User {
			// "Got a haircut booked for Saturday morning.": a note with "I" left out
			s := subj{refs: []int{User}, correction: corr, clauseStart: i}
			if _, k := p.predicates(&s, i); k > i {
				i = p.nextClause(k)
				continue
			}
		}
		s, j, ok := p.subject(i)
		if ok && s.skip != "" {
			p.skip(s.skip)
			i = p.nextClause(j)
			continue
		}
		if ok {
			s.correction = corr
			s.clauseStart = start
			j, k := p.predicates(&s, j)
			i = p.nextClause(max(k, j))
			corr = false
			continue
		}
		if k := p.specialClause(i); k > i {
			i = p.nextClause(k)
			continue
		}
		i = p.nextClause(i + 1)
	}
}

// predicates reads the predicate of s at j and the predicates with the same subject
// that continue it ("is 8 and loves dinosaurs"). It returns where the last one read
// starts and the index after it; end is j when nothing was read.
func (p *parser) predicates(s *subj, j int) (last, end int) {
	k := p.predicate(s, j)
	for k > j {
		c := p.continuation(k)
		if c < 0 {
			break
		}
		k2 := p.predicate(s, c)
		if k2 == c {
			break
		}
		j, k = c, k2
	}
	return j, k
}

// continuation returns where a same-subject predicate continues after k ("..., and
// loves dinosaurs"), or -1.
func (p *parser) continuation(k int) int {
	j := k
	for p.w(j) == "," || p.w(j) == "and" || p.w(j) == "but" || p.w(j) == "also" || p.w(j) == "plus" || p.w(j) == "-" {
		j++
	}
	if j == k {
		return -1
	}
	if j == k+1 && p.w(k) == "," && p.w(j) == "like" {
		// "allergic to most nuts, like cashews": "like" is "such as", not a verb
		return -1
	}
	if p.startsPredicate(j) {
		return j
	}
	return -1
}

// nextClause returns the first token after the clause boundary at or after i.
func (p *parser) nextClause(i int) int {
	for i < len(p.t) {
		t := p.t[i]
		if t.kind == kPunct && (t.w == "," || t.w == ":" || t.w == "(" || t.w == ")" || t.w == "-") {
			return i + 1
		}
		if boundaryWords[t.w] {
			return i + 1
		}
		i++
	}
	return i
}

// workWords make a sentence one about jobs.
var workWords = map[string]bool{"work": true, "works": true, "worked": true, "working": true, "job": true,
	"quit": true, "joined": true, "employer": true, "company": true, "laid": true, "hired": true,
	"resigned": true, "fired": true, "promoted": true}

// elidedI start a note whose subject "I" is left out: "Got a haircut booked",
// "Booked two weeks in Bali".
var elidedI = map[string]bool{"got": true, "booked": true, "have": false, "heading": false, "flying": false}

// leadClause reads clauses whose subject is a thing said before "is": "rock
// climbing is my hobby", "Dutch is my mother tongue". It returns the index after
// what it read, or i.
func (p *parser) leadClause(i int) int {
	if k := p.hobbyStatement(i); k > i {
		return k
	}
	if k := p.eventClause(i); k > i {
		return k
	}
	// "Just heard from my brother Luis - he got engaged": the one heard from
	if k := p.at(i, "just", "heard", "from"); k > 0 || p.at(i, "heard", "from") > 0 {
		if k < 0 {
			k = i + 2
		}
		if s, e, ok := p.subject(k); ok && s.skip == "" {
			return e
		}
	}
	// "Meet Bruno, our 6-year-old boxer."
	if p.w(i) == "meet" && p.t[i].cap && p.w(i+1) != "me" {
		if name, e := p.name(i + 1); e > i+1 && p.w(e) == "," {
			idx := p.mention(Mention{Name: name, Owner: User, Span: p.span(i+1, e)})
			if k := p.afterMention(subj{refs: []int{idx}}, e); k > e {
				return k
			}
		}
	}
	// "Dutch is my mother tongue"
	if lang, ok := languages[p.w(i)]; ok && p.w(i+1) == "is" && (p.w(i+2) == "my" || p.w(i+2) == "our") {
		if _, e := p.phraseIn(i+3, nativeLanguage); e > i+3 {
			p.emitFx(subj{refs: []int{User}}, fx{key: factbase.KeySpeaks, value: lang, rule: "is my mother tongue"})
			return e
		}
	}
	return i
}

// nativeLanguage matches the nouns of a first language.
func nativeLanguage(w string) (string, bool) {
	switch w {
	case "native language", "mother tongue", "first language", "native tongue", "mother language":
		return w, true
	}
	return "", false
}

// specialClause reads clauses that have no ordinary subject: "our anniversary is
// June 3rd", "today is Sarah's birthday". It returns the index after what it read,
// or i.
func (p *parser) specialClause(i int) int {
	if k := p.thereIsClass(i); k > i {
		return k
	}
	if p.w(i) == "my" || p.w(i) == "our" {
		if k := p.vehicleStatement(i); k > i {
			return k
		}
		// "my native language is Tagalog"
		if _, e := p.phraseIn(i+1, nativeLanguage); e > i+1 && p.w(e) == "is" {
			if k := p.languagesAt(e+1, state{s: &subj{refs: []int{User}}}, factbase.KeySpeaks, "my native language is"); k > e+1 {
				return k
			}
		}
	}
	// "my/our (wedding) anniversary is ..."
	if p.w(i) == "my" || p.w(i) == "our" {
		j := i + 1
		if p.w(j) == "wedding" || p.w(j) == "dating" {
			j++
		}
		if p.w(j) == "anniversary" && (p.w(j+1) == "is" || p.w(j+1) == "was") {
			v := j + 2
			if p.w(v) == "on" {
				v++
			}
			m, e := p.markerAt(v)
			if m == nil && p.w(v-1) == "on" {
				m, e = p.markerAt(v - 1)
			}
			if m == nil || m.Grain != when.Day {
				return i
			}
			mm := *m
			mm.Recur = when.Yearly
			if !mm.HasYear {
				mm.Anchor = when.NextYearly(m.Anchor.Month(), m.Anchor.Day(), p.o.Now)
			}
			text := strings.TrimPrefix(strings.TrimPrefix(m.Text, "on "), "On ")
			label := p.span(i+1, j+1)
			p.emitFx(subj{refs: []int{User}}, fx{key: factbase.KeyAnniversary, value: text, rule: "anniversary is", marker: &mm, text: func(x string) string {
				return x + "'s " + label + " is " + text
			}})
			return e
		}
	}
	// "today is Sarah's birthday", "tomorrow is my mom's birthday"
	if m, e := p.markerAt(i); m != nil && m.Recur == when.Once && m.Grain == when.Day && p.w(e) == "is" {
		s, j, ok := p.subject(e + 1)
		if ok && s.skip == "" && s.poss && (p.w(j) == "birthday" || p.w(j) == "bday") {
			st := state{s: &s, start: e + 1}
			p.birthday(st, m, "<day> is <x>'s birthday")
			return j + 1
		}
	}
	return i
}
