package storetest

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/sheet"
)

// sheetOp is a set op of a single-valued fact with a category, text and source.
func sheetOp(key, value string, cat factbase.Category, src factbase.Source) factbase.Op {
	return factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: key, Value: value, Category: cat,
		Text: key + " is " + value, Source: src, Cardinality: factbase.One}}
}

// refs returns the references of fact id.
func refs(t *testing.T, s factbase.Store, u factbase.UserID, id string) []factbase.Reference {
	t.Helper()
	var out []factbase.Reference
	err := s.View(context.Background(), u, func(tx factbase.ReadTx) (err error) {
		out, err = tx.References(context.Background(), id)
		return err
	})
	if err != nil {
		t.Fatalf("References(%s): %v", id, err)
	}
	return out
}

// addRefs records refs through the write path and returns how many were stored.
func addRefs(t *testing.T, e *memory.Engine, u factbase.UserID, rs ...factbase.Reference) int {
	t.Helper()
	var n int
	_, err := e.ApplyWith(context.Background(), u, nil, func(wr *core.Writer) (err error) {
		tx := wr.Tx()
		n, err = tx.AddReferences(context.Background(), rs)
		return err
	})
	if err != nil {
		t.Fatalf("AddReferences: %v", err)
	}
	return n
}

func sources(rs []factbase.Reference) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Source.Kind + ":" + r.Source.ID
	}
	return out
}

