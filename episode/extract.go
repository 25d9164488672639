package episode

import (
	"cmp"
	"slices"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/text"
)

// Fact is one fact found in an episode's text. Span is exactly content[Start:End], the
// text the rule matched (the name and the value, e.g. "NEXUS v2.3.1").
type Fact struct {
	Key        string             // dotted key, see the package documentation
	Value      string             // normalised value: "2.3.1", "94.2", "2024-03-15", "IN_PROGRESS"
	ValueType  factbase.ValueType // String, Number or Date
	Unit       string             // "%", "ms" or ""
	Confidence float64            // from the confidence table in the package documentation
	Span       string             // the matched text
	Start, End int                // byte offsets of Span in the content
	Rule       string             // the rule that matched, e.g. "version.named"
	Text       string             // natural-language form, at most factbase.MaxTextLen runes
}

// Extract returns the facts found in content, ordered by position (then key and value),
// with one fact per key and value: a repeat keeps the occurrence with the highest
// confidence, the earliest on a tie. It is deterministic, safe for concurrent use and
// runs in time linear in the length of content.
func Extract(content string) []Fact { return ExtractTagged(content, nil) }

// ExtractTagged is Extract for an episode with tags: a version, status or health state
// that its sentence does not name is keyed by a tag (see subject.go), so that
// unrelated episodes do not overwrite each other's "status".
func ExtractTagged(content string, tags []string) []Fact {
	return ExtractText(text.New(content), tags)
}

// ExtractText is ExtractTagged for an episode's content read into p: its words,
// sentences and clauses come from p's views (see the words options), so a caller that
// parses the content for other readers too has it scanned once.
func ExtractText(p *text.Parse, tags []string) []Fact {
	content := p.Msg
	x := extractor{s: content, low: asciiLower(content), p: p}
	for _, t := range tags {
		if t = strings.ToLower(strings.TrimSpace(t)); t != "" && !slices.Contains(x.tags, t) {
			x.tags = append(x.tags, t)
		}
	}
	// Every reader but metrics (which needs a "%") and statuses reads a number, so a
	// text without a digit skips them; the order decides which reader claims a span.
	numeric := hasDigit(content)
	if numeric {
		x.dates()
		x.upgrades()
		x.versions()
		x.latencies()
	}
	x.metrics()
	if numeric {
		x.percents()
		x.ordinals()
		x.counts()
	}
	x.statuses()
	x.healths()
	return x.result()
}

// maxValueLen and maxKeyLen bound what a fact may hold: a 70-digit "count" is noise,
// and a key must stay within factbase.ValidateKey's 200 bytes.
const (
	maxValueLen = 64
	maxKeyLen   = 200
)

// extractor holds the state of one Extract call.
type extractor struct {
	p       *text.Parse
	toks    []text.Token // the words view of p, see words
	s       string
	low     string // s with ASCII letters lower-cased: same length, same offsets
	facts   []Fact
	claimed []bool     // bytes already read as the value of a fact
	nums    []int      // see numbers
	seen    map[kv]int // index in facts of each key and value

	tags      []string          // the episode's tags, lower case
	tagAt     map[string][]int  // see tagPos
	sents     []int             // see sentence
	clauses   []int             // see clause
	lastThing string            // the thing the last named version named, lower case
	nouns     []counted         // the counts read, for counts with no noun
	countOf   map[string]string // the value of each count key read
}

// claim records [i, j) as the value of a fact, unless part of it already is one.
func (x *extractor) claim(i, j int) bool {
	if x.claimed == nil {
		x.claimed = make([]bool, len(x.s))
	}
	for k := i; k < j; k++ {
		if x.claimed[k] {
			return false
		}
	}
	for k := i; k < j; k++ {
		x.claimed[k] = true
	}
	return true
}

// add records f if its value [vs, ve) is not already another fact's value.
func (x *extractor) add(f Fact, vs, ve int) {
	if f.Start < 0 || f.End > len(x.s) || f.Start > f.End || len(f.Value) > maxValueLen ||
		len(f.Key) > maxKeyLen || !x.claim(vs, ve) {
		return
	}
	f.Span = x.s[f.Start:f.End]
	f.Text = clipRunes(capFirst(f.Text), factbase.MaxTextLen)
	// Deduplicate now, so that memory stays proportional to the distinct facts.
	k := kv{f.Key, f.Value}
	if x.seen == nil {
		x.seen = make(map[kv]int)
	}
	if i, ok := x.seen[k]; ok {
		if g := x.facts[i]; f.Confidence > g.Confidence || f.Confidence == g.Confidence && f.Start < g.Start {
			x.facts[i] = f
		}
		return
	}
	x.seen[k] = len(x.facts)
	x.facts = append(x.facts, f)
}

// kv identifies a fact for deduplication.
type kv struct{ key, value string }

func (x *extractor) result() []Fact {
	if len(x.facts) == 0 {
		return nil
	}
	out := x.facts
	slices.SortFunc(out, func(a, b Fact) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End),
			cmp.Compare(a.Key, b.Key), cmp.Compare(a.Value, b.Value))
	})
	return out
}

// asciiLower lower-cases the ASCII letters of s only, so that byte offsets into the
// result are offsets into s. The patterns are written in lower case and run on it.
func asciiLower(s string) string {
	i := 0
	for i < len(s) && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if 'A' <= b[i] && b[i] <= 'Z' {
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}
