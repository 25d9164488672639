package factbase

// UserErasure reports what erasing a user removed: the rows deleted from each table
// (or the store's equivalent), as counted by the database, and whether the store could
// also purge the freed space (a WAL checkpoint, a table rewrite) so that no copy of
// the data is left in its files.
type UserErasure struct {
	User UserID `json:"user"`
	// Rows removed per table; tables with nothing to remove are left out.
	Removed map[string]int64 `json:"removed"`
	// Total of Removed.
	Total int64 `json:"total"`
	// Purged is true when, after commit, the store's data files no longer hold the
	// erased rows (SQLite: the freed space overwritten and the log truncated;
	// PostgreSQL with factbase_purge=full: the tables rewritten). False when that is
	// not certain: a reader held the SQLite log (the next checkpoint truncates it), or
	// PostgreSQL vacuumed, which leaves the bytes in the files' free space until
	// later rows overwrite them. The database's own log, backups and replicas are
	// beyond it (docs/storage.md).
	Purged bool `json:"purged"`
}
