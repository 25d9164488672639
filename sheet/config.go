package sheet

import (
	"math"
	"slices"
	"time"

	"github.com/factbase/factbase"
)

// Bucket is one row of the decay table: a reference younger than Below earns Points.
// The last bucket of a table has Below 0 and takes every older reference.
type Bucket struct {
	Label  string        // shown in explanations, e.g. "<1h"
	Below  time.Duration // exclusive upper bound of the age; 0 on the last bucket
	Points float64       // points per reference
}

// Config holds the tunables of scoring and assembly. Start from DefaultConfig; every map
// must have an entry for each of factbase.Categories and nothing else.
type Config struct {
	// Weights multiplies a fact's reference score. Default core 10, technical 6,
	// project 4, transient 2.
	Weights map[factbase.Category]float64
	// Buckets is the decay table, youngest first. Default DefaultBuckets().
	Buckets []Bucket
	// Min is each category's guaranteed minimum. Default core 5, technical 3,
	// project 3, transient 20.
	Min map[factbase.Category]int
	// Max is each category's cap in step (b). Default core 30, technical 25,
	// project 25, transient 40.
	Max map[factbase.Category]int
	// Size is the most entries a sheet holds. Default 100.
	Size int
	// Privacy drops facts of Sensitivity "high". Default false.
	Privacy bool
}

// DefaultBuckets returns the default decay table: < 1 h 10, < 6 h 8, < 24 h 6,
// < 3 days 4, < 7 days 3, < 14 days 2, < 30 days 1, older 0.5.
func DefaultBuckets() []Bucket {
	const day = 24 * time.Hour
	return []Bucket{
		{Label: "<1h", Below: time.Hour, Points: 10},
		{Label: "<6h", Below: 6 * time.Hour, Points: 8},
		{Label: "<24h", Below: day, Points: 6},
		{Label: "<3d", Below: 3 * day, Points: 4},
		{Label: "<7d", Below: 7 * day, Points: 3},
		{Label: "<14d", Below: 14 * day, Points: 2},
		{Label: "<30d", Below: 30 * day, Points: 1},
		{Label: ">=30d", Below: 0, Points: 0.5},
	}
}

// DefaultConfig returns the default configuration. Each call returns fresh maps and
// slices, so the caller may modify them.
func DefaultConfig() Config {
	return Config{
		Weights: map[factbase.Category]float64{
			factbase.Core: 10, factbase.Technical: 6, factbase.Project: 4, factbase.Transient: 2,
		},
		Buckets: DefaultBuckets(),
		Min: map[factbase.Category]int{
			factbase.Core: 5, factbase.Technical: 3, factbase.Project: 3, factbase.Transient: 20,
		},
		Max: map[factbase.Category]int{
			factbase.Core: 30, factbase.Technical: 25, factbase.Project: 25, factbase.Transient: 40,
		},
		Size: 100,
	}
}

// Validate reports the first problem with c as an EINVALID error: a size below 1, a
// missing, unknown, negative or non-finite weight, a missing, unknown or negative
// minimum or cap, a minimum above its cap, minimums that add up to more than the size,
// or a decay table that is empty, has a blank or repeated label, negative or
// non-finite points, bounds that are not positive and strictly increasing, or a last
// bucket whose Below is not 0.
func (c Config) Validate() error {
	if c.Size < 1 {
		return factbase.Errorf(factbase.EINVALID, "sheet config: size %d is below 1", c.Size)
	}
	for _, m := range []struct {
		what string
		keys []factbase.Category
	}{{"weight", keysOf(c.Weights)}, {"minimum", keysOf(c.Min)}, {"cap", keysOf(c.Max)}} {
		if err := checkKeys(m.what, m.keys); err != nil {
			return err
		}
	}
	sum := 0
	for _, cat := range factbase.Categories {
		w := c.Weights[cat]
		if math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
			return factbase.Errorf(factbase.EINVALID, "sheet config: weight of %s is %v; it must be a finite number >= 0", cat, w)
		}
		lo, hi := c.Min[cat], c.Max[cat]
		if lo < 0 {
			return factbase.Errorf(factbase.EINVALID, "sheet config: minimum of %s is %d; it must be >= 0", cat, lo)
		}
		if hi < 0 {
			return factbase.Errorf(factbase.EINVALID, "sheet config: cap of %s is %d; it must be >= 0", cat, hi)
		}
		if lo > hi {
			return factbase.Errorf(factbase.EINVALID, "sheet config: minimum of %s (%d) is above its cap (%d)", cat, lo, hi)
		}
		if lo > c.Size-sum {
			return factbase.Errorf(factbase.EINVALID, "sheet config: the minimums add up to more than the size %d", c.Size)
		}
		sum += lo
	}
	return validateBuckets(c.Buckets)
}

func validateBuckets(bs []Bucket) error {
	if len(bs) == 0 {
		return factbase.Errorf(factbase.EINVALID, "sheet config: the decay table is empty")
	}
	seen := make(map[string]bool, len(bs))
	for i, b := range bs {
		if b.Label == "" {
			return factbase.Errorf(factbase.EINVALID, "sheet config: decay bucket %d has no label", i)
		}
		if seen[b.Label] {
			return factbase.Errorf(factbase.EINVALID, "sheet config: decay bucket label %q is repeated", b.Label)
		}
		seen[b.Label] = true
		if math.IsNaN(b.Points) || math.IsInf(b.Points, 0) || b.Points < 0 {
			return factbase.Errorf(factbase.EINVALID, "sheet config: decay bucket %q has points %v; they must be a finite number >= 0", b.Label, b.Points)
		}
		last := i == len(bs)-1
		switch {
		case last && b.Below != 0:
			return factbase.Errorf(factbase.EINVALID, "sheet config: the last decay bucket %q must have Below 0 (it takes every older reference)", b.Label)
		case !last && b.Below <= 0:
			return factbase.Errorf(factbase.EINVALID, "sheet config: decay bucket %q has bound %v; only the last bucket may have Below <= 0", b.Label, b.Below)
		case !last && i > 0 && b.Below <= bs[i-1].Below:
			return factbase.Errorf(factbase.EINVALID, "sheet config: decay bucket %q bound %v is not above the previous bound %v", b.Label, b.Below, bs[i-1].Below)
		}
	}
	return nil
}

// checkKeys reports a category missing from a map's keys, or a key that is not a
// category.
func checkKeys(what string, keys []factbase.Category) error {
	slices.Sort(keys)
	for _, k := range keys {
		if catIndex(k) < 0 {
			return factbase.Errorf(factbase.EINVALID, "sheet config: %s given for unknown category %q", what, k)
		}
	}
	for _, cat := range factbase.Categories {
		if !slices.Contains(keys, cat) {
			return factbase.Errorf(factbase.EINVALID, "sheet config: %s of %s is missing", what, cat)
		}
	}
	return nil
}

func keysOf[V any](m map[factbase.Category]V) []factbase.Category {
	ks := make([]factbase.Category, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// catIndex returns the position of cat in factbase.Categories, or -1.
func catIndex(cat factbase.Category) int {
	switch cat {
	case factbase.Core:
		return 0
	case factbase.Technical:
		return 1
	case factbase.Project:
		return 2
	case factbase.Transient:
		return 3
	}
	return -1
}
