// Package memory is the Factbase engine: the one write path (Apply) over a Store, the
// reads built on it, and, in later files, say/ask, search and the fact sheet. Handlers
// (CLI, HTTP, MCP) call the engine, never each other.
package memory

import (
	"context"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/canon"
	"github.com/google/uuid"
)

// Options configure an Engine. The zero value is usable.
type Options struct {
	// Cardinalities declares each key's write semantics. Default:
	// factbase.DefaultCardinalities (favorites.* ranked) plus the people and model
	// sets (DeclarePeopleKeys, DeclareModelSets); everything else one.
	Cardinalities factbase.Cardinalities
	// NewID returns a new time-sortable fact id. Default: a UUIDv7.
	NewID func() string
	// Observer receives write-path measurements; nil: none.
	Observer Observer
	// TopicTeacher is the canonicalizer's teacher (a model) for topics no cheaper
	// step settles; nil: no teacher. Used only when Canon is nil.
	TopicTeacher factbase.Teacher
	// Canon canonicalises favorites topics. Default: canon.New with the built-in
	// aliases, the Embedder's similarity step when an Embedder is set, and the
	// TopicTeacher; any of these hooks also turns KnownTopics on.
	Canon *canon.Canonicalizer
	// NoSheetRegen turns off regenerating the fact sheet after each extraction cycle
	// (Say, AddEpisode, transcript ingest) that changed the user's facts; sheets are
	// then made only on demand. Bulk loads that never read a sheet set it.
	NoSheetRegen bool
	// KnownTopics passes the user's existing list topics to the canonicalizer, which
	// needs them only for its similarity and teacher steps. Default false.
	KnownTopics bool
	// Sheet configures fact sheet generation (sheet.go). Default: the zero value, that
	// is sheet.DefaultConfig(), no privacy mode, 7 days of retention.
	Sheet SheetOptions
	// Embedder turns fact and episode texts into vectors for semantic search; the
	// write path embeds before its transaction and stores the vectors in it. Default
	// nil: no vectors, and search ranks by full text alone.
	Embedder factbase.Embedder

	// People configures personal facts, entities and conflicts (people.go).
	People PeopleOptions
	// Planner, when set, is Ask's fallback for a question no rule understood: it names
	// the key asked about, and Ask answers from it (plan.go). nil (the default): such
	// a question gets the usual reply, and no model is called.
	Planner factbase.Planner

	// BackgroundDelay, when positive, moves two kinds of writes out of the calls that
	// cause them into a background goroutine that runs every BackgroundDelay
	// (background.go): the references of answers (Say, Ask), batched per user, so a
	// question never waits for the store's writer; and fact sheet regeneration after
	// an extraction cycle, coalesced to once per user per round (a sheet read
	// regenerates a pending sheet first). Zero: both happen in the call. Close (or
	// Flush) does what is queued.
	BackgroundDelay time.Duration
	// BackgroundError receives errors of background work; nil: they are dropped.
	BackgroundError func(error)

	// BeforeCheck, for tests only, runs inside every write transaction after the ops
	// and before the invariant checks, so that a test can corrupt a transaction on
	// purpose and see it refused. Nil in production.
	BeforeCheck func(ctx context.Context, tx factbase.Tx) error
}

// Observer receives measurements of the write path (for metrics). Implementations must
// be safe for concurrent use.
type Observer interface {
	ObserveApply(d time.Duration, res factbase.Result, err error)
	InvariantViolation()
	// Canonicalized reports a topic canonicalisation decision.
	Canonicalized(method string, confidence float64)
}

// Engine is the Factbase engine. It is safe for concurrent use.
type Engine struct {
	store   factbase.Store
	opts    Options
	metrics metrics
	canon   *canon.Canonicalizer
	bg      *background // nil unless Options.BackgroundDelay > 0
}

// New returns an engine over store.
func New(store factbase.Store, o Options) *Engine {
	if o.Cardinalities.Exact == nil && o.Cardinalities.Prefix == nil {
		// The product's own keys: favorites.* ranked, the people extractor's and the
		// model's sets (likes, allergies, ...) many, everything else one.
		o.Cardinalities = factbase.DefaultCardinalities()
		DeclareModelSets(&o.Cardinalities)
		DeclarePeopleKeys(&o.Cardinalities)
	}
	if o.NewID == nil {
		o.NewID = newID
	}
	if o.Canon == nil {
		var co canon.Options
		if o.TopicTeacher != nil {
			co.Teach = o.TopicTeacher.Teach
		}
		if emb := o.Embedder; emb != nil {
			co.Embed = func(ctx context.Context, text string) ([]float32, error) {
				v, err := emb.Embed(ctx, []string{text})
				if err != nil {
					return nil, err
				}
				return v[0], nil
			}
		}
		o.Canon = canon.New(co)
		// The similarity and teacher steps compare with the user's own topics.
		o.KnownTopics = o.KnownTopics || co.Embed != nil || co.Teach != nil
	}
	e := &Engine{store: store, opts: o, metrics: metrics{o.Observer}, canon: o.Canon}
	if o.BackgroundDelay > 0 {
		e.bg = newBackground(e, o.BackgroundDelay)
	}
	return e
}

// Store returns the engine's store.
func (e *Engine) Store() factbase.Store { return e.store }

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

func (m metrics) canonicalized(c Canonical) {
	if m.o != nil {
		m.o.Canonicalized(c.Method, c.Confidence)
	}
}

func (m metrics) invariantViolation() {
	if m.o != nil {
		m.o.InvariantViolation()
	}
}
