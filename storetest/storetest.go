// Package storetest is the conformance suite every factbase.Store must pass. It drives
// a store through the engine's one write path, as the product does, and checks the
// results, the invariants and the isolation between users.
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) factbase.Store { return openMyStore(t) })
//	}
package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/ranked"
)

// Open returns a new, empty store for one test. The suite closes it.
type Open func(t *testing.T) factbase.Store

// Option states a store's documented design where the suite must know it.
type Option func(*config)

type config struct {
	only, except []string
}

// Only runs the named tests of the suite alone (e.g. "RankedAgainstModel"), for a
// store's own variant of the suite.
func Only(names ...string) Option { return func(c *config) { c.only = names } }

// Except leaves the named tests of the suite out: those of a store's own
// primitives that a store built over another store does not offer as they are
// (package sealed: "Reseal" and "SealedIndex", which write a row's raw texts).
func Except(names ...string) Option { return func(c *config) { c.except = names } }

// Run runs the whole conformance suite against stores made by open.
func Run(t *testing.T, open Open, opts ...Option) {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	tests := []struct {
		name string
		fn   func(t *testing.T, s factbase.Store)
	}{
		{"RankedListScenario", testRankedScenario},
		{"RankedAgainstModel", func(t *testing.T, s factbase.Store) { RankedModel(t, s, 300, nil) }},
		{"OneSupersedes", testOneSupersedes},
		{"ManyIsASet", testMany},
		{"RemoveRetractDelete", testRemoveRetractDelete},
		{"AsOf", testAsOf},
		{"Pagination", testPagination},
		{"Invariants", testInvariants},
		{"Validation", testValidation},
		{"UserIsolation", testIsolation},
		{"ConcurrentAppends", testConcurrentAppends},
		{"Transcripts", testTranscripts},
		{"APIKeys", testKeys},
		{"Jobs", testJobs},
		{"Audit", testAudit},
		{"Search", testSearch},
		{"References", testReferences}, {"SheetFacts", testSheetFacts}, {"Sheets", testSheets}, {"SheetEndToEnd", testSheetEndToEnd},
		{"People", testPeople},
		{"PagedReads", testPagedReads},
		{"EraseUser", testEraseUser},
		{"EraseLargeUser", testEraseLargeUser},
		{"Export", testExport},
		{"Settings", testSettings},
		{"Reseal", testReseal},
		{"SealedIndex", testSealedIndex},
	}
	for _, tc := range tests {
		if cfg.only != nil && !slices.Contains(cfg.only, tc.name) || slices.Contains(cfg.except, tc.name) {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			t.Cleanup(func() { s.Close() })
			tc.fn(t, s)
		})
	}
}

// NewUser returns a fresh random user id.
func NewUser() factbase.UserID {
	var b [16]byte
	for i := range b {
		b[i] = byte(rand.IntN(256))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	u, _ := factbase.ParseUserID(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]))
	return u
}

// newEngine returns an engine over s and a new user: the default options but for
// the fact sheet, which the suite does not regenerate after each write (it tests
// the store; memory tests the rule).
func newEngine(s factbase.Store) (*memory.Engine, factbase.UserID) {
	return memory.New(s, memory.Options{NoSheetRegen: true}), NewUser()
}

func add(key, value string) factbase.Op {
	return factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: key, Value: value}}
}

func at(key, value string, rank int) factbase.Op {
	return factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: key, Value: value, Rank: rank}}
}

func apply(t *testing.T, e *memory.Engine, u factbase.UserID, ops ...factbase.Op) factbase.Result {
	t.Helper()
	res, err := e.Apply(context.Background(), u, ops)
	if err != nil {
		t.Fatalf("Apply(%v) error: %v", ops, err)
	}
	return res
}

