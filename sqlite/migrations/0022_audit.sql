-- The audit trail: one row per privacy-relevant operation (erasures, merges and
-- splits, conflict decisions, API keys). Append-only; it holds ids and counts, never
-- content, and names its user by id (user_id) so that a user's erasure keeps it.
CREATE TABLE audit_log (
	seq     INTEGER PRIMARY KEY,
	id      TEXT    NOT NULL UNIQUE,
	at      INTEGER NOT NULL,
	actor   TEXT    NOT NULL,
	action  TEXT    NOT NULL,
	user_id TEXT    NOT NULL DEFAULT '',
	target  TEXT    NOT NULL DEFAULT '',
	counts  TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX audit_log_user ON audit_log (user_id, seq);
