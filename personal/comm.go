package personal

import (
	"strings"

	"github.com/factbase/factbase"
)

// Communication preferences: how the user wants the assistant to answer.

var lengthWords = map[string]string{
	"short": "short", "shorter": "short", "brief": "short", "briefer": "short", "concise": "short",
	"succinct": "short", "terse": "short", "compact": "short", "to the point": "short",
	"detailed": "detailed", "longer": "detailed", "thorough": "detailed", "in-depth": "detailed",
	"comprehensive": "detailed", "more detailed": "detailed", "long": "detailed", "elaborate": "detailed",
	"less verbose": "short", "more concise": "short", "simple": "simple", "simpler": "simple",
}

var toneWords = map[string]string{
	"formal": "formal", "more formal": "formal", "casual": "casual", "more casual": "casual",
	"informal": "casual", "friendly": "friendly", "professional": "professional", "direct": "direct",
	"blunt": "direct", "polite": "polite", "funny": "humorous", "playful": "playful", "serious": "serious",
	"warm": "warm", "gentle": "gentle", "honest": "direct",
}

var answerNouns = map[string]bool{"answers": true, "answer": true, "responses": true, "response": true,
	"replies": true, "reply": true, "messages": true, "explanations": true, "it": true, "things": true,
	"them": true, "your": false, "summaries": true, "output": true}

// formatObjects are what "use ..." can name, with their key and value.
var formatObjects = map[string][2]string{
	"bullet points": {factbase.KeyFormat, "bullet points"}, "bullets": {factbase.KeyFormat, "bullet points"},
	"lists": {factbase.KeyFormat, "lists"}, "markdown": {factbase.KeyFormat, "markdown"}, "tables": {factbase.KeyFormat, "tables"},
	"plain text": {factbase.KeyFormat, "plain text"}, "numbered lists": {factbase.KeyFormat, "numbered lists"},
	"emojis": {factbase.KeyEmoji, "yes"}, "emoji": {factbase.KeyEmoji, "yes"}, "metric": {factbase.KeyUnits, "metric"},
	"metric units": {factbase.KeyUnits, "metric"}, "the metric system": {factbase.KeyUnits, "metric"},
	"imperial": {factbase.KeyUnits, "imperial"}, "imperial units": {factbase.KeyUnits, "imperial"},
	"celsius": {factbase.KeyUnits, "celsius"}, "fahrenheit": {factbase.KeyUnits, "fahrenheit"},
	"code examples": {factbase.KeyFormat, "code examples"}, "examples": {factbase.KeyFormat, "examples"},
	"headings": {factbase.KeyFormat, "headings"}, "headers": {factbase.KeyFormat, "headings"},
}

// emitComm records a communication preference of the user.
func (p *parser) emitComm(key, value, rule string, corr bool) {
	v := value
	text := map[string]func(string) string{
		factbase.KeyLength:   func(s string) string { return s + " prefers " + v + " answers" },
		factbase.KeyLanguage: func(s string) string { return s + " wants answers in " + v },
		factbase.KeyFormat:   func(s string) string { return s + " prefers answers formatted as " + v },
		factbase.KeyTone:     func(s string) string { return s + " prefers a " + v + " tone" },
		factbase.KeyEmoji:    func(s string) string { return s + " emoji preference: " + v },
		factbase.KeyUnits:    func(s string) string { return s + " prefers " + v + " units" },
	}[key]
	p.emitFx(subj{refs: []int{User}}, fx{key: key, value: value, rule: rule, text: text, correction: true})
}

// phrase matches one to three words at i in m.
func (p *parser) phrase(i int, m map[string]string) (string, int) {
	return p.phraseIn(i, func(w string) (string, bool) {
		v, ok := m[w]
		return v, ok
	})
}

// formatAt matches one to three words at i in formatObjects.
func (p *parser) formatAt(i int) ([2]string, int) {
	var v [2]string
	_, e := p.phraseIn(i, func(w string) (string, bool) {
		f, ok := formatObjects[w]
		if ok {
			v = f
		}
		return "", ok
	})
	return v, e
}

// language reads "in German", "German" at i.
func (p *parser) language(i int) (string, int) {
	if p.w(i) == "in" {
		i++
	}
	if l, e := p.phrase(i, languages); e > i {
		return l, e
	}
	return "", i
}

