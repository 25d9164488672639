package sheet

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

var now = time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)

const day = 24 * time.Hour

func TestScoreBucketBoundaries(t *testing.T) {
	tests := []struct {
		name   string
		age    time.Duration
		label  string
		points float64
	}{
		{name: "future counts as age 0", age: -time.Hour, label: "<1h", points: 10},
		{name: "zero", age: 0, label: "<1h", points: 10},
		{name: "59m59s", age: time.Hour - time.Second, label: "<1h", points: 10},
		{name: "1h minus 1ns", age: time.Hour - 1, label: "<1h", points: 10},
		{name: "exactly 1h", age: time.Hour, label: "<6h", points: 8},
		{name: "5h59m59s", age: 6*time.Hour - time.Second, label: "<6h", points: 8},
		{name: "exactly 6h", age: 6 * time.Hour, label: "<24h", points: 6},
		{name: "23h59m59s", age: day - time.Second, label: "<24h", points: 6},
		{name: "exactly 24h", age: day, label: "<3d", points: 4},
		{name: "3d minus 1s", age: 3*day - time.Second, label: "<3d", points: 4},
		{name: "exactly 3d", age: 3 * day, label: "<7d", points: 3},
		{name: "7d minus 1s", age: 7*day - time.Second, label: "<7d", points: 3},
		{name: "exactly 7d", age: 7 * day, label: "<14d", points: 2},
		{name: "14d minus 1s", age: 14*day - time.Second, label: "<14d", points: 2},
		{name: "exactly 14d", age: 14 * day, label: "<30d", points: 1},
		{name: "30d minus 1s", age: 30*day - time.Second, label: "<30d", points: 1},
		{name: "exactly 30d", age: 30 * day, label: ">=30d", points: 0.5},
		{name: "ten years", age: 3650 * day, label: ">=30d", points: 0.5},
	}
	cfg := DefaultConfig()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Candidate{FactID: "f", Category: factbase.Core, Current: true, RecordedAt: now.Add(-400 * day),
				References: []time.Time{now.Add(-tc.age)}}
			got, ex := Score(c, now, cfg)
			if want := 10 * tc.points; got != want {
				t.Errorf("Score(age %v) = %v, want %v", tc.age, got, want)
			}
			wantB := []BucketCount{{Label: tc.label, Count: 1, Points: tc.points, Subtotal: tc.points}}
			if !reflect.DeepEqual(ex.Buckets, wantB) {
				t.Errorf("Score(age %v) buckets = %+v, want %+v", tc.age, ex.Buckets, wantB)
			}
		})
	}
}

func TestScore(t *testing.T) {
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	tests := []struct {
		name string
		c    Candidate
		want float64
		ex   Explain
	}{
		{
			name: "no reference counts once at recorded time",
			c:    Candidate{Category: factbase.Technical, RecordedAt: ago(2 * time.Hour)},
			want: 6 * 8,
			ex: Explain{Weight: 6, References: 1, Implicit: true, ReferenceScore: 8,
				Buckets: []BucketCount{{Label: "<6h", Count: 1, Points: 8, Subtotal: 8}}},
		},
		{
			name: "references aggregated per bucket in table order, recorded time ignored",
			c: Candidate{Category: factbase.Project, RecordedAt: ago(time.Minute), References: []time.Time{
				ago(40 * day), ago(10 * time.Minute), ago(50 * day), ago(20 * time.Minute), ago(2 * day), ago(time.Minute),
			}},
			// 3 × 10 + 1 × 4 + 2 × 0.5 = 35; × 4 = 140.
			want: 140,
			ex: Explain{Weight: 4, References: 6, ReferenceScore: 35, Buckets: []BucketCount{
				{Label: "<1h", Count: 3, Points: 10, Subtotal: 30},
				{Label: "<3d", Count: 1, Points: 4, Subtotal: 4},
				{Label: ">=30d", Count: 2, Points: 0.5, Subtotal: 1},
			}},
		},
		{
			name: "transient weight",
			c:    Candidate{Category: factbase.Transient, References: []time.Time{ago(8 * day)}},
			want: 2 * 2,
			ex: Explain{Weight: 2, References: 1, ReferenceScore: 2,
				Buckets: []BucketCount{{Label: "<14d", Count: 1, Points: 2, Subtotal: 2}}},
		},
		{
			name: "unknown category weighs 0",
			c:    Candidate{Category: "misc", References: []time.Time{ago(0)}},
			want: 0,
			ex: Explain{Weight: 0, References: 1, ReferenceScore: 10,
				Buckets: []BucketCount{{Label: "<1h", Count: 1, Points: 10, Subtotal: 10}}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ex := Score(tc.c, now, DefaultConfig())
			if got != tc.want {
				t.Errorf("Score = %v, want %v", got, tc.want)
			}
			if !reflect.DeepEqual(ex, tc.ex) {
				t.Errorf("Score explain = %+v, want %+v", ex, tc.ex)
			}
		})
	}
}

