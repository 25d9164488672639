-- The durable job queue (background extraction). A job is claimed with a lease: a
-- worker that dies leaves its lease to expire and the job is claimed again. A
-- remember job's completion is written in the same transaction as its facts, so it is
-- applied exactly once. Jobs belong to the installation, like API keys: user_id holds
-- the user's UUID. Times are Unix nanoseconds (UTC).

CREATE TABLE jobs (
	seq               INTEGER PRIMARY KEY,
	id                TEXT    NOT NULL UNIQUE,
	user_id           TEXT    NOT NULL,
	kind              TEXT    NOT NULL,
	input             TEXT    NOT NULL,
	state             TEXT    NOT NULL CHECK (state IN ('queued', 'running', 'done', 'dead')),
	attempts          INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
	max_attempts      INTEGER NOT NULL CHECK (max_attempts >= 1),
	run_at            INTEGER NOT NULL,
	lease             TEXT    NOT NULL DEFAULT '',
	lease_until       INTEGER,
	error_code        TEXT    NOT NULL DEFAULT '',
	error             TEXT    NOT NULL DEFAULT '',
	result            TEXT    NOT NULL DEFAULT '',
	prompt_tokens     INTEGER NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
	completion_tokens INTEGER NOT NULL DEFAULT 0 CHECK (completion_tokens >= 0),
	cost              REAL    NOT NULL DEFAULT 0 CHECK (cost >= 0),
	created_at        INTEGER NOT NULL,
	updated_at        INTEGER NOT NULL,
	finished_at       INTEGER,
	-- A running job, and only a running job, holds a lease.
	CHECK ((state = 'running') = (lease <> '' AND lease_until IS NOT NULL))
);

-- The claim's two look-ups: queued jobs in run order, running jobs by lease expiry.
CREATE INDEX jobs_queued ON jobs (run_at, seq) WHERE state = 'queued';
CREATE INDEX jobs_running ON jobs (lease_until) WHERE state = 'running';
-- Listings.
CREATE INDEX jobs_user ON jobs (user_id, seq);
CREATE INDEX jobs_state ON jobs (state, seq);