func values(t *testing.T, e *memory.Engine, u factbase.UserID, key string) []string {
	t.Helper()
	p, err := e.List(context.Background(), u, "", key, 0, core.MaxPageSize, nil)
	if err != nil {
		t.Fatalf("List(%s): %v", key, err)
	}
	out := make([]string, len(p.Items))
	for i, f := range p.Items {
		if f.Rank != i+1 {
			t.Fatalf("List(%s) item %d has rank %d", key, i, f.Rank)
		}
		out[i] = f.Value
	}
	return out
}

// rankValues returns the items of a page as "rank:value", space-separated.
func rankValues(items []factbase.Fact) string {
	out := make([]string, len(items))
	for i, f := range items {
		out[i] = fmt.Sprintf("%d:%s", f.Rank, f.Value)
	}
	return strings.Join(out, " ")
}

func equal(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00") && len(a) == len(b)
}

func testRankedScenario(t *testing.T, s factbase.Store) {
	e, u := newEngine(s)
	const key = "favorites.crypto"
	res := apply(t, e, u, add(key, "BTC"), add(key, "ETH"), add(key, "XMR"))
	if res.Stored != 3 || len(res.Mutations) != 3 {
		t.Fatalf("adding three: stored %d, mutations %d, want 3 and 3", res.Stored, len(res.Mutations))
	}
	res = apply(t, e, u, at(key, "XMR", 1))
	if len(res.Mutations) != 1 || res.Mutations[0].Action != factbase.Move || res.Mutations[0].From != 3 || res.Mutations[0].To != 1 || res.Mutations[0].Shifted != 2 {
		t.Fatalf("rank XMR 1: mutations %+v, want one MOVE 3->1 shifting 2", res.Mutations)
	}
	if res.Stored != 0 {
		t.Errorf("a move stored %d facts, want 0", res.Stored)
	}
	if got, want := values(t, e, u, key), []string{"XMR", "BTC", "ETH"}; !equal(got, want) {
		t.Fatalf("after move: %v, want %v", got, want)
	}
	res = apply(t, e, u, add(key, "btc."))
	if len(res.Duplicates) != 1 || res.Duplicates[0].Rank != 2 || res.Duplicates[0].Value != "BTC" || res.Stored != 0 {
		t.Fatalf("adding btc.: %+v, want one duplicate BTC at #2 and nothing stored", res)
	}
	if got, want := values(t, e, u, key), []string{"XMR", "BTC", "ETH"}; !equal(got, want) {
		t.Fatalf("after duplicate: %v, want %v", got, want)
	}
	// INSERT in the middle, APPEND beyond the end, NOOP, and MOVE down.
	res = apply(t, e, u, at(key, "SOL", 2), at(key, "ADA", 99), at(key, "XMR", 1), at(key, "XMR", 4))
	var actions []string
	for _, m := range res.Mutations {
		actions = append(actions, fmt.Sprintf("%s %s %d->%d", m.Action, m.Value, m.From, m.To))
	}
	if got, want := strings.Join(actions, ", "), "INSERT SOL 0->2, APPEND ADA 0->5, NOOP XMR 1->1, MOVE XMR 1->4"; got != want {
		t.Errorf("mutations = %s, want %s", got, want)
	}
	if got, want := values(t, e, u, key), []string{"SOL", "BTC", "ETH", "XMR", "ADA"}; !equal(got, want) {
		t.Fatalf("after batch: %v, want %v", got, want)
	}
	f, ok, err := e.AtRank(context.Background(), u, "", key, 4, nil)
	if err != nil || !ok || f.Value != "XMR" {
		t.Errorf("AtRank(4) = %v, %v, %v; want XMR", f.Value, ok, err)
	}
	if _, ok, err := e.AtRank(context.Background(), u, "", key, 6, nil); err != nil || ok {
		t.Errorf("AtRank(6) = %v, %v; want not found", ok, err)
	}
}

