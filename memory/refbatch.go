package memory

import (
	"context"
	"sync"
	"time"

	"github.com/factbase/factbase"
)

// refBatcher records the references of answers in the background (Options.
// ReferenceDelay): an answer queues the ids it used with the time it was given, and a
// goroutine writes each user's queue every delay in one write transaction. A question
// then never waits for the single writer; the price is that a crash loses at most the
// last delay's references, which only weigh on fact sheet scores.
type refBatcher struct {
	e     *Engine
	delay time.Duration

	mu      sync.Mutex
	pending map[factbase.UserID][]factbase.Reference
	running bool
	closed  bool
	kick    chan struct{} // a flush is wanted now (Flush, Close)
	flushed *sync.Cond    // signalled after each round; guarded by mu
	rounds  int           // rounds written so far
	stop    chan struct{}
	done    chan struct{}
}

func newRefBatcher(e *Engine, delay time.Duration) *refBatcher {
	b := &refBatcher{e: e, delay: delay, pending: map[factbase.UserID][]factbase.Reference{},
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	b.flushed = sync.NewCond(&b.mu)
	return b
}

// add queues references to ids, made at time at, by an answer. It reports false when
// the batcher is closed (the caller then records them itself).
func (b *refBatcher) add(user factbase.UserID, ids []string, at time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return false
	}
	q := b.pending[user]
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			q = append(q, factbase.Reference{FactID: id, At: at, Source: factbase.Source{Kind: factbase.SourceAnswer}})
		}
	}
	b.pending[user] = q
	if !b.running {
		b.running = true
		go b.loop()
	}
	return true
}

func (b *refBatcher) loop() {
	defer close(b.done)
	t := time.NewTicker(b.delay)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-b.kick:
		case <-b.stop:
			b.round()
			return
		}
		b.round()
	}
}

// round writes every queued reference, one transaction per user.
func (b *refBatcher) round() {
	b.mu.Lock()
	batch := b.pending
	b.pending = map[factbase.UserID][]factbase.Reference{}
	b.mu.Unlock()
	for user, refs := range batch {
		for len(refs) > 0 {
			n := min(len(refs), MaxOps)
			if err := b.e.writeReferenceBatch(context.Background(), user, refs[:n]); err != nil {
				b.e.backgroundError(err)
			}
			refs = refs[n:]
		}
	}
	b.mu.Lock()
	b.rounds++
	b.flushed.Broadcast()
	b.mu.Unlock()
}

// flush writes what is queued now and returns when it is written.
func (b *refBatcher) flush() {
	b.mu.Lock()
	if !b.running {
		b.mu.Unlock()
		return
	}
	// Two rounds: one in progress now may have taken its queue before our caller's
	// references were added; the next one starts after this call and writes them.
	want := b.rounds + 2
	select {
	case b.kick <- struct{}{}:
	default:
	}
	for b.rounds < want && !b.closedAndDone() {
		b.flushed.Wait()
		if b.rounds < want {
			select {
			case b.kick <- struct{}{}:
			default:
			}
		}
	}
	b.mu.Unlock()
}

// closedAndDone reports whether the loop has stopped; the caller holds mu.
func (b *refBatcher) closedAndDone() bool {
	select {
	case <-b.done:
		return true
	default:
		return false
	}
}

// close writes what is queued and stops the goroutine; later answers record their
// references synchronously.
func (b *refBatcher) close() {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return
	}
	b.closed = true
	running := b.running
	b.mu.Unlock()
	if running {
		close(b.stop)
		<-b.done
		b.mu.Lock()
		b.flushed.Broadcast()
		b.mu.Unlock()
	}
}

// writeReferenceBatch stores refs of one user through the write path in one
// transaction; references to facts the user no longer has are skipped by the store.
func (e *Engine) writeReferenceBatch(ctx context.Context, user factbase.UserID, refs []factbase.Reference) error {
	_, err := e.ApplyWith(ctx, user, nil, func(tx factbase.Tx, _ *factbase.Result) error {
		_, err := tx.AddReferences(ctx, refs)
		return err
	})
	return err
}

// backgroundError reports an error of background work to Options.BackgroundError.
func (e *Engine) backgroundError(err error) {
	if e.opts.BackgroundError != nil {
		e.opts.BackgroundError(err)
	}
}

// Flush writes the references that answers queued in the background
// (Options.ReferenceDelay) and returns when they are stored. Without a delay it does
// nothing.
func (e *Engine) Flush() {
	if e.refs != nil {
		e.refs.flush()
	}
}

// Close writes what background work has queued and stops it. The engine stays usable:
// answers then record their references synchronously. It does not close the store.
func (e *Engine) Close() {
	if e.refs != nil {
		e.refs.close()
	}
}
