package memory_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

// answerRefs counts the references of source "answer" of fact id.
func answerRefs(t *testing.T, s factbase.Store, u factbase.UserID, id string) int {
	t.Helper()
	n := 0
	err := s.View(context.Background(), u, func(tx factbase.ReadTx) error {
		rs, err := tx.References(context.Background(), id)
		for _, r := range rs {
			if r.Source.Kind == factbase.SourceAnswer {
				n++
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestAnswerReferences(t *testing.T) {
	ctx := context.Background()
	for _, delay := range []time.Duration{0, time.Hour} {
		t.Run(delay.String(), func(t *testing.T) {
			s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "f.db"), sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var bgErrs []error
			e := memory.New(s, memory.Options{ReferenceDelay: delay, BackgroundError: func(err error) { bgErrs = append(bgErrs, err) }})
			u := storetest.NewUser()
			res, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "contact.email", Value: "a@example.com"}}})
			if err != nil {
				t.Fatal(err)
			}
			id := res.Facts[0].ID
			for range 3 {
				ask, err := e.Ask(ctx, u, "What is my email?")
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
			if _, err := e.Ask(ctx, u, "What is my email?"); err != nil {
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
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "f.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := memory.New(s, memory.Options{ReferenceDelay: time.Millisecond})
	u := storetest.NewUser()
	res, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "contact.email", Value: "a@example.com"}}})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				if _, err := e.Ask(ctx, u, "What is my email?"); err != nil {
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
	if got := answerRefs(t, s, u, res.Facts[0].ID); got != 200 {
		t.Errorf("%d answer references, want 200", got)
	}
}
