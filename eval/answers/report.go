package answers

import (
	"fmt"
	"strings"
	"text/tabwriter"
)

// Result is one question asked: the answer it got and its grade.
type Result struct {
	Question Question
	Answer   Answer
	Verdict  Verdict
	Error    string // the ask entry point's error; the answer is then wrong
	// Gaps are the expected items the scenario did not store (see gaps).
	Gaps []string
}

// Report is the score of one corpus set.
type Report struct {
	Set       string `json:"set"`
	Scenarios int    `json:"scenarios"`
	Questions int    `json:"questions"`
	// Kinds are the scores per question kind, in the order of Kinds; Total sums them.
	Kinds []KindScore `json:"kinds"`
	Total KindScore   `json:"total"`
	// Abstain counts the questions that expect "I don't know" and those that got it.
	Abstain Check `json:"abstain"`
	// YesNo counts the yes/no questions and those answered with the right yes or no.
	YesNo Check `json:"yes_no"`
	// Invented counts the questions whose answer has an invented item: any item when
	// "I don't know" was expected, else an item no stored value grounds.
	Invented int `json:"invented"`
	// OverAbstained counts the answerable questions answered "I don't know".
	OverAbstained int `json:"over_abstained"`
	// SetupGaps lists expected items their scenario did not store; a corpus keeps it
	// empty.
	SetupGaps []string `json:"setup_gaps,omitempty"`
	Errors    []string `json:"errors,omitempty"`
	// Failures are the questions not answered right, for error analysis.
	Failures []Failure `json:"failures"`
	// Setups are the scenarios as built: replies, errors and what was stored.
	Setups []Setup `json:"setups"`
}

// KindScore counts a kind's questions.
type KindScore struct {
	Kind     string  `json:"kind"`
	Count    int     `json:"count"`
	Correct  int     `json:"correct"`
	Accuracy float64 `json:"accuracy"` // Correct / Count; 0 when Count is 0
}

// Check counts a property checked on some questions.
type Check struct {
	Right    int     `json:"right"`
	Checked  int     `json:"checked"`
	Accuracy float64 `json:"accuracy"` // Right / Checked; 0 when nothing was checked
}

func (c *Check) add(right bool) {
	c.Checked++
	if right {
		c.Right++
	}
	c.Accuracy = ratio(c.Right, c.Checked)
}

// Failure is a question not answered right.
type Failure struct {
	Scenario string   `json:"scenario"`
	Line     int      `json:"line"`
	Kind     string   `json:"kind"`
	Question string   `json:"question"`
	Asked    string   `json:"asked_at"`
	Expected string   `json:"expected"`
	Reply    string   `json:"reply"`
	Items    []string `json:"items,omitempty"`
	Verdict  Verdict  `json:"verdict"`
	Error    string   `json:"error,omitempty"`
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Expectation renders what q expects, for a report.
func (q Question) Expectation() string {
	if q.Abstain {
		return "I don't know"
	}
	var parts []string
	if q.Yes != nil {
		parts = append(parts, yesWord(*q.Yes))
	}
	if q.Count != nil {
		parts = append(parts, fmt.Sprintf("count %d", *q.Count))
	}
	for _, e := range q.Items {
		parts = append(parts, e.String())
	}
	for _, e := range q.Not {
		parts = append(parts, "not "+e.String())
	}
	return strings.Join(parts, "; ")
}

// Score scores the results of a set's questions.
func Score(set string, results []Result) Report {
	rep := Report{Set: set, Questions: len(results), Failures: []Failure{}}
	kinds := map[string]*KindScore{}
	for _, k := range Kinds {
		kinds[k] = &KindScore{Kind: k}
	}
	for _, r := range results {
		q, v := r.Question, r.Verdict
		k := kinds[q.Kind]
		k.Count++
		if v.Correct {
			k.Correct++
		}
		if q.Abstain {
			rep.Abstain.add(v.Correct)
		} else if v.Abstained {
			rep.OverAbstained++
		}
		if q.Yes != nil {
			yes, ok := r.Answer.YesNo()
			rep.YesNo.add(ok && yes == *q.Yes)
		}
		if len(v.Invented) > 0 {
			rep.Invented++
		}
		for _, g := range r.Gaps {
			rep.SetupGaps = append(rep.SetupGaps, fmt.Sprintf("line %d %q: %s", q.Line, q.Text, g))
		}
		if r.Error != "" {
			rep.Errors = append(rep.Errors, fmt.Sprintf("line %d %q: %s", q.Line, q.Text, r.Error))
		}
		if !v.Correct {
			f := Failure{Scenario: q.Scenario, Line: q.Line, Kind: q.Kind, Question: q.Text,
				Asked: q.Now.UTC().Format("2006-01-02 15:04 Mon"), Expected: q.Expectation(), Reply: r.Answer.Reply,
				Verdict: v, Error: r.Error}
			for _, it := range r.Answer.Items {
				s := it.Value
				if it.Rank > 0 {
					s = fmt.Sprintf("#%d %s", it.Rank, s)
				}
				f.Items = append(f.Items, s)
			}
			rep.Failures = append(rep.Failures, f)
		}
	}
	rep.Total.Kind = "total"
	for _, name := range Kinds {
		k := kinds[name]
		k.Accuracy = ratio(k.Correct, k.Count)
		rep.Kinds = append(rep.Kinds, *k)
		rep.Total.Count += k.Count
		rep.Total.Correct += k.Correct
	}
	rep.Total.Accuracy = ratio(rep.Total.Correct, rep.Total.Count)
	return rep
}

// Table renders the report as a text table: one row per kind and the total, then the
// other counts and up to examples failures.
func (r Report) Table(examples int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d scenarios, %d questions\n", r.Set, r.Scenarios, r.Questions)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kind\tquestions\tcorrect\taccuracy\t")
	for _, k := range append(append([]KindScore{}, r.Kinds...), r.Total) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t\n", k.Kind, k.Count, k.Correct, k.Accuracy)
	}
	tw.Flush()
	fmt.Fprintf(&b, "abstention: %d of %d (%.3f); invented answers: %d; answerable answered \"I don't know\": %d\n",
		r.Abstain.Right, r.Abstain.Checked, r.Abstain.Accuracy, r.Invented, r.OverAbstained)
	fmt.Fprintf(&b, "yes/no right: %d of %d; setup gaps: %d; errors: %d\n", r.YesNo.Right, r.YesNo.Checked,
		len(r.SetupGaps), len(r.Errors))
	for i, f := range r.Failures {
		if i == examples {
			break
		}
		fmt.Fprintf(&b, "  %d %s %q -> %q (want %s)\n", f.Line, f.Kind, f.Question, f.Reply, f.Expected)
	}
	return b.String()
}