// testReferences: the write path records a reference for every fact it stores and
// every duplicate it blocks; an answer adds one; erasing a fact erases its references.
func testReferences(t *testing.T, s factbase.Store) {
	ctx := context.Background()
	e := memory.New(s, memory.Options{Cardinalities: factbase.Cardinalities{Prefix: map[string]factbase.Cardinality{
		"favorites.": factbase.Ranked, "likes.": factbase.Many}}})
	u, other := NewUser(), NewUser()
	m1 := factbase.Source{Kind: factbase.SourceMessage, ID: "m1"}
	m2 := factbase.Source{Kind: factbase.SourceMessage, ID: "m2"}

	res := apply(t, e, u, sheetOp("contact.email", "a@example.com", factbase.Core, m1),
		factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "likes.tea", Value: "oolong", Source: m1}},
		factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.city", Value: "Lima", Source: m1}})
	if res.Stored != 3 {
		t.Fatalf("stored %d facts, want 3", res.Stored)
	}
	email, tea, lima := res.Facts[0].ID, res.Facts[1].ID, res.Facts[2].ID
	for _, id := range []string{email, tea, lima} {
		if got, want := sources(refs(t, s, u, id)), []string{"message:m1"}; !reflect.DeepEqual(got, want) {
			t.Errorf("after storing, references of %s = %v, want %v", id, got, want)
		}
	}

	// Restating each: blocked as duplicates (and a ranked NOOP), each gains a reference
	// with the restating message as its source; the same fact twice in one write gains one.
	res = apply(t, e, u, sheetOp("contact.email", "A@example.com ", factbase.Core, m2),
		factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "likes.tea", Value: "Oolong", Source: m2}},
		factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "likes.tea", Value: "oolong.", Source: m2}},
		factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.city", Value: "lima", Source: m2}})
	if res.Stored != 0 || len(res.Duplicates) != 4 {
		t.Fatalf("restating: stored %d, duplicates %d; want 0 and 4", res.Stored, len(res.Duplicates))
	}
	for _, id := range []string{email, tea, lima} {
		got := refs(t, s, u, id)
		if want := []string{"message:m1", "message:m2"}; !reflect.DeepEqual(sources(got), want) {
			t.Errorf("after restating, references of %s = %v, want %v", id, sources(got), want)
		}
		if len(got) == 2 && (got[0].FactID != id || got[1].At.Before(got[0].At)) {
			t.Errorf("references of %s = %+v, want this fact's, oldest first", id, got)
		}
	}

	// A new value supersedes: the new fact gets a reference, the old one keeps its own.
	res = apply(t, e, u, sheetOp("contact.email", "b@example.com", factbase.Core, m2))
	newEmail := res.Facts[0].ID
	if got := len(refs(t, s, u, newEmail)); got != 1 {
		t.Errorf("superseding fact has %d references, want 1", got)
	}
	if got := len(refs(t, s, u, email)); got != 2 {
		t.Errorf("superseded fact has %d references, want 2 (kept in history)", got)
	}
	// Retracting adds none.
	apply(t, e, u, factbase.Op{Kind: factbase.OpRetract, ID: tea})
	if got := len(refs(t, s, u, tea)); got != 2 {
		t.Errorf("after retracting, %d references, want 2", got)
	}

	// Used in an answer.
	n, err := e.RecordReferences(ctx, u, []string{lima, lima, "no-such-fact"}, factbase.Source{Kind: factbase.SourceAnswer})
	if err != nil || n != 1 {
		t.Errorf("RecordReferences = %d, %v; want 1 stored (duplicate and unknown ids skipped)", n, err)
	}
	if got, want := sources(refs(t, s, u, lima)), []string{"message:m1", "message:m2", "answer:"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after an answer, references of lima = %v, want %v", got, want)
	}

	// Another user cannot reference, nor see the references of, u's facts.
	if n := addRefs(t, e, other, factbase.Reference{FactID: lima, Source: m1}); n != 0 {
		t.Errorf("another user's AddReferences to u's fact stored %d, want 0", n)
	}
	if n := addRefs(t, e, u, factbase.Reference{FactID: "no-such-fact", Source: m1}); n != 0 {
		t.Errorf("AddReferences of one unknown id stored %d, want 0", n)
	}
	if got := refs(t, s, other, lima); len(got) != 0 {
		t.Errorf("another user sees %d references of u's fact", len(got))
	}
	if got := len(refs(t, s, u, lima)); got != 3 {
		t.Errorf("u's fact has %d references after the other user's attempt, want 3", got)
	}

	// A zero At takes the transaction's time; an explicit one is kept.
	at := time.Date(2020, 5, 1, 10, 0, 0, 123, time.UTC)
	if n := addRefs(t, e, u, factbase.Reference{FactID: newEmail, At: at, Source: m1}); n != 1 {
		t.Fatalf("AddReferences stored %d, want 1", n)
	}
	if got := refs(t, s, u, newEmail); len(got) != 2 || !got[0].At.Equal(at) {
		t.Errorf("references = %+v, want the one at %v first", got, at)
	}

	// Many references in one call, unknown ids among them, keep their order.
	many := make([]factbase.Reference, 25_000)
	for i := range many {
		many[i] = factbase.Reference{FactID: tea, At: at.Add(time.Duration(i%7) * time.Second), Source: factbase.Source{Kind: "bulk", ID: fmt.Sprint(i)}}
		if i%5 == 0 {
			many[i].FactID = "unknown"
		}
	}
	if n := addRefs(t, e, u, many...); n != 20_000 {
		t.Errorf("AddReferences(25,000, a fifth unknown) stored %d, want 20,000", n)
	}
	if got := refs(t, s, u, tea); len(got) != 20_002 || got[0].Source.ID != "7" || got[1].Source.ID != "14" || !got[0].At.Equal(at) {
		t.Errorf("bulk references: %d, first %+v %+v; want 20,002, oldest first, recorded order among equal times", len(got), got[0], got[1])
	}

	// Erasing a fact erases its references.
	apply(t, e, u, factbase.Op{Kind: factbase.OpDelete, ID: lima})
	if got := refs(t, s, u, lima); len(got) != 0 {
		t.Errorf("after erasing, %d references remain", len(got))
	}
}