// commPref reads an imperative communication preference at i: "please keep answers
// short", "answer in German", "no emojis", "be more formal", "use bullet points".
func (p *parser) commPref(i int) int {
	j := i
	for {
		switch p.w(j) {
		case "please", "pls", "plz", "kindly", "always", "just", "also", "from", "going", "in":
			if p.w(j) == "from" {
				if p.at(j, "from", "now", "on") < 0 {
					return i
				}
				j += 3
				continue
			}
			if p.w(j) == "going" {
				if p.at(j, "going", "forward") < 0 {
					return i
				}
				j += 2
				continue
			}
			if p.w(j) == "in" {
				if p.at(j, "in", "the", "future") < 0 {
					if l, e := p.language(j); e > j && (e >= len(p.t) || p.w(e) == "please" || p.w(e) == "," || p.w(e) == "from") {
						p.emitComm(factbase.KeyLanguage, l, "in <language> please", true)
						return e
					}
					return i
				}
				j += 3
				continue
			}
			j++
			continue
		case "can", "could", "would", "will":
			if p.w(j+1) == "you" {
				j += 2
				continue
			}
		case ",":
			j++
			continue
		}
		break
	}
	neg := false
	switch {
	case p.at(j, "do", "not") > 0:
		neg, j = true, j+2
	case p.w(j) == "never" || p.w(j) == "no" || p.w(j) == "stop" || p.w(j) == "avoid" || p.w(j) == "without":
		neg = true
		if p.w(j) == "stop" && (p.w(j+1) == "using" || p.w(j+1) == "being" || p.w(j+1) == "adding" || p.w(j+1) == "with") {
			j++
		}
		j++
	}
	w := p.w(j)
	switch w {
	case "keep", "make":
		k := j + 1
		for answerNouns[p.w(k)] || p.w(k) == "your" || p.w(k) == "the" || p.w(k) == "my" || p.w(k) == "all" {
			k++
		}
		for adverbs[p.w(k)] || p.w(k) == "nice" || p.w(k) == "and" {
			k++
		}
		if v, e := p.phrase(k, lengthWords); e > k && !neg {
			p.emitComm(factbase.KeyLength, v, "keep answers "+v, true)
			return e
		}
		if v, e := p.phrase(k, toneWords); e > k && !neg {
			p.emitComm(factbase.KeyTone, v, "keep it "+v, true)
			return e
		}
	case "be", "being", "sound":
		k := j + 1
		for adverbs[p.w(k)] || p.w(k) == "more" && false || p.w(k) == "a" || p.w(k) == "bit" || p.w(k) == "little" {
			k++
		}
		if neg {
			// "don't be so verbose"
			if p.w(k) == "verbose" || p.w(k) == "wordy" || p.w(k) == "long-winded" {
				p.emitComm(factbase.KeyLength, "short", "do not be verbose", true)
				return k + 1
			}
			return i
		}
		if v, e := p.phrase(k, lengthWords); e > k {
			p.emitComm(factbase.KeyLength, v, "be "+v, true)
			return e
		}
		if v, e := p.phrase(k, toneWords); e > k {
			p.emitComm(factbase.KeyTone, v, "be "+v, true)
			return e
		}
	case "answer", "reply", "respond", "write", "talk", "speak", "communicate", "chat", "explain":
		k := j + 1
		if p.w(k) == "to" && p.w(k+1) == "me" || p.w(k) == "with" && p.w(k+1) == "me" {
			k += 2
		}
		if p.w(k) == "me" {
			k++
		}
		for adverbs[p.w(k)] {
			k++
		}
		if l, e := p.language(k); e > k && !neg && !proficiency[p.w(e)] {
			// "speak German fluently, some Dutch" describes the speaker, not the
			// answers wanted
			p.emitComm(factbase.KeyLanguage, l, w+" in <language>", true)
			return e
		}
		if v, e := p.phrase(k, lengthWords); e > k && !neg {
			p.emitComm(factbase.KeyLength, v, w+" "+v, true)
			return e
		}
		if (p.w(k) == "briefly" || p.w(k) == "shortly" || p.w(k) == "concisely") && !neg {
			p.emitComm(factbase.KeyLength, "short", w+" briefly", true)
			return k + 1
		}
		if (p.w(k) == "in" && (p.w(k+1) == "detail" || p.w(k+1) == "depth")) && !neg {
			p.emitComm(factbase.KeyLength, "detailed", w+" in detail", true)
			return k + 2
		}
		if v, e := p.phrase(k, toneWords); e > k && !neg {
			p.emitComm(factbase.KeyTone, v, w+" "+v, true)
			return e
		}
		if (p.w(k) == "formally" || p.w(k) == "casually") && !neg {
			p.emitComm(factbase.KeyTone, strings.TrimSuffix(p.w(k), "ly"), w+" "+p.w(k), true)
			return k + 1
		}
	case "switch":
		if p.w(j+1) == "to" {
			if l, e := p.language(j + 2); e > j+2 {
				p.emitComm(factbase.KeyLanguage, l, "switch to <language>", true)
				return e
			}
		}
	case "use", "using", "add", "include", "give":
		k := j + 1
		if w == "give" {
			if p.w(k) != "me" {
				return i
			}
			k++
			if v, e := p.phrase(k, lengthWords); e > k && answerNouns[p.w(e)] && !neg {
				p.emitComm(factbase.KeyLength, v, "give me "+v+" answers", true)
				return e + 1
			}
			return i
		}
		for p.w(k) == "any" || p.w(k) == "more" || p.w(k) == "fewer" || p.w(k) == "less" || p.w(k) == "the" {
			if p.w(k) == "fewer" || p.w(k) == "less" {
				neg = true
			}
			k++
		}
		if l, e := p.language(k); e > k && !neg {
			p.emitComm(factbase.KeyLanguage, l, "use <language>", true)
			return e
		}
		if f, e := p.formatAt(k); e > k {
			p.emitFormat(f, neg)
			return e
		}
	}
	if neg {
		if f, e := p.formatAt(j); e > j {
			p.emitFormat(f, true)
			return e
		}
		if p.w(j) == "more" && p.w(j+1) == "emojis" {
			p.emitComm(factbase.KeyEmoji, "none", "no more emojis", true)
			return j + 2
		}
		return i
	}
	// "shorter answers please", "short answers, please"
	if v, e := p.phrase(j, lengthWords); e > j && answerNouns[p.w(e)] && p.w(e) != "it" {
		if e+1 >= len(p.t) || p.w(e+1) == "please" || p.w(e+1) == "," || p.w(e+1) == "from" {
			p.emitComm(factbase.KeyLength, v, v+" answers please", true)
			return e + 1
		}
	}
	if p.w(j) == "less" && (p.w(j+1) == "verbose" || p.w(j+1) == "wordy" || p.w(j+1) == "detail" || p.w(j+1) == "text") {
		p.emitComm(factbase.KeyLength, "short", "less verbose", true)
		return j + 2
	}
	if p.w(j) == "more" && (p.w(j+1) == "detail" || p.w(j+1) == "details") {
		p.emitComm(factbase.KeyLength, "detailed", "more detail", true)
		return j + 2
	}
	if l, e := p.phrase(j, languages); e > j && (p.w(e) == "please" || p.w(e) == "only" && p.w(e+1) == "please") {
		p.emitComm(factbase.KeyLanguage, l, "<language> please", true)
		return e + 1
	}
	return i
}

