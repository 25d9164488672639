-- People: the entities a user talks about, the changes to single-valued facts that
-- wait for the user's confirmation, and the sessions each communication preference
-- was stated in. Facts about an entity are ordinary rows of facts with the subject
-- 'entity:<id>', written by the one write path.

CREATE TABLE entities (
	u           INTEGER NOT NULL REFERENCES users(seq),
	id          TEXT    NOT NULL,
	name        TEXT    NOT NULL DEFAULT '',
	role        TEXT    NOT NULL,
	relation    TEXT    NOT NULL DEFAULT '',
	aliases     TEXT    NOT NULL DEFAULT '[]', -- JSON array of strings
	attributes  TEXT    NOT NULL DEFAULT '{}', -- JSON object of strings
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL,
	merged_into TEXT    NOT NULL DEFAULT '',
	PRIMARY KEY (u, id)
) WITHOUT ROWID;
CREATE INDEX entities_created ON entities (u, created_at, id);

CREATE TABLE conflicts (
	u             INTEGER NOT NULL REFERENCES users(seq),
	id            TEXT    NOT NULL,
	subject       TEXT    NOT NULL,
	key           TEXT    NOT NULL,
	current_id    TEXT    NOT NULL DEFAULT '',
	current_value TEXT    NOT NULL DEFAULT '',
	proposed      TEXT    NOT NULL, -- JSON of the proposed fact template
	reason        TEXT    NOT NULL DEFAULT '',
	status        TEXT    NOT NULL CHECK (status IN ('pending', 'confirmed', 'rejected')),
	created_at    INTEGER NOT NULL,
	resolved_at   INTEGER,
	result_id     TEXT    NOT NULL DEFAULT '',
	PRIMARY KEY (u, id)
) WITHOUT ROWID;
CREATE INDEX conflicts_status ON conflicts (u, status, created_at);
CREATE INDEX conflicts_subject ON conflicts (u, subject, key);

CREATE TABLE preference_sessions (
	u       INTEGER NOT NULL REFERENCES users(seq),
	key     TEXT    NOT NULL,
	norm    TEXT    NOT NULL,
	session TEXT    NOT NULL,
	PRIMARY KEY (u, key, norm, session)
) WITHOUT ROWID;

-- Temporal retrieval: current facts by time anchor.
CREATE INDEX facts_anchor ON facts (u, anchor) WHERE current = 1 AND anchor IS NOT NULL;

-- Erasure is complete: a conflict copies the value of the fact it is about, so an
-- erased fact takes its conflicts with it.
CREATE TRIGGER conflicts_erase AFTER DELETE ON facts
BEGIN
	DELETE FROM conflicts WHERE u = OLD.u AND (current_id = OLD.id OR result_id = OLD.id);
END;
