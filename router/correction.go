package router

import (
	"strings"
	"unicode"
)

// Fix is an elliptical correction of what the previous message stored: "Sorry, I
// meant Basel", "Sorry, it's 555-0112", "I meant almonds, not peanuts". It names the
// right value and, when said, the wrong one; which fact it corrects is the caller's
// to find.
type Fix struct {
	Value string // the right value, as written
	Not   string // the wrong value, as written; "" when not said
	// Strong is true when the message says it corrects ("I meant", "make that", "not
	// Y"), false for a bare "Sorry, it's X", which corrects only a value of X's shape.
	Strong bool
}

// Correction reads msg as an elliptical correction; ok is false when it is not one.
// It reads only messages that are nothing else: a lead-in ("sorry", "actually",
// "oops", "no"), a frame ("I meant", "it's", "make that") and one or two short values.
// Questions, and values holding a pronoun or a verb, are not corrections.
func Correction(msg string) (Fix, bool) {
	msg = strings.TrimSpace(msg)
	if msg == "" || strings.ContainsAny(msg, "?\n") {
		return Fix{}, false
	}
	msg = strings.TrimRight(msg, ".!… ")
	for _, p := range []string{",", ";", ":"} {
		msg = strings.ReplaceAll(msg, p, " "+p+" ")
	}
	ws := strings.Fields(msg)
	low := make([]string, len(ws))
	for i, w := range ws {
		low[i] = strings.ToLower(strings.ReplaceAll(w, "’", "'"))
	}
	at := func(i int, words ...string) int {
		for k, w := range words {
			if i+k >= len(low) || low[i+k] != w {
				return 0
			}
		}
		return len(words)
	}
	i, lead, strong, framed := 0, false, false, false
	for i < len(low) {
		switch {
		case correctionLeads[low[i]]:
			i, lead = i+1, true
		case at(i, "my", "bad") > 0:
			i, lead = i+2, true
		case low[i] == "," || low[i] == ":" || low[i] == "-":
			i++
		default:
			goto frames
		}
	}
frames:
	for _, f := range correctionFrames {
		if n := at(i, strings.Fields(f.words)...); n > 0 {
			i += n
			strong, framed = strong || f.strong, true
			if low[min(i, len(low)-1)] == "actually" {
				i++
			}
			break
		}
	}
	if !lead && !strong && at(i, "not") == 0 {
		// "It's Basel" alone may be anything; a correction says it is one.
		return Fix{}, false
	}
	rest, lrest := ws[i:], low[i:]
	var value, not []string
	switch k := indexOf(lrest, "not"); {
	case k == 0:
		// "not Y, X", "not Y but X"
		e := 1
		for e < len(lrest) && lrest[e] != "," && lrest[e] != "but" {
			e++
		}
		not, value = rest[1:e], trimLeads(rest[min(e+1, len(rest)):], lrest[min(e+1, len(lrest)):])
	case k > 0:
		// "X, not Y", "X not Y"
		e := k
		if lrest[e-1] == "," {
			e--
		}
		value, not = rest[:e], rest[k+1:]
	default:
		value = rest
	}
	fix := Fix{Value: clean(value), Not: clean(not), Strong: strong || len(not) > 0}
	if !shortValue(fix.Value) || len(not) > 0 && !shortValue(fix.Not) {
		return Fix{}, false
	}
	if !framed && !fix.Strong && !strings.ContainsAny(fix.Value, "0123456789@") {
		// "Sorry, Dad": a bare word after "sorry" is as likely an address as a value;
		// only a number or an address reads as one without a frame.
		return Fix{}, false
	}
	return fix, true
}

// correctionLeads open a correction.
var correctionLeads = map[string]bool{"sorry": true, "oops": true, "no": true, "nope": true, "wait": true,
	"actually": true, "correction": true, "typo": true, "sorry,": true, "whoops": true, "oh": false}

// correctionFrames introduce the right value; strong frames say it corrects.
var correctionFrames = []struct {
	words  string
	strong bool
}{
	{"i meant to say", true}, {"i meant", true}, {"i mean", true}, {"make that", true},
	{"that should be", true}, {"it should be", true}, {"should be", true}, {"i should have said", true},
	{"it's", false}, {"it is", false}, {"that's", false}, {"that is", false},
}

// trimLeads drops a frame after "not Y,": "not peanuts, I meant almonds".
func trimLeads(ws, low []string) []string {
	for _, f := range correctionFrames {
		fw := strings.Fields(f.words)
		if len(low) > len(fw) && strings.Join(low[:len(fw)], " ") == f.words {
			return ws[len(fw):]
		}
	}
	return ws
}

func indexOf(ws []string, w string) int {
	for i, x := range ws {
		if x == w {
			return i
		}
	}
	return -1
}

// clean joins value words and trims punctuation and a leading article.
func clean(ws []string) string {
	s := strings.Trim(strings.Join(ws, " "), " ,;:-\"'")
	for _, a := range []string{"the ", "a ", "an "} {
		if len(s) > len(a) && strings.EqualFold(s[:len(a)], a) {
			s = s[len(a):]
		}
	}
	return strings.TrimSpace(s)
}

// shortValue reports whether v can be a corrected value: one to four words, none a
// pronoun, a verb or a word that judges rather than names ("fine", "right").
func shortValue(v string) bool {
	ws := strings.Fields(v)
	if len(ws) == 0 || len(ws) > 4 {
		return false
	}
	for _, w := range ws {
		lw := strings.ToLower(strings.Trim(w, ",;:"))
		if notValues[lw] || lw == "," || lw == ";" {
			return false
		}
		if r := []rune(lw); len(r) > 0 && !unicode.IsLetter(r[0]) && !unicode.IsDigit(r[0]) && r[0] != '+' && r[0] != '(' {
			return false
		}
	}
	return true
}

// notValues are words no corrected value holds.
var notValues = map[string]bool{
	"i": true, "i'm": true, "i've": true, "you're": true, "he's": true, "she's": true, "we're": true,
	"they're": true, "that's": true, "there's": true, "you": true, "he": true, "she": true, "we": true, "they": true, "it": true, "it's": true,
	"this": true, "that": true, "me": true, "him": true, "her": true, "us": true, "them": true,
	"is": true, "are": true, "was": true, "were": true, "be": true, "am": true, "have": true, "has": true,
	"do": true, "did": true, "don't": true, "can't": true, "won't": true, "not": true, "and": true, "or": true,
	"fine": true, "ok": true, "okay": true, "right": true, "wrong": true, "good": true, "great": true,
	"true": true, "false": true, "nothing": true, "everything": true, "something": true, "anything": true,
	"all": true, "both": true, "none": true, "mine": true, "yours": true, "too": true, "so": true,
	"what": true, "who": true, "where": true, "when": true, "why": true, "how": true, "if": true,
	"yes": true, "yeah": true, "sure": true, "thanks": true, "thank": true, "lol": true, "haha": true,
	"worries": true, "problem": true, "matter": true, "mind": true, "joking": true, "kidding": true,
	"late": true, "early": true, "here": true, "there": true, "now": true, "then": true, "again": true,
}
