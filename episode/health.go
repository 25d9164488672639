package episode

import (
	"strings"

	"github.com/factbase/factbase"
)

// healthStates maps the words of a health state to its canonical value.
var healthStates = map[string]string{"healthy": "HEALTHY", "unhealthy": "UNHEALTHY",
	"degraded": "DEGRADED", "down": "DOWN"}

// healthFollowers may come after a health word; any other word makes it an adjective
// ("degraded performance", "healthy replicas") or a motion ("down to 3 nodes").
var healthFollowers = setOf("for", "since", "after", "at", "in", "on", "again", "and",
	"until", "during", "so", "now", "overall", "with", "from", "but", "while", "as",
	"throughout", "today", "since", "")

// measureThings go up and down without being down: "latency down 20%".
var measureThings = setOf("latency", "cost", "costs", "errors", "error", "traffic", "usage",
	"rate", "load", "cpu", "memory", "lag", "throughput", "spend", "p50", "p95", "p99",
	"volume", "time", "count", "scaled", "shut", "slowed", "calmed", "wound", "broke",
	"health", "count", "number")

// healths reads health states: "payments-api is degraded", "Cluster degraded for 47
// minutes", "kafka-3 went down", "Backups healthy." A state of counted things ("9
// nodes healthy") is a count, not a state.
func (x *extractor) healths() {
	s := x.s
	low := x.low
	for _, i := range wordStarts(low, "healthy", "unhealthy", "degraded", "down") {
		j := i
		for j < len(low) && 'a' <= low[j] && low[j] <= 'z' {
			j++
		}
		word := low[i:j]
		value, ok := healthStates[word]
		if !ok || gluedAfter(s, j, "-_") || x.negated(s, i) {
			continue
		}
		if next := nextWord(low, j); !healthFollowers[next] || next == "" && !endsPhrase(low, j) {
			continue
		}
		if word == "down" {
			// "went down", "is down", "login down": a thing that stops, never a
			// measure that drops.
			t, ok := x.prevToken(s, i)
			if !ok || t.kind != tokWord || len(t.text) < 2 || measureThings[strings.ToLower(t.text)] || nextWord(low, j) == "from" {
				continue
			}
		}
		thing, named := x.thingBefore(s, i)
		if named && (measureThings[strings.ToLower(thing.text)] || x.countedBefore(s, thing.start)) {
			continue
		}
		if !named {
			if t, ok := x.prevToken(s, i); ok && t.kind == tokNumber {
				continue
			}
		}
		f := Fact{Value: value, ValueType: factbase.String, Start: i, End: j,
			Rule: "health.named", Confidence: 0.85}
		if named {
			f.Key = strings.ToLower(thing.text) + ".health"
			f.Text = thing.text + " is " + strings.ToLower(value)
			f.Start = thing.start
		} else if subj, ok := x.subject(i, false); ok {
			f.Key, f.Rule, f.Confidence = subj+".health", "health.subject", 0.75
			f.Text = subj + " is " + strings.ToLower(value)
		} else {
			continue
		}
		x.add(f, i, j)
	}
}

// endsPhrase reports whether the text at j, after white space, ends a phrase: the
// end, or a mark other than a letter or digit.
func endsPhrase(low string, j int) bool {
	for j < len(low) && (low[j] == ' ' || low[j] == '\t') {
		j++
	}
	return j == len(low) || !(isDigit(low[j]) || 'a' <= low[j] && low[j] <= 'z' || low[j] >= 0x80)
}
