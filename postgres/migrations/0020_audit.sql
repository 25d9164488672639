-- The audit trail (the twin of sqlite/migrations/0022_audit.sql): one row per
-- privacy-relevant operation; append-only; ids and counts, never content; its user
-- named by id (user_id) so that a user's erasure keeps it.
CREATE TABLE audit_log (
	seq     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	id      text   COLLATE "C" NOT NULL UNIQUE,
	at      bigint NOT NULL,
	actor   text   NOT NULL,
	action  text   NOT NULL,
	user_id text   NOT NULL DEFAULT '',
	target  text   NOT NULL DEFAULT '',
	counts  text   NOT NULL DEFAULT ''
);
CREATE INDEX audit_log_user ON audit_log (user_id, seq);
