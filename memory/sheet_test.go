package memory_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/bench/cputime"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/sheet"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

// clockedEngine returns an engine over a SQLite store whose time is the returned clock.
func clockedEngine(t *testing.T, o memory.Options) (*memory.Engine, *sqlite.Store, *clock) {
	t.Helper()
	c := &clock{t: time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)}
	s := openStore(t, "", c.Now)
	return memory.New(s, o), s, c
}

func setFact(key, value string, cat factbase.Category) factbase.Op {
	return factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: key, Value: value, Category: cat,
		Cardinality: factbase.One, Source: factbase.Source{Kind: factbase.SourceMessage}}}
}

func categoryCounts(sh factbase.FactSheet) map[factbase.Category]int {
	m := map[factbase.Category]int{}
	for _, en := range sh.Entries {
		m[en.Category]++
	}
	return m
}

// TestSheetIssueExample is the issue's example end to end through the write path and
// a SQLite store: 100 core, 0 technical, 10 project and 500 transient facts, each
// referenced once (when stored) 30 minutes before the sheet is generated.
func TestSheetIssueExample(t *testing.T) {
	ctx := t.Context()
	e, _, clk := clockedEngine(t, memory.Options{})
	u := storetest.NewUser()
	var ops []factbase.Op
	for _, g := range []struct {
		cat factbase.Category
		n   int
	}{{factbase.Core, 100}, {factbase.Project, 10}, {factbase.Transient, 500}} {
		for i := range g.n {
			ops = append(ops, setFact(fmt.Sprintf("%s.k%03d", g.cat, i), "v", g.cat))
		}
	}
	mustApply(t, e, u, ops...)
	stored := clk.Now()
	clk.Add(30 * time.Minute)
	sh, err := e.GenerateSheet(ctx, u, core.SheetOptions{})
	if err != nil {
		t.Fatalf("GenerateSheet: %v", err)
	}
	if got, want := categoryCounts(sh), map[factbase.Category]int{factbase.Core: 50, factbase.Project: 10, factbase.Transient: 40}; sh.Count != 100 || len(sh.Entries) != 100 || !reflect.DeepEqual(got, want) {
		t.Fatalf("sheet: count %d, categories %v; want 100: %v", sh.Count, got, want)
	}
	if !sh.CreatedAt.Equal(clk.Now()) {
		t.Errorf("CreatedAt = %v, want the store's time %v", sh.CreatedAt, clk.Now())
	}
	weights := map[factbase.Category]float64{factbase.Core: 10, factbase.Project: 4, factbase.Transient: 2}
	for i, en := range sh.Entries {
		x := en.Explain
		want := factbase.SheetExplain{Weight: weights[en.Category], References: 1,
			Buckets:        []factbase.SheetBucket{{Label: "<1h", Count: 1, Points: 10, Subtotal: 10}},
			ReferenceScore: 10, Included: x.Included}
		if !reflect.DeepEqual(x, want) || en.Score != 10*weights[en.Category] || !en.LastReference.Equal(stored) {
			t.Fatalf("entry %d = %+v, want score %v from %+v, last reference %v", i, en, 10*weights[en.Category], want, stored)
		}
	}
	// The steps: core 5 + project 3 + transient 20 minimums; then core to its cap 30,
	// project's 7 left, transient to its cap 40; then 20 more core to fill.
	steps := map[string]int{}
	for _, en := range sh.Entries {
		steps[string(en.Category)+" "+en.Explain.Included]++
	}
	want := map[string]int{"core minimum": 5, "core within cap": 25, "core fill": 20, "project minimum": 3,
		"project within cap": 7, "transient minimum": 20, "transient within cap": 20}
	if !reflect.DeepEqual(steps, want) {
		t.Errorf("steps = %v, want %v", steps, want)
	}
	latest, err := e.LatestSheet(ctx, u)
	if err != nil || !reflect.DeepEqual(latest, sh) {
		t.Errorf("LatestSheet = %s, %v; want the sheet just generated", latest.ID, err)
	}
}