func testOneSupersedes(t *testing.T, s factbase.Store) {
	e, u := newEngine(s)
	ctx := context.Background()
	set := func(v string) factbase.Op { return add("contact.email", v) }
	r1 := apply(t, e, u, set("a@example.com"))
	r2 := apply(t, e, u, set("b@example.com"))
	if r1.Stored != 1 || r1.Updated != 0 || r2.Stored != 1 || r2.Updated != 1 {
		t.Fatalf("results %+v then %+v: want stored 1 each, updated 0 then 1", r1, r2)
	}
	r3 := apply(t, e, u, set("B@example.com "))
	if r3.Stored != 0 || len(r3.Duplicates) != 1 {
		t.Fatalf("same value again: %+v, want a duplicate and nothing stored", r3)
	}
	h, err := historyOf(ctx, e, u, "contact.email")
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 2 || h[0].Value != "b@example.com" || !h[0].Current || h[1].Current || h[1].ValidTo == nil {
		t.Fatalf("history = %+v, want b current then a ended", h)
	}
	if h[0].Supersedes != h[1].ID || h[1].SupersededBy != h[0].ID {
		t.Errorf("supersedes links: %q/%q, want %q/%q", h[0].Supersedes, h[1].SupersededBy, h[1].ID, h[0].ID)
	}
	// Times left unset read back unset, not as the zero instant.
	if h[0].ValidTo != nil || h[0].Anchor != nil || h[1].Anchor != nil || h[0].Rank != 0 {
		t.Errorf("current version: valid to %v, anchors %v and %v, rank %d; want none set", h[0].ValidTo, h[0].Anchor, h[1].Anchor, h[0].Rank)
	}
	if !h[1].ValidTo.Equal(h[0].RecordedAt) || h[1].ValidFrom.After(*h[1].ValidTo) {
		t.Errorf("ended version valid %v to %v, want to %v (its successor's recording)", h[1].ValidFrom, *h[1].ValidTo, h[0].RecordedAt)
	}
	cur, err := e.Get(ctx, u, "", "contact.email", nil)
	if err != nil || len(cur) != 1 || cur[0].Value != "b@example.com" {
		t.Fatalf("Get = %v, %v; want b@example.com", cur, err)
	}
}

func testMany(t *testing.T, s factbase.Store) {
	e := memory.New(s, memory.Options{Cardinalities: factbase.Cardinalities{Prefix: map[string]factbase.Cardinality{"likes.": factbase.Many}}})
	u := NewUser()
	res := apply(t, e, u, add("likes.food", "Sushi"), add("likes.food", "Tacos"), add("likes.food", "sushi!"))
	if res.Stored != 2 || len(res.Duplicates) != 1 || res.Duplicates[0].Value != "Sushi" {
		t.Fatalf("set adds: %+v, want 2 stored and Sushi duplicate", res)
	}
	got, err := e.Get(context.Background(), u, "", "likes.food", nil)
	if err != nil || len(got) != 2 {
		t.Fatalf("Get = %v, %v; want 2 members", got, err)
	}
}

