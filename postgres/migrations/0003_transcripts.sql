-- Transcript ingestion (the twin of sqlite/migrations/0003_transcripts.sql): per-file
-- checkpoints, sessions, and which session each fact subject belongs to. The facts
-- themselves are ordinary rows of facts (source_kind 'transcript').

CREATE TABLE transcript_checkpoints (
	u          uuid    NOT NULL REFERENCES users (id),
	file       text    COLLATE "C" NOT NULL,
	byte_off   bigint  NOT NULL CHECK (byte_off >= 0),
	line       bigint  NOT NULL CHECK (line >= 0),
	sum        bytea   NOT NULL,
	updated_at bigint  NOT NULL,
	PRIMARY KEY (u, file)
);

-- One row per (session, file): what that file says about the session.
CREATE TABLE transcript_sessions (
	u          uuid    NOT NULL REFERENCES users (id),
	id         text    COLLATE "C" NOT NULL,
	file       text    COLLATE "C" NOT NULL,
	cwd        text    NOT NULL DEFAULT '',
	git_branch text    NOT NULL DEFAULT '',
	version    text    NOT NULL DEFAULT '',
	summary    text    NOT NULL DEFAULT '',
	first_at   bigint,
	last_at    bigint,
	users      bigint  NOT NULL DEFAULT 0,
	assistants bigint  NOT NULL DEFAULT 0,
	other      bigint  NOT NULL DEFAULT 0,
	updated_at bigint  NOT NULL,
	PRIMARY KEY (u, id, file)
);
CREATE INDEX transcript_sessions_file ON transcript_sessions (u, file);

-- Subject -> session.
CREATE TABLE transcript_subjects (
	u       uuid NOT NULL REFERENCES users (id),
	session text COLLATE "C" NOT NULL,
	subject text COLLATE "C" NOT NULL,
	PRIMARY KEY (u, session, subject)
);
CREATE INDEX transcript_subjects_subject ON transcript_subjects (u, subject, session);
