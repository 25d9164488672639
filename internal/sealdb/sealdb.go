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
