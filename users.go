package factbase

import "context"

// UserErasure reports what erasing a user removed: the rows deleted from each table
// (or the store's equivalent), as counted by the database, and whether the store could
// also purge the freed space (a WAL checkpoint, a vacuum) so that no copy of the data
// is left in the file.
type UserErasure struct {
	User UserID `json:"user"`
	// Rows removed per table; tables with nothing to remove are left out.
	Removed map[string]int64 `json:"removed"`
	// Total of Removed.
	Total int64 `json:"total"`
	// Purged is true when the freed space was overwritten or released after commit;
	// false when another reader kept it (the next checkpoint or vacuum releases it).
	Purged bool `json:"purged"`
}

// UserEraseTx is the part of a write transaction that erases everything a user owns:
// facts with their history, list events, references, embeddings and search-index
// entries, episodes, transcripts, entities, conflicts, saved sheets, queued jobs and
// the API keys scoped to that user. Application keys are not touched.
type UserEraseTx interface {
	// EraseUser deletes every row of the transaction's user and returns the counts per
	// table.
	EraseUser(ctx context.Context) (map[string]int64, error)
	// UserRows counts the rows still owned by the transaction's user, per table; the
	// write path checks that none are left before it commits an erasure.
	UserRows(ctx context.Context) (map[string]int64, error)
}

// UserRowCounter is the read side: the rows a user owns, per table (an unknown user
// owns none).
type UserRowCounter interface {
	UserRows(ctx context.Context) (map[string]int64, error)
}

// Purger is implemented by stores that can release the space freed by an erasure
// after it committed (SQLite: a WAL checkpoint that truncates the log). It reports
// whether the purge completed.
type Purger interface {
	Purge(ctx context.Context) (bool, error)
}
