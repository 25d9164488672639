package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/storeerr"
)

// The job statements. A claim locks the row it takes with FOR UPDATE SKIP LOCKED, so
// workers of several servers claiming at once each take a different job without
// waiting for one another.
const (
	qJobByID   = "SELECT " + rowcodec.JobColumns + " FROM jobs WHERE id = $1"
	qJobInsert = `INSERT INTO jobs (id, user_id, kind, input, state, max_attempts, run_at, created_at, updated_at, model, endpoint)
		VALUES ($1, $2, $3, $4, 'queued', $5, $6, $6, $6, $7, $8) RETURNING ` + rowcodec.JobColumns
	// A running job whose lease expired on its last attempt dies.
	qJobExpireDead = `UPDATE jobs SET state = 'dead', lease = '', lease_until = NULL, error_code = 'unavailable',
		error = 'the lease expired on the last attempt: the worker stopped or crashed', updated_at = $1, finished_at = $1
		WHERE seq IN (SELECT seq FROM jobs WHERE state = 'running' AND lease_until <= $1 AND attempts >= max_attempts
			FOR UPDATE SKIP LOCKED)`
	qJobClaimExpired = `UPDATE jobs SET state = 'running', lease = $3, lease_until = $4, attempts = attempts + 1, updated_at = $1
		WHERE seq = (SELECT seq FROM jobs WHERE state = 'running' AND lease_until <= $1
			AND (cardinality($2::text[]) = 0 OR kind = ANY($2::text[])) AND ($5 = '' OR id = $5)
			AND (model = '' OR model = $6 AND endpoint = $7)
			ORDER BY lease_until LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING ` + rowcodec.JobColumns
	qJobClaimQueued = `UPDATE jobs SET state = 'running', lease = $3, lease_until = $4, attempts = attempts + 1, updated_at = $1
		WHERE seq = (SELECT seq FROM jobs WHERE state = 'queued' AND run_at <= $1
			AND (cardinality($2::text[]) = 0 OR kind = ANY($2::text[])) AND ($5 = '' OR id = $5)
			AND (model = '' OR model = $6 AND endpoint = $7)
			ORDER BY run_at, seq LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING ` + rowcodec.JobColumns
	qJobExtend = `UPDATE jobs SET lease_until = $1, updated_at = $2 WHERE id = $3 AND lease = $4 AND state = 'running'`
	qJobFail   = `UPDATE jobs SET
		state = CASE WHEN $1::boolean OR attempts >= max_attempts THEN 'dead' ELSE 'queued' END,
		finished_at = CASE WHEN $1::boolean OR attempts >= max_attempts THEN $2::bigint ELSE NULL END,
		run_at = $3, lease = '', lease_until = NULL, error_code = $4, error = $5,
		prompt_tokens = prompt_tokens + $6, completion_tokens = completion_tokens + $7, cost = cost + $8, updated_at = $2
		WHERE id = $9 AND lease = $10 AND state = 'running' RETURNING ` + rowcodec.JobColumns
	qJobRelease = `UPDATE jobs SET state = 'queued', attempts = greatest(attempts - 1, 0), lease = '', lease_until = NULL,
		run_at = $1, updated_at = $1 WHERE id = $2 AND lease = $3 AND state = 'running'`
	qJobDefer = `UPDATE jobs SET state = 'queued', attempts = greatest(attempts - 1, 0), lease = '', lease_until = NULL,
		run_at = $1, updated_at = $2, error_code = $3, error = $4 WHERE id = $5 AND lease = $6 AND state = 'running'
		RETURNING ` + rowcodec.JobColumns
	qJobRetry = `UPDATE jobs SET state = 'queued', attempts = 0, run_at = $1, updated_at = $1, finished_at = NULL,
		model = CASE WHEN $3::boolean THEN $4 ELSE model END, endpoint = CASE WHEN $3::boolean THEN $5 ELSE endpoint END
		WHERE id = $2 AND state = 'dead' RETURNING ` + rowcodec.JobColumns
	qJobTokens = `SELECT coalesce(sum(prompt_tokens + completion_tokens), 0)::bigint FROM jobs
		WHERE updated_at >= $2 AND ($1 = '' OR user_id = $1)`
	qJobComplete = `UPDATE jobs SET state = 'done', lease = '', lease_until = NULL, result = $1, error_code = '', error = '',
		prompt_tokens = prompt_tokens + $2, completion_tokens = completion_tokens + $3, cost = cost + $4,
		updated_at = $5, finished_at = $5
		WHERE id = $6 AND user_id = $7 AND lease = $8 AND state = 'running'`
	qJobUsage = `SELECT state, count(*), coalesce(sum(prompt_tokens), 0)::bigint, coalesce(sum(completion_tokens), 0)::bigint,
		coalesce(sum(cost), 0) FROM jobs WHERE $1 = '' OR user_id = $1 GROUP BY state`
)

