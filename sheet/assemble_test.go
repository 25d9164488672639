package sheet

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

// facts returns n current facts of category cat, ids "<prefix>000".., each referenced
// once at age ago, with distinct texts.
func facts(prefix string, cat factbase.Category, n int, ago time.Duration) []Candidate {
	out := make([]Candidate, n)
	for i := range out {
		out[i] = Candidate{
			FactID: fmt.Sprintf("%s%03d", prefix, i), Category: cat, Current: true,
			Text: fmt.Sprintf("%s fact %d", cat, i), RecordedAt: now.Add(-ago), References: []time.Time{now.Add(-ago)},
		}
	}
	return out
}

func concat(parts ...[]Candidate) []Candidate {
	var out []Candidate
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// summary counts a sheet's entries per category and step, as "category/step" -> n.
func summary(s Sheet) map[string]int {
	m := map[string]int{}
	for _, e := range s.Entries {
		m[string(e.Category)+"/"+e.Explain.Included]++
	}
	return m
}

func mustAssemble(t *testing.T, cands []Candidate, cfg Config) Sheet {
	t.Helper()
	s, err := Assemble(cands, now, cfg)
	if err != nil {
		t.Fatalf("Assemble: %v", err)
	}
	if s.Count != len(s.Entries) {
		t.Fatalf("Count = %d, want len(Entries) = %d", s.Count, len(s.Entries))
	}
	return s
}

func TestAssembleSteps(t *testing.T) {
	const half = 30 * time.Minute
	tests := []struct {
		name   string
		cands  []Candidate
		counts map[factbase.Category]int
		steps  map[string]int
	}{
		{
			// All facts are referenced once 30 minutes ago, so scores are core 10 × 10 =
			// 100, project 4 × 10 = 40, transient 2 × 10 = 20.
			// (a) minimum: core 5, technical 0 (it has none), project 3, transient 20 = 28.
			// (b) within cap, best first: core 100 > project 40 > transient 20, so core
			//     grows to its cap 30 (+25 = 53), project to all its 10 (+7 = 60),
			//     transient to its cap 40 (+20 = 80); nothing under a cap is left.
			// (c) fill: 100 - 80 = 20 more, the best remaining regardless of caps: core.
			// Sheet: 100 = core 50 + project 10 + transient 40.
			name:   "100 core, 0 technical, 10 project, 500 transient",
			cands:  concat(facts("c", factbase.Core, 100, half), facts("p", factbase.Project, 10, half), facts("t", factbase.Transient, 500, half)),
			counts: map[factbase.Category]int{factbase.Core: 50, factbase.Technical: 0, factbase.Project: 10, factbase.Transient: 40},
			steps: map[string]int{
				"core/minimum": 5, "core/within cap": 25, "core/fill": 20,
				"project/minimum": 3, "project/within cap": 7,
				"transient/minimum": 20, "transient/within cap": 20,
			},
		},
		{
			// Core and technical have fewer facts than their minimums (5, 3): all of them
			// are taken in (a). Transient: 20 in (a), 20 more in (b) up to its cap 40,
			// then (c) fills the sheet with 100 - 43 = 57 more transient facts.
			name:   "minimums larger than the categories",
			cands:  concat(facts("c", factbase.Core, 2, half), facts("x", factbase.Technical, 1, half), facts("t", factbase.Transient, 150, half)),
			counts: map[factbase.Category]int{factbase.Core: 2, factbase.Technical: 1, factbase.Project: 0, factbase.Transient: 97},
			steps:  map[string]int{"core/minimum": 2, "technical/minimum": 1, "transient/minimum": 20, "transient/within cap": 20, "transient/fill": 57},
		},
		{
			// Transient facts score far below the 200 core facts (2 × 0.5 = 1 vs 100),
			// yet all 3 are on the sheet: the minimum (20) guarantees them.
			name:   "minimum beats score",
			cands:  concat(facts("c", factbase.Core, 200, half), facts("t", factbase.Transient, 3, 90*day)),
			counts: map[factbase.Category]int{factbase.Core: 97, factbase.Technical: 0, factbase.Project: 0, factbase.Transient: 3},
			steps:  map[string]int{"core/minimum": 5, "core/within cap": 25, "core/fill": 67, "transient/minimum": 3},
		},
		{
			// Core scores best (100) but stops at its cap 30 in (b); technical (60) and
			// project (40) then reach their caps 25 before transient (20) gets more than
			// its minimum: 30 + 25 + 25 + 20 = 100, so (c) has nothing to do.
			name: "caps",
			cands: concat(facts("c", factbase.Core, 200, half), facts("x", factbase.Technical, 30, half),
				facts("p", factbase.Project, 30, half), facts("t", factbase.Transient, 50, half)),
			counts: map[factbase.Category]int{factbase.Core: 30, factbase.Technical: 25, factbase.Project: 25, factbase.Transient: 20},
			steps: map[string]int{"core/minimum": 5, "core/within cap": 25, "technical/minimum": 3, "technical/within cap": 22,
				"project/minimum": 3, "project/within cap": 22, "transient/minimum": 20},
		},
		{
			// Only core facts: 5 minimum, 25 more up to the cap, 70 fill.
			name:   "fill",
			cands:  facts("c", factbase.Core, 200, half),
			counts: map[factbase.Category]int{factbase.Core: 100, factbase.Technical: 0, factbase.Project: 0, factbase.Transient: 0},
			steps:  map[string]int{"core/minimum": 5, "core/within cap": 25, "core/fill": 70},
		},
		{
			// Fewer eligible facts than the size: every one is on the sheet.
			name:   "fewer facts than the size",
			cands:  concat(facts("c", factbase.Core, 40, half), facts("t", factbase.Transient, 5, half)),
			counts: map[factbase.Category]int{factbase.Core: 40, factbase.Technical: 0, factbase.Project: 0, factbase.Transient: 5},
			steps:  map[string]int{"core/minimum": 5, "core/within cap": 25, "core/fill": 10, "transient/minimum": 5},
		},
		{
			name:   "empty input",
			cands:  nil,
			counts: map[factbase.Category]int{factbase.Core: 0, factbase.Technical: 0, factbase.Project: 0, factbase.Transient: 0},
			steps:  map[string]int{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := mustAssemble(t, tc.cands, DefaultConfig())
			if !reflect.DeepEqual(s.Counts, tc.counts) {
				t.Errorf("Counts = %v, want %v", s.Counts, tc.counts)
			}
			if got := summary(s); !reflect.DeepEqual(got, tc.steps) {
				t.Errorf("steps = %v, want %v", got, tc.steps)
			}
			n := 0
			for _, v := range tc.counts {
				n += v
			}
			if s.Count != n {
				t.Errorf("Count = %d, want %d", s.Count, n)
			}
			checkOrder(t, s)
		})
	}
}

// checkOrder checks that entries are ordered by category, then score, last reference
// (descending) and id.
func checkOrder(t *testing.T, s Sheet) {
	t.Helper()
	for i := 1; i < len(s.Entries); i++ {
		a, b := s.Entries[i-1], s.Entries[i]
		ca, cb := catIndex(a.Category), catIndex(b.Category)
		ok := ca < cb || ca == cb && (a.Score > b.Score ||
			a.Score == b.Score && (a.LastReference.After(b.LastReference) ||
				a.LastReference.Equal(b.LastReference) && a.FactID < b.FactID))
		if !ok {
			t.Fatalf("entries %d (%s %s %v) and %d (%s %s %v) out of order", i-1, a.FactID, a.Category, a.Score, i, b.FactID, b.Category, b.Score)
		}
	}
}

func TestAssembleMinimumPerCategory(t *testing.T) {
	// For each category in turn: it has one fact fewer than its minimum, all scored far
	// below every other fact (referenced 90 days ago, against 30 minutes for the 200
	// facts of each other category). All of its facts are still on the sheet, taken as
	// its minimum.
	cfg := DefaultConfig()
	for _, cat := range factbase.Categories {
		t.Run(string(cat), func(t *testing.T) {
			n := cfg.Min[cat] - 1
			cands := facts("low", cat, n, 90*day)
			for _, other := range factbase.Categories {
				if other != cat {
					cands = append(cands, facts("hi"+string(other), other, 200, 30*time.Minute)...)
				}
			}
			s := mustAssemble(t, cands, cfg)
			if got := s.Counts[cat]; got != n {
				t.Errorf("Counts[%s] = %d, want %d", cat, got, n)
			}
			for _, e := range s.Entries {
				if e.Category == cat && e.Explain.Included != IncludedMinimum {
					t.Errorf("%s entry %s included as %q, want %q", cat, e.FactID, e.Explain.Included, IncludedMinimum)
				}
			}
			if s.Count != cfg.Size {
				t.Errorf("Count = %d, want %d", s.Count, cfg.Size)
			}
		})
	}
}

func TestAssembleEmpty(t *testing.T) {
	s := mustAssemble(t, nil, DefaultConfig())
	want := Sheet{Entries: []Entry{}, Counts: map[factbase.Category]int{factbase.Core: 0, factbase.Technical: 0, factbase.Project: 0, factbase.Transient: 0}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("Assemble(nil) = %+v, want %+v", s, want)
	}
}

func TestAssembleInvalidConfig(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Min[factbase.Core] = 40
	_, err := Assemble(facts("c", factbase.Core, 3, 0), now, cfg)
	if got := factbase.ErrorCode(err); got != factbase.EINVALID {
		t.Errorf("Assemble with min above cap: error %v (code %q), want code %q", err, got, factbase.EINVALID)
	}
}

func TestAssembleTies(t *testing.T) {
	ref := func(id string, refs ...time.Duration) Candidate {
		c := Candidate{FactID: id, Category: factbase.Core, Current: true, Text: "text " + id, RecordedAt: now.Add(-100 * day)}
		for _, d := range refs {
			c.References = append(c.References, now.Add(-d))
		}
		return c
	}
	cfg := DefaultConfig()
	cfg.Size = 4
	cfg.Min = map[factbase.Category]int{factbase.Core: 0, factbase.Technical: 0, factbase.Project: 0, factbase.Transient: 0}
	// a to e all score 100: one reference under an hour (10 × 10), or for e twenty
	// references older than 30 days (10 × 20 × 0.5). Ties: most recent reference
	// first, then id.
	cands := []Candidate{
		ref("d", 10*time.Minute),
		ref("a", 10*time.Minute),
		ref("b", 5*time.Minute),
		ref("c", 10*time.Minute),
		ref("e", 40*day, 40*day, 40*day, 40*day, 40*day, 40*day, 40*day, 40*day, 40*day, 40*day,
			40*day, 40*day, 40*day, 40*day, 40*day, 40*day, 40*day, 40*day, 40*day, 40*day),
		ref("z", 2*time.Hour), // 80: below all ties
	}
	for _, order := range [][]int{{0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {2, 4, 0, 5, 1, 3}} {
		in := make([]Candidate, len(order))
		for i, k := range order {
			in[i] = cands[k]
		}
		s := mustAssemble(t, in, cfg)
		var got []string
		for _, e := range s.Entries {
			got = append(got, e.FactID)
		}
		// b: newest reference; a, c, d: 10 minutes, by id; e (score 100 but last
		// reference 40 days ago) and z (80) do not fit in 4.
		if want := []string{"b", "a", "c", "d"}; !reflect.DeepEqual(got, want) {
			t.Errorf("Assemble(order %v) = %v, want %v", order, got, want)
		}
	}
}

func TestAssembleEligibility(t *testing.T) {
	base := func(id string, mod func(*Candidate)) Candidate {
		c := Candidate{FactID: id, Category: factbase.Core, Current: true, Text: "fact " + id, References: []time.Time{now}}
		mod(&c)
		return c
	}
	cands := []Candidate{
		base("ok", func(*Candidate) {}),
		base("old", func(c *Candidate) { c.Current = false }),
		base("secret", func(c *Candidate) { c.Sensitivity = factbase.High }),
		base("medium", func(c *Candidate) { c.Sensitivity = factbase.MediumSens }),
		base("misc", func(c *Candidate) { c.Category = "misc" }),
		base("blank", func(c *Candidate) { c.Category = "" }),
	}
	tests := []struct {
		name    string
		privacy bool
		ids     []string
		skipped Skipped
	}{
		{name: "privacy off", privacy: false, ids: []string{"medium", "ok", "secret"}, skipped: Skipped{NotCurrent: 1, UnknownCategory: 2}},
		{name: "privacy on", privacy: true, ids: []string{"medium", "ok"}, skipped: Skipped{NotCurrent: 1, Private: 1, UnknownCategory: 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Privacy = tc.privacy
			s := mustAssemble(t, cands, cfg)
			var ids []string
			for _, e := range s.Entries {
				ids = append(ids, e.FactID)
			}
			if !reflect.DeepEqual(ids, tc.ids) {
				t.Errorf("entries = %v, want %v", ids, tc.ids)
			}
			if s.Skipped != tc.skipped {
				t.Errorf("Skipped = %+v, want %+v", s.Skipped, tc.skipped)
			}
		})
	}
}

func TestAssembleDedup(t *testing.T) {
	c := func(id string, cat factbase.Category, text string, ago ...time.Duration) Candidate {
		x := Candidate{FactID: id, Category: cat, Current: true, Text: text}
		for _, d := range ago {
			x.References = append(x.References, now.Add(-d))
		}
		return x
	}
	cands := []Candidate{
		// Same text, different case and spacing, across categories: core scores 100,
		// transient 20 and 20.
		c("t1", factbase.Transient, "  Likes\tGREEN tea ", 0),
		c("c1", factbase.Core, "likes green tea", 0),
		c("t2", factbase.Transient, "likes green\n tea", 0),
		// Equal score (core 80), different last reference: 1 h vs 2 h are both "<6h".
		c("x1", factbase.Core, "Works at Acme", 2*time.Hour),
		c("x2", factbase.Core, "works at acme", time.Hour),
		// Equal score and last reference: the smaller id wins.
		c("y2", factbase.Project, "Has a dog", 0),
		c("y1", factbase.Project, "has a dog", 0),
		// Text blank: "key: value" is compared and shown.
		{FactID: "k1", Category: factbase.Technical, Current: true, Key: "editor", Value: "Vim", References: []time.Time{now}},
		c("k2", factbase.Technical, "EDITOR:  vim", 3*day),
		// Empty texts are not duplicates of each other.
		c("e1", factbase.Transient, "", 0),
		c("e2", factbase.Transient, " ", 0),
	}
	s := mustAssemble(t, cands, DefaultConfig())
	want := []Dedup{
		{Dropped: "t1", Kept: "c1", Reason: ReasonLowerScore},
		{Dropped: "t2", Kept: "c1", Reason: ReasonLowerScore},
		{Dropped: "k2", Kept: "k1", Reason: ReasonLowerScore},
		{Dropped: "x1", Kept: "x2", Reason: ReasonOlderReference},
		{Dropped: "y2", Kept: "y1", Reason: ReasonGreaterID},
	}
	if !reflect.DeepEqual(s.Dedup, want) {
		t.Errorf("Dedup = %+v, want %+v", s.Dedup, want)
	}
	var ids []string
	texts := map[string]string{}
	for _, e := range s.Entries {
		ids = append(ids, e.FactID)
		texts[e.FactID] = e.Text
	}
	if want := []string{"c1", "x2", "k1", "y1", "e1", "e2"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("entries = %v, want %v", ids, want)
	}
	if got, want := texts["k1"], "editor: Vim"; got != want {
		t.Errorf("text of k1 = %q, want %q", got, want)
	}
}

func TestAssembleExplain(t *testing.T) {
	cands := []Candidate{
		{FactID: "a", Category: factbase.Project, Current: true, Text: "a", References: []time.Time{
			now.Add(-time.Minute), now.Add(-2 * time.Minute), now.Add(-40 * day)}},
		{FactID: "b", Category: factbase.Project, Current: true, Text: "b", RecordedAt: now.Add(-10 * day)},
	}
	cfg := DefaultConfig()
	cfg.Min[factbase.Project] = 1
	s := mustAssemble(t, cands, cfg)
	want := []Entry{
		{FactID: "a", Category: factbase.Project, Text: "a", Score: 4 * 20.5, LastReference: now.Add(-time.Minute), Explain: Explain{
			Weight: 4, References: 3, ReferenceScore: 20.5, Included: IncludedMinimum, Buckets: []BucketCount{
				{Label: "<1h", Count: 2, Points: 10, Subtotal: 20},
				{Label: ">=30d", Count: 1, Points: 0.5, Subtotal: 0.5},
			}}},
		{FactID: "b", Category: factbase.Project, Text: "b", Score: 4 * 2, LastReference: now.Add(-10 * day), Explain: Explain{
			Weight: 4, References: 1, Implicit: true, ReferenceScore: 2, Included: IncludedWithinCap, Buckets: []BucketCount{
				{Label: "<14d", Count: 1, Points: 2, Subtotal: 2},
			}}},
	}
	if !reflect.DeepEqual(s.Entries, want) {
		t.Errorf("Entries = %+v\nwant %+v", s.Entries, want)
	}
}

func TestAssembleConfigurable(t *testing.T) {
	// Weights, limits and size come from the configuration: with transient weighing
	// most and a size of 6 (minimums 1 each, caps 3), transient takes the free slots.
	cfg := DefaultConfig()
	cfg.Weights = map[factbase.Category]float64{factbase.Core: 1, factbase.Technical: 1, factbase.Project: 1, factbase.Transient: 50}
	cfg.Min = map[factbase.Category]int{factbase.Core: 1, factbase.Technical: 1, factbase.Project: 1, factbase.Transient: 1}
	cfg.Max = map[factbase.Category]int{factbase.Core: 3, factbase.Technical: 3, factbase.Project: 3, factbase.Transient: 3}
	cfg.Size = 6
	cands := concat(facts("c", factbase.Core, 5, 0), facts("x", factbase.Technical, 5, 0), facts("p", factbase.Project, 5, 0), facts("t", factbase.Transient, 5, 0))
	s := mustAssemble(t, cands, cfg)
	// (a) 1 + 1 + 1 + 1 = 4; (b) transient (score 500) to its cap 3: +2 = 6. Full.
	want := map[factbase.Category]int{factbase.Core: 1, factbase.Technical: 1, factbase.Project: 1, factbase.Transient: 3}
	if !reflect.DeepEqual(s.Counts, want) {
		t.Errorf("Counts = %v, want %v", s.Counts, want)
	}
}

func TestAssemble100kFacts(t *testing.T) {
	// A user with 100,000 facts and about 1,000,000 references; the result must match
	// the reference implementation exactly.
	r := rand.New(rand.NewPCG(7, 7))
	cands := benchCandidates(r, 100_000, 10)
	s := mustAssemble(t, cands, DefaultConfig())
	if s.Count != 100 {
		t.Fatalf("Count = %d, want 100", s.Count)
	}
	for cat, n := range s.Counts {
		if n > DefaultConfig().Max[cat] {
			t.Errorf("Counts[%s] = %d, above its cap with %d facts of every category", cat, n, len(cands)/4)
		}
	}
	compareSheets(t, s, refAssemble(cands, now, DefaultConfig()))
	checkOrder(t, s)
}

// TestAssembleBlocks: the candidates split into blocks of any size assemble into the
// same sheet as in one slice, and blocks of unequal size (but the last) are refused.
func TestAssembleBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for iter := range 100 {
		cands := randomCandidates(r, r.IntN(300))
		cfg := randomConfig(r)
		want := mustAssemble(t, cands, cfg)
		size := 1 + r.IntN(64)
		var blocks [][]Candidate
		for lo := 0; lo < len(cands); lo += size {
			blocks = append(blocks, cands[lo:min(len(cands), lo+size)])
		}
		got, err := AssembleBlocks(blocks, now, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("iteration %d: %d candidates in blocks of %d assemble into %d entries, in one slice %d (or they differ)",
				iter, len(cands), size, got.Count, want.Count)
		}
	}
	if s, err := AssembleBlocks(nil, now, DefaultConfig()); err != nil || s.Count != 0 {
		t.Errorf("AssembleBlocks(nil) = %d entries, %v; want an empty sheet", s.Count, err)
	}
	cands := randomCandidates(r, 10)
	for _, blocks := range [][][]Candidate{
		{cands[:3], cands[3:5], cands[5:]}, // a middle block shorter
		{cands[:3], cands[3:]},             // the last block longer
	} {
		if _, err := AssembleBlocks(blocks, now, DefaultConfig()); factbase.ErrorCode(err) != factbase.EINVALID {
			t.Errorf("blocks of %d, ..., %d candidates: err = %v, want EINVALID", len(blocks[0]), len(blocks[len(blocks)-1]), err)
		}
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"", " ", "likes tea", "Likes  TEA ", "\tx\ny", "ÉCOLE  é", "a\u00a0b", "a\u0085b", "\xff\xfeA"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := strings.Join(strings.Fields(strings.ToLower(s)), " ")
		if got := normalize(s); got != want {
			t.Fatalf("normalize(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestAssembleDedupLogged: a dropped duplicate is logged when the fact kept in its place
// is on the sheet or when it ranked among the best Size of its category; a duplicate of
// neither kind, which could never have made the sheet, is not.
func TestAssembleDedupLogged(t *testing.T) {
	var cands []Candidate
	refs := func(n int) []time.Time {
		out := make([]time.Time, n)
		for i := range out {
			out[i] = now
		}
		return out
	}
	core := func(i int) string { return fmt.Sprintf("c%03d", i) }
	for i := range 300 {
		text := fmt.Sprintf("core fact %d", i)
		switch i {
		case 251: // a duplicate of #250: neither on the sheet nor among core's best 100
			text = "core fact 250"
		case 260: // a duplicate of #0, which is on the sheet
			text = "core fact 0"
		}
		cands = append(cands, Candidate{FactID: core(i), Category: factbase.Core, Current: true, Text: text, References: refs(300 - i)})
	}
	// A transient duplicate of core #250 (not on the sheet): transient has so few facts
	// that it is among its category's best, and it could have made the sheet there.
	cands = append(cands, Candidate{FactID: "t1", Category: factbase.Transient, Current: true, Text: "Core fact 250", References: refs(1)})
	s := mustAssemble(t, cands, DefaultConfig())
	want := []Dedup{
		{Dropped: core(260), Kept: core(0), Reason: ReasonLowerScore},
		{Dropped: "t1", Kept: core(250), Reason: ReasonLowerScore},
	}
	if !reflect.DeepEqual(s.Dedup, want) {
		t.Errorf("Dedup = %+v, want %+v", s.Dedup, want)
	}
	compareSheets(t, s, refAssemble(cands, now, DefaultConfig()))
}

// TestAssembleDedupCapped: a text that 5,000 facts repeat, kept on the sheet, logs
// MaxDedupPerKept of its drops, those of the least ids, not 4,999.
func TestAssembleDedupCapped(t *testing.T) {
	var cands []Candidate
	for i := range 5000 {
		cands = append(cands, Candidate{FactID: fmt.Sprintf("f%04d", i), Category: factbase.Technical, Current: true,
			Text: "used tool Bash", References: []time.Time{now.Add(-time.Duration(i) * time.Minute)}})
	}
	s := mustAssemble(t, cands, DefaultConfig())
	if len(s.Entries) != 1 || s.Entries[0].FactID != "f0000" {
		t.Fatalf("entries = %+v, want f0000 alone", s.Entries)
	}
	if len(s.Dedup) != MaxDedupPerKept || s.Dedup[0].Dropped != "f0001" || s.Dedup[MaxDedupPerKept-1].Dropped != fmt.Sprintf("f%04d", MaxDedupPerKept) {
		t.Errorf("Dedup = %d records (first %+v), want %d, f0001 first", len(s.Dedup), s.Dedup[0], MaxDedupPerKept)
	}
	compareSheets(t, s, refAssemble(cands, now, DefaultConfig()))
}

// dropLog is every drop as a Dedup record, sorted by kept id, then dropped id.
func dropLog(cands candSet, drops []drop) []Dedup {
	var log []Dedup
	for _, d := range drops {
		log = append(log, Dedup{Dropped: cands.at(d.it.idx).FactID, Kept: cands.at(d.kept.idx).FactID, Reason: d.reason})
	}
	slices.SortFunc(log, func(a, b Dedup) int {
		return cmp.Or(strings.Compare(a.Kept, b.Kept), strings.Compare(a.Dropped, b.Dropped))
	})
	return log
}

// TestDedupHashCollisions: texts whose hashes collide but whose normalised forms differ
// stay apart; dedup with every hash equal gives what it gives with the real hash.
func TestDedupHashCollisions(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	dropped := 0
	for iter := range 200 {
		cands := randomCandidates(r, r.IntN(120))
		cfg := randomConfig(r)
		var items []item
		cuts := newCutoffs(now, cfg.Buckets)
		counts := make([]int, len(cfg.Buckets))
		for i := range cands {
			ci := catIndex(cands[i].Category)
			if ci < 0 {
				continue
			}
			score, _, last := reckon(&cands[i], cuts, cfg.Buckets, cfg.Weights[cands[i].Category], counts)
			items = append(items, item{idx: i, cat: int8(ci), score: score, last: last})
		}
		wantItems, wantDrops := dedup(oneBlock(cands), slices.Clone(items))
		wantLog := dropLog(oneBlock(cands), wantDrops)
		for _, h := range []func([]byte) uint64{
			func([]byte) uint64 { return 0 },
			func(b []byte) uint64 { return uint64(len(b) % 3) },
		} {
			gotItems, gotDrops := dedupHash(oneBlock(cands), slices.Clone(items), h)
			gotLog := dropLog(oneBlock(cands), gotDrops)
			if !reflect.DeepEqual(gotItems, wantItems) || !reflect.DeepEqual(gotLog, wantLog) {
				t.Fatalf("iteration %d: with colliding hashes dedup kept %d items, log %+v; want %d, %+v",
					iter, len(gotItems), gotLog, len(wantItems), wantLog)
			}
		}
		dropped += len(wantLog)
	}
	if dropped == 0 {
		t.Fatal("no iteration had duplicates; the test compares nothing")
	}
}
