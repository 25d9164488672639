package factbase

import (
	"context"
	"time"
)

// Store holds users' data. It offers transactions, not policy: the engine's write path
// (memory.Engine.Apply) decides what to write and checks the invariants; a Store
// executes the primitives it is asked for inside one transaction.
//
// Store is the one contract every backend implements in full: there are no optional
// capabilities to discover. Its methods are grouped by feature: transactions and
// maintenance here; the job queue (jobs.go), API keys (keys.go) and saved fact sheets
// (sheetstore.go) are embedded below. A speed-up only one backend has stays inside
// that backend.
//
// All methods are safe for concurrent use. Every row a Store reads or writes belongs to
// the user the transaction was opened for; a Tx never sees another user's rows.
type Store interface {
	// Update runs fn in one write transaction for user. If fn returns an error, or the
	// commit fails, nothing fn did is kept. Concurrent Updates are serialised per store
	// (SQLite: one writer connection, BEGIN IMMEDIATE) or isolated so that a list read in
	// fn cannot change before commit (PostgreSQL: a lock on the user's row). A busy or
	// unreachable database returns EUNAVAILABLE.
	Update(ctx context.Context, user UserID, fn func(tx Tx) error) error
	// View runs fn in a read-only snapshot for user.
	View(ctx context.Context, user UserID, fn func(tx ReadTx) error) error
	// CurrentFact returns the current fact of the single-valued key (subject, key), read
	// as one statement outside any transaction (the point read); ok is false when
	// there is none. It is ReadTx.Current without the cost of opening a transaction.
	CurrentFact(ctx context.Context, user UserID, subject, key string) (f Fact, ok bool, err error)
	// Users returns every user id the store holds data for, in no particular order
	// (for maintenance over every user, such as re-embedding).
	Users(ctx context.Context) ([]UserID, error)
	// Purge makes data erased so far unrecoverable from the store's own files where
	// the backend can, and reports whether it did: true only when no table or index
	// file holds the erased rows any more (SQLite: deleted content is overwritten and
	// a checkpoint truncates the write-ahead log; PostgreSQL: the tables are
	// rewritten, when the store is configured to). A backend that leaves the bytes to
	// be overwritten later (PostgreSQL's default: VACUUM) returns false.
	Purge(ctx context.Context) (purged bool, err error)
	// Ping reports whether the store can be reached (EUNAVAILABLE if not).
	Ping(ctx context.Context) error
	// Close releases the store; a closed store returns EUNAVAILABLE.
	Close() error

	AuditStore   // the audit trail (audit.go)
	SettingStore // the database's own settings (setting.go)
	ResealStore  // sealed texts rewritten in place, for a key rotation (setting.go)
	JobStore     // the durable job queue (jobs.go)
	KeyStore     // API keys (keys.go)
	SheetStore   // saved fact sheets (sheetstore.go)
}

// FactFilter selects facts in ReadTx.Facts. Zero fields do not filter.
type FactFilter struct {
	ID      string
	Subject string
	// Subjects, when not empty, selects the facts of any of these subjects (Subject
	// is then ignored).
	Subjects      []string
	Key           string
	KeyPrefix     string
	Category      Category
	Type          string
	MinConfidence float64
	// History includes superseded, retracted and removed versions.
	History bool
	// AsOf, when set, returns the facts that were recorded by and valid at that time
	// (History is then ignored).
	AsOf *time.Time
	// NewestFirst orders by recorded time, newest first; the default is oldest first.
	NewestFirst bool
	Limit       int // 0: no limit
	Offset      int
}

// KeyStats summarises the current facts of (subject, key), for the invariant checks
// the write path runs before commit.
type KeyStats struct {
	Current          int // current facts of a single-valued (one) key
	Members          int // current members of a ranked list, as counted by the database
	MinRank, MaxRank int // of the ranked list's current members; 0 when none
	NormCount        int // current list or set members whose normalised value is the norm asked about
}

// ListEvent records one change of a ranked list, so that the list can be replayed as
// of a past time. Events name the value, not only the rank, so a replay stays correct
// after a member is erased.
type ListEvent struct {
	At           time.Time
	Subject, Key string
	Action       Action
	FactID       string
	Value        string
	From, To     int
}

// ReadTx reads inside a transaction. Methods return ENOTFOUND where they say so and
// EUNAVAILABLE when the store cannot be reached.
type ReadTx interface {
	// Now is the transaction's time: every timestamp written in it is this one.
	Now() time.Time
	// Fact returns one fact by id (current or not). ENOTFOUND if the user has none.
	Fact(ctx context.Context, id string) (Fact, error)
	// Facts returns facts matching f.
	Facts(ctx context.Context, f FactFilter) ([]Fact, error)
	// Member returns the current member of list or set (subject, key) whose normalised
	// value is norm; ok is false if there is none.
	Member(ctx context.Context, subject, key, norm string) (f Fact, ok bool, err error)
	// Current returns the current fact of a one-valued key; ok is false if none.
	Current(ctx context.Context, subject, key string) (f Fact, ok bool, err error)
	// ListPage returns the current members of a ranked list with ranks in
	// [offset+1, offset+limit], in rank order, and the list's length.
	ListPage(ctx context.Context, subject, key string, offset, limit int) ([]Fact, int, error)
	// AtRank returns the current member at rank; ok is false if there is none.
	AtRank(ctx context.Context, subject, key string, rank int) (f Fact, ok bool, err error)
	// Keys returns the distinct keys of subject's current facts that start with
	// prefix, sorted.
	Keys(ctx context.Context, subject, prefix string) ([]string, error)
	// MaxRank returns the highest rank in the ranked list (subject, key), 0 if empty.
	// With the invariants intact it is the list's length. It is the length after the
	// transaction's writes so far (a member that left no longer counts). The write
	// path calls it on every list write.
	MaxRank(ctx context.Context, subject, key string) (int, error)
	// KeyStats summarises the current facts of (subject, key); NormCount counts the
	// members whose normalised value is norm. The members count is the database's
	// own, not the write path's, so that the invariant check is independent of it.
	KeyStats(ctx context.Context, subject, key, norm string) (KeyStats, error)
	// ListEvents returns the events of list (subject, key) up to and including until,
	// oldest first.
	ListEvents(ctx context.Context, subject, key string, until time.Time) ([]ListEvent, error)
	// UserRows counts the transaction user's rows per table, every table that holds
	// user rows included (tables are found in the schema, so a new one cannot be
	// forgotten); tables without a row of the user are left out.
	UserRows(ctx context.Context) (map[string]int64, error)

	TranscriptReadTx // transcript checkpoints, sessions and queries (transcriptstore.go)
	ReferenceReadTx  // fact references and the fact sheet's read (sheetstore.go)
	SearchReadTx     // episodes and the search indexes (search.go)
	PeopleReadTx     // entities, conflicts, time anchors (entity.go)
	ExportReadTx     // every row of a kind, for copies and exports (export.go)
}