// testSheetFacts: the store counts a user's current facts' references per cut-off.
func testSheetFacts(t *testing.T, s factbase.Store) {
	ctx := context.Background()
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	u, other := NewUser(), NewUser()
	src := factbase.Source{Kind: factbase.SourceManual}
	res := apply(t, e, u, sheetOp("a", "1", factbase.Core, src), sheetOp("b", "1", factbase.Project, src),
		factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "c", Value: "x", Sensitivity: factbase.High, Text: " \u3000\t"}})
	a, b, c := res.Facts[0].ID, res.Facts[1].ID, res.Facts[2].ID
	apply(t, e, other, sheetOp("z", "1", factbase.Core, src))
	apply(t, e, u, sheetOp("b", "2", factbase.Project, src)) // b is no longer current
	b2 := apply(t, e, u, sheetOp("b", "2", factbase.Project, src)).Facts[0].ID

	base := time.Date(2000, 1, 10, 0, 0, 0, 0, time.UTC) // before the store's clock
	cuts := []time.Time{base.Add(-time.Hour), base.Add(-24 * time.Hour)}
	addRefs(t, e, u,
		factbase.Reference{FactID: a, At: base.Add(-time.Minute)},
		factbase.Reference{FactID: a, At: base.Add(-time.Hour)}, // exactly on a cut-off: not after it
		factbase.Reference{FactID: a, At: base.Add(-48 * time.Hour)},
		factbase.Reference{FactID: a, At: base.Add(time.Hour)}, // in the future of the cuts
		factbase.Reference{FactID: b, At: base},
		factbase.Reference{FactID: c, At: time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC)}, // before 1970
	)
	got := map[string]factbase.SheetFact{}
	err := s.View(ctx, u, func(tx factbase.ReadTx) error {
		return tx.SheetFacts(ctx, cuts, func(f factbase.SheetFact) error {
			if _, dup := got[f.ID]; dup {
				return fmt.Errorf("fact %s walked twice", f.ID)
			}
			f.Newer = append([]int(nil), f.Newer...) // fn must copy it to keep it
			got[f.ID] = f
			return nil
		})
	})
	if err != nil {
		t.Fatalf("SheetFacts: %v", err)
	}
	if len(got) != 3 {
		t.Fatalf("SheetFacts walked %d facts, want 3 (a, c, b's current version): %v", len(got), got)
	}
	if _, ok := got[b]; ok {
		t.Errorf("SheetFacts walked the superseded fact b")
	}
	fa := got[a]
	// a: its write-path reference (the store's now) plus the four above.
	if fa.References != 5 || fa.Category != factbase.Core || fa.Text != "a is 1" {
		t.Errorf("a = %+v, want 5 references, core, text %q", fa, "a is 1")
	}
	// Strictly after base-1h: -1m, +1h and the write-path one (the store's now);
	// after base-24h: also -1h.
	if want := []int{3, 4}; !reflect.DeepEqual(fa.Newer, want) {
		t.Errorf("a.Newer = %v, want %v", fa.Newer, want)
	}
	if fa.Last.Before(base.Add(time.Hour)) {
		t.Errorf("a.Last = %v, want at least %v", fa.Last, base.Add(time.Hour))
	}
	if fc := got[c]; fc.Sensitivity != factbase.High || fc.Category != factbase.Transient || fc.References != 2 ||
		!reflect.DeepEqual(fc.Newer, []int{1, 1}) {
		t.Errorf("c = %+v, want sensitivity high, transient, 2 references, 1 after each cut-off", fc)
	}
	// c's text is blank (white space only, Unicode's included): the sheet shows its
	// key and value, so the store must send them.
	if fc := got[c]; strings.TrimSpace(fc.Text) != "" || fc.Key != "c" || fc.Value != "x" {
		t.Errorf("c = %+v, want a blank text with key c and value x", fc)
	}
	if fb := got[b2]; fb.References != 2 || fb.Category != factbase.Project {
		t.Errorf("b's current version = %+v, want 2 references (stored, restated), project", fb)
	}

	// No cut-offs: counts only. A cut-off before 1970 counts the 1960 reference on
	// the right side.
	for _, cs := range [][]time.Time{nil, {time.Date(1959, 12, 31, 0, 0, 0, 0, time.UTC), time.Date(1960, 1, 1, 0, 0, 0, 1, time.UTC)}} {
		var fc factbase.SheetFact
		err = s.View(ctx, u, func(tx factbase.ReadTx) error {
			return tx.SheetFacts(ctx, cs, func(f factbase.SheetFact) error {
				if f.ID == c {
					fc = f
					fc.Newer = append([]int{}, f.Newer...)
				}
				return nil
			})
		})
		if want := map[int][]int{0: {}, 2: {2, 1}}[len(cs)]; err != nil || fc.References != 2 || !reflect.DeepEqual(fc.Newer, want) {
			t.Errorf("SheetFacts(%v): c = %+v, %v; want 2 references, Newer %v", cs, fc, err, want)
		}
	}
	// An error from fn stops the walk and is returned.
	stop := fmt.Errorf("stop")
	calls := 0
	err = s.View(ctx, u, func(tx factbase.ReadTx) error {
		return tx.SheetFacts(ctx, cuts, func(factbase.SheetFact) error { calls++; return stop })
	})
	if err != stop || calls != 1 {
		t.Errorf("SheetFacts with a failing fn = %v after %d calls, want stop after 1", err, calls)
	}
	// A user without facts walks nothing.
	err = s.View(ctx, NewUser(), func(tx factbase.ReadTx) error {
		return tx.SheetFacts(ctx, cuts, func(f factbase.SheetFact) error { return fmt.Errorf("walked %s", f.ID) })
	})
	if err != nil {
		t.Errorf("SheetFacts for a new user: %v", err)
	}
}

