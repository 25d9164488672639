package memory_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/storetest"
)

// countingStore counts the transactions the engine opens (the store's own
// SaveSheet is not counted: it is one store method).
type countingStore struct {
	factbase.Store
	updates, views atomic.Int64
}

func (s *countingStore) Update(ctx context.Context, u factbase.UserID, fn func(factbase.Tx) error) error {
	s.updates.Add(1)
	return s.Store.Update(ctx, u, fn)
}

func (s *countingStore) View(ctx context.Context, u factbase.UserID, fn func(factbase.ReadTx) error) error {
	s.views.Add(1)
	return s.Store.View(ctx, u, fn)
}

func openCounting(t *testing.T) *countingStore {
	t.Helper()
	return &countingStore{Store: openStore(t, "", nil)}
}

// TestSayTransactions: Say of one message reads in one snapshot and writes in one
// transaction; the fact sheet's regeneration adds one read of its own. With the
// embedder (topics compared with the user's own) nothing more is read.
func TestSayTransactions(t *testing.T) {
	for _, withEmbedder := range []bool{false, true} {
		cs := openCounting(t)
		o := memory.Options{}
		if withEmbedder {
			o.Embedder = embed.NewHash(64)
		}
		e := memory.New(cs, o)
		u := storetest.NewUser()
		ctx := t.Context()
		for _, msg := range []string{
			"My favorite cryptos are BTC, ETH, and XMR",
			"Remove ETH from my favorite cryptos. My email is kim@example.com",
			"Replace XMR with SOL in my favorite cryptos",
			"My sister Ana lives in Quito.",
		} {
			cs.updates.Store(0)
			cs.views.Store(0)
			res, err := e.Chat.Say(ctx, u, msg)
			if err != nil {
				t.Fatalf("Say(%q): %v", msg, err)
			}
			if res.Result.Stored == 0 && res.Result.Retracted == 0 {
				t.Errorf("Say(%q) wrote nothing: %+v", msg, res)
			}
			if got := cs.updates.Load(); got != 1 {
				t.Errorf("Say(%q), embedder %v: %d write transactions, want 1", msg, withEmbedder, got)
			}
			if got := cs.views.Load(); got != 2 {
				t.Errorf("Say(%q), embedder %v: %d read snapshots, want 2 (the plan's and the sheet's)", msg, withEmbedder, got)
			}
		}
		got := storetest.ListState(t, e, u, "favorites.cryptocurrency")
		if len(got) != 2 || got[0] != "BTC" || got[1] != "SOL" {
			t.Errorf("favorite cryptos %v, want [BTC SOL]", got)
		}
	}
}

// TestUpdate: a feature reads, decides and writes in one transaction; the writes
// go through the write path (its invariants checked, its result counted), and any
// error leaves nothing behind.
func TestUpdate(t *testing.T) {
	ctx := t.Context()
	e := memory.New(openCounting(t), memory.Options{})
	u := storetest.NewUser()
	mustApply(t, e, u, set("favorites.tea", "Sencha"), set("favorites.tea", "Oolong"))
	// Read the list's length and append "one more than there are" in one go.
	res, err := e.Update(ctx, u, func(w *core.Writer) error {
		n, err := w.Tx().MaxRank(ctx, factbase.SubjectUser, "favorites.tea")
		if err != nil {
			return err
		}
		if err := w.Apply(set("favorites.tea", "Matcha")); err != nil {
			return err
		}
		return w.Apply(set("tea.count", string(rune('0'+n+1))))
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stored != 2 || len(res.Mutations) != 1 || res.Mutations[0].To != 3 {
		t.Errorf("Update result %+v, want 2 stored and Matcha appended at #3", res)
	}
	if got, err := e.Get(ctx, u, "", "tea.count", nil); err != nil || len(got) != 1 || got[0].Value != "3" {
		t.Errorf("tea.count = %v %v, want 3", got, err)
	}

	// An invalid op, a failing step or a broken invariant keeps nothing.
	boom := errors.New("boom")
	for name, fn := range map[string]func(w *core.Writer) error{
		"invalid op": func(w *core.Writer) error {
			if err := w.Apply(set("favorites.tea", "Earl Grey")); err != nil {
				return err
			}
			return w.Apply(factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "", Value: "x"}})
		},
		"failing step": func(w *core.Writer) error {
			if err := w.Apply(set("favorites.tea", "Earl Grey")); err != nil {
				return err
			}
			return boom
		},
		"broken invariant": func(w *core.Writer) error {
			if err := w.Apply(set("favorites.tea", "Earl Grey")); err != nil {
				return err
			}
			f := factbase.Fact{ID: "dup", Key: "favorites.tea", Value: "Sencha again", Subject: factbase.SubjectUser,
				Cardinality: factbase.Ranked, Rank: 1, Current: true, RecordedAt: w.Tx().Now(), ValidFrom: w.Tx().Now(),
				Category: factbase.Transient, ValueType: factbase.String, Confidence: 1}
			return w.Tx().Insert(ctx, f, "sencha")
		},
	} {
		if _, err := e.Update(ctx, u, fn); err == nil {
			t.Errorf("%s: Update succeeded", name)
		}
		if got := storetest.ListState(t, e, u, "favorites.tea"); len(got) != 3 {
			t.Errorf("%s: list %v after a failed Update, want the 3 members before it", name, got)
		}
	}
}

