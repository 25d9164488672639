package eval

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"time"
)

// System is the memory under evaluation: one fresh instance per conversation.
type System interface {
	// Ingest stores one turn said at the given time.
	Ingest(ctx context.Context, t Turn, at time.Time) error
	// Retrieve returns the dia ids of the best k hits for question, best first, each
	// at most once (a fact maps to the turn it was extracted from).
	Retrieve(ctx context.Context, question string, k int) ([]string, error)
	// Close releases the instance.
	Close() error
}

// Options configure Run.
type Options struct {
	Ks []int // default 5, 10, 25, 50
	// NewSystem makes a fresh System for a conversation.
	NewSystem func(ctx context.Context, c Conversation) (System, error)
	// Progress, if set, is called after each conversation.
	Progress func(done, total int, id string)
	// Config is echoed in the report.
	Config map[string]any
}

// Latency summarises query latencies in milliseconds.
type Latency struct {
	P50  float64 `json:"p50"`
	P95  float64 `json:"p95"`
	Mean float64 `json:"mean"`
}

// IngestStats reports ingest throughput.
type IngestStats struct {
	Turns          int     `json:"turns"`
	Seconds        float64 `json:"seconds"`
	TurnsPerSecond float64 `json:"turns_per_second"`
}

// Report is the evaluation's result. Recall maps k to a category ("1".."5"),
// "overall" (categories 1-4) or "all" (1-5) to mean recall over questions.
type Report struct {
	Recall          map[string]map[string]float64 `json:"recall"`
	Questions       map[string]int                `json:"questions"`
	LatencyMS       Latency                       `json:"latency_ms"`
	Ingest          IngestStats                   `json:"ingest"`
	DroppedEvidence int                           `json:"dropped_evidence_ids"`
	SkippedNoEvid   int                           `json:"skipped_no_evidence"`
	Conversations   int                           `json:"conversations"`
	// PerConversation holds, by conversation id, that conversation's Recall and
	// Questions alone: figures for cross-validation over conversations.
	PerConversation map[string]ConversationReport `json:"per_conversation,omitempty"`
	Config          map[string]any                `json:"config"`
	// Misses lists, per category, questions whose evidence was not all found at the
	// largest k (for error analysis).
	Misses map[string][]Miss `json:"-"`
}

// ConversationReport is one conversation's share of a Report.
type ConversationReport struct {
	Recall    map[string]map[string]float64 `json:"recall"`
	Questions map[string]int                `json:"questions"`
}

// Miss is a question whose evidence was not all retrieved.
type Miss struct {
	Conversation, Question string
	Evidence, Retrieved    []string
}

// Run evaluates every conversation and aggregates the report.
func Run(ctx context.Context, convs []Conversation, o Options) (Report, error) {
	ks := o.Ks
	if len(ks) == 0 {
		ks = []int{5, 10, 25, 50}
	}
	ks = slices.Clone(ks)
	sort.Ints(ks)
	kmax := ks[len(ks)-1]
	rep := Report{Recall: map[string]map[string]float64{}, Questions: map[string]int{}, Config: o.Config,
		Misses: map[string][]Miss{}, Conversations: len(convs), PerConversation: map[string]ConversationReport{}}
	sums := map[int]map[string]float64{}
	for _, k := range ks {
		sums[k] = map[string]float64{}
	}
	var lat []float64
	var ingestDur time.Duration
	for ci := range convs {
		c := convs[ci]
		rep.DroppedEvidence += CleanEvidence(&c)
		sys, err := o.NewSystem(ctx, c)
		if err != nil {
			return rep, fmt.Errorf("eval: %s: %w", c.ID, err)
		}
		start := time.Now()
		for _, s := range c.Sessions {
			for i, t := range s.Turns {
				// Turns of a session keep their order: a second apart from the session time.
				if err := sys.Ingest(ctx, t, s.Time.Add(time.Duration(i)*time.Second)); err != nil {
					sys.Close()
					return rep, fmt.Errorf("eval: %s: ingest %s: %w", c.ID, t.DiaID, err)
				}
				rep.Ingest.Turns++
			}
		}
		ingestDur += time.Since(start)
		cr := ConversationReport{Recall: map[string]map[string]float64{}, Questions: map[string]int{}}
		csums := map[int]map[string]float64{}
		for _, k := range ks {
			csums[k] = map[string]float64{}
		}
		for _, q := range c.QA {
			if len(q.Evidence) == 0 {
				rep.SkippedNoEvid++
				continue
			}
			t0 := time.Now()
			got, err := sys.Retrieve(ctx, q.Question, kmax)
			lat = append(lat, float64(time.Since(t0).Microseconds())/1000)
			if err != nil {
				sys.Close()
				return rep, fmt.Errorf("eval: %s: %q: %w", c.ID, q.Question, err)
			}
			cat := strconv.Itoa(q.Category)
			groups := []string{cat, "all"}
			if q.Category >= 1 && q.Category <= 4 {
				groups = append(groups, "overall")
			}
			for _, g := range groups {
				rep.Questions[g]++
				cr.Questions[g]++
			}
			for _, k := range ks {
				r := Recall(q.Evidence, got, k)
				for _, g := range groups {
					sums[k][g] += r
					csums[k][g] += r
				}
			}
			if Recall(q.Evidence, got, kmax) < 1 {
				rep.Misses[cat] = append(rep.Misses[cat], Miss{c.ID, q.Question, q.Evidence, got})
			}
		}
		for _, k := range ks {
			m := map[string]float64{}
			for g, s := range csums[k] {
				m[g] = s / float64(cr.Questions[g])
			}
			cr.Recall[strconv.Itoa(k)] = m
		}
		rep.PerConversation[c.ID] = cr
		if err := sys.Close(); err != nil {
			return rep, err
		}
		if o.Progress != nil {
			o.Progress(ci+1, len(convs), c.ID)
		}
	}
	for _, k := range ks {
		m := map[string]float64{}
		for g, s := range sums[k] {
			m[g] = s / float64(rep.Questions[g])
		}
		rep.Recall[strconv.Itoa(k)] = m
	}
	rep.Ingest.Seconds = ingestDur.Seconds()
	if rep.Ingest.Seconds > 0 {
		rep.Ingest.TurnsPerSecond = float64(rep.Ingest.Turns) / rep.Ingest.Seconds
	}
	rep.LatencyMS = summarize(lat)
	return rep, nil
}

func summarize(ms []float64) Latency {
	if len(ms) == 0 {
		return Latency{}
	}
	s := slices.Clone(ms)
	sort.Float64s(s)
	var sum float64
	for _, v := range s {
		sum += v
	}
	pct := func(p float64) float64 { return s[min(len(s)-1, int(p*float64(len(s))))] }
	return Latency{P50: pct(0.50), P95: pct(0.95), Mean: sum / float64(len(s))}
}