// TestSheetReferencesWeigh: restating a fact and using it in an answer add references
// that raise its score, and old references decay.
func TestSheetReferencesWeigh(t *testing.T) {
	ctx := t.Context()
	e, _, clk := clockedEngine(t, memory.Options{})
	u := storetest.NewUser()
	// Ten days ago: the email; a project fact; both referenced once then.
	mustApply(t, e, u, setFact("project.alpha", "on", factbase.Project))
	if _, err := e.Chat.Say(ctx, u, "My email is ada@example.com"); err != nil {
		t.Fatal(err)
	}
	clk.Add(10 * 24 * time.Hour)
	// Now: the city is said; the email is said again (a duplicate) and asked for.
	for _, msg := range []string{"I live in Lima", "My email is ada@example.com"} {
		if _, err := e.Chat.Say(ctx, u, msg); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Chat.Ask(ctx, u, "What is my email?"); err != nil {
		t.Fatal(err)
	}
	clk.Add(2 * time.Hour)
	sh, err := e.GenerateSheet(ctx, u, core.SheetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, en := range sh.Entries {
		var bs []string
		for _, b := range en.Explain.Buckets {
			bs = append(bs, fmt.Sprintf("%s×%d", b.Label, b.Count))
		}
		got[en.Text] = fmt.Sprintf("%g = %g × %g [%s]", en.Score, en.Explain.Weight, en.Explain.ReferenceScore, strings.Join(bs, " "))
	}
	want := map[string]string{
		// Stored 10 days ago (2 points), restated and answered 2 hours ago (8 each).
		"User's email is ada@example.com": "180 = 10 × 18 [<6h×2 <14d×1]",
		"User's home city is Lima":        "80 = 10 × 8 [<6h×1]",
		"project.alpha: on":               "8 = 4 × 2 [<14d×1]",
	}
	if len(got) != len(want) {
		t.Fatalf("sheet = %v, want %v", got, want)
	}
	for text, w := range want {
		if got[text] != w {
			t.Errorf("%q: %s, want %s", text, got[text], w)
		}
	}
	// Core first, by score; then project.
	if sh.Entries[0].Text != "User's email is ada@example.com" || sh.Entries[2].Category != factbase.Project {
		t.Errorf("order = %v", sh.Entries)
	}
}

func TestSheetPrivacyAndDedup(t *testing.T) {
	ctx := t.Context()
	e, _, _ := clockedEngine(t, memory.Options{})
	u := storetest.NewUser()
	secret := setFact("health.condition", "asthma", factbase.Core)
	secret.Fact.Sensitivity = factbase.High
	a := setFact("pet", "Rex", factbase.Core)
	a.Fact.Text = "Has a dog named Rex"
	b := setFact("dog", "rex", factbase.Transient)
	b.Fact.Text = "has a dog  named rex"
	res := mustApply(t, e, u, secret, a, b)
	sh, err := e.GenerateSheet(ctx, u, core.SheetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sh.Count != 2 || len(sh.Dedup) != 1 || sh.Dedup[0].Dropped != res.Facts[2].ID || sh.Dedup[0].Kept != res.Facts[1].ID {
		t.Errorf("without privacy: %d entries, dedup %+v; want 2 entries and the transient duplicate dropped", sh.Count, sh.Dedup)
	}
	for _, o := range []core.SheetOptions{{Privacy: true}, {Config: func() sheet.Config { c := sheet.DefaultConfig(); c.Privacy = true; return c }()}} {
		sh, err = e.GenerateSheet(ctx, u, o)
		if err != nil {
			t.Fatal(err)
		}
		if sh.Count != 1 || sh.Entries[0].Text != "Has a dog named Rex" {
			t.Errorf("with privacy: %+v, want only the dog", sh.Entries)
		}
	}
	// The engine's options set the privacy mode for every generation.
	e2 := memory.New(e.Store(), memory.Options{Sheet: core.SheetOptions{Privacy: true}})
	if err := e2.RegenerateSheet(ctx, u); err != nil {
		t.Fatal(err)
	}
	if sh, err := e2.LatestSheet(ctx, u); err != nil || sh.Count != 1 {
		t.Errorf("engine privacy: %d entries, %v; want 1", sh.Count, err)
	}
}

func TestSheetRetentionAndErase(t *testing.T) {
	ctx := t.Context()
	// Only the generations below make sheets: no regeneration after the writes.
	e, s, clk := clockedEngine(t, memory.Options{NoSheetRegen: true})
	u := storetest.NewUser()
	res := mustApply(t, e, u, setFact("a", "1", factbase.Core), setFact("b", "1", factbase.Core))
	saved := func() []factbase.FactSheet {
		t.Helper()
		var sheets []factbase.FactSheet
		err := s.View(ctx, u, func(tx factbase.ReadTx) (err error) {
			sheets, err = tx.ExportSheets(ctx)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return sheets
	}
	day := 24 * time.Hour
	for i, step := range []struct {
		advance time.Duration
		ret     time.Duration
		want    int
	}{
		{0, 0, 1},
		{3 * day, 0, 2},
		{5 * day, 0, 2},          // 8 days after the first: it goes
		{day, 12 * time.Hour, 1}, // a shorter retention keeps only the new one
		{time.Hour, 2 * time.Hour, 2},
	} {
		clk.Add(step.advance)
		if _, err := e.GenerateSheet(ctx, u, core.SheetOptions{Retention: step.ret}); err != nil {
			t.Fatal(err)
		}
		if got := len(saved()); got != step.want {
			t.Errorf("step %d: %d sheets saved, want %d", i, got, step.want)
		}
	}
	// Erasing a fact removes it from the saved sheets, not only from the next one.
	mustApply(t, e, u, factbase.Op{Kind: factbase.OpDelete, ID: res.Facts[0].ID})
	for _, sh := range saved() {
		if sh.Count != 1 || len(sh.Entries) != 1 || sh.Entries[0].FactID == res.Facts[0].ID {
			t.Errorf("saved sheet %s still names the erased fact or miscounts: %+v", sh.ID, sh)
		}
	}
	sh, err := e.LatestSheet(ctx, u)
	if err != nil || sh.Count != 1 || len(sh.Entries) != 1 || sh.Entries[0].FactID != res.Facts[1].ID {
		t.Errorf("LatestSheet after erasing = %+v, %v; want only b", sh, err)
	}
}

func TestSheetPrompt(t *testing.T) {
	ctx := t.Context()
	e, _, _ := clockedEngine(t, memory.Options{})
	u := storetest.NewUser()
	// No sheet saved yet: LatestSheet generates one (empty for a user without facts).
	p, err := e.SheetPrompt(ctx, u, sheet.RenderOptions{})
	if err != nil || p.Text != "" || p.SheetID == "" {
		t.Fatalf("SheetPrompt with no facts = %+v, %v; want an empty text from a new sheet", p, err)
	}
	mustApply(t, e, u, setFact("core.a", "1", factbase.Core), setFact("proj.b", "2", factbase.Project),
		setFact("tmp.c", "3", factbase.Transient))
	if err := e.RegenerateSheet(ctx, u); err != nil {
		t.Fatal(err)
	}
	p, err = e.SheetPrompt(ctx, u, sheet.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := "# Fact sheet\n## core\n- core.a: 1\n## project\n- proj.b: 2\n## transient\n- tmp.c: 3\n"
	if p.Text != want || p.Dropped != 0 || p.Tokens != sheet.EstimateTokens(want) {
		t.Errorf("SheetPrompt = %+v, want text %q", p, want)
	}
	p, err = e.SheetPrompt(ctx, u, sheet.RenderOptions{MaxTokens: 12})
	if err != nil {
		t.Fatal(err)
	}
	if p.Dropped == 0 || p.Tokens > 12 || !strings.Contains(p.Text, "core.a") || strings.Contains(p.Text, "tmp.c") {
		t.Errorf("SheetPrompt(12 tokens) = %+v, want the transient entry dropped first", p)
	}
	if _, err := e.SheetPrompt(ctx, u, sheet.RenderOptions{MaxChars: -1}); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("negative budget: %v, want EINVALID", err)
	}
}

func TestSheetErrors(t *testing.T) {
	ctx := t.Context()
	e, _, _ := clockedEngine(t, memory.Options{})
	u := storetest.NewUser()
	bad := sheet.DefaultConfig()
	bad.Size = 10 // the minimums add up to 31
	tests := []struct {
		name string
		e    *memory.Engine
		user factbase.UserID
		o    core.SheetOptions
		code string
	}{
		{name: "bad user", e: e, user: "alice", code: factbase.EINVALID},
		{name: "bad config", e: e, user: u, o: core.SheetOptions{Config: bad}, code: factbase.EINVALID},
		{name: "negative retention", e: e, user: u, o: core.SheetOptions{Retention: -time.Hour}, code: factbase.EINVALID},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.e.GenerateSheet(ctx, tc.user, tc.o); factbase.ErrorCode(err) != tc.code {
				t.Errorf("GenerateSheet = %v, want %s", err, tc.code)
			}
		})
	}
	if _, err := e.RecordReferences(ctx, "alice", []string{"x"}, factbase.Source{}); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("RecordReferences(bad user) = %v, want EINVALID", err)
	}
	if n, err := e.RecordReferences(ctx, u, nil, factbase.Source{}); n != 0 || err != nil {
		t.Errorf("RecordReferences(none) = %d, %v; want 0, nil", n, err)
	}
}

// TestGenerateSheetMatchesAssemble compares the fast path (the store counts packed
// reference times per decay bucket, sends only the columns assembly reads, and
// Assemble deduplicates by hash) with the plain one on randomized users: every current
// fact read through the ordinary API with its references loaded one by one, given to
// sheet.Assemble as reference times (which TestAssembleMatchesReference in package
// sheet checks against a straightforward reading of the rules). Texts repeat in other
// cases and spacing, some are blank or white space only (Unicode's too), facts are
// superseded and retracted, and references fall exactly on bucket boundaries, in the
// future and before 1970.
func TestGenerateSheetMatchesAssemble(t *testing.T) {
	ctx := t.Context()
	texts := []string{"Likes green tea", "likes  GREEN tea", " likes green tea\u00a0", "Ünïcode Straße",
		"ünïcode STRASSE", "ünïcode straße", "", "  ", " \u3000\t", "\u00a0leading space", "\u3000Likes green tea",
		"Works at Acme", "works at acme"}
	custom := sheet.DefaultConfig()
	custom.Buckets = []sheet.Bucket{{Label: "<2h", Below: 2 * time.Hour, Points: 5},
		{Label: "<3d", Below: 72 * time.Hour, Points: 2.5}, {Label: "old", Points: 0.25}}
	custom.Size, custom.Min[factbase.Transient] = 40, 5
	private := sheet.DefaultConfig()
	private.Privacy = true
	implicit := 0 // entries without references, over all runs
	for seed, cfg := range []sheet.Config{sheet.DefaultConfig(), private, custom} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(seed), 99))
			e, s, clk := clockedEngine(t, memory.Options{NoSheetRegen: true})
			u := storetest.NewUser()
			sens := []factbase.Sensitivity{"", factbase.Low, factbase.MediumSens, factbase.High}
			var ids []string
			for batch := range 6 {
				var ops []factbase.Op
				for i := range 60 {
					op := setFact(fmt.Sprintf("k%d.%02d", batch, i), fmt.Sprintf("v%d", r.IntN(3)),
						factbase.Categories[r.IntN(len(factbase.Categories))])
					op.Fact.Sensitivity = sens[r.IntN(len(sens))]
					if k := r.IntN(len(texts) + 3); k < len(texts) {
						op.Fact.Text = texts[k]
					} else {
						op.Fact.Text = fmt.Sprintf("Fact %d of batch %d", i, batch)
					}
					ops = append(ops, op)
				}
				if batch > 0 { // supersede a few of the previous batch's facts
					for i := range 5 {
						ops = append(ops, setFact(fmt.Sprintf("k%d.%02d", batch-1, i), "changed", factbase.Core))
					}
				}
				// Facts stored before references were kept have none: they count once
				// at their recorded time. The last batch (an hour old, so that some of
				// it reaches the sheet) is stored so.
				eng := e
				if batch == 5 {
					eng = memory.New(&refless{s}, memory.Options{NoSheetRegen: true})
				}
				for _, f := range mustApply(t, eng, u, ops...).Facts {
					ids = append(ids, f.ID)
				}
				if batch < 5 {
					clk.Add(time.Duration(r.IntN(100)) * time.Hour)
				}
			}
			mustApply(t, e, u, factbase.Op{Kind: factbase.OpRetract, ID: ids[r.IntN(len(ids))]},
				factbase.Op{Kind: factbase.OpRetract, ID: ids[r.IntN(len(ids))]})

			now := clk.Now().Add(time.Hour)
			var ats []time.Time
			for _, b := range cfg.Buckets[:len(cfg.Buckets)-1] {
				ats = append(ats, now.Add(-b.Below), now.Add(-b.Below+1), now.Add(-b.Below-1))
			}
			ats = append(ats, now, now.Add(time.Minute), time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC))
			var refs []factbase.Reference
			referenced := ids[:len(ids)-40] // the last batch's last 40 facts keep none
			for range 2000 {
				at := now.Add(-time.Duration(r.Int64N(int64(40 * 24 * time.Hour))))
				if r.IntN(4) == 0 {
					at = ats[r.IntN(len(ats))]
				}
				refs = append(refs, factbase.Reference{FactID: referenced[r.IntN(len(referenced))], At: at})
			}
			addReferences(t, e, u, refs)

			got, err := e.GenerateSheet(ctx, u, core.SheetOptions{Config: cfg, Now: now})
			if err != nil {
				t.Fatal(err)
			}
			var cands []sheet.Candidate
			err = s.View(ctx, u, func(tx factbase.ReadTx) error {
				facts, err := tx.Facts(ctx, factbase.FactFilter{})
				if err != nil {
					return err
				}
				for _, f := range facts {
					rs, err := tx.References(ctx, f.ID)
					if err != nil {
						return err
					}
					c := sheet.Candidate{FactID: f.ID, Category: f.Category, Text: f.Text, Key: f.Key, Value: f.Value,
						Sensitivity: f.Sensitivity, Current: f.Current, RecordedAt: f.RecordedAt}
					for _, r := range rs {
						c.References = append(c.References, r.At)
					}
					cands = append(cands, c)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			want, err := sheet.Assemble(cands, now, cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, en := range want.Entries {
				if en.Explain.References == 1 { // the fact's creation alone
					implicit++
				}
			}
			if want.Count == 0 || len(want.Dedup) == 0 {
				t.Fatalf("the reference sheet has %d entries and %d dedup records; the test needs both", want.Count, len(want.Dedup))
			}
			if gotS := core.FromFactSheet(got); !reflect.DeepEqual(sheetView(gotS), sheetView(want)) {
				t.Errorf("GenerateSheet differs from Assemble over references:\n got %v\nwant %v", sheetView(gotS), sheetView(want))
			}
		})
	}
	if implicit == 0 {
		t.Error("no sheet had an entry referenced only by its creation; the test does not cover them")
	}
}

