package understanding

import (
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/factbase/factbase/normalize"
)

// Report is the score of one corpus set.
type Report struct {
	Set      string `json:"set"`
	Cases    int    `json:"cases"`
	Messages int    `json:"messages"`
	// Kinds are the scores per fact kind (see Kind), by name; Total sums them.
	Kinds []KindScore `json:"kinds"`
	Total KindScore   `json:"total"`
	// Silent counts the cases that must store nothing, and Spurious those of them
	// that stored something.
	Silent   int `json:"silent_cases"`
	Spurious int `json:"silent_cases_that_stored"`
	// Violations counts stored facts a case's "not" forbids.
	Violations int `json:"violations"`
	// SaidBy and Anchors check matched facts whose said-by or anchor the case names.
	SaidBy  Check `json:"said_by"`
	Anchors Check `json:"anchors"`
	// Proposed counts pending conflicts: values proposed, not applied.
	Proposed int `json:"proposed"`
	// Garbage counts values, among all stored (current facts and pending proposals),
	// that break the rule of issue #23 item 2; Scanned is how many were looked at.
	Garbage  int            `json:"garbage"`
	Scanned  int            `json:"scanned_values"`
	Garbages []GarbageValue `json:"garbage_values"`
	Errors   []string       `json:"errors"`
	Failures []Failure      `json:"failures"`
}

// KindScore counts a kind's matches.
type KindScore struct {
	Kind      string  `json:"kind"`
	Want      int     `json:"want"`
	Stored    int     `json:"stored"`
	TP        int     `json:"tp"`
	FP        int     `json:"fp"`
	FN        int     `json:"fn"`
	Precision float64 `json:"precision"` // TP / Stored; 1 when nothing was stored
	Recall    float64 `json:"recall"`    // TP / Want; 1 when nothing was wanted
}

// Check counts a property checked on matched facts.
type Check struct {
	Right   int `json:"right"`
	Checked int `json:"checked"`
}

// GarbageValue is a stored value that breaks the rule, and why.
type GarbageValue struct {
	Case   string `json:"case"`
	About  string `json:"about"`
	Key    string `json:"key"`
	Value  string `json:"value"`
	Reason string `json:"reason"`
}

// Failure is a case that did not come out exactly as written, for error analysis.
type Failure struct {
	Case       string   `json:"case"`
	Line       int      `json:"line"`
	Messages   []string `json:"messages"`
	Missing    []string `json:"missing,omitempty"`
	Unexpected []string `json:"unexpected,omitempty"`
	Forbidden  []string `json:"forbidden,omitempty"`
	Replies    []string `json:"replies,omitempty"`
}

func (s *KindScore) add(o KindScore) {
	s.Want += o.Want
	s.Stored += o.Stored
	s.TP += o.TP
	s.FP += o.FP
	s.FN += o.FN
}

