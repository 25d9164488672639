package answers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/eval/understanding"
)

// DefaultNow is the time of every scenario and question that sets none: a Wednesday
// morning, the same as the understanding corpus.
var DefaultNow = understanding.DefaultNow

// The question kinds of issue #24, in report order.
const (
	KindFavorites    = "favorites"    // ranked lists: ordinal, list, count, membership, least, top N
	KindUser         = "user"         // facts about the user: who/what/where/when, yes/no
	KindPeople       = "people"       // facts about a person, by name or relation
	KindGroups       = "groups"       // "anyone in my family", "my kids", "my pets"
	KindHistory      = "history"      // "before", "used to", "in 2024": as-of reads
	KindTime         = "time"         // "on Friday", "next week", birthdays coming up, trips
	KindEpisodes     = "episodes"     // engineering episodes: "what version is nexus on?"
	KindUnanswerable = "unanswerable" // nothing stored bears on it: "I don't know"
)

// Kinds lists the question kinds in report order.
var Kinds = []string{KindFavorites, KindUser, KindPeople, KindGroups, KindHistory, KindTime, KindEpisodes,
	KindUnanswerable}

// Corpus is one corpus file: its scenarios and the questions asked over them.
type Corpus struct {
	Scenarios []Scenario
	Questions []Question
}

// Scenario is what a fresh user has said or stored before the questions are asked:
// steps run in order, each at its time.
type Scenario struct {
	Name  string
	Line  int // the line of the corpus file, from 1
	Now   time.Time
	Steps []Step
}

// The kinds of setup step.
const (
	StepSay     = "say"     // a message through Say
	StepEpisode = "episode" // an episode through the ingest service
	StepOp      = "op"      // one op through the core's Apply
)

// Step is one setup step of a scenario.
type Step struct {
	Kind string    // StepSay, StepEpisode or StepOp
	Now  time.Time // the store's clock and the message's time
	// Text is the message (say) or the episode's content (episode).
	Text string
	Tags []string // an episode's tags
	// Op is the op (op); its fact's Subject is empty and About names whom it is
	// about.
	Op    factbase.Op
	About understanding.Label
}

// Question is one question asked over a scenario, with what the answer must hold.
type Question struct {
	Line     int // the line of the corpus file, from 1
	Scenario string
	Text     string
	Kind     string
	Now      time.Time // when it is asked
	// Items must each be among the answer's items (or, when it has none, in its
	// reply).
	Items []Expected
	// Not must not be among the answer's items.
	Not []Expected
	// Yes is the expected yes (true) or no (false); nil: not a yes/no question.
	Yes *bool
	// Count is the number the reply must give ("How many ...?"); nil: none.
	Count *int
	// Abstain: nothing stored bears on the question, and the answer must say it does
	// not know, with no items.
	Abstain bool
	Note    string // free text, e.g. "issue #24"
}

// Expected is an expected (or forbidden) answer item: its accepted spellings,
// compared as word sequences of understanding.NormValue, and the rank it must have
// (0: not checked).
type Expected struct {
	Values []string
	Rank   int
}

// String renders e as the corpus writes it.
func (e Expected) String() string {
	s := strings.Join(e.Values, "|")
	if e.Rank > 0 {
		s += fmt.Sprintf(" #%d", e.Rank)
	}
	return s
}

// The JSON forms of a line and a step.
type (
	lineJSON struct {
		Comment string `json:"comment"`
		// a scenario
		Scenario string            `json:"scenario"`
		Now      string            `json:"now"`
		Setup    []json.RawMessage `json:"setup"`
		// a question
		Q       string   `json:"q"`
		Kind    string   `json:"kind"`
		Items   []string `json:"items"`
		Ranks   []int    `json:"ranks"`
		Not     []string `json:"not"`
		Yes     *bool    `json:"yes"`
		Count   *int     `json:"count"`
		Abstain bool     `json:"abstain"`
		Note    string   `json:"note"`
	}
	stepJSON struct {
		Say     *string  `json:"say"`
		Episode *string  `json:"episode"`
		Tags    []string `json:"tags"`
		Op      string   `json:"op"`
		About   string   `json:"about"`
		Key     string   `json:"key"`
		Value   string   `json:"value"`
		Rank    int      `json:"rank"`
		Anchor  string   `json:"anchor"`
		Now     string   `json:"now"`
	}
)

// LineError is a malformed corpus line.
type LineError = understanding.LineError