func (p *parser) emitFormat(f [2]string, neg bool) {
	key, val := f[0], f[1]
	if neg {
		switch key {
		case factbase.KeyEmoji:
			val = "none"
		case factbase.KeyUnits:
			return
		default:
			val = "no " + val
		}
	}
	p.emitComm(key, val, "use/avoid "+f[1], true)
}

// commUser reads "I prefer short answers", "I'd like you to answer in German", "I
// want answers in French", "I like bullet points" after the user as subject (head at
// the verb).
func (p *parser) commUser(head int, st state) int {
	hw := p.w(head)
	if !(hw == "prefer" || hw == "like" || hw == "want" || hw == "need" || hw == "love" || hw == "appreciate" ||
		hw == "prefers" || hw == "likes" || hw == "wants" || hw == "needs" || hw == "loves" || hw == "appreciates") {
		return head
	}
	k := head + 1
	if p.w(k) == "it" && p.w(k+1) == "when" && p.w(k+2) == "you" {
		k += 3
		return p.commPref(k)
	}
	if p.w(k) == "you" && p.w(k+1) == "to" {
		if e := p.commPref(k + 2); e > k+2 {
			return e
		}
		return head
	}
	if p.w(k) == "to" && p.w(k+1) == "get" {
		k += 2
	}
	if p.w(k) == "that" && p.w(k+1) == "you" {
		if e := p.commPref(k + 2); e > k+2 {
			return e
		}
	}
	// "short answers", "answers in German", "bullet points", "no emojis"
	if v, e := p.phrase(k, lengthWords); e > k && answerNouns[p.w(e)] && p.w(e) != "it" {
		p.emitComm(factbase.KeyLength, v, "prefer "+v+" answers", true)
		return e + 1
	}
	if answerNouns[p.w(k)] && p.w(k) != "it" && p.w(k) != "things" {
		if l, e := p.language(k + 1); e > k+1 {
			p.emitComm(factbase.KeyLanguage, l, "answers in <language>", true)
			return e
		}
		if v, e := p.phrase(k+1, lengthWords); e > k+1 || p.w(k+1) == "to" && p.w(k+2) == "be" {
			if e == k+1 {
				v, e = p.phrase(k+3, lengthWords)
			}
			if e > k+1 {
				p.emitComm(factbase.KeyLength, v, "prefer answers "+v, true)
				return e
			}
		}
	}
	if f, e := p.formatAt(k); e > k {
		p.emitFormat(f, st.neg)
		return e
	}
	if p.w(k) == "no" {
		if f, e := p.formatAt(k + 1); e > k+1 {
			p.emitFormat(f, true)
			return e
		}
	}
	if hw == "prefer" {
		if l, e := p.phrase(k, languages); e > k {
			p.emitComm(factbase.KeyLanguage, l, "prefer <language>", true)
			return e
		}
	}
	return head
}