func savedSheet(u factbase.UserID, id string, at time.Time, factIDs ...string) factbase.FactSheet {
	sh := factbase.FactSheet{ID: id, User: u, CreatedAt: at, Entries: []factbase.SheetEntry{}, Dedup: []factbase.SheetDedup{}}
	for i, f := range factIDs {
		sh.Entries = append(sh.Entries, factbase.SheetEntry{FactID: f, Category: factbase.Core, Text: "fact " + f,
			Score: float64(100 - i), LastReference: at.Add(-time.Minute),
			Explain: factbase.SheetExplain{Weight: 10, References: 1, Buckets: []factbase.SheetBucket{{Label: "<1h", Count: 1, Points: 10, Subtotal: 10}},
				ReferenceScore: 10, Included: "minimum"}})
	}
	sh.Count = len(sh.Entries)
	return sh
}

// testSheets: saved sheets round-trip, the latest is served, old ones are deleted on
// save, and erasing a fact removes it from every saved sheet.
func testSheets(t *testing.T, s factbase.Store) {
	ss := s
	ctx := context.Background()
	e := memory.New(s, memory.Options{NoSheetRegen: true}) // only the sheets saved below
	u, other := NewUser(), NewUser()
	if _, err := ss.LatestSheet(ctx, u); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Fatalf("LatestSheet with none = %v, want ENOTFOUND", err)
	}
	res := apply(t, e, u, sheetOp("a", "1", factbase.Core, factbase.Source{}), sheetOp("b", "1", factbase.Core, factbase.Source{}),
		sheetOp("c", "1", factbase.Core, factbase.Source{}))
	a, b, c := res.Facts[0].ID, res.Facts[1].ID, res.Facts[2].ID
	day := 24 * time.Hour
	t0 := time.Date(2026, 2, 1, 12, 0, 0, 0, time.UTC)

	old := savedSheet(u, "sheet-old", t0, a, b)
	if n, err := ss.SaveSheet(ctx, old, 7*day); err != nil || n != 0 {
		t.Fatalf("SaveSheet(first) = %d, %v; want 0 deleted", n, err)
	}
	got, err := ss.LatestSheet(ctx, u)
	if err != nil {
		t.Fatalf("LatestSheet: %v", err)
	}
	if !reflect.DeepEqual(got, old) {
		t.Fatalf("LatestSheet = %+v, want %+v", got, old)
	}
	if _, err := ss.SaveSheet(ctx, old, 7*day); factbase.ErrorCode(err) != factbase.ECONFLICT {
		t.Errorf("saving the same id again = %v, want ECONFLICT", err)
	}
	for _, tc := range []struct {
		name string
		sh   factbase.FactSheet
		ret  time.Duration
	}{
		{"zero retention", savedSheet(u, "x1", t0), 0},
		{"no id", savedSheet(u, "", t0), day},
		{"no time", savedSheet(u, "x2", time.Time{}), day},
		{"bad user", savedSheet("alice", "x3", t0), day},
	} {
		if _, err := ss.SaveSheet(ctx, tc.sh, tc.ret); factbase.ErrorCode(err) != factbase.EINVALID {
			t.Errorf("SaveSheet(%s) = %v, want EINVALID", tc.name, err)
		}
	}

	// Six days later: kept. Eight days after the first: the first is deleted, the
	// second (two days old) kept. Another user's sheets are untouched.
	if _, err := ss.SaveSheet(ctx, savedSheet(other, "sheet-other", t0), 7*day); err != nil {
		t.Fatal(err)
	}
	mid := savedSheet(u, "sheet-mid", t0.Add(6*day), b)
	if n, err := ss.SaveSheet(ctx, mid, 7*day); err != nil || n != 0 {
		t.Fatalf("SaveSheet(6 days later) = %d, %v; want 0 deleted", n, err)
	}
	last := savedSheet(u, "sheet-last", t0.Add(8*day), c, b, a)
	last.Dedup = []factbase.SheetDedup{{Dropped: a, Kept: c, Reason: sheet.ReasonLowerScore}, {Dropped: "f-gone", Kept: b, Reason: sheet.ReasonGreaterID}}
	if n, err := ss.SaveSheet(ctx, last, 7*day); err != nil || n != 1 {
		t.Fatalf("SaveSheet(8 days later) = %d, %v; want 1 deleted", n, err)
	}
	if got, err := ss.LatestSheet(ctx, u); err != nil || !reflect.DeepEqual(got, last) {
		t.Fatalf("LatestSheet = %+v, %v; want %+v", got, err, last)
	}
	if got, err := ss.LatestSheet(ctx, other); err != nil || got.ID != "sheet-other" {
		t.Errorf("other user's LatestSheet = %v, %v; want sheet-other", got.ID, err)
	}
	// A sheet created earlier than the latest does not replace it as the latest.
	if _, err := ss.SaveSheet(ctx, savedSheet(u, "sheet-late-save", t0.Add(7*day), a), 7*day); err != nil {
		t.Fatal(err)
	}
	if got, _ := ss.LatestSheet(ctx, u); got.ID != "sheet-last" {
		t.Errorf("LatestSheet = %s, want sheet-last (the most recently created)", got.ID)
	}

	// Erasing fact a removes it from every saved sheet: entries, count and dedup records.
	apply(t, e, u, factbase.Op{Kind: factbase.OpDelete, ID: a})
	got, err = ss.LatestSheet(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	want := savedSheet(u, "sheet-last", t0.Add(8*day), c, b)
	want.Dedup = []factbase.SheetDedup{{Dropped: "f-gone", Kept: b, Reason: sheet.ReasonGreaterID}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after erasing %s, LatestSheet = %+v, want %+v", a, got, want)
	}
}

