package people

import (
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/normalize"
	"github.com/factbase/factbase/when"
)

// fx is one fact to emit.
type fx struct {
	key, value, rule string
	text             func(subject string) string
	marker           *when.Marker
	correction       bool
	card             factbase.Cardinality // overrides the key's spec when set
	typ              string
}

// emit records facts of s (one per subject ref).
func (p *parser) emit(s subj, key, value, rule string, text func(string) string) {
	p.emitFx(s, fx{key: key, value: value, rule: rule, text: text, correction: s.correction})
}

func (p *parser) emitFx(s subj, f fx) {
	if p.dry {
		return
	}
	value := strings.TrimSpace(strings.Trim(strings.TrimSpace(f.value), ".,;:!?\"'()"))
	if value == "" || normalize.Value(value) == "" {
		return
	}
	spec, ok := specs[f.key]
	if !ok {
		if !strings.HasPrefix(f.key, "favorites.") {
			return
		}
		spec = keySpec{"preference", factbase.Ranked, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.9}
	}
	if f.card != "" {
		spec.card = f.card
	}
	if f.typ != "" {
		spec.typ = f.typ
	}
	if p.emitted == nil {
		p.emitted = map[string]bool{}
	}
	for _, ref := range s.refs {
		if ref == User && !p.o.UserBasics && routerKeys[f.key] {
			continue // the router writes the user's own basics
		}
		if ref >= len(p.ex.Mentions) {
			continue
		}
		if ref != User && strings.HasPrefix(f.key, CommPrefix) {
			continue
		}
		dk := string(rune(ref+2)) + "\x00" + f.key + "\x00" + normalize.Value(value)
		if p.emitted[dk] {
			continue
		}
		p.emitted[dk] = true
		fact := Fact{About: ref, SaidBy: p.saidBy, Key: f.key, Value: value, Cardinality: spec.card,
			ValueType: spec.vt, Type: spec.typ, Category: spec.cat, Confidence: spec.conf, Durability: spec.dur,
			Sensitivity: spec.sens, Correction: f.correction, Rule: f.rule, Span: p.sentenceText(), text: f.text}
		if p.saidBy != User {
			fact.Confidence -= 0.05 // second-hand, but critical types stay at or above 0.9
			if (fact.Type == "allergy" || fact.Type == "medical" || fact.Type == "health") && fact.Confidence < 0.9 {
				fact.Confidence = 0.9
			}
		}
		if f.marker != nil {
			fact.Temporal = f.marker.Text
			a := f.marker.Anchor
			fact.Anchor = &a
			fact.Recur = f.marker.Recur
		}
		if fact.text == nil {
			fact.text = func(subject string) string { return subject + " " + f.key + ": " + value }
		}
		p.ex.Facts = append(p.ex.Facts, fact)
	}
}

// emitAge records an age for mention idx.
func (p *parser) emitAge(idx int, age, rule string) {
	if p.dry || idx < 0 {
		return
	}
	if p.ex.Mentions[idx].Age == "" {
		p.ex.Mentions[idx].Age = age
	}
	unit := " years old"
	if strings.HasSuffix(age, "months") {
		unit = " old"
	}
	p.emit(subj{refs: []int{idx}}, KeyAge, age, rule, func(s string) string { return s + " is " + age + unit })
}

// adverbs may stand between a subject and its verb.
var adverbs = map[string]bool{
	"really": true, "very": true, "also": true, "still": true, "just": true, "now": true, "currently": true,
	"actually": true, "definitely": true, "totally": true, "absolutely": true, "seriously": true, "super": true,
	"so": true, "quite": true, "pretty": true, "severely": true, "extremely": true, "mildly": true,
	"slightly": true, "deathly": true, "strictly": true, "recently": true, "finally": true, "apparently": true,
	"always": true, "usually": true, "often": true, "sometimes": true, "officially": true, "both": true,
	"all": true, "too": true, "highly": true, "incredibly": true, "truly": true, "genuinely": true,
	"mostly": true, "completely": true, "fully": true, "kinda": true, "basically": true, "literally": true,
	"honestly": true, "certainly": true, "obviously": true, "clearly": true, "newly": true, "once": false,
	"normally": true, "typically": true, "generally": true, "mainly": true, "only": true, "even": true,
	"absolutely,": true, "badly": true, "dangerously": true, "seriously,": true, "deeply": true,
}

// correctionAdverbs mark an explicit change.
var correctionAdverbs = map[string]bool{"now": true, "actually": true, "recently": true, "just": true, "officially": true, "newly": true}

// participles after has/have make a present perfect, which states a current fact.
var participles = map[string]bool{
	"lived": true, "worked": true, "moved": true, "become": true, "started": true, "turned": true,
	"been": true, "had": true, "got": true, "gotten": true, "taken": true, "loved": true, "liked": true,
	"hated": true, "always": false, "joined": true, "switched": true, "changed": true, "developed": true,
}

// predicateHeads are the words a predicate's head can be.
var predicateHeads = map[string]bool{
	"is": true, "are": true, "am": true, "was": true, "were": true, "be": true, "been": true,
	"love": true, "loves": true, "like": true, "likes": true, "enjoy": true, "enjoys": true, "adore": true,
	"adores": true, "hate": true, "hates": true, "dislike": true, "dislikes": true, "detest": true,
	"detests": true, "loathe": true, "loathes": true, "despise": true, "despises": true, "prefer": true,
	"prefers": true, "has": true, "have": true, "had": true, "works": true, "work": true, "worked": true,
	"lives": true, "live": true, "lived": true, "moved": true, "moves": true, "turned": true, "turns": true,
	"takes": true, "take": true, "attends": true, "attend": true, "goes": true, "go": true, "plays": true,
	"play": true, "does": true, "do": true, "did": true, "flies": true, "fly": true, "travels": true,
	"travel": true, "heads": true, "head": true, "leaves": true, "leave": true, "drives": true, "drive": true,
	"visits": true, "visit": true, "eats": true, "eat": true, "drinks": true, "drink": true, "avoids": true,
	"avoid": true, "suffers": true, "suffer": true, "speaks": true, "speak": true, "can": true,
	"cannot": true, "says": true, "said": true, "told": true, "tells": true, "mentioned": true,
	"mentions": true, "used": true, "might": true, "could": true, "would": true, "should": true, "will": true,
	"must": true, "never": true, "not": true, "got": true, "gets": true, "became": true, "started": true,
	"starts": true, "fly's": false, "celebrates": true, "returns": true, "return": true, "comes": true,
	"come": true, "leaving": true, "flying": true, "going": true, "moving": true, "needs": true, "need": true,
	"wants": true, "want": true, "think": true, "thinks": true, "believe": true, "guess": true, "hope": true,
	"wish": true, "studies": true, "study": true, "teaches": true, "stays": true, "runs": true, "owns": true,
	"went": true, "flew": true, "visited": true, "loved": true, "liked": true, "hated": true, "enjoyed": true,
	"keeps": true, "swims": true, "dances": true, "sings": true, "reads": true, "shall": true, "may": false,
	"doesn't": true, "isn't": true, "suffered": true, "grew": true, "was born": true, "born": true,
}

// startsPredicate reports whether a predicate can start at j.
func (p *parser) startsPredicate(j int) bool {
	for adverbs[p.w(j)] {
		j++
	}
	w := p.w(j)
	if w == "may" {
		return p.isVerbish(j + 1)
	}
	return predicateHeads[w]
}

// isVerbish reports whether token k is a verb or auxiliary the rules read.
func (p *parser) isVerbish(k int) bool { return predicateHeads[p.w(k)] }

