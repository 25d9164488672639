// Package memory is the Factbase engine, wired: an engine core (package core: the
// one write path, reads, references, the fact sheet) and the services built on it,
// each with one door:
//
//   - Chat (package chat): Say, Ask, Recall;
//   - People (package people): entities, merge and split, conflicts;
//   - Ingest (package ingest): episodes, transcripts, backfill;
//   - Retrieve (package retrieve): search, query, look-up, re-embedding;
//   - Jobs (package jobs): remember jobs and their workers.
//
// New builds them all over one store; the core's methods (Apply, Get, List, the
// sheet, ...) are the Engine's own. Handlers (CLI, HTTP, MCP) call the Engine and its
// services, never each other.
package memory

import (
	"context"
	"log/slog"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/canon"
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/jobs"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/memory/retrieve"
)

// Options configure an Engine. The zero value is usable.
type Options struct {
	// Cardinalities declares each key's write semantics. Default:
	// factbase.DefaultCardinalities (favorites.* ranked) plus the people and model
	// sets (people.DeclarePeopleKeys, jobs.DeclareModelSets); everything else one.
	Cardinalities factbase.Cardinalities
	// NewID returns a new time-sortable fact id. Default: a UUIDv7.
	NewID func() string
	// Observer receives write-path measurements; nil: none.
	Observer core.Observer
	// TopicTeacher is the canonicalizer's teacher (a model) for topics no cheaper
	// step settles; nil: no teacher. Used only when Canon is nil.
	TopicTeacher factbase.Teacher
	// Canon canonicalises favorites topics. Default: canon.New with the built-in
	// aliases, the Embedder's similarity step when an Embedder is set, and the
	// TopicTeacher; any of these hooks also turns KnownTopics on.
	Canon *canon.Canonicalizer
	// NoSheetRegen turns off regenerating the fact sheet after a write that changed
	// the user's facts; sheets are then made only on demand. Bulk loads that never
	// read a sheet set it.
	NoSheetRegen bool
	// KnownTopics passes the user's existing list topics to the canonicalizer, which
	// needs them only for its similarity and teacher steps. Default false.
	KnownTopics bool
	// Sheet configures fact sheet generation. Default: the zero value, that is
	// sheet.DefaultConfig(), no privacy mode, 7 days of retention.
	Sheet core.SheetOptions
	// Embedder turns fact and episode texts into vectors for semantic search. Default
	// nil: no vectors, and search ranks by full text alone.
	Embedder factbase.Embedder
	// People configures personal facts, entities and conflicts.
	People people.Options
	// Planner, when set, is Ask's fallback for a question no rule understood. nil (the
	// default): such a question gets the usual reply, and no model is called.
	Planner factbase.Planner
	// BackgroundDelay, when positive, batches answers' references and coalesces
	// sheet regenerations in a background goroutine that runs every
	// BackgroundDelay (see core.Options). Zero: both happen in the call. Close (or
	// Flush) does what is queued.
	BackgroundDelay time.Duration
	// BackgroundError receives errors of background work; nil: they are dropped.
	BackgroundError func(error)
	// Logger receives the engine's warnings: a search that ranked by full text alone
	// because the embedder failed or the stored vectors are of another embedder.
	// Default: none.
	Logger *slog.Logger
	// BeforeCheck, for tests only, runs inside every write transaction after the ops
	// and before the invariant checks. Nil in production.
	BeforeCheck func(ctx context.Context, tx factbase.Tx) error
}

// Engine is the wired engine: the core's methods, and a field per service. It is
// safe for concurrent use.
type Engine struct {
	*core.Engine
	Chat     *chat.Service
	People   *people.Service
	Ingest   *ingest.Service
	Retrieve *retrieve.Service
	Jobs     *jobs.Service
}

// New returns an engine over store.
func New(store factbase.Store, o Options) *Engine {
	if o.Cardinalities.Exact == nil && o.Cardinalities.Prefix == nil {
		// The product's own keys: favorites.* ranked, the people extractor's and the
		// model's sets (likes, allergies, ...) many, everything else one.
		o.Cardinalities = factbase.DefaultCardinalities()
		jobs.DeclareModelSets(&o.Cardinalities)
		people.DeclarePeopleKeys(&o.Cardinalities)
	}
	c := core.New(store, core.Options{Cardinalities: o.Cardinalities, NewID: o.NewID, Observer: o.Observer,
		NoSheetRegen: o.NoSheetRegen, Sheet: o.Sheet, Embedder: o.Embedder, BackgroundDelay: o.BackgroundDelay,
		BackgroundError: o.BackgroundError, BeforeCheck: o.BeforeCheck, Logger: o.Logger})
	p := people.New(c, o.People)
	r := retrieve.New(c, retrieve.Options{Logger: o.Logger})
	ch := chat.New(c, p, r, chat.Options{Canon: o.Canon, TopicTeacher: o.TopicTeacher, KnownTopics: o.KnownTopics,
		Planner: o.Planner})
	return &Engine{Engine: c, Chat: ch, People: p, Ingest: ingest.New(c), Retrieve: r, Jobs: jobs.New(c, ch, p)}
}