// Tx is a write transaction. Only the engine's write path calls its mutating methods.
// A unique-index violation is returned as EINVARIANT.
//
// A ranked list's order belongs to the store: the write path says where a member
// goes (Insert at a rank, MoveTo a rank) and the store keeps whatever it needs for
// that order. A member that leaves its list (End, Erase) closes its gap: the members
// after it move up one.
type Tx interface {
	ReadTx
	// Insert writes a new fact row. f.ID, f.User and the times are already set. A
	// current ranked fact takes rank f.Rank (at most the list's length plus one): the
	// members from f.Rank on move down one.
	Insert(ctx context.Context, f Fact, norm string) error
	// End marks fact id no longer current: valid_to = at, superseded_by = by (may be "").
	// A ranked member leaves its list and keeps, as history, the rank it had.
	// ENOTFOUND if no current fact has that id.
	End(ctx context.Context, id string, at time.Time, by string) error
	// MoveTo gives the current ranked member m, as read in this transaction (its ID,
	// Subject, Key and Rank), rank to (1..the list's length); the members between its
	// old and new rank shift by one toward the gap it left. ENOTFOUND if m is not a
	// current member.
	MoveTo(ctx context.Context, m Fact, to int) error
	// Erase deletes fact id and everything derived from it (list events, references,
	// index entries). It returns the number of fact rows deleted.
	Erase(ctx context.Context, id string) (int, error)
	// AddListEvent records a list change.
	AddListEvent(ctx context.Context, e ListEvent) error

	// Members returns the current members of several lists or sets at once, by
	// (subject, key, normalised value): the bulk form of ReadTx.Member, for ingest.
	// Keys with no member are absent from the map.
	Members(ctx context.Context, keys []MemberKey) (map[MemberKey]Fact, error)
	// InsertFacts writes several new fact rows at once, in order, norms[i] being
	// facts[i]'s normalised value: the bulk form of Insert (an ingest's set members,
	// an import's facts with their history).
	InsertFacts(ctx context.Context, facts []Fact, norms []string) error
	// MemberCounts returns, for each key, how many current members have that
	// normalised value: the bulk form of KeyStats' NormCount, for the invariant check.
	MemberCounts(ctx context.Context, keys []MemberKey) ([]int, error)

	// CompleteJob marks the running job id of the transaction's user, held by lease,
	// done with outcome o, so that a job's effects and its completion commit together:
	// a worker that dies before the commit leaves the job to be claimed again with
	// nothing applied. ECONFLICT if the lease is no longer the job's (it expired and
	// another worker claimed the job), which aborts the transaction; EINVALID if o
	// fails JobOutcome.Validate.
	CompleteJob(ctx context.Context, id, lease string, o JobOutcome) error
	// ScrubJobs empties the input, result and error of the transaction user's jobs
	// that hold any of texts (by substring), so that a value erased from the facts
	// leaves no copy in the job queue, and returns how many jobs it scrubbed. Empty
	// texts are ignored.
	ScrubJobs(ctx context.Context, texts []string) (int, error)
	// EraseUser deletes everything the transaction's user owns (facts with their
	// history, list events, references, embeddings and search-index entries,
	// episodes, transcripts, entities, conflicts, saved sheets, queued jobs and the
	// API keys scoped to the user; application keys are not touched) and returns the
	// rows removed per table.
	EraseUser(ctx context.Context) (map[string]int64, error)
	// EraseUserSome deletes a batch of what EraseUser deletes: at most about limit
	// rows of the user's largest tables (facts, references, embeddings, list events),
	// in the order EraseUser follows. done is true when none of those is left; the
	// erasure of a large user runs batches in transactions of their own, so that
	// other users' writes go between them, and ends with EraseUser.
	EraseUserSome(ctx context.Context, limit int) (removed map[string]int64, done bool, err error)

	TranscriptTx // transcript checkpoints, sessions and subject links (transcriptstore.go)
	ReferenceTx  // fact references recorded by the write path (sheetstore.go)
	SearchTx     // episodes and vectors (search.go)
	PeopleTx     // entities, conflicts, preference sessions (entity.go)
}

// MemberKey names one value of a list or set: (subject, key, normalised value).
type MemberKey struct {
	Subject, Key, Norm string
}