// predicate reads a predicate of s at j and emits its facts; it returns the index
// after what it read, or j when it read nothing.
func (p *parser) predicate(s *subj, j int) int {
	if s.poss {
		return p.possPredicate(s, j)
	}
	k := j
	var neg, past, hypo, cop, aux bool
	corr := s.correction
	verb := ""
loop:
	for k < len(p.t) {
		w := p.w(k)
		switch w {
		case "is", "are", "am", "be", "being":
			cop = true
		case "was", "were":
			cop, past = true, true
		case "been":
			cop = true
		case "not", "never":
			neg = true
		case "no":
			if p.w(k+1) != "longer" {
				break loop
			}
			neg = true
			k++
		case "used":
			if p.w(k+1) != "to" {
				break loop
			}
			past = true
			k++
		case "might", "could", "would", "should":
			hypo = true
		case "may":
			if !p.isVerbish(k+1) && p.w(k+1) != "be" && p.w(k+1) != "have" {
				break loop
			}
			hypo = true
		case "will", "shall":
			verb = "will"
		case "can", "cannot", "must":
			aux = true
			if w == "cannot" {
				neg = true
			}
		case "do", "does":
			if !(p.w(k+1) == "not" || p.w(k+1) == "never" || adverbs[p.w(k+1)]) {
				break loop
			}
			aux = true
		case "did":
			aux, past = true, true
		case "has", "have":
			if participles[p.w(k+1)] || p.w(k+1) == "never" || p.w(k+1) == "not" || p.w(k+1) == "always" || p.w(k+1) == "just" || p.w(k+1) == "recently" {
				if p.w(k+1) == "just" || p.w(k+1) == "recently" {
					corr = true
				}
				aux = true
				break
			}
			break loop
		case "had":
			past = true
			if participles[p.w(k+1)] {
				break
			}
			break loop
		case "going", "planning", "about", "hoping", "trying":
			// "is going to be": a future or an intention, not a trip
			if p.w(k+1) == "to" && (p.isVerbish(k+2) || p.w(k+2) == "be" || p.w(k+2) == "start") {
				if w != "going" && w != "planning" {
					hypo = true
				}
				verb = "will"
				k++
				break
			}
			break loop
		default:
			if !adverbs[w] {
				break loop
			}
			if correctionAdverbs[w] {
				corr = true
			}
		}
		k++
	}
	head := k
	if head >= len(p.t) {
		if cop && head > j && s.introducedName() {
			return head
		}
		return j
	}
	hw := p.w(head)
	st := state{s: s, neg: neg, past: past, hypo: hypo, cop: cop, aux: aux, corr: corr, future: verb == "will", start: j}
	if s.isUser() && !s.we {
		if uncertain[hw] {
			p.skip("uncertain: \"I " + hw + "\" hedges the statement")
			return len(p.t)
		}
		if e := p.commUser(head, st); e > head {
			return e
		}
	}
	if reported[hw] && !s.isUser() && len(s.refs) == 1 && !neg && !hypo {
		return p.reportedSpeech(s, head)
	}
	if (hw == "mentioned" || hw == "said" || hw == "told") && s.isUser() && !neg && !hypo {
		// "I mentioned that my son ...": the user restating a fact
		i := head + 1
		if p.w(i) == "you" || p.w(i) == "i" {
			i++
		}
		if p.w(i) == "that" || p.w(i) == "," || p.w(i) == ":" {
			i++
		}
		p.clauses(i, false)
		return len(p.t)
	}
	if hypo {
		p.skip("hypothetical: \"" + p.span(j, min(head+1, len(p.t))) + "\" states no current fact")
		return p.clauseEnd(head)
	}
	if neg {
		if e := p.negativeRule(head, st); e > head {
			return e
		}
		p.skip("negation: \"" + p.span(j, min(head+2, len(p.t))) + "\" is not stored as a fact")
		return p.clauseEnd(head)
	}
	if past && !pastOK[hw] || pastVerbs[hw] && !pastOK[hw] {
		if e := p.pastRule(head, st); e > head {
			return e
		}
		p.skip("past: \"" + p.span(j, min(head+2, len(p.t))) + "\" is not stored as current")
		return p.clauseEnd(head)
	}
	if cop {
		if e := p.copulaRule(head, st); e > head {
			return e
		}
		return j
	}
	if e := p.verbRule(head, st); e > head {
		return e
	}
	return j
}

// introducedName reports whether the subject was introduced with a relation or name
// (so a bare "my son Leo is" ending the sentence read something).
func (s subj) introducedName() bool { return false }

// state is what the predicate parser learned before the head word.
type state struct {
	s                                       *subj
	neg, past, hypo, cop, aux, corr, future bool
	start                                   int
}

var uncertain = map[string]bool{"think": true, "believe": true, "guess": true, "suppose": true, "assume": true,
	"wonder": true, "hope": true, "wish": true, "doubt": true, "suspect": true, "imagine": true, "bet": true}

var reported = map[string]bool{"says": true, "said": true, "told": true, "tells": true, "mentioned": true,
	"mentions": true, "claims": true, "claimed": true, "informed": true}

// pastOK are heads whose past form still states a current fact.
var pastOK = map[string]bool{"born": true, "moved": true, "turned": true, "started": true, "became": true,
	"switched": true, "joined": true, "got": false, "been": true, "lived": false, "had": false}

// pastVerbs are past forms of the rule verbs: "Martin worked at IBM".
var pastVerbs = map[string]bool{
	"lived": true, "worked": true, "loved": true, "liked": true, "hated": true, "enjoyed": true, "went": true,
	"flew": true, "visited": true, "traveled": true, "travelled": true, "drove": true, "ate": true,
	"drank": true, "played": true, "attended": true, "took": true, "had": true, "suffered": true,
	"grew": true, "left": true, "stayed": true, "studied": true, "taught": true, "adored": true,
	"disliked": true, "preferred": true,
}

// clauseEnd returns the end of the clause that starts its head at k.
func (p *parser) clauseEnd(k int) int {
	for k < len(p.t) {
		w := p.w(k)
		if w == "," || w == "but" || w == ";" || w == "because" || w == "although" || w == "though" || w == "whereas" {
			return k
		}
		if w == "and" && (p.startsClause(k+1) || p.startsPredicate(k+1)) {
			return k
		}
		k++
	}
	return k
}

// startsClause reports whether a subject with a predicate starts at k.
func (p *parser) startsClause(k int) bool {
	s, j, ok := p.peekSubject(k)
	return ok && s.skip == "" && p.startsPredicate(j)
}

// markerAt returns the temporal marker that starts at token k, and the token after it.
func (p *parser) markerAt(k int) (*when.Marker, int) {
	if k >= len(p.t) {
		return nil, k
	}
	for idx := range p.markers {
		m := &p.markers[idx]
		if m.Start == p.t[k].start || m.Start > p.t[k].start && m.Start < p.t[k].end {
			e := k
			for e < len(p.t) && p.t[e].start < m.End {
				e++
			}
			return m, e
		}
	}
	return nil, k
}

// markerIn returns the first marker whose start lies in tokens [i, j) and its token
// span.
func (p *parser) markerIn(i, j int) (*when.Marker, int, int) {
	for k := i; k < j && k < len(p.t); k++ {
		if m, e := p.markerAt(k); m != nil {
			return m, k, e
		}
	}
	return nil, -1, -1
}

// valueStop words end a value.
var valueStop = map[string]bool{
	"because": true, "since": true, "so": true, "which": true, "who": true, "when": true, "while": true,
	"although": true, "though": true, "if": true, "unless": true, "until": true, "but": true, "except": true,
	"whereas": true, "(": true, ";": true, ")": true, "-": true, ":": false, "whom": true, "that": false,
	"anymore": true, "nowadays": true, "these": false, "lately": true, "too": true, "btw": true,
}

// valueEnd returns the end of a value starting at i: before a stop word, a clause
// boundary, a temporal marker (when cut), or one of the extra stops.
func (p *parser) valueEnd(i int, cutMarkers bool, extra ...string) int {
	k := i
	for k < len(p.t) {
		w := p.w(k)
		if valueStop[w] && k > i {
			return k
		}
		for _, x := range extra {
			if w == x && k > i {
				return k
			}
		}
		if (w == "," || w == "and" || w == "or" || w == "&") && k > i {
			n := k + 1
			for p.w(n) == "and" || p.w(n) == "," || p.w(n) == "but" {
				n++
			}
			if p.startsClause(n) || p.startsPredicate(n) || p.w(n) == "so" || p.w(n) == "which" || p.w(n) == "who" {
				return k
			}
		}
		if cutMarkers && k > i {
			if m, _ := p.markerAt(k); m != nil {
				return k
			}
		}
		k++
	}
	return k
}