// EnqueueJob stores a new queued job.
func (s *Store) EnqueueJob(ctx context.Context, j factbase.Job) (factbase.Job, error) {
	if err := j.Validate(); err != nil {
		return factbase.Job{}, err
	}
	if s.gate.Closed() {
		return factbase.Job{}, storeerr.ErrClosed
	}
	now := s.now().UTC().UnixNano()
	out, err := rowcodec.Job(s.pool.QueryRow(ctx, qJobInsert, j.ID, string(j.User), j.Kind, j.Input, j.MaxAttempts, now,
		j.Model, j.Endpoint))
	if err != nil {
		return factbase.Job{}, storeerr.Taken(mapErr("enqueue job", err), "a job with that id already exists")
	}
	return out, nil
}

// ClaimJob claims the oldest runnable job: first kills the jobs whose lease expired
// on their last attempt, then takes a running job whose lease expired, else the
// queued job that has waited longest, all in one transaction.
func (s *Store) ClaimJob(ctx context.Context, lease time.Duration, c factbase.JobClaim) (factbase.Job, bool, error) {
	if err := factbase.ValidateLease(lease); err != nil {
		return factbase.Job{}, false, err
	}
	if s.gate.Closed() {
		return factbase.Job{}, false, storeerr.ErrClosed
	}
	token, err := factbase.NewJobLease()
	if err != nil {
		return factbase.Job{}, false, err
	}
	kinds := append([]string{}, c.Kinds...)
	var (
		j  factbase.Job
		ok bool
	)
	err = pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.ReadCommitted}, func(tx pgx.Tx) error {
		now := s.now().UTC()
		if _, err := tx.Exec(ctx, qJobExpireDead, now.UnixNano()); err != nil {
			return err
		}
		for _, q := range []string{qJobClaimExpired, qJobClaimQueued} {
			got, err := rowcodec.Job(tx.QueryRow(ctx, q, now.UnixNano(), kinds, token, now.Add(lease).UnixNano(),
				c.ID, c.Model, c.Endpoint))
			if errors.Is(err, pgx.ErrNoRows) {
				continue
			}
			if err != nil {
				return err
			}
			j, ok = got, true
			return nil
		}
		return nil
	})
	if err != nil {
		return factbase.Job{}, false, mapErr("claim job", err)
	}
	return j, ok, nil
}

// ExtendJob pushes a running job's lease.
func (s *Store) ExtendJob(ctx context.Context, id, lease string, d time.Duration) error {
	if err := factbase.ValidateLease(d); err != nil {
		return err
	}
	if s.gate.Closed() {
		return storeerr.ErrClosed
	}
	now := s.now().UTC()
	tag, err := s.pool.Exec(ctx, qJobExtend, now.Add(d).UnixNano(), now.UnixNano(), id, lease)
	if err != nil {
		return mapErr("extend job", err)
	}
	if tag.RowsAffected() == 0 {
		return storeerr.LeaseLost(id)
	}
	return nil
}

// FailJob records a failed attempt.
func (s *Store) FailJob(ctx context.Context, id, lease string, f factbase.JobFailure) (factbase.Job, error) {
	if err := f.Validate(); err != nil {
		return factbase.Job{}, err
	}
	if s.gate.Closed() {
		return factbase.Job{}, storeerr.ErrClosed
	}
	now := s.now().UTC()
	code, msg := f.Record()
	j, err := rowcodec.Job(s.pool.QueryRow(ctx, qJobFail, f.Dead, now.UnixNano(), now.Add(f.RetryIn).UnixNano(), code,
		msg, f.PromptTokens, f.CompletionTokens, f.Cost, id, lease))
	if errors.Is(err, pgx.ErrNoRows) {
		return factbase.Job{}, storeerr.LeaseLost(id)
	}
	if err != nil {
		return factbase.Job{}, mapErr("fail job", err)
	}
	return j, nil
}

// ReleaseJob gives a running job back without counting the attempt.
func (s *Store) ReleaseJob(ctx context.Context, id, lease string) error {
	if s.gate.Closed() {
		return storeerr.ErrClosed
	}
	tag, err := s.pool.Exec(ctx, qJobRelease, s.now().UTC().UnixNano(), id, lease)
	if err != nil {
		return mapErr("release job", err)
	}
	if tag.RowsAffected() == 0 {
		return storeerr.LeaseLost(id)
	}
	return nil
}

// DeferJob gives a running job back until a later time, without counting the attempt.
func (s *Store) DeferJob(ctx context.Context, id, lease string, until time.Time, reason string) (factbase.Job, error) {
	if s.gate.Closed() {
		return factbase.Job{}, storeerr.ErrClosed
	}
	_, msg := factbase.JobFailure{Message: reason}.Record()
	j, err := rowcodec.Job(s.pool.QueryRow(ctx, qJobDefer, until.UTC().UnixNano(), s.now().UTC().UnixNano(),
		factbase.JobDeferredCode, msg, id, lease))
	if errors.Is(err, pgx.ErrNoRows) {
		return factbase.Job{}, storeerr.LeaseLost(id)
	}
	if err != nil {
		return factbase.Job{}, mapErr("defer job", err)
	}
	return j, nil
}

