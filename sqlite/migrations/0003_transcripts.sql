-- Transcript ingestion: per-file checkpoints, sessions, and which session each fact
-- subject (task_..., action_...) belongs to. The facts themselves are ordinary rows of
-- facts (source_kind 'transcript'), written by the one write path.

-- How far each user's ingest of each file got: bytes and lines consumed and the
-- SHA-256 of those bytes, to resume a grown file and detect a rewritten one.
CREATE TABLE transcript_checkpoints (
	u          INTEGER NOT NULL REFERENCES users(seq),
	file       TEXT    NOT NULL,
	byte_off   INTEGER NOT NULL CHECK (byte_off >= 0),
	line       INTEGER NOT NULL CHECK (line >= 0),
	sum        BLOB    NOT NULL,
	updated_at INTEGER NOT NULL,
	PRIMARY KEY (u, file)
) WITHOUT ROWID;

-- One row per (session, file): what that file says about the session.
CREATE TABLE transcript_sessions (
	u          INTEGER NOT NULL REFERENCES users(seq),
	id         TEXT    NOT NULL,
	file       TEXT    NOT NULL,
	cwd        TEXT    NOT NULL DEFAULT '',
	git_branch TEXT    NOT NULL DEFAULT '',
	version    TEXT    NOT NULL DEFAULT '',
	summary    TEXT    NOT NULL DEFAULT '',
	first_at   INTEGER,
	last_at    INTEGER,
	users      INTEGER NOT NULL DEFAULT 0,
	assistants INTEGER NOT NULL DEFAULT 0,
	other      INTEGER NOT NULL DEFAULT 0,
	updated_at INTEGER NOT NULL,
	PRIMARY KEY (u, id, file)
) WITHOUT ROWID;
CREATE INDEX transcript_sessions_file ON transcript_sessions (u, file);

-- Subject -> session, for "the facts of session S" and "the sessions where it happened".
CREATE TABLE transcript_subjects (
	u       INTEGER NOT NULL REFERENCES users(seq),
	session TEXT    NOT NULL,
	subject TEXT    NOT NULL,
	PRIMARY KEY (u, session, subject)
) WITHOUT ROWID;
CREATE INDEX transcript_subjects_subject ON transcript_subjects (u, subject, session);
