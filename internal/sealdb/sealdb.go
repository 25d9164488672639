// Package sealdb holds what both stores share in serving a sealed store
// (internal/seal): the checks and errors of settings (factbase.SettingStore), and the
// positions, checks and change detection of a reseal (factbase.ResealStore). The SQL
// is each store's own.
package sealdb

import (
	"encoding/json"
	"slices"
	"unicode/utf8"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
)

// MaxSettingName is the most bytes a setting's name may hold.
const MaxSettingName = 256

// CheckSetting returns EINVALID for a setting name that is empty, too long or not
// valid UTF-8, else nil.
func CheckSetting(name string) error {
	if name == "" || len(name) > MaxSettingName || !utf8.ValidString(name) {
		return factbase.Errorf(factbase.EINVALID, "a setting's name is 1 to %d bytes of UTF-8", MaxSettingName)
	}
	return nil
}

// SettingConflict is the error of a SwapSetting of name whose old value was not the
// setting's.
func SettingConflict(name, old string) error {
	if old == "" {
		return factbase.Errorf(factbase.ECONFLICT, "setting %q already has a value", name)
	}
	return factbase.Errorf(factbase.ECONFLICT, "setting %q does not have the value expected", name)
}

// CheckReseal returns EINVALID for a table that factbase.SealedTables does not name or
// a limit below 1, else nil.
func CheckReseal(table string, limit int) error {
	if _, ok := factbase.SealedTables[table]; !ok {
		return factbase.Errorf(factbase.EINVALID, "table %q holds no sealed texts", table)
	}
	if limit < 1 {
		return factbase.Errorf(factbase.EINVALID, "a reseal batch of %d rows", limit)
	}
	return nil
}

// Position encodes the position of a row in the order a store reseals a table by:
// the values of its ordering columns, in order. It is what ResealRows returns as
// next and takes as after.
func Position(values ...string) string {
	b, _ := json.Marshal(values) // strings always marshal
	return string(b)
}

// ParsePosition decodes after, a Position of n values; after "" is the start (nil).
// EINVALID for anything else.
func ParsePosition(after string, n int) ([]string, error) {
	if after == "" {
		return nil, nil
	}
	var vs []string
	if err := json.Unmarshal([]byte(after), &vs); err != nil || len(vs) != n {
		return nil, factbase.Errorf(factbase.EINVALID, "%q is not a position of this table's rows", after)
	}
	return vs, nil
}

// Changed calls fn with rows and returns the indexes of the rows whose texts fn
// changed, in order. fn's error is returned as it is; EINVALID if fn changed how
// many texts a row has, or the row's user or id.
func Changed(table string, rows []factbase.SealedRow, fn func([]factbase.SealedRow) error) ([]int, error) {
	before := make([]factbase.SealedRow, len(rows))
	for i, r := range rows {
		before[i] = factbase.SealedRow{User: r.User, Row: r.Row, Texts: slices.Clone(r.Texts)}
	}
	if err := fn(rows); err != nil {
		return nil, err
	}
	var changed []int
	for i, r := range rows {
		b := before[i]
		if r.User != b.User || r.Row != b.Row || len(r.Texts) != len(b.Texts) {
			return nil, factbase.Errorf(factbase.EINVALID, "reseal of %s changed the user, the id or the number of texts of row %s", table, b.Row)
		}
		if !slices.Equal(r.Texts, b.Texts) {
			changed = append(changed, i)
		}
	}
	return changed, nil
}

// Batch collects the rows a store read for one ResealRows batch, in its order, and
// runs fn over them. A store reads one row more than the batch's limit, to tell
// whether the table has more.
type Batch struct {
	table   string
	sheet   bool
	keys    [][]string
	entries []string
	rows    []factbase.SealedRow
}

// NewBatch returns an empty batch of table. Its rows' texts are the columns of
// factbase.SealedTables, but for the table of saved sheets, whose one column, the
// entries, passes the texts of the entries (rowcodec.SheetTexts).
func NewBatch(table string) *Batch { return &Batch{table: table, sheet: table == "sheets"} }

// Add adds the row read at key (the values of the columns the table is paged by),
// of user, bound to row, with its columns cols.
func (b *Batch) Add(key []string, user, row string, cols []string) error {
	r := factbase.SealedRow{User: factbase.UserID(user), Row: row, Texts: cols}
	if b.sheet {
		texts, err := rowcodec.SheetTexts([]byte(cols[0]))
		if err != nil {
			return factbase.Errorf(factbase.EINTERNAL, "reseal: saved sheet %s: %v", row, err)
		}
		b.entries = append(b.entries, cols[0])
		r.Texts = texts
	}
	b.keys, b.rows = append(b.keys, key), append(b.rows, r)
	return nil
}

// Run keeps the first limit rows, calls fn with them (Changed) and returns the
// position of the last row kept, when rows were left out ("" otherwise), and the
// indexes of the rows fn changed.
func (b *Batch) Run(limit int, fn func([]factbase.SealedRow) error) (next string, changed []int, err error) {
	if len(b.rows) > limit {
		b.keys, b.rows = b.keys[:limit], b.rows[:limit]
		next = Position(b.keys[limit-1]...)
	}
	if len(b.rows) == 0 {
		return "", nil, nil
	}
	changed, err = Changed(b.table, b.rows, fn)
	return next, changed, err
}

// Key returns the key of row i.
func (b *Batch) Key(i int) []string { return b.keys[i] }

// Columns returns the columns of row i to write back: its texts as fn left them,
// or a saved sheet's entries with fn's texts in place.
func (b *Batch) Columns(i int) ([]string, error) {
	r := b.rows[i]
	if !b.sheet {
		return r.Texts, nil
	}
	entries, err := rowcodec.WithSheetTexts([]byte(b.entries[i]), r.Texts)
	if err != nil {
		return nil, factbase.Errorf(factbase.EINTERNAL, "reseal: saved sheet %s: %v", r.Row, err)
	}
	return []string{entries}, nil
}
