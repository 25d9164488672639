// Package rowcodec converts between the domain types and the column values both
// stores keep for them, so that a row is encoded and decoded once whichever store
// holds it: times as Unix nanoseconds (NULL for none), lists and maps as JSON text,
// one column list per table. The SQL stays in the stores; the column lists here are
// the order in which the functions of this package read and write the columns.
//
// Both drivers' rows satisfy Scanner and Rows (database/sql's *sql.Row and *sql.Rows,
// pgx's Row and Rows), and both scan into the destinations used here: ints of any
// width, pointers for nullable columns, strings and byte slices.
package rowcodec

import (
	"errors"
	"time"

	"github.com/factbase/factbase"
)

// Scanner is one row of a result.
type Scanner interface {
	Scan(dest ...any) error
}

// Rows is a result set. The functions of this package that read one close it.
type Rows interface {
	Scanner
	Next() bool
	Err() error
}

// All reads every remaining row of rows with scan, in order; nil when there is none.
// It returns the first error of scan or of rows as it is. Like every function here
// that reads Rows, it closes rows.
func All[T any](rows Rows, scan func(Scanner) (T, error)) ([]T, error) {
	defer closeRows(rows)
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// closeRows closes rows, whichever driver's they are.
func closeRows(rows Rows) {
	switch c := rows.(type) {
	case interface{ Close() error }: // database/sql
		c.Close()
	case interface{ Close() }: // pgx
		c.Close()
	}
}

// One reads a row that may be missing with read: ok is false, with no error, when
// the read fails with noRows, the driver's error for a query without a row.
func One[T any](r Scanner, noRows error, read func(Scanner) (T, error)) (v T, ok bool, err error) {
	v, err = read(r)
	if errors.Is(err, noRows) {
		return v, false, nil
	}
	return v, err == nil, err
}

// NonNil returns s, or an empty slice for nil: for the lists the contract returns
// empty rather than nil.
func NonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// String reads a row of one text column.
func String(r Scanner) (string, error) {
	var s string
	err := r.Scan(&s)
	return s, err
}

// Int64 reads a row of one integer column.
func Int64(r Scanner) (int64, error) {
	var n int64
	err := r.Scan(&n)
	return n, err
}

// UserID reads a row of one user id column.
func UserID(r Scanner) (factbase.UserID, error) {
	s, err := String(r)
	return factbase.UserID(s), err
}

// Time returns the time of a column of Unix nanoseconds, in UTC.
func Time(ns int64) time.Time { return time.Unix(0, ns).UTC() }

// TimePtr returns the time of a nullable column of Unix nanoseconds; nil for NULL.
func TimePtr(ns *int64) *time.Time {
	if ns == nil {
		return nil
	}
	t := Time(*ns)
	return &t
}

// TimeOrZero returns the time of a nullable column of Unix nanoseconds; the zero time
// for NULL.
func TimeOrZero(ns *int64) time.Time {
	if ns == nil {
		return time.Time{}
	}
	return Time(*ns)
}

// Nanos returns the column value of an optional time: its Unix nanoseconds, or nil
// (NULL) for nil.
func Nanos(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UnixNano()
}

// NanosOrNull returns the column value of a time whose zero value means none: its
// Unix nanoseconds, or nil (NULL) for the zero time.
func NanosOrNull(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixNano()
}

// Members reads rows of a fact's columns (read by scanFact) followed by its
// normalised value into out, keyed by (subject, key, normalised value). It closes
// rows.
func Members(rows Rows, scanFact func(Scanner) (factbase.Fact, error), out map[factbase.MemberKey]factbase.Fact) error {
	defer closeRows(rows)
	var norm string
	for rows.Next() {
		f, err := scanFact(followed{rows, &norm})
		if err != nil {
			return err
		}
		out[factbase.MemberKey{Subject: f.Subject, Key: f.Key, Norm: norm}] = f
	}
	return rows.Err()
}

// followed scans a row whose columns are those its Scan is given followed by one
// more, into last.
type followed struct {
	r    Scanner
	last any
}

func (f followed) Scan(dest ...any) error { return f.r.Scan(append(dest, f.last)...) }
