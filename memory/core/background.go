package core

import (
	"context"
	"sync"
	"time"

	"github.com/factbase/factbase"
)

// background does the engine's deferrable writes (Options.BackgroundDelay) in one
// goroutine, every delay:
//   - the references of answers: an answer queues the ids it used with the time it
//     was given, and each user's queue is written in one write transaction, so a
//     question never waits for the single writer;
//   - fact sheet regeneration: a write that changed a user's facts marks the user, and
//     each marked user's sheet is regenerated once per round however many writes
//     marked it, instead of once per write. Reading the sheet of a marked user
//     regenerates it first (takeSheet), so a reader never sees it stale.
//
// A crash loses at most the last delay's references, which only weigh on fact sheet
// scores; a lost regeneration is redone by the next write or read.
type background struct {
	e     *Engine
	delay time.Duration

	mu      sync.Mutex
	pending map[factbase.UserID][]factbase.Reference
	sheets  map[factbase.UserID]bool // users whose sheet is to be regenerated
	running bool
	closed  bool
	kick    chan struct{} // a flush is wanted now (Flush, Close)
	flushed *sync.Cond    // signalled after each round; guarded by mu
	rounds  int           // rounds written so far
	stop    chan struct{}
	done    chan struct{}
}

func newBackground(e *Engine, delay time.Duration) *background {
	b := &background{e: e, delay: delay, pending: map[factbase.UserID][]factbase.Reference{},
		sheets: map[factbase.UserID]bool{},
		kick:   make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	b.flushed = sync.NewCond(&b.mu)
	return b
}

// start starts the goroutine if it is not running; the caller holds mu.
func (b *background) start() {
	if !b.running {
		b.running = true
		go b.loop()
	}
}

// markSheet queues the regeneration of user's sheet. It reports false when the
// worker is closed (the caller then regenerates it itself).
func (b *background) markSheet(user factbase.UserID) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return false
	}
	b.sheets[user] = true
	b.start()
	return true
}

// forget drops what is queued for user (the user is being erased).
func (b *background) forget(user factbase.UserID) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.pending, user)
	delete(b.sheets, user)
}

// takeSheet unmarks user and reports whether the user's sheet was waiting to be
// regenerated.
func (b *background) takeSheet(user factbase.UserID) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.sheets[user] {
		return false
	}
	delete(b.sheets, user)
	return true
}

// add queues references to ids, made at time at, by an answer. It reports false when
// the batcher is closed (the caller then records them itself).
func (b *background) add(user factbase.UserID, ids []string, at time.Time) bool {
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
	b.start()
	return true
}

func (b *background) loop() {
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

// round writes every queued reference, one transaction per user, then regenerates
// the marked users' sheets (after the references, which weigh on them).
func (b *background) round() {
	b.mu.Lock()
	batch, sheets := b.pending, b.sheets
	b.pending, b.sheets = map[factbase.UserID][]factbase.Reference{}, map[factbase.UserID]bool{}
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
	for user := range sheets {
		if err := b.e.RegenerateSheet(context.Background(), user); err != nil && factbase.ErrorCode(err) != factbase.ENOTFOUND {
			b.e.backgroundError(err)
		}
	}
	b.mu.Lock()
	b.rounds++
	b.flushed.Broadcast()
	b.mu.Unlock()
}

// flush does what is queued now and returns when it is done.
func (b *background) flush() {
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
func (b *background) closedAndDone() bool {
	select {
	case <-b.done:
		return true
	default:
		return false
	}
}

// close writes what is queued and stops the goroutine; later answers record their
// references, and writes regenerate sheets, synchronously.
func (b *background) close() {
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
	_, err := e.Update(ctx, user, func(w *Writer) error {
		_, err := w.Tx().AddReferences(ctx, refs)
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

// Flush does the work queued for the background (Options.BackgroundDelay): answers'
// references and sheet regenerations; it returns when they are done. Without a delay
// it does nothing.
func (e *Engine) Flush() {
	if e.bg != nil {
		e.bg.flush()
	}
}

// Close writes what background work has queued and stops it. The engine stays usable:
// answers then record their references synchronously. It does not close the store.
func (e *Engine) Close() {
	if e.bg != nil {
		e.bg.close()
	}
}
