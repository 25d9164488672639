package sqlite

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/factbase/factbase"
)

const jobColumns = `id, user_id, kind, input, state, attempts, max_attempts, run_at, lease, lease_until,
	error_code, error, result, prompt_tokens, completion_tokens, cost, created_at, updated_at, finished_at`

// The job statements, prepared at open (see allStaticQueries).
var (
	qJobInsert = `INSERT INTO jobs (id, user_id, kind, input, state, max_attempts, run_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?) RETURNING ` + jobColumns
	qJobByID = "SELECT " + jobColumns + " FROM jobs WHERE id = ?"
	// A running job whose lease expired on its last attempt dies.
	qJobExpireDead = `UPDATE jobs SET state = 'dead', lease = '', lease_until = NULL, error_code = 'unavailable',
		error = 'the lease expired on the last attempt: the worker stopped or crashed', updated_at = ?1, finished_at = ?1
		WHERE state = 'running' AND lease_until <= ?1 AND attempts >= max_attempts`
	qJobNextExpired = `SELECT seq FROM jobs WHERE state = 'running' AND lease_until <= ?1
		AND (?2 = '[]' OR kind IN (SELECT value FROM json_each(?2))) ORDER BY lease_until LIMIT 1`
	qJobNextQueued = `SELECT seq FROM jobs WHERE state = 'queued' AND run_at <= ?1
		AND (?2 = '[]' OR kind IN (SELECT value FROM json_each(?2))) ORDER BY run_at, seq LIMIT 1`
	qJobClaim = `UPDATE jobs SET state = 'running', lease = ?, lease_until = ?, attempts = attempts + 1, updated_at = ?
		WHERE seq = ? RETURNING ` + jobColumns
	qJobExtend = `UPDATE jobs SET lease_until = ?, updated_at = ? WHERE id = ? AND lease = ? AND state = 'running'`
	qJobFail   = `UPDATE jobs SET
		state = CASE WHEN ?1 OR attempts >= max_attempts THEN 'dead' ELSE 'queued' END,
		finished_at = CASE WHEN ?1 OR attempts >= max_attempts THEN ?2 ELSE NULL END,
		run_at = ?3, lease = '', lease_until = NULL, error_code = ?4, error = ?5,
		prompt_tokens = prompt_tokens + ?6, completion_tokens = completion_tokens + ?7, cost = cost + ?8, updated_at = ?2
		WHERE id = ?9 AND lease = ?10 AND state = 'running' RETURNING ` + jobColumns
	qJobRelease = `UPDATE jobs SET state = 'queued', attempts = max(attempts - 1, 0), lease = '', lease_until = NULL,
		run_at = ?1, updated_at = ?1 WHERE id = ?2 AND lease = ?3 AND state = 'running'`
	qJobRetry = `UPDATE jobs SET state = 'queued', attempts = 0, run_at = ?1, updated_at = ?1, finished_at = NULL
		WHERE id = ?2 AND state = 'dead' RETURNING ` + jobColumns
	qJobComplete = `UPDATE jobs SET state = 'done', lease = '', lease_until = NULL, result = ?1, error_code = '', error = '',
		prompt_tokens = prompt_tokens + ?2, completion_tokens = completion_tokens + ?3, cost = cost + ?4,
		updated_at = ?5, finished_at = ?5
		WHERE id = ?6 AND user_id = ?7 AND lease = ?8 AND state = 'running'`
	qJobUsage = `SELECT state, count(*), coalesce(sum(prompt_tokens), 0), coalesce(sum(completion_tokens), 0),
		coalesce(sum(cost), 0) FROM jobs WHERE ?1 = '' OR user_id = ?1 GROUP BY state`

	jobQueries = []string{qJobInsert, qJobByID, qJobExpireDead, qJobNextExpired, qJobNextQueued, qJobClaim,
		qJobExtend, qJobFail, qJobRelease, qJobRetry, qJobComplete, qJobUsage}
)

// jobStmt returns a statement prepared at open; the cache is empty only once the
// store is closed.
func (s *Store) jobStmt(c *stmtCache, q string) (*sql.Stmt, error) {
	if s.isClosed() {
		return nil, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	if st := c.get(q); st != nil {
		return st, nil
	}
	return nil, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
}

// jobErr maps a driver error; a statement that failed because the store was closed
// meanwhile is EUNAVAILABLE.
func (s *Store) jobErr(op string, err error) error {
	if s.isClosed() && factbase.ErrorCode(err) == factbase.EINTERNAL {
		return &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "store is closed", Err: err}
	}
	return mapErr(op, err)
}

