package personal

import (
	"slices"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/text"
)

// Ending is a statement that something the user said before no longer holds: "I'm
// not vegetarian anymore", "I no longer work at Globex", "I sold the Focus", "The
// dentist appointment got cancelled". It names the value in words; the planner
// retracts the user's current facts that hold it, and only those: an ending that
// matches nothing stored changes nothing.
type Ending struct {
	// Words are the value's words, lower case, without determiners ("focus").
	Words []string `json:"words"`
	// Keys, when set, are the only keys whose facts it ends ("work.employer").
	Keys []string `json:"keys,omitempty"`
	Span string   `json:"span"`
}

// plannedKeys are the keys of what can be cancelled: plans, schedules and trips.
var plannedKeys = []string{factbase.KeyPlan, factbase.KeySchedule, factbase.KeyTravel}

// endingStops end an ending's value ("... anymore", "... since May").
var endingStops = map[string]bool{"anymore": true, "now": true, "because": true, "since": true, "and": true, "but": true,
	"so": true, "as": true, "after": true, "last": true, "yesterday": true, "today": true, "this": true, "any": true,
	"though": true, "either": true, "either.": true, "for": true}

// endingDeterminers are dropped from the front of an ending's value.
var endingDeterminers = map[string]bool{"a": true, "an": true, "the": true, "my": true, "our": true}

// endingUnsure marks a sentence that is not a plain statement: a hypothesis, a wish,
// a question, a possibility.
var endingUnsure = map[string]bool{"if": true, "would": true, "might": true, "maybe": true, "should": true,
	"could": true, "wish": true, "might've": true, "perhaps": true, "thinking": true, "planning": true}

// Endings returns the endings stated in msg by the user in the first person.
func Endings(msg string) []Ending { return EndingsText(text.New(msg)) }

// EndingsText is Endings reading the parse of a message.
func EndingsText(tp *text.Parse) []Ending {
	msg := tp.Msg
	toks := viewOf(tp)
	var out []Ending
	for _, s := range sentences(tp, toks) {
		var ws []string
		for _, t := range s {
			if t.kind == kPunct {
				if t.w == "?" {
					ws = nil
					break
				}
				ws = append(ws, ",")
				continue
			}
			ws = append(ws, t.w)
		}
		if len(ws) == 0 || slices.ContainsFunc(ws, func(w string) bool { return endingUnsure[w] }) {
			continue
		}
		span := strings.TrimSpace(msg[s[0].start:s[len(s)-1].end])
		if e, ok := correctionEnding(ws); ok {
			e.Span = span
			out = append(out, e)
			continue
		}
		for i := range ws {
			if e, ok := endingAt(ws, i); ok {
				e.Span = span
				out = append(out, e)
			}
		}
	}
	return out
}

