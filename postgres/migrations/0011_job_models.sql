-- A job records the model it was queued for (the twin of
-- sqlite/migrations/0020_job_models.sql): its name and the model server's URL without
-- credentials ('' for none), so that a worker claims only the jobs its model can
-- serve. Daily token budgets sum the tokens of jobs by their last update.
ALTER TABLE jobs ADD COLUMN model text NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN endpoint text NOT NULL DEFAULT '';
CREATE INDEX jobs_updated ON jobs (updated_at);
CREATE INDEX jobs_user_updated ON jobs (user_id, updated_at);