// answerRefs counts the references of source "answer" of fact id.
func answerRefs(t *testing.T, s factbase.Store, u factbase.UserID, id string) int {
	t.Helper()
	n := 0
	for _, r := range references(t, s, u, id) {
		if r.Source.Kind == factbase.SourceAnswer {
			n++
		}
	}
	return n
}

func TestAnswerReferences(t *testing.T) {
	ctx := t.Context()
	for _, delay := range []time.Duration{0, time.Hour} {
		t.Run(delay.String(), func(t *testing.T) {
			var bgErrs []error
			e := newEngine(t, memory.Options{BackgroundDelay: delay, BackgroundError: func(err error) { bgErrs = append(bgErrs, err) }})
			s, u := e.Store(), storetest.NewUser()
			id := mustApply(t, e, u, set("contact.email", "a@example.com")).Facts[0].ID
			for range 3 {
				ask, err := e.Chat.Ask(ctx, u, "What is my email?")
				if err != nil || len(ask.Items) != 1 || ask.Items[0].ID != id {
					t.Fatalf("Ask = %+v, %v", ask, err)
				}
			}
			want := 3
			if delay > 0 {
				want = 0 // queued, not written: the hour has not passed
			}
			if got := answerRefs(t, s, u, id); got != want {
				t.Errorf("before Flush: %d answer references, want %d", got, want)
			}
			e.Flush()
			if got := answerRefs(t, s, u, id); got != 3 {
				t.Errorf("after Flush: %d answer references, want 3", got)
			}
			// After Close, answers record their own references again.
			e.Close()
			if _, err := e.Chat.Ask(ctx, u, "What is my email?"); err != nil {
				t.Fatal(err)
			}
			if got := answerRefs(t, s, u, id); got != 4 {
				t.Errorf("after Close and one more answer: %d answer references, want 4", got)
			}
			if len(bgErrs) > 0 {
				t.Errorf("background errors: %v", bgErrs)
			}
		})
	}
}

// TestAnswerReferencesConcurrent: answers from many goroutines, flushes in between,
// a user erased while references are queued; every reference of a fact that still
// exists is written exactly once.
func TestAnswerReferencesConcurrent(t *testing.T) {
	ctx := t.Context()
	e := newEngine(t, memory.Options{BackgroundDelay: time.Millisecond})
	u := storetest.NewUser()
	res := mustApply(t, e, u, set("contact.email", "a@example.com"))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				if _, err := e.Chat.Ask(ctx, u, "What is my email?"); err != nil {
					t.Error(err)
					return
				}
				if (g+i)%10 == 0 {
					e.Flush()
				}
			}
		}()
	}
	wg.Wait()
	e.Close()
	if got := answerRefs(t, e.Store(), u, res.Facts[0].ID); got != 200 {
		t.Errorf("%d answer references, want 200", got)
	}
}

