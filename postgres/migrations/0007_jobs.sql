-- The durable job queue (the twin of sqlite/migrations/0007_jobs.sql). A job is
-- claimed with a lease; several servers claim at once without waiting for each other
-- (SELECT ... FOR UPDATE SKIP LOCKED). A remember job's completion is written in the
-- same transaction as its facts, so it is applied exactly once. Jobs belong to the
-- installation, like API keys: user_id holds the user's UUID. Times are Unix
-- nanoseconds.

CREATE TABLE jobs (
	seq               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	id                text    COLLATE "C" NOT NULL UNIQUE,
	user_id           text    NOT NULL,
	kind              text    NOT NULL,
	input             text    NOT NULL,
	state             text    NOT NULL CHECK (state IN ('queued', 'running', 'done', 'dead')),
	attempts          integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
	max_attempts      integer NOT NULL CHECK (max_attempts >= 1),
	run_at            bigint  NOT NULL,
	lease             text    NOT NULL DEFAULT '',
	lease_until       bigint,
	error_code        text    NOT NULL DEFAULT '',
	error             text    NOT NULL DEFAULT '',
	result            text    NOT NULL DEFAULT '',
	prompt_tokens     bigint  NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
	completion_tokens bigint  NOT NULL DEFAULT 0 CHECK (completion_tokens >= 0),
	cost              double precision NOT NULL DEFAULT 0 CHECK (cost >= 0),
	created_at        bigint  NOT NULL,
	updated_at        bigint  NOT NULL,
	finished_at       bigint,
	-- A running job, and only a running job, holds a lease.
	CHECK ((state = 'running') = (lease <> '' AND lease_until IS NOT NULL))
);

-- The claim's two look-ups: queued jobs in run order, running jobs by lease expiry.
CREATE INDEX jobs_queued ON jobs (run_at, seq) WHERE state = 'queued';
CREATE INDEX jobs_running ON jobs (lease_until) WHERE state = 'running';
-- Listings.
CREATE INDEX jobs_user ON jobs (user_id, seq);
CREATE INDEX jobs_state ON jobs (state, seq);
