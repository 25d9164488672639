package sheet

import (
	"time"

	"github.com/factbase/factbase"
)

// Candidate is a fact offered to the sheet: the fields of factbase.Fact that scoring and
// assembly read, plus the times the fact was referenced.
type Candidate struct {
	FactID      string
	Category    factbase.Category
	Text        string // natural-language form; "key: value" is used when it is blank
	Key, Value  string
	Sensitivity factbase.Sensitivity
	// Current must be true for the fact to be eligible (the zero value is not).
	Current    bool
	RecordedAt time.Time
	// References are the times the fact was extracted or referenced, in any order.
	// Empty means one reference at RecordedAt.
	References []time.Time
	// Counts, when not nil, replaces References with the references already counted
	// per decay bucket at the time of assembly: Counts[i] references fell into
	// Config.Buckets[i] (a store can count them without loading each one; see
	// Cutoffs). Last is then the most recent reference. Counts that add up to 0 mean no
	// reference: one at RecordedAt. Negative counts count as 0; counts beyond the
	// table's length are ignored.
	Counts []int
	Last   time.Time
}

// Cutoffs returns the instants that classify reference times into the decay buckets
// bs at now, for a store that counts references itself: a reference at t falls into
// bucket i for the first i with t strictly after cuts[i], or into the last bucket when
// there is none. len(cuts) is len(bs) - 1 (0 for an empty table). Counting, for each
// i, the references strictly after cuts[i] gives cumulative counts; BucketCounts
// turns them into Candidate.Counts.
func Cutoffs(now time.Time, bs []Bucket) []time.Time {
	if len(bs) == 0 {
		return nil
	}
	cuts := make([]time.Time, len(bs)-1)
	for i := range cuts {
		cuts[i] = now.Add(-bs[i].Below)
	}
	return cuts
}

// BucketCounts turns cumulative counts into per-bucket counts for Candidate.Counts:
// newer[i] is the number of references strictly after Cutoffs(...)[i] and total the
// number of all references, so that bucket 0 holds newer[0], bucket i holds
// newer[i] - newer[i-1], and the last bucket holds total - newer[len(newer)-1]. It
// returns len(newer) + 1 counts, written over newer's backing array when it has room
// (the caller must not use newer afterwards).
func BucketCounts(newer []int, total int) []int {
	out := append(newer, total)
	prev := 0
	for i, n := range out {
		out[i], prev = n-prev, n
	}
	return out
}

// BucketCount is one line of a score explanation: how many references fell into a
// decay bucket and what they earned.
type BucketCount struct {
	Label    string
	Count    int
	Points   float64 // per reference
	Subtotal float64 // Count × Points
}

// The values of Explain.Included: the assembly step that took an entry.
const (
	IncludedMinimum   = "minimum"    // step (a): the category's guaranteed minimum
	IncludedWithinCap = "within cap" // step (b): best remaining, category under its cap
	IncludedFill      = "fill"       // step (c): best remaining regardless of caps
)

// Explain says how a score was computed and why an entry is on the sheet.
type Explain struct {
	Weight     float64 // the category weight
	References int     // references counted (1 when Implicit)
	// Implicit is true when the fact had no reference and was counted once at its
	// recorded time.
	Implicit bool
	// Buckets lists the decay buckets that received references, in table order.
	Buckets        []BucketCount
	ReferenceScore float64 // sum of the subtotals
	// Included is IncludedMinimum, IncludedWithinCap or IncludedFill; empty from Score.
	Included string
}

// Score returns c's score at now and its explanation: the category weight times the sum
// of the decay points of c's references (see the package documentation). A category
// without a weight in cfg scores 0. Score does not check cfg (call Config.Validate);
// with an empty decay table every score is 0.
func Score(c Candidate, now time.Time, cfg Config) (float64, Explain) {
	counts := make([]int, len(cfg.Buckets))
	w := cfg.Weights[c.Category]
	var cuts cutoffs
	if len(cfg.Buckets) > 0 {
		cuts = newCutoffs(now, cfg.Buckets)
	}
	score, ref, _ := reckon(&c, cuts, cfg.Buckets, w, counts)
	n := refCount(&c)
	ex := Explain{
		Weight:         w,
		References:     n,
		Implicit:       n == 0,
		ReferenceScore: ref,
	}
	if ex.Implicit {
		ex.References = 1
	}
	for i, n := range counts {
		if n > 0 {
			b := cfg.Buckets[i]
			ex.Buckets = append(ex.Buckets, BucketCount{Label: b.Label, Count: n, Points: b.Points, Subtotal: float64(n) * b.Points})
		}
	}
	return score, ex
}

// cutoffs classifies reference times into decay buckets. Instead of computing each
// reference's age, it compares the time with the instants now - Below of the bounded
// buckets: age < Below exactly when t is after now - Below. That is the same answer
// (a future reference is after every cut-off, so it lands in the first bucket) at a
// fraction of the cost of time.Time.Sub.
type cutoffs struct {
	cut []instant // cut[i] = now - bs[i].Below for every bucket but the last
}

// instant is a time as whole Unix seconds and nanoseconds, ordered lexicographically.
type instant struct {
	sec  int64
	nsec int64
}

func instantOf(t time.Time) instant { return instant{sec: t.Unix(), nsec: int64(t.Nanosecond())} }

func (a instant) after(b instant) bool { return a.sec > b.sec || a.sec == b.sec && a.nsec > b.nsec }

// newCutoffs prepares the classification of references at now; bs must not be empty.
func newCutoffs(now time.Time, bs []Bucket) cutoffs {
	c := cutoffs{cut: make([]instant, len(bs)-1)}
	for i := range c.cut {
		c.cut[i] = instantOf(now.Add(-bs[i].Below))
	}
	return c
}

// bucket returns the index of the first bucket whose cut-off t is after, or the last
// bucket. With bounds out of order (an invalid table) the answer is still a valid index.
func (c cutoffs) bucket(t instant) int {
	lo, hi := 0, len(c.cut)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.after(c.cut[m]) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// reckon counts c's references per bucket into counts (which it zeroes first) and
// returns the score, the reference score and the most recent reference. Summing
// count × points in bucket order makes the result independent of reference order.
func reckon(c *Candidate, cuts cutoffs, bs []Bucket, weight float64, counts []int) (score, ref float64, last time.Time) {
	clear(counts)
	if c.Counts != nil && refCount(c) > 0 {
		for i, n := range c.Counts {
			if i < len(counts) && n > 0 {
				counts[i] = n
			}
		}
		last = c.Last
	} else if c.Counts != nil || len(c.References) == 0 {
		if len(bs) > 0 {
			counts[cuts.bucket(instantOf(c.RecordedAt))]++
		}
		last = c.RecordedAt
	} else {
		best := 0
		max := instantOf(c.References[0])
		for i, t := range c.References {
			x := instantOf(t)
			if len(bs) > 0 {
				counts[cuts.bucket(x)]++
			}
			if x.after(max) {
				best, max = i, x
			}
		}
		last = c.References[best]
	}
	for i, n := range counts {
		if n > 0 {
			ref += float64(n) * bs[i].Points
		}
	}
	return weight * ref, ref, last
}

// refCount returns the number of c's references: the sum of the positive Counts when
// Counts is set, else len(References).
func refCount(c *Candidate) int {
	if c.Counts == nil {
		return len(c.References)
	}
	n := 0
	for _, k := range c.Counts {
		if k > 0 {
			n += k
		}
	}
	return n
}