// TestBackgroundSheet: with a background delay, writes that change a user's facts
// queue one sheet regeneration, done by the next round (however many writes queued
// it) or first by a read of the sheet; without one, each write regenerates it.
func TestBackgroundSheet(t *testing.T) {
	ctx := t.Context()
	open := func(t *testing.T, delay time.Duration) (factbase.Store, *memory.Engine) {
		e := newEngine(t, memory.Options{BackgroundDelay: delay})
		return e.Store(), e
	}
	saved := func(t *testing.T, s factbase.Store, u factbase.UserID) (factbase.FactSheet, bool) {
		t.Helper()
		fs, err := s.LatestSheet(ctx, u)
		if factbase.ErrorCode(err) == factbase.ENOTFOUND {
			return fs, false
		}
		if err != nil {
			t.Fatal(err)
		}
		return fs, true
	}
	has := func(fs factbase.FactSheet, text string) bool {
		for _, en := range fs.Entries {
			if strings.Contains(en.Text, text) {
				return true
			}
		}
		return false
	}
	say := func(t *testing.T, e *memory.Engine, u factbase.UserID, msg string) {
		t.Helper()
		if _, err := e.Chat.Say(ctx, u, msg); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("sync", func(t *testing.T) {
		s, e := open(t, 0)
		u := storetest.NewUser()
		say(t, e, u, "My email is a@example.com")
		if fs, ok := saved(t, s, u); !ok || !has(fs, "a@example.com") {
			t.Errorf("without a delay the write did not regenerate the sheet: %+v %v", fs, ok)
		}
	})
	t.Run("background", func(t *testing.T) {
		s, e := open(t, time.Hour)
		defer e.Close()
		u := storetest.NewUser()
		say(t, e, u, "My email is a@example.com")
		for _, city := range []string{"Paris", "Rome", "Oslo", "Lima"} {
			say(t, e, u, "My favorite city is "+city)
		}
		if _, ok := saved(t, s, u); ok {
			t.Fatal("the sheet was regenerated in the write, not in the background")
		}
		e.Flush()
		first, ok := saved(t, s, u)
		if !ok || !has(first, "a@example.com") || !has(first, "Lima") {
			t.Fatalf("after Flush: sheet %+v, %v; want one with the email and Lima", first.Entries, ok)
		}
		e.Flush()
		if again, _ := saved(t, s, u); again.ID != first.ID {
			t.Errorf("a round with nothing queued regenerated the sheet: %s, was %s", again.ID, first.ID)
		}
		// A read of a sheet that is due regenerates it first.
		say(t, e, u, "My phone number is 555-0100")
		got, err := e.LatestSheet(ctx, u)
		if err != nil || got.ID == first.ID || !has(got, "555-0100") {
			t.Fatalf("LatestSheet after a write = %s %+v, %v; want a new sheet with the phone", got.ID, got.Entries, err)
		}
		e.Flush()
		if after, _ := saved(t, s, u); after.ID != got.ID {
			t.Errorf("the round regenerated a sheet the read had already made: %s, want %s", after.ID, got.ID)
		}
	})
}

// TestInvisibleCharacters: values that look identical are one value, a value with
// nothing visible is refused, and terminal escapes are not stored.
func TestInvisibleCharacters(t *testing.T) {
	ctx := context.Background()
	e := memory.New(openCounting(t), memory.Options{})
	u := storetest.NewUser()
	var ops []factbase.Op
	for _, v := range []string{"BTC", "B\u200bTC", "\u2060BTC", "BTC\u200d", "\ufeffBTC", "B\u00adTC", "\x1b[1mBTC\x1b[0m"} {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.crypto", Value: v}})
	}
	res, err := e.Apply(ctx, u, ops)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stored != 1 || len(res.Duplicates) != 6 {
		t.Errorf("seven spellings of BTC: stored %d, %d duplicates; want 1 and 6", res.Stored, len(res.Duplicates))
	}
	for _, v := range []string{"\u200b", "\u200b\u200c\ufeff", "\x1b[31m\x1b[0m", "\x00"} {
		_, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "contact.email", Value: v}}})
		if factbase.ErrorCode(err) != factbase.EINVALID {
			t.Errorf("value %q: %v, want EINVALID", v, err)
		}
	}
	res, err = e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "contact.email",
		Value: "\x1b]0;pwned\aa@example.com\x1b[0m", Text: "Email \x1b[5mblinks\x1b[0m"}}})
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Facts[0]; f.Value != "a@example.com" || f.Text != "Email blinks" {
		t.Errorf("stored %q / %q, want the escapes removed", f.Value, f.Text)
	}
}

// TestEraseUserInBatches: a user with more rows than a batch is erased in several
// write transactions, so that other users' writes are not held up for the whole of
// it; the last one checks that nothing is left.
func TestEraseUserInBatches(t *testing.T) {
	ctx := t.Context()
	cs := openCounting(t)
	e := memory.New(cs, memory.Options{NoSheetRegen: true})
	u := storetest.NewUser()
	var ops []factbase.Op
	for i := range 2*core.EraseBatch + 10 {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "likes", Value: fmt.Sprintf("thing %d", i), Cardinality: factbase.Many}})
	}
	if _, err := e.Apply(ctx, u, ops); err != nil {
		t.Fatal(err)
	}
	cs.updates.Store(0)
	res, err := e.EraseUser(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	if res.Removed["facts"] != int64(len(ops)) {
		t.Errorf("removed %v, want %d facts", res.Removed, len(ops))
	}
	// A first batch of EraseBatch rows (later ones sized by time), at least one more
	// over the rest of the facts and their references, and the last transaction.
	if got := cs.updates.Load(); got < 3 {
		t.Errorf("%d write transactions for %d facts, want the erasure in batches of %d", got, len(ops), core.EraseBatch)
	}
}
