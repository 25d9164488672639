package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/storeerr"
)

// The job statements, prepared at open (see allStaticQueries).
var (
	qJobInsert = `INSERT INTO jobs (id, user_id, kind, input, state, max_attempts, run_at, created_at, updated_at, model, endpoint)
		VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?) RETURNING ` + rowcodec.JobColumns
	qJobByID = "SELECT " + rowcodec.JobColumns + " FROM jobs WHERE id = ?"
	// A running job whose lease expired on its last attempt dies.
	qJobExpireDead = `UPDATE jobs SET state = 'dead', lease = '', lease_until = NULL, error_code = 'unavailable',
		error = 'the lease expired on the last attempt: the worker stopped or crashed', updated_at = ?1, finished_at = ?1
		WHERE state = 'running' AND lease_until <= ?1 AND attempts >= max_attempts`
	qJobNextExpired = `SELECT seq FROM jobs WHERE state = 'running' AND lease_until <= ?1
		AND (?2 = '[]' OR kind IN (SELECT value FROM json_each(?2))) AND (?3 = '' OR id = ?3)
		AND (model = '' OR model = ?4 AND endpoint = ?5)
		ORDER BY lease_until LIMIT 1`
	qJobNextQueued = `SELECT seq FROM jobs WHERE state = 'queued' AND run_at <= ?1
		AND (?2 = '[]' OR kind IN (SELECT value FROM json_each(?2))) AND (?3 = '' OR id = ?3)
		AND (model = '' OR model = ?4 AND endpoint = ?5)
		ORDER BY run_at, seq LIMIT 1`
	qJobClaim = `UPDATE jobs SET state = 'running', lease = ?, lease_until = ?, attempts = attempts + 1, updated_at = ?
		WHERE seq = ? RETURNING ` + rowcodec.JobColumns
	qJobExtend = `UPDATE jobs SET lease_until = ?, updated_at = ? WHERE id = ? AND lease = ? AND state = 'running'`
	qJobFail   = `UPDATE jobs SET
		state = CASE WHEN ?1 OR attempts >= max_attempts THEN 'dead' ELSE 'queued' END,
		finished_at = CASE WHEN ?1 OR attempts >= max_attempts THEN ?2 ELSE NULL END,
		run_at = ?3, lease = '', lease_until = NULL, error_code = ?4, error = ?5,
		prompt_tokens = prompt_tokens + ?6, completion_tokens = completion_tokens + ?7, cost = cost + ?8, updated_at = ?2
		WHERE id = ?9 AND lease = ?10 AND state = 'running' RETURNING ` + rowcodec.JobColumns
	qJobRelease = `UPDATE jobs SET state = 'queued', attempts = max(attempts - 1, 0), lease = '', lease_until = NULL,
		run_at = ?1, updated_at = ?1 WHERE id = ?2 AND lease = ?3 AND state = 'running'`
	qJobDefer = `UPDATE jobs SET state = 'queued', attempts = max(attempts - 1, 0), lease = '', lease_until = NULL,
		run_at = ?1, updated_at = ?2, error_code = ?3, error = ?4 WHERE id = ?5 AND lease = ?6 AND state = 'running'
		RETURNING ` + rowcodec.JobColumns
	qJobRetry = `UPDATE jobs SET state = 'queued', attempts = 0, run_at = ?1, updated_at = ?1, finished_at = NULL,
		model = CASE WHEN ?3 THEN ?4 ELSE model END, endpoint = CASE WHEN ?3 THEN ?5 ELSE endpoint END
		WHERE id = ?2 AND state = 'dead' RETURNING ` + rowcodec.JobColumns
	qJobTokens = `SELECT coalesce(sum(prompt_tokens + completion_tokens), 0) FROM jobs
		WHERE updated_at >= ?2 AND (?1 = '' OR user_id = ?1)`
	qJobComplete = `UPDATE jobs SET state = 'done', lease = '', lease_until = NULL, result = ?1, error_code = '', error = '',
		prompt_tokens = prompt_tokens + ?2, completion_tokens = completion_tokens + ?3, cost = cost + ?4,
		updated_at = ?5, finished_at = ?5
		WHERE id = ?6 AND user_id = ?7 AND lease = ?8 AND state = 'running'`
	qJobUsage = `SELECT state, count(*), coalesce(sum(prompt_tokens), 0), coalesce(sum(completion_tokens), 0),
		coalesce(sum(cost), 0) FROM jobs WHERE ?1 = '' OR user_id = ?1 GROUP BY state`

	jobQueries = []string{qJobInsert, qJobByID, qJobExpireDead, qJobNextExpired, qJobNextQueued, qJobClaim,
		qJobExtend, qJobFail, qJobRelease, qJobDefer, qJobRetry, qJobComplete, qJobUsage, qJobTokens, qJobScrub}
)

