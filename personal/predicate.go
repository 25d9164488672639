package personal

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
	"normally": true, "originally": true, "typically": true, "generally": true, "mainly": true, "only": true, "even": true,
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
	"commute": true, "commutes": true, "sold": true, "retired": true, "uses": true, "use": true, "rehearse": true, "rehearses": true, "sing": true, "bought": true,
	"learn": true, "learns": true, "began": true, "joined": true, "graduated": true, "taken": false,
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
	var neg, past, hypo, cop, aux, modal bool
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
			aux, modal = true, true
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
	st := state{s: s, neg: neg, past: past, hypo: hypo, cop: cop, aux: aux, modal: modal, corr: corr, future: verb == "will", start: j}
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
	if hw == "died" || hw == "passed" && p.w(head+1) == "away" {
		// "Our dog Rufus died last spring": who died is no current relation.
		if p.gone == nil {
			p.gone = map[int]bool{}
		}
		for _, r := range st.s.refs {
			if r != User {
				p.gone[r] = true
			}
		}
		p.skip("death: \"" + p.span(j, min(head+2, len(p.t))) + "\" ends what is known, it adds nothing")
		return p.clauseEnd(head)
	}
	stillTrue := aux && !past && !neg && (hw == "worked" || hw == "lived") && p.durationIn(head, p.clauseEnd(head))
	if !stillTrue && (past && !pastOK[hw] || pastVerbs[hw] && !pastOK[hw]) {
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

// isName reports whether a subject is a single entity mention (not the user).
func (s *subj) isName() bool { return len(s.refs) == 1 && s.refs[0] != User }

// state is what the predicate parser learned before the head word.
type state struct {
	s                                       *subj
	neg, past, hypo, cop, aux, corr, future bool
	modal                                   bool // "can", "must": "can't have dairy" avoids it
	start                                   int
}

// durationIn reports whether [i, e) says how long something has lasted: "for 20
// years", "for a decade", "since 2015". "has worked at Arup for 20 years" still
// works there; "has worked at Arup" may be long over.
func (p *parser) durationIn(i, e int) bool {
	for k := i; k < e; k++ {
		switch p.w(k) {
		case "since":
			return true
		case "for":
			n := p.w(k + 1)
			if isNumber(n) || n == "a" || n == "an" || n == "many" || n == "several" || n == "years" || n == "ages" ||
				n == "decades" || n == "over" || n == "almost" || n == "nearly" || n == "about" || n == "the" && p.w(k+2) == "past" {
				return true
			}
		}
	}
	return false
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

// reportedSpeech reads "Sarah says she is vegetarian", "Martin told me that ...":
// the rest is stated by the mention.
func (p *parser) reportedSpeech(s *subj, head int) int {
	i := head + 1
	if p.w(i) == "me" || p.w(i) == "us" {
		i++
	} else if p.w(i) == "the" || p.w(i) == "everyone" || p.w(i) == "everybody" {
		// "told the team she'll be in Peru": the hearers are not what is said
		for n := 1; n <= 3; n++ {
			if w := p.w(i + n); w == "that" || subjectPronouns[w] || w == "his" || w == "her" {
				i += n
				break
			}
		}
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