// sheetView is what a sheet says, in comparable form: entries (times as instants,
// empty bucket lists as nil) and the dedup log.
func sheetView(sh sheet.Sheet) []string {
	var out []string
	for _, en := range sh.Entries {
		x := en.Explain
		out = append(out, fmt.Sprintf("%s %s %q %v last=%d w=%v refs=%d implicit=%v buckets=%v ref=%v %s", en.FactID, en.Category,
			en.Text, en.Score, en.LastReference.UnixNano(), x.Weight, x.References, x.Implicit, x.Buckets, x.ReferenceScore, x.Included))
	}
	for _, d := range sh.Dedup {
		out = append(out, fmt.Sprintf("dedup %+v", d))
	}
	return out
}

// refless is a store whose write transactions keep no references, as stores did
// before references were kept.
type refless struct{ factbase.Store }

func (s *refless) Update(ctx context.Context, u factbase.UserID, fn func(factbase.Tx) error) error {
	return s.Store.Update(ctx, u, func(tx factbase.Tx) error { return fn(noReferences{tx}) })
}

// noReferences is a transaction that stores no reference.
type noReferences struct{ factbase.Tx }

func (noReferences) AddReferences(context.Context, []factbase.Reference) (int, error) { return 0, nil }

// scanCounter is a SQLite store that counts its scans.
type scanCounter struct {
	*sqlite.Store
	scans int
}

