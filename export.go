package factbase

import "context"

// PreferenceSession is one record of PeopleTx.NotePreferenceSession: the value whose
// normalised form is Norm was stated for Key in Session.
type PreferenceSession struct {
	Key     string `json:"key"`
	Norm    string `json:"norm"`
	Session string `json:"session"`
}

// ExportReadTx reads every row of one kind that the transaction's user owns, for a
// full copy of the user into another store (factbase migrate) or an export of the
// user's data. With the other reads of ReadTx (Facts with History, ListEvents,
// Episodes, TranscriptSessions, Entities, Conflicts) it covers everything a user's
// copy needs, and in one View every read comes from one snapshot. The rows come back
// in the form the matching write takes (AddReferences, PutVectors,
// PutTranscriptCheckpoint, LinkTranscriptSubjects, NotePreferenceSession,
// SheetStore.SaveSheet), in a stable order, so that writing them in that order into
// an empty store rebuilds the user.
//
// Every method sees only the transaction's user's rows: a user with none gets an
// empty result, not an error. Methods return EUNAVAILABLE when the store cannot be
// reached.
type ExportReadTx interface {
	// ExportReferences returns every reference to the user's facts, oldest first
	// (among equal times, in the order recorded).
	ExportReferences(ctx context.Context) ([]Reference, error)
	// ExportVectors returns every stored vector of the user's facts and episodes, in
	// the order stored. A zero vector, which vector search never returns, is
	// included as its dimension's count of zeros.
	ExportVectors(ctx context.Context) ([]Vector, error)
	// ExportTranscriptCheckpoints returns every transcript checkpoint (UpdatedAt as
	// stored), by file name in byte order.
	ExportTranscriptCheckpoints(ctx context.Context) ([]TranscriptCheckpoint, error)
	// ExportTranscriptLinks returns every link of a subject to a transcript session,
	// by session, then subject, in byte order.
	ExportTranscriptLinks(ctx context.Context) ([]TranscriptLink, error)
	// ExportPreferenceSessions returns every preference session recorded, by key,
	// norm, then session, in byte order.
	ExportPreferenceSessions(ctx context.Context) ([]PreferenceSession, error)
	// ExportSheets returns every saved fact sheet of the user (User set), oldest
	// first (among equal creation times, in the order saved).
	ExportSheets(ctx context.Context) ([]FactSheet, error)
}