// listValues splits the value tokens [i, j) into items at commas, "and", "or", "&"
// and "as well as".
func (p *parser) listValues(i, j int) []string {
	var out []string
	start := i
	flush := func(e int) {
		for start < e && (p.w(start) == "and" || p.w(start) == "or" || p.w(start) == "," || p.w(start) == "&" || p.w(start) == "also") {
			start++
		}
		if start < e {
			out = append(out, p.span(start, e))
		}
	}
	for k := i; k < j; k++ {
		if w := p.w(k); (w == "," || w == "and" || w == "or" || w == "but") && p.clauseAt(k+1, j) {
			// "I love hiking and my email is ...": the list ends where a new clause
			// starts; that clause is not a liked thing.
			flush(k)
			return out
		}
		switch w := p.w(k); {
		case w == "," || w == "&" || w == "/":
			flush(k)
			start = k + 1
		case w == "and" || w == "or" || w == "plus":
			// keep "salt and pepper"-like pairs only when nothing else splits the list
			flush(k)
			start = k + 1
		case w == "as" && p.w(k+1) == "well" && p.w(k+2) == "as":
			flush(k)
			start = k + 3
			k += 2
		}
	}
	flush(j)
	return out
}

// subjectPronouns start a clause of their own.
var subjectPronouns = map[string]bool{"i": true, "he": true, "she": true, "we": true, "they": true, "it's": true, "i'm": true}

// copulas and common verbs that make a possessive phrase a clause ("my email is").
var clauseVerbs = map[string]bool{"is": true, "are": true, "was": true, "were": true, "has": true, "have": true,
	"lives": true, "works": true, "loves": true, "likes": true, "hates": true}

// clauseAt reports whether tokens [k, j) start a clause: a subject pronoun, or a
// possessive phrase whose verb follows within a few words ("my email is ...").
func (p *parser) clauseAt(k, j int) bool {
	if k >= j {
		return false
	}
	if subjectPronouns[p.w(k)] {
		return true
	}
	if !possessives[p.w(k)] {
		return false
	}
	for n := k + 1; n < j && n <= k+4; n++ {
		if clauseVerbs[p.w(n)] {
			return true
		}
	}
	return false
}

// clauseWords open a clause, not a thing one likes.
var clauseWords = map[string]bool{"when": true, "if": true, "that": true, "how": true, "what": true,
	"because": true, "whenever": true, "where": true, "why": true, "who": true}

// possessives are possessive determiners.
var possessives = map[string]bool{"my": true, "our": true, "your": true, "his": true, "her": true, "their": true}

// objectPronouns are objects that name nothing on their own.
var objectPronouns = map[string]bool{"it": true, "that": true, "this": true, "you": true, "him": true,
	"her": true, "them": true, "me": true, "us": true, "those": true, "these": true, "everything": true,
	"everyone": true, "anything": true, "nothing": true, "something": true, "one": true, "lots": false}

// likeObject reads the object of a like/dislike verb at i: "dinosaurs", "to draw",
// "playing chess", "pizza and pasta". It emits one fact per item.
func (p *parser) likeObject(st state, i int, key, verb string) int {
	if p.w(i) == "to" {
		i++
	}
	if objectPronouns[p.w(i)] || clauseWords[p.w(i)] {
		return i // "loves it", "hates when people are late"
	}
	if possessives[p.w(i)] {
		if _, _, _, ok := p.relationAt(i + 1); ok {
			return i // "I love my wife": a relation, not a taste
		}
	}
	e := p.valueEnd(i, true, "with", "for", "in", "at")
	if e == i {
		return i
	}
	items := p.listValues(i, e)
	wordFor := map[string]string{KeyLikes: "likes", KeyDislikes: "dislikes", KeyFears: "is afraid of"}[key]
	for _, v := range items {
		if objectPronouns[strings.ToLower(v)] {
			continue
		}
		val := v
		p.emitFx(*st.s, fx{key: key, value: val, rule: verb, correction: st.corr, text: func(s string) string {
			return s + " " + wordFor + " " + val
		}})
	}
	return p.skipMarker(e)
}

// skipMarker steps over a temporal marker at e.
func (p *parser) skipMarker(e int) int {
	if m, me := p.markerAt(e); m != nil {
		return me
	}
	return e
}

var likeVerbs = map[string]bool{"love": true, "loves": true, "like": true, "likes": true, "enjoy": true,
	"enjoys": true, "adore": true, "adores": true, "prefer": true, "prefers": true}
var dislikeVerbs = map[string]bool{"hate": true, "hates": true, "dislike": true, "dislikes": true,
	"detest": true, "detests": true, "loathe": true, "loathes": true, "despise": true, "despises": true}
var eatVerbs = map[string]bool{"eat": true, "eats": true, "drink": true, "drinks": true, "touch": true,
	"have": true, "tolerate": true, "digest": true, "handle": true, "consume": true}

// negativeRule reads a negated predicate that still states a fact: "can't eat
// gluten" (avoid), "doesn't like olives" (dislike), "can't stand cilantro".
func (p *parser) negativeRule(head int, st state) int {
	if st.past {
		return head
	}
	hw := p.w(head)
	switch {
	case eatVerbs[hw] && (st.aux || st.cop == false):
		i := head + 1
		if p.w(i) == "any" || p.w(i) == "anything" && p.w(i+1) == "with" {
			if p.w(i) == "anything" {
				i += 2
			} else {
				i++
			}
		}
		e := p.valueEnd(i, true, "because", "for", "anymore", "since")
		if e == i || objectPronouns[p.w(i)] {
			return head
		}
		for _, v := range p.listValues(i, e) {
			val := v
			p.emitFx(*st.s, fx{key: KeyAvoid, value: val, rule: "cannot eat", correction: st.corr, text: func(s string) string {
				return s + " does not eat " + val
			}})
		}
		return e
	case hw == "like" || hw == "enjoy" || hw == "care" && p.w(head+1) == "for":
		if hw == "care" {
			head++
		}
		return p.likeObject(st, head+1, KeyDislikes, "does not like")
	case (hw == "stand" || hw == "bear") && st.aux:
		return p.likeObject(st, head+1, KeyDislikes, "cannot stand")
	case hw == "a" && p.w(head+1) == "fan" && p.w(head+2) == "of" && st.cop:
		return p.likeObject(st, head+3, KeyDislikes, "not a fan of")
	}
	return head
}

// pastRule reads past forms that still state a current fact: "was born on ...".
func (p *parser) pastRule(head int, st state) int {
	if p.w(head) == "born" && st.cop {
		return p.bornRule(head+1, st)
	}
	return head
}

// bornRule reads "born on June 3rd" / "born in 1990" after "was born".
func (p *parser) bornRule(i int, st state) int {
	m, e := p.markerAt(i)
	if m == nil || m.Grain != when.Day {
		return i
	}
	p.birthday(st, m, "was born on")
	return e
}

// birthday emits a birthday with a yearly anchor.
func (p *parser) birthday(st state, m *when.Marker, rule string) {
	mm := *m
	mm.Recur = when.Yearly
	text := strings.TrimPrefix(strings.TrimPrefix(m.Text, "on "), "On ")
	if !isDateText(text) {
		// "next Tuesday", "today": keep the date it names, not the relative words
		text = m.Anchor.Format("January 2")
	}
	if !mm.HasYear && !p.o.Now.IsZero() {
		mm.Anchor = when.NextYearly(m.Anchor.Month(), m.Anchor.Day(), p.o.Now)
	}
	p.emitFx(*st.s, fx{key: KeyBirthday, value: text, rule: rule, marker: &mm, correction: st.corr, text: func(s string) string {
		return s + "'s birthday is " + text
	}})
}