// qJobScrub empties the payloads of the user's jobs that hold a text (jobs_user
// bounds the scan to the user's jobs).
const qJobScrub = `UPDATE jobs SET input = '', result = '', error = '', updated_at = ?3
	WHERE user_id = ?1 AND (instr(input, ?2) > 0 OR instr(result, ?2) > 0 OR instr(error, ?2) > 0)`

// static returns a statement prepared at open on the pool of c (the job and key
// statements: see allStaticQueries), or EUNAVAILABLE once the store is closed.
func (s *Store) static(c *stmtCache, q string) (*sql.Stmt, error) {
	if s.gate.Closed() {
		return nil, storeerr.ErrClosed
	}
	if st := c.get(q); st != nil {
		return st, nil
	}
	return nil, storeerr.ErrClosed
}

// staticErr maps the error of a static statement; a statement that failed because
// the store was closed meanwhile is EUNAVAILABLE.
func (s *Store) staticErr(op string, err error) error {
	if s.gate.Closed() && factbase.ErrorCode(err) == factbase.EINTERNAL {
		return &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "store is closed", Err: err}
	}
	return mapErr(op, err)
}

// staticAll reads every row of the result of a read outside any user's transaction
// (rows, or the error err of the read) with scan; none is an empty slice, not nil.
// Its errors are mapped with staticErr naming op.
func staticAll[T any](s *Store, op string, rows *sql.Rows, err error, scan func(rowcodec.Scanner) (T, error)) ([]T, error) {
	if err != nil {
		return nil, s.staticErr(op, err)
	}
	all, err := rowcodec.All(rows, scan)
	if err != nil {
		return nil, s.staticErr(op, err)
	}
	return rowcodec.NonNil(all), nil
}

// EnqueueJob stores a new queued job.
func (s *Store) EnqueueJob(ctx context.Context, j factbase.Job) (factbase.Job, error) {
	if err := j.Validate(); err != nil {
		return factbase.Job{}, err
	}
	st, err := s.static(s.wstmts, qJobInsert)
	if err != nil {
		return factbase.Job{}, err
	}
	now := s.now().UTC().UnixNano()
	out, err := rowcodec.Job(st.QueryRowContext(ctx, j.ID, string(j.User), j.Kind, j.Input, j.MaxAttempts, now, now, now,
		j.Model, j.Endpoint))
	if err != nil {
		return factbase.Job{}, storeerr.Taken(s.staticErr("enqueue job", err), "a job with that id already exists")
	}
	return out, nil
}