// EnqueueJob stores a new queued job.
func (s *Store) EnqueueJob(ctx context.Context, j factbase.Job) (factbase.Job, error) {
	switch {
	case j.ID == "" || len(j.ID) > 64:
		return factbase.Job{}, factbase.Errorf(factbase.EINVALID, "sqlite: a job needs an id of at most 64 bytes")
	case !j.User.Valid():
		return factbase.Job{}, factbase.Errorf(factbase.EINVALID, "user id %q is not a UUID", string(j.User))
	case j.Kind == "":
		return factbase.Job{}, factbase.Errorf(factbase.EINVALID, "sqlite: a job needs a kind")
	case j.MaxAttempts < 1:
		return factbase.Job{}, factbase.Errorf(factbase.EINVALID, "sqlite: a job needs at least one attempt, got %d", j.MaxAttempts)
	}
	st, err := s.jobStmt(s.wstmts, qJobInsert)
	if err != nil {
		return factbase.Job{}, err
	}
	now := s.now().UTC().UnixNano()
	out, err := scanJob(st.QueryRowContext(ctx, j.ID, string(j.User), j.Kind, j.Input, j.MaxAttempts, now, now, now))
	if err != nil {
		err = s.jobErr("enqueue job", err)
		if factbase.ErrorCode(err) == factbase.EINVARIANT {
			return factbase.Job{}, &factbase.Error{Code: factbase.ECONFLICT, Message: "a job with that id already exists", Err: err}
		}
		return factbase.Job{}, err
	}
	return out, nil
}

// ClaimJob claims the oldest runnable job in one immediate transaction.
func (s *Store) ClaimJob(ctx context.Context, lease time.Duration, kinds ...string) (factbase.Job, bool, error) {
	if lease <= 0 {
		return factbase.Job{}, false, factbase.Errorf(factbase.EINVALID, "sqlite: a lease must be positive, got %v", lease)
	}
	kindsJSON, err := json.Marshal(append([]string{}, kinds...))
	if err != nil {
		return factbase.Job{}, false, factbase.Errorf(factbase.EINVALID, "sqlite: job kinds: %v", err)
	}
	var stmts [4]*sql.Stmt
	for i, q := range []string{qJobExpireDead, qJobNextExpired, qJobNextQueued, qJobClaim} {
		if stmts[i], err = s.jobStmt(s.wstmts, q); err != nil {
			return factbase.Job{}, false, err
		}
	}
	token, err := newLease()
	if err != nil {
		return factbase.Job{}, false, err
	}
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return factbase.Job{}, false, s.jobErr("claim job", err)
	}
	defer tx.Rollback()
	now := s.now().UTC()
	if _, err := tx.StmtContext(ctx, stmts[0]).ExecContext(ctx, now.UnixNano()); err != nil {
		return factbase.Job{}, false, s.jobErr("claim job", err)
	}
	var seq int64
	err = tx.StmtContext(ctx, stmts[1]).QueryRowContext(ctx, now.UnixNano(), string(kindsJSON)).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		err = tx.StmtContext(ctx, stmts[2]).QueryRowContext(ctx, now.UnixNano(), string(kindsJSON)).Scan(&seq)
	}
	if errors.Is(err, sql.ErrNoRows) {
		// Commit the deaths of expired jobs, if any.
		if err := tx.Commit(); err != nil {
			return factbase.Job{}, false, s.jobErr("claim job", err)
		}
		return factbase.Job{}, false, nil
	}
	if err != nil {
		return factbase.Job{}, false, s.jobErr("claim job", err)
	}
	j, err := scanJob(tx.StmtContext(ctx, stmts[3]).QueryRowContext(ctx, token, now.Add(lease).UnixNano(), now.UnixNano(), seq))
	if err != nil {
		return factbase.Job{}, false, s.jobErr("claim job", err)
	}
	if err := tx.Commit(); err != nil {
		return factbase.Job{}, false, s.jobErr("claim job", err)
	}
	return j, true, nil
}

// newLease returns a random lease token.
func newLease() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", &factbase.Error{Code: factbase.EINTERNAL, Message: "cannot read random bytes", Err: err}
	}
	return hex.EncodeToString(b[:]), nil
}

// lost is the error of an operation by a worker whose lease is no longer the job's.
func lost(id string) error {
	return factbase.Errorf(factbase.ECONFLICT, "job %q is no longer held by this worker (its lease expired or it ended)", id)
}