func testRemoveRetractDelete(t *testing.T, s factbase.Store) {
	e, u := newEngine(s)
	ctx := context.Background()
	const key = "favorites.tea"
	apply(t, e, u, add(key, "oolong"), add(key, "sencha"), add(key, "rooibos"), add(key, "chai"))
	res := apply(t, e, u, factbase.Op{Kind: factbase.OpRemove, Fact: factbase.Fact{Key: key, Value: "Sencha"}})
	if res.Retracted != 1 || len(res.Mutations) != 1 || res.Mutations[0].Action != factbase.Remove || res.Mutations[0].Shifted != 2 {
		t.Fatalf("remove: %+v", res)
	}
	if got, want := values(t, e, u, key), []string{"oolong", "rooibos", "chai"}; !equal(got, want) {
		t.Fatalf("after remove: %v, want %v", got, want)
	}
	p, _ := e.List(ctx, u, "", key, 0, 10, nil)
	res = apply(t, e, u, factbase.Op{Kind: factbase.OpRetract, ID: p.Items[0].ID})
	if got, want := values(t, e, u, key), []string{"rooibos", "chai"}; !equal(got, want) || res.Retracted != 1 {
		t.Fatalf("after retract: %v (%+v), want %v", got, res, want)
	}
	h, _ := historyOf(ctx, e, u, key)
	if len(h) != 4 {
		t.Fatalf("history holds %d versions, want 4 (retract and remove keep history)", len(h))
	}
	events := func() (own, others int) {
		t.Helper()
		err := s.View(ctx, u, func(tx factbase.ReadTx) error {
			evs, err := tx.ListEvents(ctx, factbase.SubjectUser, key, time.Now().Add(time.Hour))
			for _, ev := range evs {
				if ev.FactID == p.Items[1].ID {
					own++
				} else {
					others++
				}
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return own, others
	}
	own, others := events()
	if own == 0 || others == 0 {
		t.Fatalf("before delete: %d list events of the fact, %d of others; want some of each", own, others)
	}
	res = apply(t, e, u, factbase.Op{Kind: factbase.OpDelete, ID: p.Items[1].ID})
	if res.Deleted != 1 {
		t.Fatalf("delete: %+v", res)
	}
	// Erasure takes the fact's list events with it, and only them.
	if own2, others2 := events(); own2 != 0 || others2 != others {
		t.Fatalf("after delete: %d list events of the fact (want 0), %d of others (want %d)", own2, others2, others)
	}
	if got, want := values(t, e, u, key), []string{"chai"}; !equal(got, want) {
		t.Fatalf("after delete: %v, want %v", got, want)
	}
	if _, err := e.Fact(ctx, u, p.Items[1].ID); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("deleted fact still readable: %v", err)
	}
	res = apply(t, e, u, factbase.Op{Kind: factbase.OpDelete, Fact: factbase.Fact{Key: key}})
	if res.Deleted != 3 {
		t.Errorf("delete key erased %d rows, want 3", res.Deleted)
	}
	if h, _ := historyOf(ctx, e, u, key); len(h) != 0 {
		t.Errorf("history after erasing the key: %d rows, want 0", len(h))
	}
	_, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpDelete, ID: "nope"}})
	if factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("delete unknown id: %v, want not found", err)
	}
}

func testAsOf(t *testing.T, s factbase.Store) {
	e, u := newEngine(s)
	ctx := context.Background()
	const key = "favorites.city"
	apply(t, e, u, add(key, "Rome"), add(key, "Oslo"), add(key, "Lima"), add("home.city", "Rome"))
	mid := time.Now()
	time.Sleep(2 * time.Millisecond)
	apply(t, e, u, at(key, "Lima", 1), factbase.Op{Kind: factbase.OpRemove, Fact: factbase.Fact{Key: key, Value: "Oslo"}}, add("home.city", "Paris"))
	p, err := e.List(ctx, u, "", key, 0, 10, &mid)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rankValues(p.Items), "1:Rome 2:Oslo 3:Lima"; got != want {
		t.Errorf("list as of before the changes = %s, want %s", got, want)
	}
	if now := values(t, e, u, key); !equal(now, []string{"Lima", "Rome"}) {
		t.Errorf("list now = %v", now)
	}
	old, err := e.Get(ctx, u, "", "home.city", &mid)
	if err != nil || len(old) != 1 || old[0].Value != "Rome" {
		t.Errorf("home.city as of before = %v, %v; want Rome", old, err)
	}
	before := mid.Add(-time.Hour)
	if f, err := e.Get(ctx, u, "", "home.city", &before); err != nil || len(f) != 0 {
		t.Errorf("home.city before anything was said = %v, %v; want none", f, err)
	}
}