// endingAt matches an ending that begins at ws[i].
func endingAt(ws []string, i int) (Ending, bool) {
	at := func(j int, words ...string) bool {
		if j+len(words) > len(ws) {
			return false
		}
		for k, w := range words {
			if ws[j+k] != w {
				return false
			}
		}
		return true
	}
	// A clause's start: the sentence's, or after a comma or a conjunction.
	if i > 0 && ws[i-1] != "," && ws[i-1] != "and" && ws[i-1] != "but" && ws[i-1] != "so" && ws[i-1] != "actually" &&
		ws[i-1] != "well" && ws[i-1] != "oh" {
		return Ending{}, false
	}
	anymore := func(j int) bool {
		return j < len(ws) && ws[j] == "anymore" || at(j, "any", "more") || at(j, "any", "longer")
	}
	value := func(j int) ([]string, int) {
		for j < len(ws) && endingDeterminers[ws[j]] {
			j++
		}
		k := j
		for k < len(ws) && ws[k] != "," && !endingStops[ws[k]] {
			k++
		}
		if k == j || k-j > 6 {
			return nil, k
		}
		return slices.Clone(ws[j:k]), k
	}
	// "I don't really speak German anymore": adverbs between the negation and the verb
	skip := func(j int) int {
		for j < len(ws) && (ws[j] == "really" || ws[j] == "actually" || ws[j] == "even" || ws[j] == "currently") {
			j++
		}
		return j
	}
	switch {
	// "Actually I'm not allergic to cats", "I'm no longer allergic to dust": an
	// allergy denied ends the one stored, said with "anymore" or not
	case at(i, "i", "am", "not") && at(skip(i+3), "allergic", "to"), at(i, "i", "am", "no", "longer", "allergic", "to"):
		j := skip(i + 3)
		if ws[i+2] == "no" {
			j = i + 5
		}
		if v, _ := value(j + 2); v != nil {
			return Ending{Words: v, Keys: []string{"allergy"}}, true
		}
	// "I outgrew my egg allergy", "I outgrew my allergy to cats"
	case at(i, "i", "outgrew"), at(i, "i", "have", "outgrown"):
		j := i + 2
		if ws[i+1] == "have" {
			j++
		}
		if v, _ := value(j); v != nil {
			if n := len(v); n > 2 && v[0] == "allergy" && v[1] == "to" {
				v = v[2:]
			} else if n > 1 && (v[n-1] == "allergy" || v[n-1] == "allergies") {
				v = v[:n-1]
			} else {
				return Ending{}, false
			}
			return Ending{Words: v, Keys: []string{"allergy"}}, true
		}
	// "I don't speak German anymore", "I don't really speak Russian"
	case at(i, "i", "do", "not") && at(skip(i+3), "speak"), at(i, "i", "no", "longer", "speak"):
		j := skip(i+3) + 1
		if ws[i+1] == "no" {
			j = i + 4
		}
		if v, _ := value(j); v != nil {
			return Ending{Words: v, Keys: []string{"languages"}}, true
		}
	// "I stopped learning Korean", "I gave up on learning Russian", "I'm not learning
	// Swedish anymore"
	case at(i, "i", "stopped", "learning"), at(i, "i", "gave", "up", "learning"), at(i, "i", "gave", "up", "on", "learning"):
		j := i + 3
		if ws[i+1] == "gave" {
			j = i + 4
			if ws[i+3] == "on" {
				j++
			}
		}
		if v, _ := value(j); v != nil {
			return Ending{Words: v, Keys: []string{"languages.learning"}}, true
		}
	case at(i, "i", "am", "not", "learning"), at(i, "i", "am", "no", "longer", "learning"):
		j := i + 4
		if ws[i+2] == "no" {
			j = i + 5
		}
		if v, k := value(j); v != nil && (anymore(k) || ws[i+2] == "no") {
			return Ending{Words: v, Keys: []string{"languages.learning"}}, true
		}
	// "I'm not vegetarian anymore", "I am no longer a smoker", "I'm not vegan any more"
	case at(i, "i", "am", "no", "longer"):
		if v, _ := value(i + 4); v != nil {
			return Ending{Words: v}, true
		}
	case at(i, "i", "am", "not"):
		if v, k := value(i + 3); v != nil && anymore(k) {
			return Ending{Words: v}, true
		}
	// "I no longer work at Globex", "I don't work for Initech anymore", "I left Globex", "I quit Globex"
	case at(i, "i", "no", "longer", "work", "at"), at(i, "i", "no", "longer", "work", "for"):
		if v, _ := value(i + 5); v != nil {
			return Ending{Words: v, Keys: []string{"work.employer"}}, true
		}
	case at(i, "i", "do", "not", "work", "at"), at(i, "i", "do", "not", "work", "for"):
		if v, k := value(i + 5); v != nil && anymore(k) {
			return Ending{Words: v, Keys: []string{"work.employer"}}, true
		}
	case at(i, "i", "left"), at(i, "i", "quit"):
		if v, _ := value(i + 2); v != nil {
			return Ending{Words: v, Keys: []string{"work.employer"}}, true
		}
	// "I don't live in Lyon anymore", "I no longer live in Lyon"
	case at(i, "i", "no", "longer", "live", "in"):
		if v, _ := value(i + 5); v != nil {
			return Ending{Words: v, Keys: []string{"home.city"}}, true
		}
	case at(i, "i", "do", "not", "live", "in"):
		if v, k := value(i + 5); v != nil && anymore(k) {
			return Ending{Words: v, Keys: []string{"home.city"}}, true
		}
	// "I sold the Focus", "I got rid of my bike", "I gave away my old piano"
	case at(i, "i", "sold"), at(i, "we", "sold"):
		if v, _ := value(i + 2); v != nil {
			return Ending{Words: v}, true
		}
	case at(i, "i", "got", "rid", "of"), at(i, "we", "got", "rid", "of"):
		if v, _ := value(i + 4); v != nil {
			return Ending{Words: v}, true
		}
	// "I cancelled the dentist appointment", "The dentist appointment was cancelled"
	case at(i, "i", "cancelled"), at(i, "i", "canceled"):
		if v, _ := value(i + 2); v != nil {
			return Ending{Words: v, Keys: plannedKeys}, true
		}
	case at(i, "my"), at(i, "the"), at(i, "our"):
		j := i + 1
		for j < len(ws) && ws[j] != "," && ws[j] != "was" && ws[j] != "is" && ws[j] != "got" && ws[j] != "has" &&
			ws[j] != "cancelled" && ws[j] != "canceled" {
			j++
		}
		// "The dentist cancelled", "My trainer canceled on me": who cancels names the plan.
		if j < len(ws) && (ws[j] == "cancelled" || ws[j] == "canceled") && j > i+1 && j-i-1 <= 3 {
			return Ending{Words: slices.Clone(ws[i+1 : j]), Keys: plannedKeys}, true
		}
		k := j
		if k < len(ws) && (ws[k] == "was" || ws[k] == "is" || ws[k] == "got") {
			k++
		} else if at(k, "has", "been") {
			k += 2
		} else {
			return Ending{}, false
		}
		if k < len(ws) && (ws[k] == "cancelled" || ws[k] == "canceled" || at(k, "called", "off") || ws[k] == "postponed" ||
			ws[k] == "off" && (k+1 == len(ws) || ws[k+1] == ",")) && j > i+1 && j-i-1 <= 6 {
			return Ending{Words: slices.Clone(ws[i+1 : j]), Keys: plannedKeys}, true
		}
	}
	return Ending{}, false
}