// RetryJob queues a dead job again.
func (s *Store) RetryJob(ctx context.Context, id string, r factbase.JobRetry) (factbase.Job, error) {
	if err := r.Validate(); err != nil {
		return factbase.Job{}, err
	}
	if s.gate.Closed() {
		return factbase.Job{}, storeerr.ErrClosed
	}
	j, err := rowcodec.Job(s.pool.QueryRow(ctx, qJobRetry, s.now().UTC().UnixNano(), id, r.Retarget, r.Model, r.Endpoint))
	if errors.Is(err, pgx.ErrNoRows) {
		return factbase.Job{}, storeerr.NotRetried(ctx, id, s.Job)
	}
	if err != nil {
		return factbase.Job{}, mapErr("retry job", err)
	}
	return j, nil
}

// Job returns one job.
func (s *Store) Job(ctx context.Context, id string) (factbase.Job, error) {
	if s.gate.Closed() {
		return factbase.Job{}, storeerr.ErrClosed
	}
	j, err := rowcodec.Job(s.pool.QueryRow(ctx, qJobByID, id))
	if err != nil {
		return factbase.Job{}, mapErr("job", storeerr.NotFoundIf(err, pgx.ErrNoRows, "job", id))
	}
	return j, nil
}

// Jobs lists jobs newest first.
func (s *Store) Jobs(ctx context.Context, f factbase.JobFilter) ([]factbase.Job, error) {
	f, err := f.WithDefaults()
	if err != nil {
		return nil, err
	}
	var w where
	w.eq("user_id", string(f.User))
	w.eq("state", string(f.State))
	w.eq("kind", f.Kind)
	if f.Before != "" {
		w.add("seq < coalesce((SELECT seq FROM jobs WHERE id = " + w.arg(f.Before) + "), 0)")
	}
	q := "SELECT " + rowcodec.JobColumns + " FROM jobs"
	if len(w.conds) > 0 {
		q += " WHERE " + w.String()
	}
	q += " ORDER BY seq DESC LIMIT " + w.arg(f.Limit)
	jobs, err := poolAll(ctx, s, "jobs", q, rowcodec.Job, w.args...)
	if err != nil {
		return nil, err
	}
	return rowcodec.NonNil(jobs), nil
}

// JobUsage sums jobs by state, with their tokens and cost.
func (s *Store) JobUsage(ctx context.Context, user factbase.UserID) (factbase.JobUsage, error) {
	if s.gate.Closed() {
		return factbase.JobUsage{}, storeerr.ErrClosed
	}
	var u factbase.JobUsage
	rows, err := s.pool.Query(ctx, qJobUsage, string(user))
	if err == nil {
		u, err = rowcodec.Usage(rows)
	}
	return u, mapErr("job usage", err)
}

// JobTokens sums the tokens of jobs updated since a time.
func (s *Store) JobTokens(ctx context.Context, user factbase.UserID, since time.Time) (int, error) {
	if s.gate.Closed() {
		return 0, storeerr.ErrClosed
	}
	var n int64
	if err := s.pool.QueryRow(ctx, qJobTokens, string(user), since.UTC().UnixNano()).Scan(&n); err != nil {
		return 0, mapErr("job tokens", err)
	}
	return int(n), nil
}

// CompleteJob marks a running job of the transaction's user done, in the write
// path's transaction.
func (t *tx) CompleteJob(ctx context.Context, id, lease string, o factbase.JobOutcome) error {
	result, err := rowcodec.JobResult(o)
	if err != nil {
		return err
	}
	tag, err := t.q.Exec(ctx, qJobComplete, result, o.PromptTokens, o.CompletionTokens, o.Cost, t.now.UnixNano(),
		id, string(t.user), lease)
	if err != nil {
		return mapErr("complete job", err)
	}
	if tag.RowsAffected() == 0 {
		return storeerr.LeaseLost(id)
	}
	return nil
}

// qJobScrub empties the payloads of the user's jobs that hold a text (jobs_user
// bounds the scan to the user's jobs).
const qJobScrub = `UPDATE jobs SET input = '', result = '', error = '', updated_at = $3
	WHERE user_id = $1 AND (strpos(input, $2) > 0 OR strpos(result, $2) > 0 OR strpos(error, $2) > 0)`

// ScrubJobs empties the payloads of the transaction user's jobs that hold any of
// texts.
func (t *tx) ScrubJobs(ctx context.Context, texts []string) (int, error) {
	n := 0
	for _, text := range texts {
		if text == "" {
			continue
		}
		k, err := t.execCount(ctx, "scrub jobs", qJobScrub, string(t.user), text, t.now.UnixNano())
		if err != nil {
			return n, err
		}
		n += k
	}
	return n, nil
}