func testPagination(t *testing.T, s factbase.Store) {
	e, u := newEngine(s)
	ctx := context.Background()
	var ops []factbase.Op
	for i := 1; i <= 250; i++ {
		ops = append(ops, add("favorites.n", fmt.Sprintf("n%03d", i)))
	}
	apply(t, e, u, ops...)
	p, err := e.List(ctx, u, "", "favorites.n", 0, 0, nil)
	if err != nil || len(p.Items) != core.DefaultPageSize || p.Total != 250 {
		t.Fatalf("default page: %d items of %d, %v", len(p.Items), p.Total, err)
	}
	p, err = e.List(ctx, u, "", "favorites.n", 200, 100, nil)
	if err != nil || len(p.Items) != 50 || p.Items[0].Value != "n201" || p.Items[0].Rank != 201 {
		t.Fatalf("last page: %d items, first %+v, %v", len(p.Items), p.Items, err)
	}
	if _, err := e.List(ctx, u, "", "favorites.n", 0, core.MaxPageSize+1, nil); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("limit over max: %v, want invalid", err)
	}
}

// testInvariants corrupts a transaction on purpose in each way the invariants forbid
// and the Tx can write, and checks that the commit is refused with EINVARIANT and
// nothing changes. Ranks are derived from positions (ranked/positions.go), so a rank
// gap cannot be written; each store's own tests provoke two members at one
// position with SQL.
func testInvariants(t *testing.T, s factbase.Store) {
	ctx := context.Background()
	cases := []struct {
		name    string
		corrupt func(ctx context.Context, tx factbase.Tx) error
	}{
		{"a value twice in a list", func(ctx context.Context, tx factbase.Tx) error {
			return tx.Insert(ctx, rawFact(tx, "favorites.x", factbase.Ranked, "a.", 4), "a")
		}},
		{"two current facts for a one key", func(ctx context.Context, tx factbase.Tx) error {
			return tx.Insert(ctx, rawFact(tx, "contact.email", factbase.One, "z@example.com", 0), "z@example.com")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u := NewUser()
			setup := memory.New(s, memory.Options{NoSheetRegen: true})
			apply(t, setup, u, add("favorites.x", "A"), add("favorites.x", "B"), add("favorites.x", "C"), add("contact.email", "a@example.com"))
			before := dump(t, setup, u)
			e := memory.New(s, memory.Options{BeforeCheck: tc.corrupt, NoSheetRegen: true})
			_, err := e.Apply(ctx, u, []factbase.Op{add("favorites.x", "E")})
			if factbase.ErrorCode(err) != factbase.EINVARIANT {
				t.Fatalf("Apply with %s: err %v, want invariant", tc.name, err)
			}
			if after := dump(t, setup, u); after != before {
				t.Errorf("store changed after a refused write:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

func rawFact(tx factbase.Tx, key string, card factbase.Cardinality, value string, rank int) factbase.Fact {
	now := tx.Now()
	return factbase.Fact{ID: fmt.Sprintf("corrupt-%d", rand.Int64()), Subject: factbase.SubjectUser, Key: key, Cardinality: card,
		Value: value, Rank: rank, ValueType: factbase.String, Category: factbase.Transient, Confidence: 1,
		RecordedAt: now, ValidFrom: now, Current: true}
}

func dump(t *testing.T, e *memory.Engine, u factbase.UserID) string {
	t.Helper()
	facts, err := e.Facts(context.Background(), u, factbase.FactFilter{History: true})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range facts {
		fmt.Fprintf(&b, "%s=%s#%d/%v;", f.Key, f.Value, f.Rank, f.Current)
	}
	return b.String()
}

func testValidation(t *testing.T, s factbase.Store) {
	e, u := newEngine(s)
	ctx := context.Background()
	cases := []struct {
		name string
		user factbase.UserID
		op   factbase.Op
	}{
		{"user not a UUID", "alice", add("favorites.x", "A")},
		{"empty key", u, add("", "A")},
		{"empty value", u, add("favorites.x", "  ")},
		{"punctuation only", u, add("favorites.x", "?!")},
		{"negative rank", u, at("favorites.x", "A", -1)},
		{"rank on a one key", u, at("contact.email", "a@b", 2)},
		{"text too long", u, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "k", Value: "v", Text: strings.Repeat("x", 201)}}},
		{"confidence above 1", u, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "k", Value: "v", Confidence: 1.5}}},
		{"bad category", u, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "k", Value: "v", Category: "misc"}}},
		{"bad kind", u, factbase.Op{Kind: "upsert", Fact: factbase.Fact{Key: "k", Value: "v"}}},
		{"invalid UTF-8", u, add("k", "\xff\xfe")},
	}
	for _, tc := range cases {
		_, err := e.Apply(ctx, tc.user, []factbase.Op{tc.op})
		if factbase.ErrorCode(err) != factbase.EINVALID {
			t.Errorf("%s: err %v, want invalid", tc.name, err)
		}
	}
	if got := dump(t, e, u); got != "" {
		t.Errorf("refused writes stored %s", got)
	}
}

