package factbase

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