// Load reads a corpus in JSON Lines from r; file names it in errors. A line is a
// scenario ({"scenario", "setup", ...}), a question ({"q", "scenario", "kind", ...})
// over a scenario defined above it, or only a comment; blank lines are skipped. Any
// malformed line is an error naming the file and line; Load reports the first one.
func Load(r io.Reader, file string) (Corpus, error) {
	var c Corpus
	scenarios := map[string]*Scenario{}
	asked := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		err := func() error {
			j, err := decodeLine(text)
			if err != nil {
				return err
			}
			switch {
			case j.Q == "" && j.Setup == nil && j.Scenario == "" && j.Comment != "":
				return nil
			case j.Q != "":
				q, err := parseQuestion(j, scenarios)
				if err != nil {
					return err
				}
				id := q.Scenario + "\x00" + strings.ToLower(q.Text) + "\x00" + q.Now.String()
				if prev, dup := asked[id]; dup {
					return fmt.Errorf("question %q on scenario %q already on line %d", q.Text, q.Scenario, prev)
				}
				asked[id] = line
				q.Line = line
				c.Questions = append(c.Questions, q)
			case j.Setup != nil:
				s, err := parseScenario(j)
				if err != nil {
					return err
				}
				if prev, dup := scenarios[s.Name]; dup {
					return fmt.Errorf("scenario %q already on line %d", s.Name, prev.Line)
				}
				s.Line = line
				c.Scenarios = append(c.Scenarios, s)
				scenarios[s.Name] = &c.Scenarios[len(c.Scenarios)-1]
			default:
				return errors.New(`neither a scenario ("setup") nor a question ("q")`)
			}
			return nil
		}()
		if err != nil {
			return Corpus{}, &LineError{File: file, Line: line, Err: err}
		}
	}
	if err := sc.Err(); err != nil {
		return Corpus{}, fmt.Errorf("%s: %w", file, err)
	}
	return c, nil
}

func decodeLine(text []byte) (lineJSON, error) {
	var j lineJSON
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return j, fmt.Errorf("not a corpus line: %w", err)
	}
	if dec.More() {
		return j, errors.New("more than one JSON value on the line")
	}
	return j, nil
}

func parseTime(s string, def time.Time) (time.Time, error) {
	if s == "" {
		return def, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return t, fmt.Errorf("now %q: not RFC 3339", s)
	}
	return t, nil
}

func parseScenario(j lineJSON) (Scenario, error) {
	s := Scenario{Name: strings.TrimSpace(j.Scenario)}
	switch {
	case s.Name == "":
		return s, errors.New("a scenario needs a name")
	case j.Kind != "" || j.Items != nil || j.Ranks != nil || j.Not != nil || j.Yes != nil || j.Count != nil || j.Abstain:
		return s, errors.New("a scenario line has question fields")
	case len(j.Setup) == 0:
		return s, errors.New("empty setup")
	}
	var err error
	if s.Now, err = parseTime(j.Now, DefaultNow); err != nil {
		return s, err
	}
	var last time.Time
	for i, raw := range j.Setup {
		st, err := parseStep(raw, s.Now)
		if err != nil {
			return s, fmt.Errorf("setup %d: %w", i+1, err)
		}
		if st.Now.Before(last) {
			return s, fmt.Errorf("setup %d: at %s, before the step above it (%s)", i+1,
				st.Now.Format(time.RFC3339), last.Format(time.RFC3339))
		}
		last = st.Now
		s.Steps = append(s.Steps, st)
	}
	return s, nil
}