// ExtendJob pushes a running job's lease.
func (s *Store) ExtendJob(ctx context.Context, id, lease string, d time.Duration) error {
	if d <= 0 {
		return factbase.Errorf(factbase.EINVALID, "sqlite: a lease must be positive, got %v", d)
	}
	st, err := s.jobStmt(s.wstmts, qJobExtend)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	res, err := st.ExecContext(ctx, now.Add(d).UnixNano(), now.UnixNano(), id, lease)
	if err != nil {
		return s.jobErr("extend job", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return lost(id)
	}
	return nil
}

// FailJob records a failed attempt.
func (s *Store) FailJob(ctx context.Context, id, lease string, f factbase.JobFailure) (factbase.Job, error) {
	if f.RetryIn < 0 || f.PromptTokens < 0 || f.CompletionTokens < 0 || f.Cost < 0 || f.Cost != f.Cost {
		return factbase.Job{}, factbase.Errorf(factbase.EINVALID, "sqlite: a job failure has a negative delay or usage")
	}
	st, err := s.jobStmt(s.wstmts, qJobFail)
	if err != nil {
		return factbase.Job{}, err
	}
	code := f.Code
	if code == "" {
		code = factbase.EINTERNAL
	}
	now := s.now().UTC()
	j, err := scanJob(st.QueryRowContext(ctx, f.Dead, now.UnixNano(), now.Add(f.RetryIn).UnixNano(), code,
		clipMsg(f.Message), f.PromptTokens, f.CompletionTokens, f.Cost, id, lease))
	if errors.Is(err, sql.ErrNoRows) {
		return factbase.Job{}, lost(id)
	}
	if err != nil {
		return factbase.Job{}, s.jobErr("fail job", err)
	}
	return j, nil
}

// clipMsg bounds a stored error message.
func clipMsg(m string) string {
	m = strings.ToValidUTF8(m, "\uFFFD")
	if len(m) <= 1000 {
		return m
	}
	n := 1000
	for n > 0 && m[n]&0xC0 == 0x80 {
		n--
	}
	return m[:n] + "…"
}

// ReleaseJob gives a running job back without counting the attempt.
func (s *Store) ReleaseJob(ctx context.Context, id, lease string) error {
	st, err := s.jobStmt(s.wstmts, qJobRelease)
	if err != nil {
		return err
	}
	res, err := st.ExecContext(ctx, s.now().UTC().UnixNano(), id, lease)
	if err != nil {
		return s.jobErr("release job", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return lost(id)
	}
	return nil
}

// RetryJob queues a dead job again.
func (s *Store) RetryJob(ctx context.Context, id string) (factbase.Job, error) {
	st, err := s.jobStmt(s.wstmts, qJobRetry)
	if err != nil {
		return factbase.Job{}, err
	}
	j, err := scanJob(st.QueryRowContext(ctx, s.now().UTC().UnixNano(), id))
	if errors.Is(err, sql.ErrNoRows) {
		cur, gerr := s.Job(ctx, id)
		if gerr != nil {
			return factbase.Job{}, gerr
		}
		return factbase.Job{}, factbase.Errorf(factbase.ECONFLICT, "job %q is %s; only a dead job can be retried", id, cur.State)
	}
	if err != nil {
		return factbase.Job{}, s.jobErr("retry job", err)
	}
	return j, nil
}

// Job returns one job.
func (s *Store) Job(ctx context.Context, id string) (factbase.Job, error) {
	st, err := s.jobStmt(s.rstmts, qJobByID)
	if err != nil {
		return factbase.Job{}, err
	}
	j, err := scanJob(st.QueryRowContext(ctx, id))
	if errors.Is(err, sql.ErrNoRows) {
		return factbase.Job{}, factbase.Errorf(factbase.ENOTFOUND, "job %q not found", id)
	}
	if err != nil {
		return factbase.Job{}, s.jobErr("job", err)
	}
	return j, nil
}

// Jobs lists jobs newest first.
func (s *Store) Jobs(ctx context.Context, f factbase.JobFilter) ([]factbase.Job, error) {
	if s.isClosed() {
		return nil, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	switch {
	case f.Limit == 0:
		f.Limit = 100
	case f.Limit < 0 || f.Limit > 1000:
		return nil, factbase.Errorf(factbase.EINVALID, "limit %d is outside 1..1000", f.Limit)
	}
	if f.State != "" && !f.State.Valid() {
		return nil, factbase.Errorf(factbase.EINVALID, "job state %q is not one of queued, running, done, dead", f.State)
	}
	var where []string
	var args []any
	if f.User != "" {
		where, args = append(where, "user_id = ?"), append(args, string(f.User))
	}
	if f.State != "" {
		where, args = append(where, "state = ?"), append(args, string(f.State))
	}
	if f.Kind != "" {
		where, args = append(where, "kind = ?"), append(args, f.Kind)
	}
	if f.Before != "" {
		where, args = append(where, "seq < coalesce((SELECT seq FROM jobs WHERE id = ?), 0)"), append(args, f.Before)
	}
	q := "SELECT " + jobColumns + " FROM jobs"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY seq DESC LIMIT ?"
	args = append(args, f.Limit)
	rows, err := s.reader.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, s.jobErr("jobs", err)
	}
	defer rows.Close()
	out := []factbase.Job{}
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, s.jobErr("jobs", err)
		}
		out = append(out, j)
	}
	if err := rows.Err(); err != nil {
		return nil, s.jobErr("jobs", err)
	}
	return out, nil
}