func (s *KindScore) finish() {
	s.Precision, s.Recall = ratio(s.TP, s.Stored), ratio(s.TP, s.Want)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// Score scores the results of a set's cases.
func Score(set string, results []CaseResult) Report {
	rep := Report{Set: set, Cases: len(results)}
	kinds := map[string]*KindScore{}
	kind := func(k string) *KindScore {
		if kinds[k] == nil {
			kinds[k] = &KindScore{Kind: k}
		}
		return kinds[k]
	}
	for _, r := range results {
		c := r.Case
		rep.Messages += len(c.Turns)
		for _, e := range r.Errors {
			rep.Errors = append(rep.Errors, c.Name+": "+e)
		}
		m := Match(r.Stored, c.Facts, c.Not)
		for wi, w := range c.Facts {
			k := kind(Kind(w.Key, w.Values[0]))
			k.Want++
			si, ok := m.Pairs[wi]
			if !ok {
				k.FN++
				continue
			}
			k.TP++
			s := r.Stored[si]
			if w.SaidBy != nil {
				rep.SaidBy.Checked++
				if w.SaidBy.Matches(s.SaidBy) {
					rep.SaidBy.Right++
				}
			}
			if w.Anchor != "" {
				rep.Anchors.Checked++
				if w.Anchor == s.Anchor {
					rep.Anchors.Right++
				}
			}
		}
		for _, s := range r.Stored {
			kind(Kind(s.Key, s.Value)).Stored++
		}
		for _, si := range m.Extra {
			kind(Kind(r.Stored[si].Key, r.Stored[si].Value)).FP++
		}
		rep.Violations += len(m.Forbidden)
		if len(c.Facts) == 0 {
			rep.Silent++
			if len(r.Stored) > 0 {
				rep.Spurious++
			}
		}
		rep.Proposed += len(r.Proposed)
		for _, s := range append(append([]Stored{}, r.Stored...), r.Proposed...) {
			rep.Scanned++
			if why := normalize.Garbage(s.Value); why != "" {
				rep.Garbage++
				rep.Garbages = append(rep.Garbages, GarbageValue{Case: c.Name, About: s.About.String(), Key: s.Key,
					Value: s.Value, Reason: why})
			}
		}
		if len(m.Missing)+len(m.Extra)+len(m.Forbidden) > 0 || len(r.Errors) > 0 {
			f := Failure{Case: c.Name, Line: c.Line, Replies: r.Replies}
			for _, t := range c.Turns {
				f.Messages = append(f.Messages, t.Msg)
			}
			for _, wi := range m.Missing {
				f.Missing = append(f.Missing, c.Facts[wi].String())
			}
			for _, si := range m.Extra {
				f.Unexpected = append(f.Unexpected, r.Stored[si].String())
			}
			for _, si := range m.Forbidden {
				f.Forbidden = append(f.Forbidden, r.Stored[si].String())
			}
			rep.Failures = append(rep.Failures, f)
		}
	}
	for _, k := range kinds {
		k.finish()
		rep.Total.add(*k)
		rep.Kinds = append(rep.Kinds, *k)
	}
	sort.Slice(rep.Kinds, func(i, j int) bool { return rep.Kinds[i].Kind < rep.Kinds[j].Kind })
	rep.Total.Kind = "total"
	rep.Total.finish()
	return rep
}

// String renders s like a corpus fact.
func (s Stored) String() string {
	out := fmt.Sprintf("[%s] %s = %s", s.About, s.Key, s.Value)
	if s.Rank > 0 {
		out += fmt.Sprintf(" #%d", s.Rank)
	}
	return out
}

// Table renders the report as a text table: one row per kind and the total, then the
// other counts and up to examples garbage values.
func (r Report) Table(examples int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d cases, %d messages\n", r.Set, r.Cases, r.Messages)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kind\twant\tstored\ttp\tfp\tfn\tprecision\trecall\t")
	for _, k := range append(append([]KindScore{}, r.Kinds...), r.Total) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%.3f\t%.3f\t\n", k.Kind, k.Want, k.Stored, k.TP, k.FP, k.FN, k.Precision, k.Recall)
	}
	tw.Flush()
	fmt.Fprintf(&b, "silent cases that stored something: %d of %d; forbidden facts stored: %d\n", r.Spurious, r.Silent, r.Violations)
	fmt.Fprintf(&b, "said-by right: %d of %d; anchors right: %d of %d; pending proposals: %d; errors: %d\n",
		r.SaidBy.Right, r.SaidBy.Checked, r.Anchors.Right, r.Anchors.Checked, r.Proposed, len(r.Errors))
	fmt.Fprintf(&b, "garbage values: %d of %d stored\n", r.Garbage, r.Scanned)
	for i, g := range r.Garbages {
		if i == examples {
			break
		}
		fmt.Fprintf(&b, "  %s = %q (%s) [%s]\n", g.Key, g.Value, g.Reason, g.Case)
	}
	return b.String()
}