// ClaimJob claims the oldest runnable job in one immediate transaction.
func (s *Store) ClaimJob(ctx context.Context, lease time.Duration, c factbase.JobClaim) (factbase.Job, bool, error) {
	if err := factbase.ValidateLease(lease); err != nil {
		return factbase.Job{}, false, err
	}
	kindsJSON, err := json.Marshal(append([]string{}, c.Kinds...))
	if err != nil {
		return factbase.Job{}, false, factbase.Errorf(factbase.EINVALID, "sqlite: job kinds: %v", err)
	}
	var stmts [4]*sql.Stmt
	for i, q := range []string{qJobExpireDead, qJobNextExpired, qJobNextQueued, qJobClaim} {
		if stmts[i], err = s.static(s.wstmts, q); err != nil {
			return factbase.Job{}, false, err
		}
	}
	token, err := factbase.NewJobLease()
	if err != nil {
		return factbase.Job{}, false, err
	}
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return factbase.Job{}, false, s.staticErr("claim job", err)
	}
	defer tx.Rollback()
	now := s.now().UTC()
	if _, err := tx.StmtContext(ctx, stmts[0]).ExecContext(ctx, now.UnixNano()); err != nil {
		return factbase.Job{}, false, s.staticErr("claim job", err)
	}
	var seq int64
	args := []any{now.UnixNano(), string(kindsJSON), c.ID, c.Model, c.Endpoint}
	err = tx.StmtContext(ctx, stmts[1]).QueryRowContext(ctx, args...).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		err = tx.StmtContext(ctx, stmts[2]).QueryRowContext(ctx, args...).Scan(&seq)
	}
	if errors.Is(err, sql.ErrNoRows) {
		// Commit the deaths of expired jobs, if any.
		if err := tx.Commit(); err != nil {
			return factbase.Job{}, false, s.staticErr("claim job", err)
		}
		return factbase.Job{}, false, nil
	}
	if err != nil {
		return factbase.Job{}, false, s.staticErr("claim job", err)
	}
	j, err := rowcodec.Job(tx.StmtContext(ctx, stmts[3]).QueryRowContext(ctx, token, now.Add(lease).UnixNano(), now.UnixNano(), seq))
	if err != nil {
		return factbase.Job{}, false, s.staticErr("claim job", err)
	}
	if err := tx.Commit(); err != nil {
		return factbase.Job{}, false, s.staticErr("claim job", err)
	}
	return j, true, nil
}