func (s *scanCounter) ScanView(ctx context.Context, u factbase.UserID, fn func(factbase.ReadTx) error) error {
	s.scans++
	return s.Store.ScanView(ctx, u, fn)
}

// TestGenerateSheetScans: the sheet reads through the store's ScanView when it has
// one (SQLite maps the file for it), and the sheet is the same as through View.
func TestGenerateSheetScans(t *testing.T) {
	ctx := t.Context()
	s := openStore(t, "", nil)
	sc := &scanCounter{Store: s}
	u := storetest.NewUser()
	var ops []factbase.Op
	for i := range 50 {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: fmt.Sprintf("k.%d", i), Value: "v",
			Text: fmt.Sprintf("fact %d", i), Category: factbase.Categories[i%4], Cardinality: factbase.One}})
	}
	if _, err := memory.New(s, memory.Options{NoSheetRegen: true}).Apply(ctx, u, ops); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	scanned, err := memory.New(sc, memory.Options{NoSheetRegen: true}).GenerateSheet(ctx, u, core.SheetOptions{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	viewed, err := memory.New(struct{ factbase.Store }{s}, memory.Options{NoSheetRegen: true}).GenerateSheet(ctx, u, core.SheetOptions{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if sc.scans != 1 {
		t.Errorf("%d scans for one sheet, want 1", sc.scans)
	}
	scanned.ID, viewed.ID = "", ""
	if scanned.Count != 50 || !reflect.DeepEqual(scanned.Entries, viewed.Entries) {
		t.Errorf("the sheet through ScanView has %d entries and differs from the one through View (%d)", scanned.Count, viewed.Count)
	}
}

// sheetBenchNow is the fixed clock of the sheet benchmarks' stores.
var sheetBenchNow = time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)

// sheetBenchStore fills a SQLite file with n facts of one user (a quarter in each
// category) and refs references in all: each fact's own reference from the write
// path, the rest spread at random over the 60 days before the store's fixed clock,
// recorded through the write path in batches.
//
// Filling 100,000 facts and 1,000,000 references takes minutes. With
// FACTBASE_BENCH_FIXTURES set to a directory, the filled file is kept there (as
// sheet-<n>-<refs>.db, with the user's id in sheet-<n>-<refs>.user) and later runs
// start from a copy of it; delete the files to rebuild them after a schema change
// (migrations still run on the copy when it is opened).
func sheetBenchStore(b testing.TB, path string, n, refs int) (*memory.Engine, factbase.UserID) {
	b.Helper()
	ctx := b.Context()
	now := sheetBenchNow
	dir := os.Getenv("FACTBASE_BENCH_FIXTURES")
	base := filepath.Join(dir, fmt.Sprintf("sheet-%d-%d", n, refs))
	if dir != "" {
		if u, err := os.ReadFile(base + ".user"); err == nil {
			if err := copyFile(base+".db", path); err != nil {
				b.Fatal(err)
			}
			return memory.New(openStore(b, path, fixed(now)), memory.Options{}), factbase.UserID(u)
		}
	}
	s := openStore(b, path, fixed(now))
	e := memory.New(s, memory.Options{})
	u := storetest.NewUser()
	start := time.Now()
	var ids []string
	for lo := 0; lo < n; lo += core.MaxOps {
		var ops []factbase.Op
		for i := lo; i < min(n, lo+core.MaxOps); i++ {
			cat := factbase.Categories[i%4]
			ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: fmt.Sprintf("k.%07d", i),
				Value: fmt.Sprintf("value %d", i), Category: cat, Cardinality: factbase.One,
				Text: fmt.Sprintf("The user's %s fact number %d", cat, i)}})
		}
		for _, f := range mustApply(b, e, u, ops...).Facts {
			ids = append(ids, f.ID)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	const batch = 100_000
	for left := refs - n; left > 0; left -= batch {
		rs := make([]factbase.Reference, min(batch, left))
		for i := range rs {
			rs[i] = factbase.Reference{FactID: ids[r.IntN(len(ids))], At: now.Add(-time.Duration(r.Int64N(int64(60 * 24 * time.Hour)))),
				Source: factbase.Source{Kind: factbase.SourceMessage}}
		}
		addReferences(b, e, u, rs)
	}
	b.Logf("setup: %d facts, %d references in %v", n, refs, time.Since(start).Round(time.Millisecond))
	if dir != "" {
		// Purge checkpoints the write-ahead log into the file and truncates it, so
		// that the file alone holds everything and a copy of it is the fixture.
		if purged, err := s.Purge(ctx); err != nil || !purged {
			b.Fatalf("Purge = %v, %v; want the log checkpointed", purged, err)
		}
		if err := copyFile(path, base+".db"); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(base+".user", []byte(u), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	return e, u
}

// copyFile copies the file src to dst.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func benchmarkGenerateSheet(b *testing.B, n, refs int) {
	e, u := sheetBenchStore(b, filepath.Join(b.TempDir(), "f.db"), n, refs)
	ctx := b.Context()
	b.ReportAllocs()
	cpu0, ops := cputime.Used(), 0
	for b.Loop() {
		sh, err := e.GenerateSheet(ctx, u, core.SheetOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if sh.Count != 100 {
			b.Fatalf("sheet has %d entries, want 100", sh.Count)
		}
		ops++
	}
	if cpu0 >= 0 {
		b.ReportMetric(float64(cputime.Used()-cpu0)/1e6/float64(ops), "cpu-ms/op")
	}
}

// BenchmarkGenerateSheet100k: the issue's figure, end to end (read and count in one
// snapshot, assemble, save): 100,000 facts and 1,000,000 references.
func BenchmarkGenerateSheet100k(b *testing.B) { benchmarkGenerateSheet(b, 100_000, 1_000_000) }

// BenchmarkGenerateSheet is the series for the growth: 10 references per fact.
func BenchmarkGenerateSheet(b *testing.B) {
	for _, n := range []int{10_000, 50_000, 100_000, 200_000} {
		b.Run(fmt.Sprintf("facts=%d/refs=%d", n, 10*n), func(b *testing.B) { benchmarkGenerateSheet(b, n, 10*n) })
	}
}
