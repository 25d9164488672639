package factbase

import "context"

// SettingStore keeps named values of the database as a whole, not of a user: the
// sealed store's key record (internal/seal) is one.
type SettingStore interface {
	// Setting returns the value of setting name; ok is false when it has none.
	Setting(ctx context.Context, name string) (value string, ok bool, err error)
	// SwapSetting sets name to value if its value is old ("" meaning it has none), and
	// returns ECONFLICT otherwise, so that two processes starting at once cannot both
	// create a setting. value "" deletes it.
	SwapSetting(ctx context.Context, name, old, value string) error
}

// SealedRow is one row's sealed texts, as ResealStore.ResealRows passes them.
type SealedRow struct {
	User UserID
	// Row is the id the row's texts are bound to: the fact's id for facts and list
	// events (a list event's value is sealed for its fact), the row's own id for
	// every other table.
	Row string
	// Texts are the row's sealed columns in SealedTables order. A column that holds
	// JSON (aliases, attributes, metadata, a proposed fact, a job's result, a saved
	// sheet's entries) holds its sealed texts as JSON strings inside it.
	Texts []string
}

// SealedTables names the tables whose texts a sealed store encrypts and, for each,
// the columns ResealRows passes, in order. The names are the SQLite store's; a
// backend maps them to its own.
var SealedTables = map[string][]string{
	"facts":               {"value", "text"},
	"list_events":         {"value"},
	"episodes":            {"content", "metadata"},
	"entities":            {"name", "aliases", "attributes"},
	"conflicts":           {"current_value", "proposed", "reason"},
	"transcript_sessions": {"cwd", "git_branch", "summary"},
	// A saved sheet's entry texts: one SealedRow per backend row that holds them
	// (Row: the sheet's id), Texts the texts of that row's entries, in order.
	"sheets": {"entries"},
	"jobs":   {"input", "result", "error"},
}

// ResealStore rewrites sealed texts in place: the data key's rotation reads every
// row of every sealed table, in batches, and writes back each text sealed anew.
type ResealStore interface {
	// ResealRows reads up to limit rows of table (a key of SealedTables), of every
	// user, that come after the row whose position is after ("" from the start), in
	// an order of the backend's that new rows do not disturb, calls fn with them, and
	// writes back the Texts fn changed, all in one transaction. next is the position
	// of the last row read, "" when the table has no more rows; n is the number of
	// rows written back. fn's error aborts the batch and is returned. EINVALID for a
	// table SealedTables does not name, a limit below 1, a position that is not one
	// of the table's, or an fn that changes a row's User, Row or number of Texts.
	ResealRows(ctx context.Context, table, after string, limit int, fn func(rows []SealedRow) error) (next string, n int, err error)
}