// JobUsage sums jobs by state, with their tokens and cost.
func (s *Store) JobUsage(ctx context.Context, user factbase.UserID) (factbase.JobUsage, error) {
	st, err := s.jobStmt(s.rstmts, qJobUsage)
	if err != nil {
		return factbase.JobUsage{}, err
	}
	rows, err := st.QueryContext(ctx, string(user))
	if err != nil {
		return factbase.JobUsage{}, s.jobErr("job usage", err)
	}
	defer rows.Close()
	u := factbase.JobUsage{Jobs: map[factbase.JobState]int{}}
	for rows.Next() {
		var (
			state     string
			n, pt, ct int
			cost      float64
		)
		if err := rows.Scan(&state, &n, &pt, &ct, &cost); err != nil {
			return factbase.JobUsage{}, s.jobErr("job usage", err)
		}
		u.Jobs[factbase.JobState(state)] = n
		u.PromptTokens += pt
		u.CompletionTokens += ct
		u.Cost += cost
	}
	if err := rows.Err(); err != nil {
		return factbase.JobUsage{}, s.jobErr("job usage", err)
	}
	return u, nil
}

// CompleteJob marks a running job of the transaction's user done, in the write
// path's transaction.
func (t *tx) CompleteJob(ctx context.Context, id, lease string, o factbase.JobOutcome) error {
	if o.PromptTokens < 0 || o.CompletionTokens < 0 || o.Cost < 0 || o.Cost != o.Cost {
		return factbase.Errorf(factbase.EINVALID, "sqlite: a job outcome has negative usage")
	}
	result := ""
	if len(o.Result) > 0 {
		if !json.Valid(o.Result) {
			return factbase.Errorf(factbase.EINVALID, "sqlite: a job result must be JSON")
		}
		result = string(o.Result)
	}
	res, err := t.exec(ctx, qJobComplete, result, o.PromptTokens, o.CompletionTokens, o.Cost, t.now.UnixNano(),
		id, string(t.user), lease)
	if err != nil {
		return mapErr("complete job", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return lost(id)
	}
	return nil
}

func scanJob(r scanner) (factbase.Job, error) {
	var (
		j                           factbase.Job
		user, state, result         string
		runAt, createdAt, updatedAt int64
		leaseUntil, finishedAt      sql.NullInt64
	)
	if err := r.Scan(&j.ID, &user, &j.Kind, &j.Input, &state, &j.Attempts, &j.MaxAttempts, &runAt, &j.Lease, &leaseUntil,
		&j.ErrorCode, &j.Error, &result, &j.PromptTokens, &j.CompletionTokens, &j.Cost, &createdAt, &updatedAt, &finishedAt); err != nil {
		return j, err
	}
	j.User, j.State = factbase.UserID(user), factbase.JobState(state)
	if result != "" {
		j.Result = json.RawMessage(result)
	}
	j.RunAt = time.Unix(0, runAt).UTC()
	j.CreatedAt = time.Unix(0, createdAt).UTC()
	j.UpdatedAt = time.Unix(0, updatedAt).UTC()
	if leaseUntil.Valid {
		t := time.Unix(0, leaseUntil.Int64).UTC()
		j.LeaseUntil = &t
	}
	if finishedAt.Valid {
		t := time.Unix(0, finishedAt.Int64).UTC()
		j.FinishedAt = &t
	}
	return j, nil
}