// isDateText reports whether a marker names a calendar date (a month or an ISO
// date), not a day relative to the message.
func isDateText(s string) bool {
	for _, w := range strings.Fields(strings.ToLower(s)) {
		if months[strings.Trim(w, ".,")] || len(w) == 10 && w[4] == '-' {
			return true
		}
	}
	for m := range months {
		if len(m) >= 3 && strings.Contains(strings.ToLower(s), m[:3]) {
			return true
		}
	}
	return false
}

// copulaRule reads "is/are ..." predicates.
func (p *parser) copulaRule(head int, st state) int {
	s := *st.s
	hw := p.w(head)
	switch {
	case hw == "born":
		return p.bornRule(head+1, st)
	case hw == "allergic":
		i := head + 1
		if p.w(i) == "to" {
			i++
		}
		return p.allergy(st, i)
	case hw == "a" || hw == "an":
		return p.copulaArticle(head+1, st)
	case hw == "on" && (p.w(head+1) == "vacation" || p.w(head+1) == "holiday" || p.w(head+1) == "leave" || p.w(head+1) == "a" && (p.w(head+2) == "trip" || p.w(head+2) == "business")):
		return p.plan(head, st)
	case hw == "on":
		return p.onRule(head+1, st)
	case hw == "from" && p.isPlace(head+1):
		e := p.valueEnd(head+1, true, "but", "in", "originally")
		v := p.span(head+1, e)
		p.emitFx(s, fx{key: KeyOrigin, value: v, rule: "is from", correction: st.corr, text: func(x string) string { return x + " is from " + v }})
		return e
	case (hw == "based" || hw == "living" || hw == "settled") && (p.w(head+1) == "in" || p.w(head+1) == "out"):
		i := head + 2
		if p.w(head+1) == "out" && p.w(i) == "of" {
			i++
		}
		return p.homeCity(st, i, "is based in")
	case hw == "married" && p.w(head+1) == "to", hw == "engaged" && p.w(head+1) == "to", hw == "dating":
		i := head + 1
		if hw != "dating" {
			i++
		}
		if s.isUser() {
			return p.partnerName(i, hw)
		}
		return head
	case hw == "my" || hw == "our":
		return p.relationStatement(head, st)
	case hw == "called" || hw == "named":
		return p.nameStatement(head+1, st)
	case hw == "employed" && (p.w(head+1) == "by" || p.w(head+1) == "at"):
		return p.employer(head+2, st, "is employed by")
	case hw == "retired" && p.clauseEnd(head+1) == head+1:
		if !s.isUser() || p.o.UserBasics {
			p.emitFx(s, fx{key: KeyRole, value: "retired", rule: "is retired", correction: st.corr, text: func(x string) string { return x + " is retired" }})
		}
		return head + 1
	case likeCopula(p, head) > head:
		k := likeCopula(p, head)
		key := KeyLikes
		if fearWords[hw] {
			key = KeyFears
		}
		return p.likeObject(st, k, key, hw)
	case travelIng[hw]:
		return p.travel(head, st)
	case hw == "in" && p.isPlace(head+1):
		// "Sarah is in Paris next week"
		if m, _, _ := p.markerIn(head+2, p.clauseEnd(head+2)); m != nil && !m.Past && m.Recur == when.Once {
			return p.travel(head, st)
		}
		return head
	case hw == "turning" || hw == "having" || hw == "getting" || hw == "starting" || hw == "doing" || hw == "taking" || hw == "playing" || hw == "hosting" || hw == "throwing" || hw == "celebrating" || hw == "attending" || hw == "running" || hw == "seeing" || hw == "meeting":
		return p.plan(head, st)
	}
	if a, ok := ageNumber(hw); ok {
		return p.ageRule(head, a, st)
	}
	if a, e := p.ageAdjective(head); e > head {
		p.ageFacts(st, a)
		return e
	}
	if d, e := p.phraseIn(head, dietPhrase); e > head {
		v := d
		p.emitFx(s, fx{key: KeyDiet, value: v, rule: "is " + v, correction: st.corr, text: func(x string) string { return x + " is " + v }})
		return p.afterTail(e)
	}
	if c, e := p.phraseIn(head, conditionPhrase); e > head {
		v := c
		word := p.span(head, e)
		p.emitFx(s, fx{key: KeyCondition, value: v, rule: "is " + word, correction: st.corr, text: func(x string) string { return x + " has " + v }})
		return p.afterTail(e)
	}
	if _, e := p.name(head); st.s.isName() && e > head && len(s.refs) == 1 {
		// "my wife is Sarah"
		return p.nameStatement(head, st)
	}
	return head
}

// afterTail steps over harmless tails ("now", "too", "since birth", "for years").
func (p *parser) afterTail(e int) int {
	for {
		switch {
		case p.w(e) == "now" || p.w(e) == "too" || p.w(e) == "as" && p.w(e+1) == "well":
			if p.w(e) == "as" {
				e++
			}
			e++
		case p.w(e) == "for" && (p.w(e+1) == "years" || p.w(e+1) == "ages" || p.w(e+1) == "life" || p.w(e+1) == "a" || isNumber(p.w(e+1))):
			e = p.valueEnd(e+1, false)
		case p.w(e) == "since" && (p.w(e+1) == "birth" || p.w(e+1) == "childhood" || isNumber(p.w(e+1)) || p.w(e+1) == "last"):
			e = p.valueEnd(e+1, false)
		default:
			return e
		}
	}
}

func isNumber(w string) bool {
	_, ok := ageNumber(w)
	return ok
}

// isName reports whether a subject is a single entity mention (not the user).
func (s *subj) isName() bool { return len(s.refs) == 1 && s.refs[0] != User }

var fearWords = map[string]bool{"scared": true, "afraid": true, "terrified": true, "frightened": true}

// likeCopula returns where the object starts after "into", "obsessed with", "a big
// fan of", "crazy about", "scared of"; head when none.
func likeCopula(p *parser, head int) int {
	switch p.w(head) {
	case "into":
		return head + 1
	case "obsessed", "fascinated", "enamored":
		if p.w(head+1) == "with" || p.w(head+1) == "by" {
			return head + 2
		}
	case "crazy", "passionate", "mad", "nuts", "excited", "enthusiastic", "wild":
		if p.w(head+1) == "about" {
			return head + 2
		}
	case "fond", "scared", "afraid", "terrified", "frightened":
		if p.w(head+1) == "of" {
			return head + 2
		}
	case "keen", "big", "hooked":
		if p.w(head+1) == "on" {
			return head + 2
		}
	case "fan":
		if p.w(head+1) == "of" {
			return head + 2
		}
	}
	return head
}

// dietPhrase and conditionPhrase match one or two words to a diet or condition.
func dietPhrase(w string) (string, bool) {
	w = strings.ReplaceAll(w, " ", "-")
	v, ok := dietWords[w]
	if !ok {
		v, ok = dietWords[strings.ReplaceAll(w, "-", " ")]
	}
	return v, ok
}

func conditionPhrase(w string) (string, bool) {
	v, ok := conditionWords[w]
	return v, ok && v != ""
}

// phraseIn matches one to three words at i with f.
func (p *parser) phraseIn(i int, f func(string) (string, bool)) (string, int) {
	for n := 3; n >= 1; n-- {
		if i+n > len(p.t) {
			continue
		}
		var ws []string
		for k := i; k < i+n; k++ {
			ws = append(ws, p.w(k))
		}
		if v, ok := f(strings.Join(ws, " ")); ok {
			return v, i + n
		}
	}
	return "", i
}

