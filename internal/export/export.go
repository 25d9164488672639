// Package export holds the export reads both stores share (factbase.ExportReadTx
// but ExportVectors, which each store reads from its own vector storage): each
// reads every row of one kind that a transaction's user owns, with the store's own
// statement, and decodes the rows once here.
package export

import (
	"context"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
)

// Statements are one store's export statements and its translation of driver
// errors. Each statement selects every row of one table that the user owns, with
// the user as its one parameter, in the order the contract gives
// (factbase.ExportReadTx) and with the columns named here.
type Statements struct {
	References  string // fact id, at, source kind, source id
	Checkpoints string // file, byte offset, line, sum, updated at
	Links       string // session, subject
	Preferences string // key, norm, session
	Sheets      string // rowcodec.SheetColumns

	// MapErr translates a driver's error of the read named op into a domain error.
	MapErr func(op string, err error) error
}

// Querier is a store's transaction as the export reads use it.
type Querier interface {
	// ExportRows runs q, one of the store's Statements, with the transaction's
	// user as its one parameter. Its error is the driver's.
	ExportRows(ctx context.Context, q string) (rowcodec.Rows, error)
}

// Reads implements the export reads of one transaction but ExportVectors; a
// store's transaction embeds it. Its zero value has no transaction to read from.
type Reads struct {
	q    Querier
	st   *Statements
	user factbase.UserID
}

// NewReads returns the export reads of transaction q of user, with st's statements.
func NewReads(q Querier, st *Statements, user factbase.UserID) Reads {
	return Reads{q: q, st: st, user: user}
}

// ExportReferences returns every reference to the user's facts, oldest first.
func (r Reads) ExportReferences(ctx context.Context) ([]factbase.Reference, error) {
	return read(ctx, r, "export references", r.st.References, reference)
}

// ExportTranscriptCheckpoints returns every transcript checkpoint, by file.
func (r Reads) ExportTranscriptCheckpoints(ctx context.Context) ([]factbase.TranscriptCheckpoint, error) {
	return read(ctx, r, "export transcript checkpoints", r.st.Checkpoints, checkpoint)
}

// ExportTranscriptLinks returns every subject's link to a session.
func (r Reads) ExportTranscriptLinks(ctx context.Context) ([]factbase.TranscriptLink, error) {
	return read(ctx, r, "export transcript links", r.st.Links, link)
}

// ExportPreferenceSessions returns every preference session recorded.
func (r Reads) ExportPreferenceSessions(ctx context.Context) ([]factbase.PreferenceSession, error) {
	return read(ctx, r, "export preference sessions", r.st.Preferences, preference)
}

// ExportSheets returns every saved sheet of the user, oldest first.
func (r Reads) ExportSheets(ctx context.Context) ([]factbase.FactSheet, error) {
	return read(ctx, r, "export sheets", r.st.Sheets, rowcodec.Owner(r.user).Sheet)
}

// read runs q and decodes its rows with scan; every error is translated naming op.
// No row is nil.
func read[T any](ctx context.Context, r Reads, op, q string, scan func(rowcodec.Scanner) (T, error)) ([]T, error) {
	rows, err := r.q.ExportRows(ctx, q)
	if err != nil {
		return nil, r.st.MapErr(op, err)
	}
	out, err := rowcodec.All(rows, scan)
	return out, r.st.MapErr(op, err)
}

// reference reads a row of Statements.References.
func reference(r rowcodec.Scanner) (factbase.Reference, error) {
	var ref factbase.Reference
	var at int64
	if err := r.Scan(&ref.FactID, &at, &ref.Source.Kind, &ref.Source.ID); err != nil {
		return ref, err
	}
	ref.At = rowcodec.Time(at)
	return ref, nil
}

// checkpoint reads a row of Statements.Checkpoints.
func checkpoint(r rowcodec.Scanner) (factbase.TranscriptCheckpoint, error) {
	var cp factbase.TranscriptCheckpoint
	var at int64
	if err := r.Scan(&cp.File, &cp.Offset, &cp.Line, &cp.Sum, &at); err != nil {
		return cp, err
	}
	cp.UpdatedAt = rowcodec.Time(at)
	return cp, nil
}

// link reads a row of Statements.Links.
func link(r rowcodec.Scanner) (factbase.TranscriptLink, error) {
	var l factbase.TranscriptLink
	err := r.Scan(&l.Session, &l.Subject)
	return l, err
}

// preference reads a row of Statements.Preferences.
func preference(r rowcodec.Scanner) (factbase.PreferenceSession, error) {
	var p factbase.PreferenceSession
	err := r.Scan(&p.Key, &p.Norm, &p.Session)
	return p, err
}
