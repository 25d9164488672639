package factbase

import (
	"context"
	"time"
)

// TranscriptCheckpoint records how far a user's ingest of one transcript file got:
// the bytes and lines consumed and the SHA-256 of those bytes, so that a later ingest
// of the same file reads only what was appended, and detects a file that was
// rewritten instead.
type TranscriptCheckpoint struct {
	File      string    // the file's name as the ingester gave it (the CLI: its absolute path)
	Offset    int64     // bytes consumed, always the end of a complete line
	Line      int       // lines consumed
	Sum       []byte    // SHA-256 of the first Offset bytes
	UpdatedAt time.Time // set by the store to the transaction's time
}

// Validate reports whether cp can be stored: it names a file, and neither its offset
// nor its line is negative. Returns EINVALID otherwise.
func (cp TranscriptCheckpoint) Validate() error {
	if cp.File == "" {
		return Errorf(EINVALID, "transcript checkpoint has no file name")
	}
	if cp.Offset < 0 || cp.Line < 0 {
		return Errorf(EINVALID, "transcript checkpoint of %s: offset %d, line %d; neither may be negative", cp.File, cp.Offset, cp.Line)
	}
	return nil
}

// TranscriptSession is the stored metadata of one agent session as one transcript
// file tells it. A session that spans several files has one row per file.
type TranscriptSession struct {
	ID         string    `json:"id"`
	File       string    `json:"file"`
	CWD        string    `json:"cwd,omitempty"` // the project directory
	GitBranch  string    `json:"git_branch,omitempty"`
	Version    string    `json:"version,omitempty"` // the agent's version
	Summary    string    `json:"summary,omitempty"`
	First      time.Time `json:"first"`      // earliest message timestamp; zero if none
	Last       time.Time `json:"last"`       // latest message timestamp; zero if none
	Users      int       `json:"users"`      // user lines (requests and tool results)
	Assistants int       `json:"assistants"` // assistant lines
	Other      int       `json:"other"`      // lines of other types
	UpdatedAt  time.Time `json:"updated_at"` // set by the store to the transaction's time
}

// Validate reports whether s can be stored: it needs an id and a file. Returns
// EINVALID otherwise.
func (s TranscriptSession) Validate() error {
	if s.ID == "" || s.File == "" {
		return Errorf(EINVALID, "transcript session needs an id and a file (got %q, %q)", s.ID, s.File)
	}
	return nil
}

// TranscriptLink says that a fact subject (a task or an action) belongs to a session.
type TranscriptLink struct {
	Subject string
	Session string
}

// Validate reports whether l can be stored: it needs a subject and a session.
// Returns EINVALID otherwise.
func (l TranscriptLink) Validate() error {
	if l.Subject == "" || l.Session == "" {
		return Errorf(EINVALID, "transcript link needs a subject and a session (got %q, %q)", l.Subject, l.Session)
	}
	return nil
}

// TranscriptQuery selects current facts that came from transcripts (source kind
// SourceTranscript). Zero fields do not filter.
type TranscriptQuery struct {
	Predicate string // the fact's key
	Subject   string
	Session   string // only subjects linked to this session
	// ObjectContains keeps facts whose value contains it, ASCII letters compared
	// without case.
	ObjectContains string
	MinConfidence  float64
	Limit          int // 0: no limit
	Offset         int
}

// TranscriptObject is one distinct object of the facts a TranscriptQuery selects
// (e.g. one host for connects_to_host), with how many facts and subjects name it and
// the sessions they belong to.
type TranscriptObject struct {
	Object string `json:"object"` // the first spelling stored
	Facts  int    `json:"facts"`  // current facts with this object
	// Sessions are the first MaxObjectSessions of the sessions, sorted; empty if no
	// subject is linked to a session.
	Sessions []string `json:"sessions"`
	// SessionsTotal counts every session, those beyond Sessions included.
	SessionsTotal int `json:"sessions_total"`
}

// MaxObjectSessions is the most sessions a TranscriptObject lists.
const MaxObjectSessions = 100

// TranscriptReadTx reads what transcript ingestion stored. Every method sees only the
// transaction's user's rows.
type TranscriptReadTx interface {
	// TranscriptCheckpoint returns the checkpoint of file; ok is false if there is
	// none.
	TranscriptCheckpoint(ctx context.Context, file string) (cp TranscriptCheckpoint, ok bool, err error)
	// TranscriptSessions returns the sessions with id id (every file's row), or, for
	// id "", every session; ordered by first timestamp, then id and file; offset of
	// them skipped and at most limit returned (0: no limit).
	TranscriptSessions(ctx context.Context, id string, offset, limit int) ([]TranscriptSession, error)
	// TranscriptFacts returns the current transcript facts q selects, oldest first.
	TranscriptFacts(ctx context.Context, q TranscriptQuery) ([]Fact, error)
	// TranscriptObjects groups the facts q selects (Limit and Offset apply to the
	// groups) by normalised object, most facts first, then by object. Each group
	// lists at most MaxObjectSessions sessions, the least first, and counts them all.
	TranscriptObjects(ctx context.Context, q TranscriptQuery) ([]TranscriptObject, error)
}

// TranscriptTx writes transcript ingestion's own rows inside the write path's
// transaction (memory.Engine.ApplyWith), so that a batch's facts, the file's
// checkpoint and its sessions commit together or not at all.
type TranscriptTx interface {
	// PutTranscriptCheckpoint creates or replaces the checkpoint of cp.File. EINVALID
	// if cp fails TranscriptCheckpoint.Validate.
	PutTranscriptCheckpoint(ctx context.Context, cp TranscriptCheckpoint) error
	// PutTranscriptSession creates or replaces the row of (s.ID, s.File). EINVALID if
	// s fails TranscriptSession.Validate.
	PutTranscriptSession(ctx context.Context, s TranscriptSession) error
	// DeleteTranscriptSessions deletes every session row of file and returns how
	// many there were (for a file that was rewritten and is read again).
	DeleteTranscriptSessions(ctx context.Context, file string) (int, error)
	// LinkTranscriptSubjects records that each subject belongs to its session; a
	// link already stored is not stored again. EINVALID, and nothing stored, if a
	// link fails TranscriptLink.Validate.
	LinkTranscriptSubjects(ctx context.Context, links []TranscriptLink) error
}