// correctionCues open a sentence that corrects the one before.
var correctionCues = map[string]bool{"actually": true, "sorry": true, "oops": true, "no": true, "oh": true,
	"wait": true, ",": true}

// correctionEnding matches a correction that names nothing but the two values:
// "Actually, it's Norwegian, not Danish", "Sorry, I meant almonds, not peanuts".
// The value after "not" no longer holds; the sentence says nothing about which
// fact the new value belongs to, so it is not stored. A value of digits only
// ("7, not 6") is too common a word to end anything by.
func correctionEnding(ws []string) (Ending, bool) {
	i := 0
	for i < len(ws) && correctionCues[ws[i]] {
		i++
	}
	if i == 0 || ws[0] == "," {
		return Ending{}, false
	}
	switch {
	case i+1 < len(ws) && ws[i] == "it" && ws[i+1] == "is",
		i+1 < len(ws) && ws[i] == "i" && (ws[i+1] == "meant" || ws[i+1] == "mean"):
		i += 2
	default:
		return Ending{}, false
	}
	j := i
	for j < len(ws) && ws[j] != "," && ws[j] != "not" {
		j++
	}
	if j == i || j-i > 4 {
		return Ending{}, false
	}
	if j < len(ws) && ws[j] == "," {
		j++
	}
	if j >= len(ws) || ws[j] != "not" {
		return Ending{}, false
	}
	k := j + 1
	for k < len(ws) && endingDeterminers[ws[k]] {
		k++
	}
	e := k
	for e < len(ws) && ws[e] != "," {
		e++
	}
	for r := e; r < len(ws); r++ {
		if ws[r] != "," {
			return Ending{}, false
		}
	}
	if e == k || e-k > 4 || !slices.ContainsFunc(ws[k:e], hasLetter) {
		return Ending{}, false
	}
	return Ending{Words: slices.Clone(ws[k:e])}, true
}

func hasLetter(w string) bool {
	return strings.ContainsFunc(w, func(r rune) bool { return r >= 'a' && r <= 'z' || r > 127 })
}