// testSheetEndToEnd: generating through the engine reads the store and saves the
// sheet; the example (100 core, 0 technical, 10 project, 500 transient facts,
// each referenced once just now) gives 50 core, 10 project and 40 transient entries.
func testSheetEndToEnd(t *testing.T, s factbase.Store) {
	ctx := context.Background()
	e, u := newEngine(s)
	var ops []factbase.Op
	for _, g := range []struct {
		cat factbase.Category
		n   int
	}{{factbase.Core, 100}, {factbase.Project, 10}, {factbase.Transient, 500}} {
		for i := range g.n {
			ops = append(ops, sheetOp(fmt.Sprintf("%s.k%03d", g.cat, i), "v", g.cat, factbase.Source{Kind: factbase.SourceMessage}))
		}
	}
	apply(t, e, u, ops...)
	sh, err := e.GenerateSheet(ctx, u, core.SheetOptions{})
	if err != nil {
		t.Fatalf("GenerateSheet: %v", err)
	}
	counts := map[factbase.Category]int{}
	for _, en := range sh.Entries {
		counts[en.Category]++
		if en.Explain.References != 1 || en.Explain.Implicit || en.Score != en.Explain.Weight*10 {
			t.Fatalf("entry %+v: want one explicit reference in the <1h bucket (10 points)", en)
		}
	}
	if sh.Count != 100 || counts[factbase.Core] != 50 || counts[factbase.Technical] != 0 ||
		counts[factbase.Project] != 10 || counts[factbase.Transient] != 40 {
		t.Errorf("sheet has %d entries %v, want 100: 50 core, 10 project, 40 transient", sh.Count, counts)
	}
	latest, err := e.LatestSheet(ctx, u)
	if err != nil || !reflect.DeepEqual(latest, sh) {
		t.Errorf("LatestSheet = %+v, %v; want the generated sheet", latest.ID, err)
	}
	if sh.User != u || sh.ID == "" || sh.CreatedAt.IsZero() {
		t.Errorf("sheet id %q, user %q, created %v; want all set", sh.ID, sh.User, sh.CreatedAt)
	}
}
