package factbase

import (
	"context"
	"time"
)

// SourceAnswer is the source kind of a reference recorded because a fact was used in
// an answer.
const SourceAnswer = "answer"

// Reference records that a fact was extracted (stored, or restated and blocked as a
// duplicate) or used in an answer. The fact sheet scores facts by their references.
//
// A fact's creation is its first reference: the one at its RecordedAt from its own
// Source. The fact's row records it, so a store never keeps it as a row of its own
// (AddReferences skips it) and every read counts it (References, SheetFacts): a
// reference row would repeat the fact's time and source, and cost a fifth of the
// bytes a fact takes in PostgreSQL.
type Reference struct {
	FactID string    `json:"fact_id"`
	At     time.Time `json:"at"`
	Source Source    `json:"source"` // what referenced it: message, transcript, answer, ...
}

// SheetFact is a current fact as the fact sheet reads it: the fields scoring and
// assembly need, and its references counted by age, so that a user's references need
// not be loaded one by one.
type SheetFact struct {
	ID       string
	Category Category
	Text     string
	// Key and Value are needed only when Text is blank (the sheet then shows
	// "key: value"); a store may leave them empty otherwise.
	Key, Value  string
	Sensitivity Sensitivity
	// RecordedAt is the fact's creation, its first reference (see Reference).
	RecordedAt time.Time
	References int       // all of the fact's references, its creation included: at least 1
	Last       time.Time // the most recent reference, its creation included
	// Newer[i] is the number of references strictly after cuts[i], the instants
	// passed to SheetFacts. The slice is reused from one call of fn to the next: fn
	// must copy it to keep it.
	Newer []int
}

// ReferenceReadTx reads references inside a transaction. Every method sees only the
// transaction's user's rows.
type ReferenceReadTx interface {
	// References returns the references of fact id, oldest first, its creation
	// included (see Reference); none (not an error) for an unknown id.
	References(ctx context.Context, factID string) ([]Reference, error)
	// SheetFacts calls fn once for each current fact of the user, in no particular
	// order, with its references counted against cuts (see SheetFact.Newer). An error
	// from fn stops the walk and is returned. The store counts in the database: the
	// cost is one row per fact, however many references there are.
	SheetFacts(ctx context.Context, cuts []time.Time, fn func(SheetFact) error) error
}

// ReferenceTx records references inside the write path's transaction
// (memory.Engine.ApplyWith), so that they commit with the facts they name.
type ReferenceTx interface {
	// AddReferences records refs and returns how many it stored. A reference to a
	// fact the user does not have (never stored, or erased in the same transaction)
	// is skipped, not an error, and so is the fact's creation (a reference at its
	// RecordedAt from its own Source: the fact's row records it). A zero At means
	// the transaction's time.
	AddReferences(ctx context.Context, refs []Reference) (int, error)
}

// FactSheet is a saved fact sheet: the scored selection of a user's most important
// facts, with how each score was computed and which duplicates were dropped.
type FactSheet struct {
	ID        string       `json:"id"`
	User      UserID       `json:"user"`
	CreatedAt time.Time    `json:"created_at"`
	Count     int          `json:"count"` // len(Entries)
	Entries   []SheetEntry `json:"entries"`
	Dedup     []SheetDedup `json:"dedup"`
}

// Validate reports whether s can be saved with retention (SheetStore.SaveSheet): it
// needs an id and a created time, and retention must be positive. Returns EINVALID
// otherwise.
func (s FactSheet) Validate(retention time.Duration) error {
	if s.ID == "" || s.CreatedAt.IsZero() {
		return Errorf(EINVALID, "a sheet needs an id and a created time")
	}
	if retention <= 0 {
		return Errorf(EINVALID, "sheet retention %v is not positive", retention)
	}
	return nil
}

// SheetEntry is one fact on a sheet.
type SheetEntry struct {
	FactID        string       `json:"fact_id"`
	Category      Category     `json:"category"`
	Text          string       `json:"text"`
	Score         float64      `json:"score"`
	LastReference time.Time    `json:"last_reference"`
	Explain       SheetExplain `json:"explain"`
}

// SheetExplain says how an entry's score was computed and why it is on the sheet:
// Score = Weight × ReferenceScore, ReferenceScore the sum of the buckets' subtotals.
type SheetExplain struct {
	Weight         float64       `json:"weight"`
	References     int           `json:"references"`
	Implicit       bool          `json:"implicit,omitempty"` // no reference: counted once at its recorded time
	Buckets        []SheetBucket `json:"buckets"`
	ReferenceScore float64       `json:"reference_score"`
	Included       string        `json:"included"` // the assembly step: minimum, within cap or fill
}

// SheetBucket is one decay bucket of an explanation: how many references fell into
// it and what they earned.
type SheetBucket struct {
	Label    string  `json:"label"`
	Count    int     `json:"count"`
	Points   float64 `json:"points"`
	Subtotal float64 `json:"subtotal"`
}

// SheetDedup records a fact left off a sheet because another with the same
// normalised text ranked better.
type SheetDedup struct {
	Dropped string `json:"dropped"`
	Kept    string `json:"kept"`
	Reason  string `json:"reason"`
}

// SheetStore keeps users' saved fact sheets. Its methods are safe for concurrent use
// and return EUNAVAILABLE when the store cannot be reached. Erasing a fact removes it
// from every saved sheet.
type SheetStore interface {
	// SaveSheet stores s (ID, User and CreatedAt set; a sheet with the same ID already
	// stored is ECONFLICT) and, in the same transaction, deletes the user's sheets
	// created before s.CreatedAt - retention. It returns how many it deleted.
	// EINVALID if s fails FactSheet.Validate (retention must be positive) or s.User is
	// not a valid user id.
	SaveSheet(ctx context.Context, s FactSheet, retention time.Duration) (deleted int, err error)
	// LatestSheet returns the user's most recently created sheet (the last saved
	// among equal times). ENOTFOUND if the user has none.
	LatestSheet(ctx context.Context, user UserID) (FactSheet, error)
}