var (
	keyRE  = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$`)
	dateRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

// parseStep reads a step: a string (a message said at the scenario's time), or an
// object with one of say, episode or op.
func parseStep(raw json.RawMessage, now time.Time) (Step, error) {
	st := Step{Kind: StepSay, Now: now}
	if err := json.Unmarshal(raw, &st.Text); err == nil {
		if strings.TrimSpace(st.Text) == "" {
			return st, errors.New("empty message")
		}
		return st, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var j stepJSON
	if err := dec.Decode(&j); err != nil {
		return st, fmt.Errorf("want a string or {say|episode|op, ...}: %w", err)
	}
	var err error
	if st.Now, err = parseTime(j.Now, now); err != nil {
		return st, err
	}
	n := 0
	for _, set := range []bool{j.Say != nil, j.Episode != nil, j.Op != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		return st, errors.New("want exactly one of say, episode and op")
	}
	opFields := j.About != "" || j.Key != "" || j.Value != "" || j.Rank != 0 || j.Anchor != ""
	switch {
	case j.Say != nil:
		if opFields || j.Tags != nil {
			return st, errors.New("a say step has only say and now")
		}
		st.Text = *j.Say
	case j.Episode != nil:
		if opFields {
			return st, errors.New("an episode step has only episode, tags and now")
		}
		st.Kind, st.Text, st.Tags = StepEpisode, *j.Episode, j.Tags
	default:
		if j.Tags != nil {
			return st, errors.New("an op step has no tags")
		}
		return parseOp(j, st)
	}
	if strings.TrimSpace(st.Text) == "" {
		return st, fmt.Errorf("empty %s", st.Kind)
	}
	return st, nil
}

func parseOp(j stepJSON, st Step) (Step, error) {
	st.Kind = StepOp
	kind := factbase.OpKind(j.Op)
	switch kind {
	case factbase.OpSet, factbase.OpRemove, factbase.OpRetract:
	default:
		return st, fmt.Errorf("op %q: want set, remove or retract", j.Op)
	}
	about := j.About
	if about == "" {
		about = "user"
	}
	l, err := understanding.ParseLabel(about)
	if err != nil {
		return st, err
	}
	if l.Assistant {
		return st, errors.New("an op is about the user or a person, not the assistant")
	}
	st.About = l
	if !keyRE.MatchString(j.Key) {
		return st, fmt.Errorf("key %q is not a dotted lower-case key", j.Key)
	}
	f := factbase.Fact{Key: j.Key, Value: strings.TrimSpace(j.Value), Rank: j.Rank}
	if kind != factbase.OpRetract && f.Value == "" {
		return st, fmt.Errorf("op %s needs a value", kind)
	}
	if f.Rank < 0 {
		return st, fmt.Errorf("rank %d: want 0 (append) or more", f.Rank)
	}
	if j.Anchor != "" {
		if !dateRE.MatchString(j.Anchor) {
			return st, fmt.Errorf("anchor %q: want YYYY-MM-DD", j.Anchor)
		}
		a, err := time.Parse(time.DateOnly, j.Anchor)
		if err != nil {
			return st, fmt.Errorf("anchor %q: %w", j.Anchor, err)
		}
		f.Anchor = &a
	}
	st.Op = factbase.Op{Kind: kind, Fact: f}
	return st, nil
}

func parseQuestion(j lineJSON, scenarios map[string]*Scenario) (Question, error) {
	q := Question{Scenario: j.Scenario, Text: strings.TrimSpace(j.Q), Kind: j.Kind, Yes: j.Yes, Count: j.Count,
		Abstain: j.Abstain, Note: j.Note}
	if j.Setup != nil {
		return q, errors.New("a question line has a setup")
	}
	s, ok := scenarios[q.Scenario]
	if !ok {
		return q, fmt.Errorf("scenario %q is not defined above", q.Scenario)
	}
	if !slices.Contains(Kinds, q.Kind) {
		return q, fmt.Errorf("kind %q: want one of %s", q.Kind, strings.Join(Kinds, ", "))
	}
	var err error
	if q.Now, err = parseTime(j.Now, s.Now); err != nil {
		return q, err
	}
	if last := s.Steps[len(s.Steps)-1].Now; q.Now.Before(last) {
		return q, fmt.Errorf("asked at %s, before the scenario's last step (%s)", q.Now.Format(time.RFC3339),
			last.Format(time.RFC3339))
	}
	if q.Abstain != (q.Kind == KindUnanswerable) {
		return q, errors.New(`"abstain": true goes with kind unanswerable, and only with it`)
	}
	if q.Abstain {
		if j.Items != nil || j.Ranks != nil || j.Not != nil || j.Yes != nil || j.Count != nil {
			return q, errors.New("an abstain question expects nothing else")
		}
		return q, nil
	}
	if len(j.Items) == 0 && q.Yes == nil && q.Count == nil {
		return q, errors.New("expects nothing: give items, yes, count or abstain")
	}
	if j.Ranks != nil && len(j.Ranks) != len(j.Items) {
		return q, fmt.Errorf("%d ranks for %d items", len(j.Ranks), len(j.Items))
	}
	if q.Count != nil && *q.Count < 0 {
		return q, fmt.Errorf("count %d is negative", *q.Count)
	}
	for i, it := range j.Items {
		e, err := parseExpected(it)
		if err != nil {
			return q, fmt.Errorf("item %d: %w", i+1, err)
		}
		if j.Ranks != nil {
			if j.Ranks[i] < 1 {
				return q, fmt.Errorf("rank %d of item %d: want a number from 1", j.Ranks[i], i+1)
			}
			e.Rank = j.Ranks[i]
		}
		q.Items = append(q.Items, e)
	}
	for i, it := range j.Not {
		e, err := parseExpected(it)
		if err != nil {
			return q, fmt.Errorf("not %d: %w", i+1, err)
		}
		q.Not = append(q.Not, e)
	}
	return q, nil
}

func parseExpected(s string) (Expected, error) {
	var e Expected
	for _, v := range strings.Split(s, "|") {
		if len(words(v)) == 0 {
			return e, fmt.Errorf("%q has an empty alternative", s)
		}
		e.Values = append(e.Values, strings.TrimSpace(v))
	}
	return e, nil
}