// addressCues make a sentence one addressed to the assistant.
var addressCues = map[string]bool{"you": true, "your": true, "please": true, "answers": true, "answer": true,
	"explain": true, "give": true, "use": true, "include": true, "be": true, "stop": true, "keep": true,
	"prefers": true, "prefer": true, "feel": true, "write": true, "reply": true, "respond": true}

// unitWords name a system of units.
var unitWords = map[string]string{"celsius": "celsius", "fahrenheit": "fahrenheit", "miles": "imperial",
	"pounds": "imperial", "feet": "imperial", "inches": "imperial", "kilometers": "metric", "kilometres": "metric",
	"kilograms": "metric", "kilos": "metric", "meters": "metric", "metres": "metric"}

// commCues reads a communication preference from a sentence addressed to the assistant
// that no other rule read ("Can you stop rambling and get to the point?", "Give
// temperatures in Celsius", "Feel free to use emojis", "User prefers concise, direct
// answers"). It stores only what a cue names outright, and nothing from a sentence
// that negates or asks.
func (p *parser) commCues(i int) {
	addressed := false
	for k := i; k < len(p.t); k++ {
		switch w := p.w(k); {
		case addressCues[w]:
			addressed = true
		case w == "not" || w == "never" || w == "if" || w == "wish":
			if !(w == "not" && (p.w(k-1) == "i'm" || p.w(k-1) == "am")) { // "I'm not technical" states a reason
				return
			}
		}
	}
	if !addressed {
		return
	}
	seen := map[string]bool{}
	emit := func(key, value, rule string) {
		if !seen[key] {
			seen[key] = true
			p.emitComm(key, value, rule, true)
		}
	}
	for k := i; k < len(p.t); k++ {
		w := p.w(k)
		switch {
		case p.at(k, "to", "the", "point") > 0 || w == "rambling" || w == "fluff" || w == "waffle":
			emit(factbase.KeyLength, "short", "cue: to the point")
		case w == "simply" || p.at(k, "simple", "terms") > 0:
			emit(factbase.KeyLength, "simple", "cue: simply")
		case w == "be" || w == "sound":
			if t, e := p.phrase(k+1, toneWords); e > k+1 {
				emit(factbase.KeyTone, t, "cue: be <tone>")
			}
		case w == "prefers" || w == "prefer" || w == "wants" || w == "likes":
			for n := k + 1; n < len(p.t) && n <= k+6; n++ {
				if l, e := p.phrase(n, lengthWords); e > n {
					emit(factbase.KeyLength, l, "cue: prefers <length>")
				}
				if t, e := p.phrase(n, toneWords); e > n {
					emit(factbase.KeyTone, t, "cue: prefers <tone>")
				}
			}
		case unitWords[w] != "" && (k > i && (p.w(k-1) == "in" || p.w(k-1) == "use" || p.w(k-1) == "and")):
			emit(factbase.KeyUnits, unitWords[w], "cue: units")
		case w == "use" || w == "include" || w == "as" || w == "with":
			if f, e := p.formatAt(k + 1); e > k+1 {
				if f[0] == factbase.KeyUnits || f[0] == factbase.KeyEmoji || f[0] == factbase.KeyFormat {
					emit(f[0], f[1], "cue: use <format>")
				}
			}
		}
	}
}

// proficiency words after a language say how well one speaks it.
var proficiency = map[string]bool{"fluently": true, "fluent": true, "well": true, "natively": true,
	"badly": true, "poorly": true, "a": true, "some": true}