func TestScoreEmptyTable(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Buckets = nil
	got, ex := Score(Candidate{Category: factbase.Core, References: []time.Time{now}}, now, cfg)
	if got != 0 || len(ex.Buckets) != 0 {
		t.Errorf("Score with empty table = %v, %+v, want 0 and no buckets", got, ex.Buckets)
	}
}

func TestScoreOrderIndependent(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Buckets[0].Points = 0.1 // not exact in binary: summing in arrival order would drift
	refs := []time.Time{now, now.Add(-2 * time.Hour), now, now.Add(-40 * day), now, now.Add(-time.Minute)}
	rev := make([]time.Time, len(refs))
	for i, r := range refs {
		rev[len(refs)-1-i] = r
	}
	a, _ := Score(Candidate{Category: factbase.Core, References: refs}, now, cfg)
	b, _ := Score(Candidate{Category: factbase.Core, References: rev}, now, cfg)
	if a != b {
		t.Errorf("Score depends on reference order: %v vs %v", a, b)
	}
}

func TestCategoryIndex(t *testing.T) {
	for i, c := range factbase.Categories {
		if got := catIndex(c); got != i {
			t.Errorf("catIndex(%q) = %d, want %d", c, got, i)
		}
	}
	if got := catIndex("misc"); got != -1 {
		t.Errorf("catIndex(misc) = %d, want -1", got)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		modify func(c *Config)
		want   string // substring of the error; "" for valid
	}{
		{name: "default", modify: func(c *Config) {}},
		{name: "zero weight and zero caps", modify: func(c *Config) { c.Weights[factbase.Core] = 0; c.Min[factbase.Core] = 0; c.Max[factbase.Core] = 0 }},
		{name: "size 0", modify: func(c *Config) { c.Size = 0 }, want: "size 0 is below 1"},
		{name: "negative weight", modify: func(c *Config) { c.Weights[factbase.Project] = -1 }, want: "weight of project is -1"},
		{name: "NaN weight", modify: func(c *Config) { c.Weights[factbase.Project] = math.NaN() }, want: "weight of project is NaN"},
		{name: "missing weight", modify: func(c *Config) { delete(c.Weights, factbase.Transient) }, want: "weight of transient is missing"},
		{name: "unknown weight", modify: func(c *Config) { c.Weights["misc"] = 1 }, want: `weight given for unknown category "misc"`},
		{name: "nil min", modify: func(c *Config) { c.Min = nil }, want: "minimum of core is missing"},
		{name: "unknown cap", modify: func(c *Config) { c.Max["Core"] = 1 }, want: `cap given for unknown category "Core"`},
		{name: "negative min", modify: func(c *Config) { c.Min[factbase.Technical] = -1 }, want: "minimum of technical is -1"},
		{name: "negative max", modify: func(c *Config) { c.Max[factbase.Technical] = -2 }, want: "cap of technical is -2"},
		{name: "min above max", modify: func(c *Config) { c.Min[factbase.Core] = 31 }, want: "minimum of core (31) is above its cap (30)"},
		{name: "mins above size", modify: func(c *Config) { c.Size = 30 }, want: "minimums add up to more than the size 30"},
		{name: "mins equal size", modify: func(c *Config) { c.Size = 31 }},
		{name: "no buckets", modify: func(c *Config) { c.Buckets = nil }, want: "decay table is empty"},
		{name: "blank label", modify: func(c *Config) { c.Buckets[2].Label = "" }, want: "decay bucket 2 has no label"},
		{name: "repeated label", modify: func(c *Config) { c.Buckets[2].Label = "<1h" }, want: `label "<1h" is repeated`},
		{name: "negative points", modify: func(c *Config) { c.Buckets[1].Points = -1 }, want: `"<6h" has points -1`},
		{name: "infinite points", modify: func(c *Config) { c.Buckets[1].Points = math.Inf(1) }, want: `"<6h" has points +Inf`},
		{name: "last bound not 0", modify: func(c *Config) { c.Buckets[7].Below = 1000 * day }, want: `last decay bucket ">=30d" must have Below 0`},
		{name: "zero bound before last", modify: func(c *Config) { c.Buckets[3].Below = 0 }, want: `"<3d" has bound 0s`},
		{name: "bounds not increasing", modify: func(c *Config) { c.Buckets[3].Below = time.Hour }, want: `"<3d" bound 1h0m0s is not above the previous bound 24h0m0s`},
		{name: "single catch-all bucket", modify: func(c *Config) { c.Buckets = []Bucket{{Label: "any", Points: 1}} }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			tc.modify(&cfg)
			err := cfg.Validate()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate() = %v, want an error containing %q", err, tc.want)
			}
			if got := factbase.ErrorCode(err); got != factbase.EINVALID {
				t.Errorf("ErrorCode(Validate()) = %q, want %q", got, factbase.EINVALID)
			}
		})
	}
}
