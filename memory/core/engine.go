// Package core is the engine's core: the one write path (Update, Apply) over a
// Store with the invariants checked before commit, the reads built on it, the
// references that score facts and the fact sheet they make, user erasure, and the
// background writes that keep a question from waiting for the store's writer.
//
// The engine's services (chat, people, ingest, retrieve, jobs: sibling packages)
// are built on a core Engine and reach the store through it; package memory wires
// them together. Handlers (CLI, HTTP, MCP) call the services and the core, never
// each other.
package core

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/factbase/factbase"
	"github.com/google/uuid"
)

// Options configure an Engine. The zero value is usable.
type Options struct {
	// Logger receives the write path's warnings (facts stored without vectors while
	// the embedder is unreachable). Default: none.
	Logger *slog.Logger
	// Cardinalities declares each key's write semantics. Default:
	// factbase.DefaultCardinalities (favorites.* ranked), everything else one.
	// package memory adds the people and model sets to its default.
	Cardinalities factbase.Cardinalities
	// NewID returns a new time-sortable fact id. Default: a UUIDv7.
	NewID func() string
	// Observer receives write-path measurements; nil: none.
	Observer Observer
	// NoSheetRegen turns off regenerating the fact sheet after a write that changed
	// the user's facts; sheets are then made only on demand. Bulk loads that never
	// read a sheet set it.
	NoSheetRegen bool
	// Sheet configures fact sheet generation (sheet.go). Default: the zero value, that
	// is sheet.DefaultConfig(), no privacy mode, 7 days of retention.
	Sheet SheetOptions
	// Embedder turns fact and episode texts into vectors for semantic search; the
	// write path embeds before its transaction and stores the vectors in it. Default
	// nil: no vectors, and search ranks by full text alone.
	Embedder factbase.Embedder

	// BackgroundDelay, when positive, moves two kinds of writes out of the calls that
	// cause them into a background goroutine that runs every BackgroundDelay
	// (background.go): the references of answers, batched per user, so a question
	// never waits for the store's writer; and fact sheet regeneration after a write,
	// coalesced to once per user per round (a sheet read regenerates a pending sheet
	// first). Zero: both happen in the call. Close (or Flush) does what is queued.
	BackgroundDelay time.Duration
	// BackgroundError receives errors of background work; nil: they are dropped.
	BackgroundError func(error)

	// BeforeCheck, for tests only, runs inside every write transaction after the ops
	// and before the invariant checks, so that a test can corrupt a transaction on
	// purpose and see it refused. Nil in production.
	BeforeCheck func(ctx context.Context, tx factbase.Tx) error
}

// Observer receives measurements of the engine (for metrics). Implementations must
// be safe for concurrent use.
type Observer interface {
	ObserveApply(d time.Duration, res factbase.Result, err error)
	InvariantViolation()
	// Canonicalized reports a topic canonicalisation decision.
	Canonicalized(method string, confidence float64)
}

// Engine is the engine's core. It is safe for concurrent use.
type Engine struct {
	store   factbase.Store
	opts    Options
	metrics metrics
	bg      *background // nil unless Options.BackgroundDelay > 0

	embedSkipped atomic.Int64 // texts stored without vectors: the embedder was down
}

// New returns an engine core over store.
func New(store factbase.Store, o Options) *Engine {
	if o.Cardinalities.Exact == nil && o.Cardinalities.Prefix == nil {
		o.Cardinalities = factbase.DefaultCardinalities()
	}
	if o.NewID == nil {
		o.NewID = newID
	}
	e := &Engine{store: store, opts: o, metrics: metrics{o.Observer}}
	if o.BackgroundDelay > 0 {
		e.bg = newBackground(e, o.BackgroundDelay)
	}
	return e
}

// Store returns the engine's store.
func (e *Engine) Store() factbase.Store { return e.store }

// Cardinality returns the declared cardinality of key.
func (e *Engine) Cardinality(key string) factbase.Cardinality { return e.opts.Cardinalities.Of(key) }

// NewID returns a new time-sortable id (Options.NewID).
func (e *Engine) NewID() string { return e.opts.NewID() }

// Embedder returns the engine's embedder; nil when it has none.
func (e *Engine) Embedder() factbase.Embedder { return e.opts.Embedder }

// Observer returns the engine's observer; nil when it has none.
func (e *Engine) Observer() Observer { return e.opts.Observer }

// View runs fn in a read-only snapshot of user's data, after checking the user id.
func (e *Engine) View(ctx context.Context, user factbase.UserID, fn func(tx factbase.ReadTx) error) error {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return err
	}
	return e.store.View(ctx, user, fn)
}

// Read returns what fn reads in one snapshot of user's data (View, so the user id
// is checked first): the body of every read that is one store call. Go has no
// generic methods, so it is a function of the engine.
func Read[T any](ctx context.Context, e *Engine, user factbase.UserID, fn func(tx factbase.ReadTx) (T, error)) (T, error) {
	var out T
	err := e.View(ctx, user, func(tx factbase.ReadTx) (err error) {
		out, err = fn(tx)
		return err
	})
	return out, err
}

// ReadList is Read for a list: empty rather than nil when there is nothing, so that
// an answer encodes it as [] in JSON.
func ReadList[T any](ctx context.Context, e *Engine, user factbase.UserID, fn func(tx factbase.ReadTx) ([]T, error)) ([]T, error) {
	out, err := Read(ctx, e, user, fn)
	if out == nil && err == nil {
		out = []T{}
	}
	return out, err
}

// Progress receives how much of a long job is done: done of total items.
type Progress func(done, total int)

func newID() string {
	id, err := uuid.NewV7()
	if err != nil { // only if the system's random source fails
		return uuid.NewString()
	}
	return id.String()
}

type metrics struct{ o Observer }

func (m metrics) observeApply(d time.Duration, res factbase.Result, err error) {
	if m.o != nil {
		m.o.ObserveApply(d, res, err)
	}
}

func (m metrics) invariantViolation() {
	if m.o != nil {
		m.o.InvariantViolation()
	}
}
