-- API keys for the HTTP server. Only the SHA-256 of a key is stored (hex); the key
-- itself is shown once when it is created. user_id '' marks an application key, valid
-- for every user. Times are Unix nanoseconds (UTC).

CREATE TABLE api_keys (
	seq        INTEGER PRIMARY KEY,
	id         TEXT    NOT NULL UNIQUE,
	name       TEXT    NOT NULL DEFAULT '',
	user_id    TEXT    NOT NULL DEFAULT '',
	hash       TEXT    NOT NULL UNIQUE CHECK (length(hash) = 64),
	created_at INTEGER NOT NULL,
	revoked_at INTEGER
);