// allergy reads the allergens at i.
func (p *parser) allergy(st state, i int) int {
	e := p.valueEnd(i, true, "since", "for")
	if e == i {
		return i
	}
	for _, v := range p.listValues(i, e) {
		val := v
		p.emitFx(*st.s, fx{key: KeyAllergy, value: val, rule: "is allergic to", correction: st.corr, text: func(s string) string {
			return s + " is allergic to " + val
		}})
	}
	return p.afterTail(e)
}

// ageRule reads "8", "8 years old", "8 months old" after a copula.
func (p *parser) ageRule(head int, a string, st state) int {
	e := head + 1
	switch {
	case p.at(e, "years", "old") > 0 || p.at(e, "year", "old") > 0 || p.at(e, "yrs", "old") > 0:
		e += 2
	case p.w(e) == "yo" || p.w(e) == "y/o" || p.w(e) == "years" || p.w(e) == "now" || p.w(e) == "already":
		e++
	case p.at(e, "months", "old") > 0:
		a += " months"
		e += 2
	case e < len(p.t) && !(p.w(e) == "and" || p.w(e) == "," || p.w(e) == "but" || p.w(e) == "-" || p.w(e) == "(" || p.w(e) == "as" && p.w(e+1) == "of"):
		return head // "Leo is 8 feet tall", "is 8 minutes away"
	}
	p.ageFacts(st, a)
	return e
}

func (p *parser) ageFacts(st state, a string) {
	for _, r := range st.s.refs {
		if r != User {
			p.emitAge(r, a, "is N years old")
		}
	}
}

// copulaArticle reads "a/an ..." after a copula: an age, an occupation, a diet, a
// fan of something.
func (p *parser) copulaArticle(i int, st state) int {
	if a, e := p.ageAdjective(i); e > i {
		p.ageFacts(st, a)
		return e
	}
	if k := likeCopula(p, i); k > i {
		return p.likeObject(st, k, KeyLikes, "is a fan of")
	}
	for adjectiveBeforeFan[p.w(i)] {
		i++
		if k := likeCopula(p, i); k > i {
			return p.likeObject(st, k, KeyLikes, "is a fan of")
		}
	}
	if d, e := p.phraseIn(i, dietPhrase); e > i {
		v := d
		p.emitFx(*st.s, fx{key: KeyDiet, value: v, rule: "is a " + v, correction: st.corr, text: func(x string) string { return x + " is " + v }})
		return e
	}
	return p.occupation(i, st)
}

var adjectiveBeforeFan = map[string]bool{"big": true, "huge": true, "massive": true, "great": true, "real": true,
	"die-hard": true, "diehard": true, "true": true, "serious": true, "major": true, "enormous": true}

// roleModifiers may precede an occupation.
var roleModifiers = map[string]bool{"senior": true, "junior": true, "lead": true, "head": true, "chief": true,
	"principal": true, "staff": true, "freelance": true, "registered": true, "trainee": true, "qualified": true,
	"certified": true, "professional": true, "full-time": true, "part-time": true, "retired": false,
	"pediatric": true, "school": true, "primary": true, "high": true, "middle": true, "assistant": true,
	"associate": true, "volunteer": true, "practicing": true, "licensed": true}

// occupation reads "[senior] nurse [at St. Mary's]" at i (after an article).
func (p *parser) occupation(i int, st state) int {
	j := i
	for roleModifiers[p.w(j)] {
		j++
	}
	for n := 3; n >= 1; n-- {
		if j+n > len(p.t) {
			continue
		}
		var ws []string
		for k := j; k < j+n; k++ {
			ws = append(ws, p.w(k))
		}
		if !occupations[strings.Join(ws, " ")] {
			continue
		}
		e := j + n
		role := p.span(i, e)
		s := *st.s
		p.emitFx(s, fx{key: KeyRole, value: role, rule: "is a <occupation>", correction: st.corr, text: func(x string) string {
			return x + " works as " + article(role) + " " + role
		}})
		if p.w(e) == "at" || p.w(e) == "for" || p.w(e) == "with" {
			return p.employer(e+1, st, "is a <occupation> at")
		}
		return e
	}
	return i
}

func article(s string) string {
	if s != "" && strings.ContainsRune("aeiouAEIOU", rune(s[0])) {
		return "an"
	}
	return "a"
}

// employer reads an organisation at i.
func (p *parser) employer(i int, st state, rule string) int {
	if p.w(i) == "a" || p.w(i) == "an" {
		return i // "works at a bank": not a name
	}
	e := p.valueEnd(i, true, "as", "in", "since", "for", "where", "on", "with", "near")
	if e == i || objectPronouns[p.w(i)] {
		return i
	}
	v := p.span(i, e)
	if p.w(i) == "the" && !p.t[min(i+1, len(p.t)-1)].cap {
		return i
	}
	p.emitFx(*st.s, fx{key: KeyEmployer, value: v, rule: rule, correction: st.corr, text: func(x string) string { return x + " works at " + v }})
	if p.w(e) == "as" {
		return p.workAs(e+1, st)
	}
	return p.afterTail(e)
}

// workAs reads "[a] nurse [at X]" after "works as".
func (p *parser) workAs(i int, st state) int {
	if p.w(i) == "a" || p.w(i) == "an" || p.w(i) == "the" {
		i++
	}
	e := p.valueEnd(i, true, "at", "for", "in", "since", "with")
	if e == i {
		return i
	}
	v := p.span(i, e)
	p.emitFx(*st.s, fx{key: KeyRole, value: v, rule: "works as", correction: st.corr, text: func(x string) string { return x + " works as " + article(v) + " " + v }})
	if p.w(e) == "at" || p.w(e) == "for" {
		return p.employer(e+1, st, "works as ... at")
	}
	return e
}

// isPlace reports whether token i starts a place name (capitalised).
func (p *parser) isPlace(i int) bool {
	if i >= len(p.t) || p.t[i].kind != kWord {
		return false
	}
	if p.w(i) == "the" {
		i++
	}
	return i < len(p.t) && p.t[i].cap && !months[p.w(i)]
}

// homeCity reads a city at i.
func (p *parser) homeCity(st state, i int, rule string) int {
	if !p.isPlace(i) {
		return i
	}
	e := p.valueEnd(i, true, "with", "for", "since", "near", "now", "in", "at")
	if p.w(e) == "in" && p.isPlace(e+1) { // "Cambridge in England": keep the city
		e2 := p.valueEnd(e+1, true, "with", "for", "since", "near", "now")
		e = e2
	}
	v := p.span(i, e)
	p.emitFx(*st.s, fx{key: KeyCity, value: v, rule: rule, correction: st.corr, text: func(x string) string { return x + " lives in " + v }})
	return p.afterTail(e)
}

// onRule reads "on ..." after a copula: a diet ("on a keto diet"), a medication.
func (p *parser) onRule(i int, st state) int {
	if p.w(i) == "a" || p.w(i) == "an" {
		if d, e := p.phraseIn(i+1, dietPhrase); e > i+1 && p.w(e) == "diet" {
			v := d
			p.emitFx(*st.s, fx{key: KeyDiet, value: v, rule: "is on a diet", correction: st.corr, text: func(x string) string { return x + " is on a " + v + " diet" }})
			return e + 1
		}
		if p.w(i+2) == "diet" && p.t[i+1].kind == kWord {
			v := p.span(i+1, i+2)
			p.emitFx(*st.s, fx{key: KeyDiet, value: v, rule: "is on a diet", correction: st.corr, text: func(x string) string { return x + " is on a " + v + " diet" }})
			return i + 3
		}
	}
	return p.medication(i, st)
}

// medication reads a known medication at i.
func (p *parser) medication(i int, st state) int {
	for n := 3; n >= 1; n-- {
		if i+n > len(p.t) {
			continue
		}
		var ws []string
		for k := i; k < i+n; k++ {
			ws = append(ws, p.w(k))
		}
		if medications[strings.Join(ws, " ")] {
			v := p.span(i, i+n)
			p.emitFx(*st.s, fx{key: KeyMedication, value: v, rule: "takes <medication>", correction: st.corr, text: func(x string) string { return x + " takes " + v }})
			return p.afterTail(i + n)
		}
	}
	return i
}

