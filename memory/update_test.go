package memory_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

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