// ExtendJob pushes a running job's lease.
func (s *Store) ExtendJob(ctx context.Context, id, lease string, d time.Duration) error {
	if err := factbase.ValidateLease(d); err != nil {
		return err
	}
	st, err := s.static(s.wstmts, qJobExtend)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	res, err := st.ExecContext(ctx, now.Add(d).UnixNano(), now.UnixNano(), id, lease)
	if err != nil {
		return s.staticErr("extend job", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return storeerr.LeaseLost(id)
	}
	return nil
}

// FailJob records a failed attempt.
func (s *Store) FailJob(ctx context.Context, id, lease string, f factbase.JobFailure) (factbase.Job, error) {
	if err := f.Validate(); err != nil {
		return factbase.Job{}, err
	}
	st, err := s.static(s.wstmts, qJobFail)
	if err != nil {
		return factbase.Job{}, err
	}
	code, msg := f.Record()
	now := s.now().UTC()
	j, err := rowcodec.Job(st.QueryRowContext(ctx, f.Dead, now.UnixNano(), now.Add(f.RetryIn).UnixNano(), code,
		msg, f.PromptTokens, f.CompletionTokens, f.Cost, id, lease))
	if errors.Is(err, sql.ErrNoRows) {
		return factbase.Job{}, storeerr.LeaseLost(id)
	}
	if err != nil {
		return factbase.Job{}, s.staticErr("fail job", err)
	}
	return j, nil
}

// ReleaseJob gives a running job back without counting the attempt.
func (s *Store) ReleaseJob(ctx context.Context, id, lease string) error {
	st, err := s.static(s.wstmts, qJobRelease)
	if err != nil {
		return err
	}
	res, err := st.ExecContext(ctx, s.now().UTC().UnixNano(), id, lease)
	if err != nil {
		return s.staticErr("release job", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return storeerr.LeaseLost(id)
	}
	return nil
}

// DeferJob gives a running job back until a later time, without counting the attempt.
func (s *Store) DeferJob(ctx context.Context, id, lease string, until time.Time, reason string) (factbase.Job, error) {
	st, err := s.static(s.wstmts, qJobDefer)
	if err != nil {
		return factbase.Job{}, err
	}
	_, msg := factbase.JobFailure{Message: reason}.Record()
	j, err := rowcodec.Job(st.QueryRowContext(ctx, until.UTC().UnixNano(), s.now().UTC().UnixNano(), factbase.JobDeferredCode,
		msg, id, lease))
	if errors.Is(err, sql.ErrNoRows) {
		return factbase.Job{}, storeerr.LeaseLost(id)
	}
	if err != nil {
		return factbase.Job{}, s.staticErr("defer job", err)
	}
	return j, nil
}

// RetryJob queues a dead job again.
func (s *Store) RetryJob(ctx context.Context, id string, r factbase.JobRetry) (factbase.Job, error) {
	if err := r.Validate(); err != nil {
		return factbase.Job{}, err
	}
	st, err := s.static(s.wstmts, qJobRetry)
	if err != nil {
		return factbase.Job{}, err
	}
	j, err := rowcodec.Job(st.QueryRowContext(ctx, s.now().UTC().UnixNano(), id, r.Retarget, r.Model, r.Endpoint))
	if errors.Is(err, sql.ErrNoRows) {
		return factbase.Job{}, storeerr.NotRetried(ctx, id, s.Job)
	}
	if err != nil {
		return factbase.Job{}, s.staticErr("retry job", err)
	}
	return j, nil
}

// Job returns one job.
func (s *Store) Job(ctx context.Context, id string) (factbase.Job, error) {
	st, err := s.static(s.rstmts, qJobByID)
	if err != nil {
		return factbase.Job{}, err
	}
	j, err := rowcodec.Job(st.QueryRowContext(ctx, id))
	return j, s.staticErr("job", storeerr.NotFoundIf(err, sql.ErrNoRows, "job", id))
}

// Jobs lists jobs newest first.
func (s *Store) Jobs(ctx context.Context, f factbase.JobFilter) ([]factbase.Job, error) {
	if s.gate.Closed() {
		return nil, storeerr.ErrClosed
	}
	f, err := f.WithDefaults()
	if err != nil {
		return nil, err
	}
	var where []string
	var args []any
	where, args = eq(where, args, "user_id", string(f.User))
	where, args = eq(where, args, "state", string(f.State))
	where, args = eq(where, args, "kind", f.Kind)
	if f.Before != "" {
		where, args = append(where, "seq < coalesce((SELECT seq FROM jobs WHERE id = ?), 0)"), append(args, f.Before)
	}
	q := "SELECT " + rowcodec.JobColumns + " FROM jobs"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY seq DESC LIMIT ?"
	args = append(args, f.Limit)
	rows, err := s.reader.QueryContext(ctx, q, args...)
	return staticAll(s, "jobs", rows, err, rowcodec.Job)
}

// JobUsage sums jobs by state, with their tokens and cost.
func (s *Store) JobUsage(ctx context.Context, user factbase.UserID) (factbase.JobUsage, error) {
	st, err := s.static(s.rstmts, qJobUsage)
	if err != nil {
		return factbase.JobUsage{}, err
	}
	rows, err := st.QueryContext(ctx, string(user))
	if err != nil {
		return factbase.JobUsage{}, s.staticErr("job usage", err)
	}
	u, err := rowcodec.Usage(rows)
	return u, s.staticErr("job usage", err)
}

// JobTokens sums the tokens of jobs updated since a time.
func (s *Store) JobTokens(ctx context.Context, user factbase.UserID, since time.Time) (int, error) {
	st, err := s.static(s.rstmts, qJobTokens)
	if err != nil {
		return 0, err
	}
	var n int
	if err := st.QueryRowContext(ctx, string(user), since.UTC().UnixNano()).Scan(&n); err != nil {
		return 0, s.staticErr("job tokens", err)
	}
	return n, nil
}

// CompleteJob marks a running job of the transaction's user done, in the write
// path's transaction.
func (t *tx) CompleteJob(ctx context.Context, id, lease string, o factbase.JobOutcome) error {
	result, err := rowcodec.JobResult(o)
	if err != nil {
		return err
	}
	res, err := t.exec(ctx, qJobComplete, result, o.PromptTokens, o.CompletionTokens, o.Cost, t.now.UnixNano(),
		id, string(t.user), lease)
	if err != nil {
		return mapErr("complete job", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return storeerr.LeaseLost(id)
	}
	return nil
}

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