// relationStatement reads "Sarah is my wife" (head at "my").
func (p *parser) relationStatement(head int, st state) int {
	s := *st.s
	if len(s.refs) != 1 || s.refs[0] == User {
		return head
	}
	j := head + 1
	for relationModifiers[p.w(j)] {
		j++
	}
	r, word, e, ok := p.relationAt(j)
	if !ok {
		return head
	}
	idx := s.refs[0]
	if p.t[e-1].poss {
		if r2, word2, e2, ok2 := p.relationAt(e); ok2 {
			o := p.mention(Mention{Relation: word, Role: r.role, Gender: genderName(r.gender), Unique: r.unique, Owner: User, Span: p.span(head, e)})
			p.setRelation(idx, r2, word2, o, word)
			return e2
		}
		return head
	}
	if m := p.ex.Mentions[idx]; m.Relation != "" && m.Relation != word {
		return head
	}
	p.setRelation(idx, r, word, User, "")
	return e
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

// travelIng are the present participles of travel verbs ("is flying to").
var travelIng = map[string]bool{"flying": true, "going": true, "heading": true, "traveling": true, "travelling": true,
	"driving": true, "leaving": true, "visiting": true, "moving": true, "off": true, "coming": true,
	"returning": true, "taking": false, "sailing": true, "cycling": false, "relocating": true}

// travelVerbs are travel verbs in the simple present.
var travelVerbs = map[string]bool{"fly": true, "flies": true, "travel": true, "travels": true, "go": true,
	"goes": true, "head": true, "heads": true, "leave": true, "leaves": true, "drive": true, "drives": true,
	"visit": true, "visits": true, "return": true, "returns": true, "come": true, "comes": true, "move": true,
	"moves": true, "relocate": true, "relocates": true}

// travel reads "fly to Lisbon next Friday", "is going to Rome in two weeks": a trip
// with a future one-off marker (or a schedule with a recurring one).
func (p *parser) travel(head int, st state) int {
	end := p.clauseEnd(head)
	m, ms, me := p.markerIn(st.s.clauseStart, end)
	if m == nil {
		return head
	}
	if m.Past {
		p.skip("past: \"" + m.Text + "\" is in the past")
		return end
	}
	i := head + 1
	if p.w(head) == "in" {
		i = head
	}
	// the trip's words: from the verb to the end, without the marker
	vEnd := end
	if ms >= head && ms < vEnd {
		vEnd = ms
	}
	if vEnd <= i {
		return head
	}
	what := p.span(head, vEnd)
	if p.w(head) == "in" {
		what = "be " + what
	}
	if strings.HasPrefix(p.w(head), "mov") || strings.HasPrefix(p.w(head), "reloc") {
		// "moving to Berlin next month": a plan
		return p.planFact(st, what, m, end, me)
	}
	if m.Recur != when.Once {
		return head // a recurring trip is a schedule
	}
	key := KeyTravel
	value := what + " " + m.Text
	mm := *m
	p.emitFx(*st.s, fx{key: key, value: value, rule: "travel", marker: &mm, correction: st.corr, text: func(x string) string {
		return x + ": " + value + anchorNote(mm)
	}})
	return max(end, me)
}

// anchorNote renders an anchor as " (2026-03-13)".
func anchorNote(m when.Marker) string {
	if m.Anchor.IsZero() {
		return ""
	}
	if m.Recur != when.Once {
		return " (" + string(m.Recur) + ")"
	}
	if m.Anchor.Hour() != 0 || m.Anchor.Minute() != 0 {
		return " (" + m.Anchor.Format("2006-01-02 15:04") + ")"
	}
	return " (" + m.Anchor.Format("2006-01-02") + ")"
}

// plan reads a plan with a future marker: "is having surgery next week", "has a
// dentist appointment tomorrow", "turns 9 on Friday".
func (p *parser) plan(head int, st state) int {
	end := p.clauseEnd(head)
	m, ms, me := p.markerIn(st.s.clauseStart, end)
	if m == nil {
		return head
	}
	vEnd := end
	if ms >= head && ms < vEnd {
		vEnd = ms
	}
	if vEnd <= head {
		return head
	}
	return p.planFact(st, p.span(head, vEnd), m, end, me)
}

func (p *parser) planFact(st state, what string, m *when.Marker, end, me int) int {
	if m.Past {
		p.skip("past: \"" + m.Text + "\" is in the past")
		return max(end, me)
	}
	key := KeyPlan
	if m.Recur != when.Once {
		key = KeySchedule
	}
	value := what + " " + m.Text
	mm := *m
	p.emitFx(*st.s, fx{key: key, value: value, rule: "plan", marker: &mm, correction: st.corr, text: func(x string) string {
		return x + ": " + value + anchorNote(mm)
	}})
	return max(end, me)
}

// schedule reads an activity with a recurring marker: "has piano on Tuesdays", "goes
// swimming every Saturday". Several "X on D" pairs may follow one verb.
func (p *parser) schedule(head, i int, st state) int {
	end := p.clauseEnd(i)
	m, ms, me := p.markerIn(st.s.clauseStart, end)
	if m == nil {
		return head
	}
	if m.Recur == when.Once {
		if ms < i {
			return p.planFact(st, p.span(i, end), m, end, me)
		}
		if ms <= i {
			return head
		}
		return p.planFact(st, p.span(i, ms), m, end, me)
	}
	k := i
	for {
		vEnd := p.valueEnd(k, true)
		if ms > k && ms < vEnd {
			vEnd = ms
		}
		if vEnd <= k {
			return max(k, head)
		}
		what := p.span(k, vEnd)
		if m.Recur == when.Once || m.Past {
			return max(k, head)
		}
		value := what + " " + m.Text
		mm := *m
		p.emitFx(*st.s, fx{key: KeySchedule, value: value, rule: "schedule", marker: &mm, correction: st.corr, text: func(x string) string {
			return x + " has " + value
		}})
		k = max(me, vEnd)
		// "and soccer on Saturdays"
		if p.w(k) == "," || p.w(k) == "and" {
			n := k + 1
			if p.w(n) == "and" {
				n++
			}
			m2, ms2, me2 := p.markerIn(n, p.clauseEnd(n))
			if m2 == nil || p.startsPredicate(n) || p.startsClause(n) {
				return k
			}
			m, ms, me = m2, ms2, me2
			k = n
			continue
		}
		return k
	}
}

// scheduleVerbs introduce an activity: "has piano", "takes swimming lessons".
var scheduleVerbs = map[string]bool{"has": true, "have": true, "takes": true, "take": true, "attends": true,
	"attend": true, "goes": true, "go": true, "plays": true, "play": true, "does": true, "do": true,
	"practices": true, "practice": true, "trains": true, "train": true, "visits": true, "visit": true,
	"sees": true, "see": true, "works": true, "volunteers": true, "swims": true, "runs": true, "meets": true,
	"coaches": true, "teaches": true, "babysits": true, "gets": true, "walks": true, "cleans": true}

// stripVerbs name no activity of their own: "plays soccer" is soccer.
var stripVerbs = map[string]bool{"has": true, "have": true, "takes": true, "take": true, "attends": true,
	"attend": true, "plays": true, "play": true, "does": true, "do": true, "practices": true, "practice": true,
	"goes": true, "go": true, "gets": true}

// activityStart returns where the activity of a schedule verb at head starts.
func (p *parser) activityStart(head int) int {
	if !stripVerbs[p.w(head)] {
		return head
	}
	i := head + 1
	if (p.w(head) == "goes" || p.w(head) == "go") && p.w(i) == "to" {
		i++
	}
	return i
}

// verbRule reads a predicate headed by a verb.
func (p *parser) verbRule(head int, st state) int {
	s := *st.s
	hw := p.w(head)
	switch {
	case likeVerbs[hw]:
		if p.w(head+1) == "it" || p.w(head+1) == "that" || p.w(head+1) == "you" {
			return head
		}
		return p.likeObject(st, head+1, KeyLikes, hw)
	case dislikeVerbs[hw]:
		return p.likeObject(st, head+1, KeyDislikes, hw)
	case hw == "avoids" || hw == "avoid":
		i := head + 1
		if p.w(i) == "eating" || p.w(i) == "drinking" {
			i++
		}
		e := p.valueEnd(i, true)
		for _, v := range p.listValues(i, e) {
			val := v
			p.emitFx(s, fx{key: KeyAvoid, value: val, rule: "avoids", correction: st.corr, text: func(x string) string { return x + " avoids " + val }})
		}
		return e
	case hw == "suffers" || hw == "suffer":
		if p.w(head+1) == "from" {
			e := p.valueEnd(head+2, true)
			for _, v := range p.listValues(head+2, e) {
				val := v
				p.emitFx(s, fx{key: KeyCondition, value: val, rule: "suffers from", correction: st.corr, text: func(x string) string { return x + " has " + val }})
			}
			return e
		}
	case hw == "speaks" || hw == "speak":
		e := p.valueEnd(head+1, true, "at", "with", "to")
		n := 0
		for _, v := range p.listValues(head+1, e) {
			if lang, ok := languages[strings.ToLower(strings.TrimPrefix(v, "fluent "))]; ok {
				l := lang
				p.emitFx(s, fx{key: KeySpeaks, value: l, rule: "speaks", correction: st.corr, text: func(x string) string { return x + " speaks " + l }})
				n++
			}
		}
		if n > 0 {
			return e
		}
	case hw == "works" || hw == "work" || hw == "worked" && st.aux:
		switch p.w(head + 1) {
		case "at", "for":
			return p.employer(head+2, st, "works at")
		case "as":
			return p.workAs(head+2, st)
		}
		if e := p.schedule(head, head, st); e > head {
			return e
		}
	case hw == "lives" || hw == "live" || hw == "lived" && st.aux:
		if p.w(head+1) == "in" || p.w(head+1) == "at" {
			return p.homeCity(st, head+2, "lives in")
		}
	case hw == "moved" || hw == "moves" && st.future == false && p.w(head+1) == "to":
		if p.w(head+1) == "to" || p.w(head+1) == "back" && p.w(head+2) == "to" {
			i := head + 2
			if p.w(head+1) == "back" {
				i++
			}
			if m, _, _ := p.markerIn(st.s.clauseStart, p.clauseEnd(head)); m != nil && !m.Past && hw == "moves" {
				return p.travel(head, st)
			}
			st.corr = true
			return p.homeCity(st, i, "moved to")
		}
	case hw == "turned":
		if a, ok := ageNumber(p.w(head + 1)); ok {
			st.corr = true
			p.ageFacts(st, a)
			return head + 2
		}
	case hw == "turns":
		return p.plan(head, st)
	case hw == "has" || hw == "have" || hw == "had" && st.aux:
		return p.hasRule(head, st)
	case (hw == "takes" || hw == "take") && p.medicationAt(head+1):
		return p.medication(head+1, st)
	case travelVerbs[hw]:
		if e := p.travel(head, st); e > head {
			return e
		}
		if scheduleVerbs[hw] {
			return p.schedule(head, p.activityStart(head), st)
		}
	case scheduleVerbs[hw]:
		return p.schedule(head, p.activityStart(head), st)
	case hw == "eats" || hw == "eat":
		// "eats no meat", "only eats halal"
		if p.w(head+1) == "no" {
			e := p.valueEnd(head+2, true)
			for _, v := range p.listValues(head+2, e) {
				val := v
				p.emitFx(s, fx{key: KeyAvoid, value: val, rule: "eats no", correction: st.corr, text: func(x string) string { return x + " does not eat " + val }})
			}
			return e
		}
		if d, e := p.phraseIn(head+1, dietPhrase); e > head+1 {
			v := d
			p.emitFx(s, fx{key: KeyDiet, value: v, rule: "eats " + v, correction: st.corr, text: func(x string) string { return x + " is " + v }})
			return e
		}
	case hw == "got" && p.w(head+1) == "married":
		return head
	}
	return head
}

func (p *parser) medicationAt(i int) bool {
	for n := 3; n >= 1; n-- {
		var ws []string
		for k := i; k < i+n && k < len(p.t); k++ {
			ws = append(ws, p.w(k))
		}
		if medications[strings.Join(ws, " ")] {
			return true
		}
	}
	return false
}

// hasRule reads predicates headed by "has/have": an allergy, a condition, a relation
// introduced ("I have a son named Leo"), a schedule, a plan.
func (p *parser) hasRule(head int, st state) int {
	s := *st.s
	i := head + 1
	if p.w(i) == "got" {
		i++
	}
	// "has a (severe) peanut allergy", "has allergies to X", "has an allergy to X"
	if e := p.hasAllergy(i, st); e > i {
		return e
	}
	if c, e := p.phraseIn(i, conditionNounPhrase); e > i {
		v := c
		p.emitFx(s, fx{key: KeyCondition, value: v, rule: "has <condition>", correction: st.corr, text: func(x string) string { return x + " has " + v }})
		return p.afterTail(e)
	}
	if s.isUser() || s.we {
		if e := p.relationIntro(i, st); e > i {
			return e
		}
	}
	return p.schedule(head, i, st)
}

func conditionNounPhrase(w string) (string, bool) {
	if conditionNouns[w] {
		return strings.TrimPrefix(strings.TrimPrefix(w, "a "), "an "), true
	}
	return "", false
}

// hasAllergy reads "a peanut allergy", "a severe nut allergy", "allergies to X",
// "an allergy to X", "a lot of allergies" at i.
func (p *parser) hasAllergy(i int, st state) int {
	j := i
	if p.w(j) == "a" || p.w(j) == "an" || p.w(j) == "severe" || p.w(j) == "mild" || p.w(j) == "bad" {
		j++
	}
	for p.w(j) == "severe" || p.w(j) == "mild" || p.w(j) == "bad" || p.w(j) == "serious" || p.w(j) == "life-threatening" || p.w(j) == "deadly" {
		j++
	}
	if p.w(j) == "allergy" || p.w(j) == "allergies" {
		if p.w(j+1) == "to" {
			return p.allergy(st, j+2)
		}
		return i
	}
	// "a peanut allergy", "peanut and egg allergies"
	for k := j; k < j+6 && k < len(p.t); k++ {
		if p.w(k) == "allergy" || p.w(k) == "allergies" {
			if k == j {
				return i
			}
			for _, v := range p.listValues(j, k) {
				val := v
				p.emitFx(*st.s, fx{key: KeyAllergy, value: val, rule: "has an allergy", correction: st.corr, text: func(s string) string {
					return s + " is allergic to " + val
				}})
			}
			return p.afterTail(k + 1)
		}
		if p.w(k) == "," && p.w(k+1) != "and" || valueStop[p.w(k)] {
			break
		}
	}
	return i
}

// relationIntro reads "a son named Leo", "a dog called Rex", "two kids, Leo and Mia"
// after "I have" / "we have".
func (p *parser) relationIntro(i int, st state) int {
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
	age := ""
	for {
		if relationModifiers[p.w(j)] {
			j++
			continue
		}
		if a, k := p.ageAdjective(j); k > j {
			age, j = a, k
			continue
		}
		break
	}
	if count == 0 {
		// "two kids, Leo and Mia" / "two sons named Leo and Max"
		plural := p.w(j)
		single := map[string]string{"kids": "child", "children": "child", "sons": "son", "daughters": "daughter",
			"dogs": "dog", "cats": "cat", "brothers": "brother", "sisters": "sister", "boys": "son", "girls": "daughter"}[plural]
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
			idx := p.mention(Mention{Name: name, Relation: relWord(r, single), Role: r.role, Gender: genderName(r.gender), Owner: User, Span: p.span(e, ne)})
			p.setRelation(idx, r, relWord(r, single), User, "")
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
	r, word, k, ok := p.relationAt(j)
	if !ok {
		return i
	}
	n := k
	if p.w(n) == "named" || p.w(n) == "called" || p.w(n) == "," {
		n++
	}
	name, e := p.name(n)
	if e == n {
		name, e = "", k
	}
	idx := p.mention(Mention{Name: name, Relation: word, Role: r.role, Gender: genderName(r.gender), Unique: r.unique, Owner: User, Age: age, Span: p.span(i, e)})
	p.setRelation(idx, r, word, User, "")
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
	return e
}

func relWord(r relInfo, word string) string {
	if r.canon != "" {
		return r.canon
	}
	return word
}

// reportedSpeech reads "Sarah says she is vegetarian", "Martin told me that ...":
// the rest is stated by the mention.
func (p *parser) reportedSpeech(s *subj, head int) int {
	i := head + 1
	if p.w(i) == "me" || p.w(i) == "us" {
		i++
	}
	if p.w(i) == "that" || p.w(i) == ":" || p.w(i) == "," {
		i++
	}
	saved := p.saidBy
	p.saidBy = s.refs[0]
	p.clauses(i, false)
	p.saidBy = saved
	return len(p.t)
}

// possPredicate reads "<subject>'s <attribute> is <value>": birthday, name, email,
// phone, age, job, favorite things, a scheduled activity.
func (p *parser) possPredicate(s *subj, j int) int {
	st := state{s: s, corr: s.correction, start: j}
	attrEnd := j
	for attrEnd < len(p.t) && attrEnd < j+5 && p.w(attrEnd) != "is" && p.w(attrEnd) != "are" && p.w(attrEnd) != "was" && p.w(attrEnd) != "will" && p.w(attrEnd) != ":" && p.w(attrEnd) != "has" && p.w(attrEnd) != "changed" && p.w(attrEnd) != "include" && p.w(attrEnd) != "includes" {
		attrEnd++
	}
	if attrEnd == j || attrEnd >= len(p.t) {
		return j
	}
	attr := make([]string, 0, attrEnd-j)
	for k := j; k < attrEnd; k++ {
		attr = append(attr, p.w(k))
	}
	a := strings.Join(attr, " ")
	v := attrEnd + 1
	neg, past := false, p.w(attrEnd) == "was"
	switch {
	case p.w(attrEnd) == "has" && p.w(attrEnd+1) == "changed" && p.w(attrEnd+2) == "to":
		v, st.corr = attrEnd+3, true
	case p.w(attrEnd) == "changed" && p.w(attrEnd+1) == "to":
		v, st.corr = attrEnd+2, true
	case p.w(attrEnd) == "will" && p.w(attrEnd+1) == "be":
		v = attrEnd + 2
	case p.w(attrEnd) == "has" || p.w(attrEnd) == "changed":
		return j
	}
	for adverbs[p.w(v)] {
		if correctionAdverbs[p.w(v)] {
			st.corr = true
		}
		v++
	}
	if p.w(v) == "not" || p.w(v) == "never" || p.w(v) == "no" && p.w(v+1) == "longer" {
		neg = true
	}
	if neg {
		p.skip("negation: \"" + p.span(j, min(v+2, len(p.t))) + "\" is not stored as a fact")
		return p.clauseEnd(v)
	}
	switch a {
	case "birthday", "bday", "b-day", "birth day", "birthdate", "birth date", "date of birth", "dob":
		if p.w(v) == "on" || p.w(v) == "in" {
			// the marker includes "on"
		}
		m, e := p.markerAt(v)
		if m == nil && (p.w(v) == "on" || p.w(v) == "in") {
			m, e = p.markerAt(v + 1)
		}
		if m == nil {
			if v < len(p.t) && !p.o.Now.IsZero() {
				return j
			}
			// no clock: keep the date as said
			e = p.valueEnd(v, false)
			if e > v && (months[p.w(v)] || isNumber(p.w(v))) {
				val := p.span(v, e)
				p.emitFx(*s, fx{key: KeyBirthday, value: val, rule: "birthday is", correction: st.corr, text: func(x string) string { return x + "'s birthday is " + val }})
				return e
			}
			return j
		}
		if m.Grain != when.Day && m.Grain != when.Month {
			return j
		}
		p.birthday(st, m, "birthday is")
		return e
	case "name", "first name", "real name", "full name":
		if past {
			return j
		}
		return p.nameStatement(v, st)
	case "email", "email address", "e-mail", "e mail", "mail":
		if v < len(p.t) && p.t[v].kind == kEmail {
			val := strings.TrimRight(p.span(v, v+1), ".")
			p.emitFx(*s, fx{key: KeyEmail, value: val, rule: "email is", correction: st.corr, text: func(x string) string { return x + "'s email is " + val }})
			return v + 1
		}
	case "number", "phone", "phone number", "cell", "cell number", "mobile", "mobile number", "cell phone", "telephone":
		e := v
		digits := 0
		for e < len(p.t) && (p.t[e].kind == kWord && isDigits(p.w(e)) || p.w(e) == "+" || p.w(e) == "-" || p.w(e) == "(" || p.w(e) == ")" || p.w(e) == ".") {
			if p.t[e].kind == kWord {
				digits += len(p.w(e))
			}
			e++
		}
		for e > v && p.t[e-1].kind == kPunct && p.w(e-1) != ")" {
			e--
		}
		if digits >= 5 && digits <= 20 {
			val := p.span(v, e)
			p.emitFx(*s, fx{key: KeyPhone, value: val, rule: "number is", correction: st.corr, text: func(x string) string { return x + "'s phone number is " + val }})
			return e
		}
	case "age":
		if n, ok := ageNumber(p.w(v)); ok {
			p.ageFacts(st, n)
			return v + 1
		}
	case "job", "occupation", "profession", "job title", "role":
		if p.w(v) == "a" || p.w(v) == "an" {
			v++
		}
		e := p.valueEnd(v, true, "at", "for", "in")
		if e > v {
			val := p.span(v, e)
			p.emitFx(*s, fx{key: KeyRole, value: val, rule: "job is", correction: st.corr, text: func(x string) string { return x + " works as " + val }})
			if p.w(e) == "at" || p.w(e) == "for" {
				return p.employer(e+1, st, "job is ... at")
			}
			return e
		}
	case "employer", "company", "workplace":
		return p.employer(v, st, "employer is")
	case "allergy", "allergies":
		if p.w(v) == "include" || p.w(v) == "are" {
			v++
		}
		return p.allergy(st, v)
	case "diet":
		if d, e := p.phraseIn(v, dietPhrase); e > v {
			val := d
			p.emitFx(*s, fx{key: KeyDiet, value: val, rule: "diet is", correction: st.corr, text: func(x string) string { return x + " is " + val }})
			return e
		}
	case "home", "hometown", "home town", "city":
		return p.homeCity(st, v, "city is")
	}
	if past {
		return j
	}
	if attr[0] == "favorite" || attr[0] == "favourite" || attr[0] == "fave" {
		// Another person's favorites are not kept: favorites.* lists are the user's
		// own ranked lists, and Say replies about them as such.
		return j
	}
	// "Leo's piano lesson is on Tuesdays", "Sarah's flight is tomorrow at 9"
	if m, e := p.markerAt(v); m != nil || p.w(v) == "at" {
		if m == nil {
			return j
		}
		what := p.span(j, attrEnd)
		if m.Past {
			p.skip("past: \"" + m.Text + "\" is in the past")
			return e
		}
		key := KeyPlan
		if m.Recur != when.Once {
			key = KeySchedule
		}
		if strings.Contains(what, "flight") || strings.Contains(what, "trip") {
			key = KeyTravel
		}
		value := what + " " + m.Text
		mm := *m
		p.emitFx(*s, fx{key: key, value: value, rule: "poss plan", marker: &mm, correction: st.corr, text: func(x string) string {
			return x + "'s " + value + anchorNote(mm)
		}})
		return e
	}
	return j
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

var _ = time.Now
