package personal

import (
	"strings"

	"github.com/factbase/factbase"
)

var likeVerbs = map[string]bool{"love": true, "loves": true, "like": true, "likes": true, "enjoy": true,
	"enjoys": true, "adore": true, "adores": true, "prefer": true, "prefers": true}
var dislikeVerbs = map[string]bool{"hate": true, "hates": true, "dislike": true, "dislikes": true,
	"detest": true, "detests": true, "loathe": true, "loathes": true, "despise": true, "despises": true}
var fearWords = map[string]bool{"scared": true, "afraid": true, "terrified": true, "frightened": true}

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
	for k := i; k < e; k++ {
		if answerNouns[p.w(k)] && p.w(k) != "it" && p.w(k) != "things" && p.w(k) != "them" || p.w(k) == "as" && p.formatObjectAt(k+1) {
			return i // "prefers short answers", "comparisons as tables": how to answer, not a taste
		}
	}
	if key == factbase.KeyLikes {
		if x, y, ok := p.comparison(i, e, verb); ok {
			v := x + " over " + y
			p.emitFx(*st.s, fx{key: factbase.KeyPrefers, value: v, rule: verb + " X more than Y", correction: st.corr, text: func(s string) string {
				return s + " prefers " + v
			}})
			return p.skipMarker(e)
		}
	}
	items := p.listValues(i, e)
	wordFor := map[string]string{factbase.KeyLikes: "likes", factbase.KeyDislikes: "dislikes", factbase.KeyFears: "is afraid of"}[key]
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

// comparison reads "rice more than pasta", "tea over coffee", "tea to coffee" (after
// prefer) in [i, e): what is preferred to what.
func (p *parser) comparison(i, e int, verb string) (x, y string, ok bool) {
	for k := i + 1; k < e; k++ {
		n := 0
		switch w := p.w(k); {
		case (w == "more" || w == "better" || w == "rather") && p.w(k+1) == "than":
			n = 2
		case w == "over" || w == "instead" && p.w(k+1) == "of":
			n = 1
			if w == "instead" {
				n = 2
			}
		case w == "to" && (verb == "prefer" || verb == "prefers"):
			n = 1
		}
		if n == 0 {
			continue
		}
		if k+n >= e || e-(k+n) > 4 {
			return "", "", false
		}
		return p.span(i, k), p.span(k+n, e), true
	}
	return "", "", false
}

// formatObjectAt reports whether an answer format ("tables", "bullet points") is
// named at i.
func (p *parser) formatObjectAt(i int) bool {
	_, e := p.formatAt(i)
	return e > i
}

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

var adjectiveBeforeFan = map[string]bool{"big": true, "huge": true, "massive": true, "great": true, "real": true,
	"die-hard": true, "diehard": true, "true": true, "serious": true, "major": true, "enormous": true}
