-- API keys for the HTTP server (the twin of sqlite/migrations/0002_keys.sql). Only the
-- SHA-256 of a key is stored (hex); user_id '' marks an application key, valid for
-- every user. Times are Unix nanoseconds.

CREATE TABLE api_keys (
	seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	id         text   NOT NULL UNIQUE,
	name       text   NOT NULL DEFAULT '',
	user_id    text   NOT NULL DEFAULT '',
	hash       text   NOT NULL UNIQUE CHECK (length(hash) = 64),
	created_at bigint NOT NULL,
	revoked_at bigint
);