func testIsolation(t *testing.T, s factbase.Store) {
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	ctx := context.Background()
	a, b := NewUser(), NewUser()
	res := apply(t, e, a, add("favorites.x", "A"), add("contact.email", "a@example.com"))
	if got := values(t, e, b, "favorites.x"); len(got) != 0 {
		t.Errorf("user b sees a's list: %v", got)
	}
	if _, err := e.Fact(ctx, b, res.Facts[0].ID); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("user b reads a's fact by id: %v", err)
	}
	if _, err := e.Apply(ctx, b, []factbase.Op{{Kind: factbase.OpDelete, ID: res.Facts[0].ID}}); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("user b deletes a's fact: %v", err)
	}
	apply(t, e, b, add("favorites.x", "A"))
	if got := values(t, e, a, "favorites.x"); !equal(got, []string{"A"}) {
		t.Errorf("a's list after b wrote the same value: %v", got)
	}
}

// testConcurrentAppends: 32 goroutines each append 100 distinct values, and each value
// a second time, to one list: exactly 3,200 members ranked 1..3,200 and 3,200
// duplicates reported.
func testConcurrentAppends(t *testing.T, s factbase.Store) {
	e, u := newEngine(s)
	ctx := context.Background()
	const workers, each = 32, 100
	var (
		wg         sync.WaitGroup
		mu         sync.Mutex
		stored     int
		duplicates int
		errs       []error
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each*2; i++ {
				v := fmt.Sprintf("w%02d-%03d", w, i%each)
				res, err := e.Apply(ctx, u, []factbase.Op{add("favorites.load", v)})
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				}
				stored += res.Stored
				duplicates += len(res.Duplicates)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("concurrent appends failed: %v", err)
	}
	if stored != workers*each || duplicates != workers*each {
		t.Errorf("stored %d, duplicates %d; want %d each", stored, duplicates, workers*each)
	}
	p, err := e.List(ctx, u, "", "favorites.load", 0, core.MaxPageSize, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Total != workers*each {
		t.Errorf("list length %d, want %d", p.Total, workers*each)
	}
	ranks := make([]int, 0, p.Total)
	for off := 0; off < p.Total; off += core.MaxPageSize {
		page, err := e.List(ctx, u, "", "favorites.load", off, core.MaxPageSize, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range page.Items {
			ranks = append(ranks, f.Rank)
		}
	}
	if err := ranked.Check(ranks); err != nil || len(ranks) != workers*each {
		t.Errorf("ranks: %d of them, check %v", len(ranks), err)
	}
}

// historyOf returns every version of the user's key (subject user), newest first:
// the engine's pages, all of them.
func historyOf(ctx context.Context, e *memory.Engine, u factbase.UserID, key string) ([]factbase.Fact, error) {
	var out []factbase.Fact
	for off := 0; ; {
		p, err := e.History(ctx, u, "", key, off, core.MaxPageSize)
		if err != nil {
			return nil, err
		}
		out = append(out, p.Versions...)
		if !p.More {
			return out, nil
		}
		off += len(p.Versions)
	}
}
