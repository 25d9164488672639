package factbase

import (
	"context"
	"time"
)

// Store holds users' data. It offers transactions, not policy: the engine's write path
// (memory.Engine.Apply) decides what to write and checks the invariants; a Store
// executes the primitives it is asked for inside one transaction.
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
	// Ping reports whether the store can be reached (EUNAVAILABLE if not).
	Ping(ctx context.Context) error
	// Close releases the store; a closed store returns EUNAVAILABLE.
	Close() error
}

// FactFilter selects facts in ReadTx.Facts. Zero fields do not filter.
type FactFilter struct {
	ID            string
	Subject       string
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

// ScanViewer is implemented by a store with a cheaper way to run a read that walks
// much of a user's data (SQLite maps the file for its duration). ScanView has View's
// contract; the engine uses it for the fact sheet.
type ScanViewer interface {
	ScanView(ctx context.Context, user UserID, fn func(tx ReadTx) error) error
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
	// With the invariants intact it is the list's length; it must be O(log n). It is
	// the length after the transaction's writes so far (a member that left no longer
	// counts).
	MaxRank(ctx context.Context, subject, key string) (int, error)
	// KeyStats summarises the current facts of (subject, key); NormCount counts the
	// members whose normalised value is norm. Each figure must be O(log n): the
	// members count is kept by the database, not by the write path.
	KeyStats(ctx context.Context, subject, key, norm string) (KeyStats, error)
	// ListEvents returns the events of list (subject, key) up to and including until,
	// oldest first.
	ListEvents(ctx context.Context, subject, key string, until time.Time) ([]ListEvent, error)
	TranscriptReadTx // transcript checkpoints, sessions and queries (transcriptstore.go)
	ReferenceReadTx  // fact references and the fact sheet's read (sheetstore.go)
}

// Tx is a write transaction. Only the engine's write path calls its mutating methods.
// A unique-index violation is returned as EINVARIANT.
//
// A store keeps a ranked list's order as positions and derives ranks on read
// (ranked/positions.go): a current member's rank is one more than the number of
// members before it, so ranks are 1..N by construction and a MOVE or an INSERT
// writes one row. The write path states each list change as it plans it: Rerank
// to make room and then Insert at the freed rank; End (or Erase) and then Rerank to
// close the gap; Rerank with a pin to move one member.
type Tx interface {
	ReadTx
	// Insert writes a new fact row. f.ID, f.User and the times are already set. A
	// current ranked fact takes rank f.Rank (at most the list's length plus one): the
	// members from f.Rank on move down one.
	Insert(ctx context.Context, f Fact, norm string) error
	// End marks fact id no longer current: valid_to = at, superseded_by = by (may be "").
	// A ranked member keeps the rank it had. ENOTFOUND if no current fact has that id.
	End(ctx context.Context, id string, at time.Time, by string) error
	// Rerank shifts by delta the ranks in [lo, hi] of the current members of the ranked
	// list (subject, key), except that fact pin (if not "") gets pinRank, and returns
	// how many members change rank (hi-lo+1). With a pin, [lo, hi] spans exactly its
	// rank and pinRank, and only pin's row is written; without one nothing is: the
	// Insert after it or the End before it makes the shift.
	Rerank(ctx context.Context, subject, key string, lo, hi, delta int, pin string, pinRank int) (int, error)
	// Erase deletes fact id and everything derived from it (list events, references,
	// index entries). It returns the number of fact rows deleted.
	Erase(ctx context.Context, id string) (int, error)
	// AddListEvent records a list change.
	AddListEvent(ctx context.Context, e ListEvent) error
	TranscriptTx // transcript checkpoints, sessions and subject links (transcriptstore.go)
	ReferenceTx  // fact references recorded by the write path (sheetstore.go)
}

// PointReader is implemented by stores that can read the current fact of a
// single-valued key in one statement, without opening a transaction (the point read:
// memory.Engine.Get). ok is false when there is none.
type PointReader interface {
	CurrentFact(ctx context.Context, user UserID, subject, key string) (f Fact, ok bool, err error)
}
