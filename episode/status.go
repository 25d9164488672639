package episode

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

// statusFiller are the words passed over between a thing and its status word.
var statusFiller = setOf("is", "was", "are", "were", "now", "status", "state", "marked",
	"as", "has", "have", "been", "be", "currently", "fully", "officially")

// statuses reads status words and the thing they refer to.
func (x *extractor) statuses() {
	s := x.s
	low := x.low
	ps := wordStarts(low, "complete", "done", "pending", "blocked", "failed")
	for _, p := range wordStarts(low, "in") {
		if p+3 < len(low) && strings.HasPrefix(low[p+3:], "progress") {
			ps = append(ps, p)
		}
	}
	slices.Sort(ps)
	for _, m := range x.matchAt(statusRe, ps) {
		i, j := m[0], m[1]
		if glued(s, i, j, "-_", "-_") || x.negated(s, i) {
			continue
		}
		word := s[i:j]
		caps := strings.ToUpper(word) == word
		// Walk back over joining marks and filler words to the thing, noting a label.
		labelled, pos := false, i
		var thing token
		for k := 0; k < 6; k++ {
			t, ok := x.prevToken(s, pos)
			if !ok {
				break
			}
			w := strings.ToLower(t.text)
			if t.kind == tokPunct || statusFiller[w] {
				labelled = labelled || w == "status" || w == "state"
				pos = t.start
				continue
			}
			thing = t
			break
		}
		f := Fact{Key: "status", Value: canonicalStatus(word), ValueType: factbase.String,
			Start: i, End: j, Rule: "status.caps", Confidence: 0.8}
		thingText, thingKey := "", ""
		if thing.kind == tokNumber && len(thing.text) <= 9 {
			if u, ok := x.prevToken(s, thing.start); ok && u.kind == tokWord && thingUnits[strings.ToLower(u.text)] {
				thingText = s[u.start:thing.end]
				thingKey = strings.ToLower(u.text) + "_" + thing.text
				f.Start = u.start
			}
		} else if t, ok := x.thingAt(s, thing); ok && thing.kind == tokWord && (caps || labelled) {
			// "Billing reconciliation job status: blocked" is the reconciliation's.
			thingText, thingKey = t.text, strings.ToLower(t.text)
			f.Start = t.start
		}
		if thingKey == "" && (caps || labelled) {
			// A status the sentence does not tie to a thing: the episode's.
			if subj, ok := x.subject(i, false); ok {
				thingText, thingKey = subj, subj
			}
		}
		switch {
		case thingKey != "":
			f.Key, f.Rule, f.Confidence = thingKey+".status", "status.thing", 0.85
			f.Text = thingText + " status is " + f.Value
		case labelled:
			f.Rule, f.Confidence = "status.labelled", 0.85
			f.Text = "status is " + f.Value
			if st := x.labelStart(s, i); st >= 0 {
				f.Start = st
			}
		case caps:
			f.Text = "status is " + f.Value
		default:
			continue
		}
		x.add(f, i, j)
	}
}

// labelStart returns the start of the word "status" or "state" among the filler before
// i, or -1.
func (x *extractor) labelStart(s string, i int) int {
	at := -1
	for k := 0; k < 6; k++ {
		t, ok := x.prevToken(s, i)
		if !ok {
			break
		}
		w := strings.ToLower(t.text)
		if t.kind != tokPunct && !statusFiller[w] {
			break
		}
		if w == "status" || w == "state" {
			at = t.start
		}
		i = t.start
	}
	return at
}

func canonicalStatus(w string) string {
	switch w = strings.ToUpper(w); w {
	case "COMPLETED", "DONE":
		return "COMPLETE"
	case "IN PROGRESS", "IN-PROGRESS":
		return "IN_PROGRESS"
	}
	return w
}

// negated reports whether one of the two words before i negates it ("not DONE",
// "not yet DONE", "isn't DONE").
func (x *extractor) negated(s string, i int) bool {
	for k := 0; k < 2; k++ {
		t, ok := x.prevToken(s, i)
		if !ok || t.kind != tokWord {
			return false
		}
		switch strings.ToLower(t.text) {
		case "not", "never", "no", "nothing":
			return true
		case "t":
			if r, _ := utf8.DecodeLastRuneInString(s[:t.start]); r == '\'' || r == '’' {
				return true
			}
		}
		i = t.start
	}
	return false
}
