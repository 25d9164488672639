package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/jackc/pgx/v5"
)

const jobColumns = `id, user_id, kind, input, state, attempts, max_attempts, run_at, lease, lease_until,
	error_code, error, result, prompt_tokens, completion_tokens, cost, created_at, updated_at, finished_at`

// The job statements. A claim locks the row it takes with FOR UPDATE SKIP LOCKED, so
// workers of several servers claiming at once each take a different job without
// waiting for one another.
const (
	qJobInsert = `INSERT INTO jobs (id, user_id, kind, input, state, max_attempts, run_at, created_at, updated_at)
		VALUES ($1, $2, $3, $4, 'queued', $5, $6, $6, $6) RETURNING ` + jobColumns
	qJobByID = "SELECT " + jobColumns + " FROM jobs WHERE id = $1"
	// A running job whose lease expired on its last attempt dies.
	qJobExpireDead = `UPDATE jobs SET state = 'dead', lease = '', lease_until = NULL, error_code = 'unavailable',
		error = 'the lease expired on the last attempt: the worker stopped or crashed', updated_at = $1, finished_at = $1
		WHERE seq IN (SELECT seq FROM jobs WHERE state = 'running' AND lease_until <= $1 AND attempts >= max_attempts
			FOR UPDATE SKIP LOCKED)`
	qJobClaimExpired = `UPDATE jobs SET state = 'running', lease = $3, lease_until = $4, attempts = attempts + 1, updated_at = $1
		WHERE seq = (SELECT seq FROM jobs WHERE state = 'running' AND lease_until <= $1
			AND (cardinality($2::text[]) = 0 OR kind = ANY($2::text[]))
			ORDER BY lease_until LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING ` + jobColumns
	qJobClaimQueued = `UPDATE jobs SET state = 'running', lease = $3, lease_until = $4, attempts = attempts + 1, updated_at = $1
		WHERE seq = (SELECT seq FROM jobs WHERE state = 'queued' AND run_at <= $1
			AND (cardinality($2::text[]) = 0 OR kind = ANY($2::text[]))
			ORDER BY run_at, seq LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING ` + jobColumns
	qJobExtend = `UPDATE jobs SET lease_until = $1, updated_at = $2 WHERE id = $3 AND lease = $4 AND state = 'running'`
	qJobFail   = `UPDATE jobs SET
		state = CASE WHEN $1::boolean OR attempts >= max_attempts THEN 'dead' ELSE 'queued' END,
		finished_at = CASE WHEN $1::boolean OR attempts >= max_attempts THEN $2::bigint ELSE NULL END,
		run_at = $3, lease = '', lease_until = NULL, error_code = $4, error = $5,
		prompt_tokens = prompt_tokens + $6, completion_tokens = completion_tokens + $7, cost = cost + $8, updated_at = $2
		WHERE id = $9 AND lease = $10 AND state = 'running' RETURNING ` + jobColumns
	qJobRelease = `UPDATE jobs SET state = 'queued', attempts = greatest(attempts - 1, 0), lease = '', lease_until = NULL,
		run_at = $1, updated_at = $1 WHERE id = $2 AND lease = $3 AND state = 'running'`
	qJobRetry = `UPDATE jobs SET state = 'queued', attempts = 0, run_at = $1, updated_at = $1, finished_at = NULL
		WHERE id = $2 AND state = 'dead' RETURNING ` + jobColumns
	qJobComplete = `UPDATE jobs SET state = 'done', lease = '', lease_until = NULL, result = $1, error_code = '', error = '',
		prompt_tokens = prompt_tokens + $2, completion_tokens = completion_tokens + $3, cost = cost + $4,
		updated_at = $5, finished_at = $5
		WHERE id = $6 AND user_id = $7 AND lease = $8 AND state = 'running'`
	qJobUsage = `SELECT state, count(*), coalesce(sum(prompt_tokens), 0)::bigint, coalesce(sum(completion_tokens), 0)::bigint,
		coalesce(sum(cost), 0) FROM jobs WHERE $1 = '' OR user_id = $1 GROUP BY state`
)

// EnqueueJob stores a new queued job.
func (s *Store) EnqueueJob(ctx context.Context, j factbase.Job) (factbase.Job, error) {
	switch {
	case j.ID == "" || len(j.ID) > 64:
		return factbase.Job{}, factbase.Errorf(factbase.EINVALID, "postgres: a job needs an id of at most 64 bytes")
	case !j.User.Valid():
		return factbase.Job{}, factbase.Errorf(factbase.EINVALID, "user id %q is not a UUID", string(j.User))
	case j.Kind == "":
		return factbase.Job{}, factbase.Errorf(factbase.EINVALID, "postgres: a job needs a kind")
	case j.MaxAttempts < 1:
		return factbase.Job{}, factbase.Errorf(factbase.EINVALID, "postgres: a job needs at least one attempt, got %d", j.MaxAttempts)
	}
	if s.isClosed() {
		return factbase.Job{}, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	now := s.now().UTC().UnixNano()
	out, err := scanJob(s.pool.QueryRow(ctx, qJobInsert, j.ID, string(j.User), j.Kind, j.Input, j.MaxAttempts, now))
	if err != nil {
		err = mapErr("enqueue job", err)
		if factbase.ErrorCode(err) == factbase.EINVARIANT {
			return factbase.Job{}, &factbase.Error{Code: factbase.ECONFLICT, Message: "a job with that id already exists", Err: err}
		}
		return factbase.Job{}, err
	}
	return out, nil
}

// ClaimJob claims the oldest runnable job: first kills the jobs whose lease expired
// on their last attempt, then takes a running job whose lease expired, else the
// queued job that has waited longest, all in one transaction.
func (s *Store) ClaimJob(ctx context.Context, lease time.Duration, kinds ...string) (factbase.Job, bool, error) {
	if lease <= 0 {
		return factbase.Job{}, false, factbase.Errorf(factbase.EINVALID, "postgres: a lease must be positive, got %v", lease)
	}
	if s.isClosed() {
		return factbase.Job{}, false, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	token, err := newLease()
	if err != nil {
		return factbase.Job{}, false, err
	}
	if kinds == nil {
		kinds = []string{}
	}
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
			got, err := scanJob(tx.QueryRow(ctx, q, now.UnixNano(), kinds, token, now.Add(lease).UnixNano()))
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
		return factbase.Errorf(factbase.EINVALID, "postgres: a lease must be positive, got %v", d)
	}
	if s.isClosed() {
		return factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	now := s.now().UTC()
	tag, err := s.pool.Exec(ctx, qJobExtend, now.Add(d).UnixNano(), now.UnixNano(), id, lease)
	if err != nil {
		return mapErr("extend job", err)
	}
	if tag.RowsAffected() == 0 {
		return lost(id)
	}
	return nil
}

// FailJob records a failed attempt.
func (s *Store) FailJob(ctx context.Context, id, lease string, f factbase.JobFailure) (factbase.Job, error) {
	if f.RetryIn < 0 || f.PromptTokens < 0 || f.CompletionTokens < 0 || f.Cost < 0 || f.Cost != f.Cost {
		return factbase.Job{}, factbase.Errorf(factbase.EINVALID, "postgres: a job failure has a negative delay or usage")
	}
	if s.isClosed() {
		return factbase.Job{}, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	code := f.Code
	if code == "" {
		code = factbase.EINTERNAL
	}
	now := s.now().UTC()
	j, err := scanJob(s.pool.QueryRow(ctx, qJobFail, f.Dead, now.UnixNano(), now.Add(f.RetryIn).UnixNano(), code,
		clipMsg(f.Message), f.PromptTokens, f.CompletionTokens, f.Cost, id, lease))
	if errors.Is(err, pgx.ErrNoRows) {
		return factbase.Job{}, lost(id)
	}
	if err != nil {
		return factbase.Job{}, mapErr("fail job", err)
	}
	return j, nil
}

// clipMsg bounds a stored error message and makes it storable text (valid UTF-8,
// no NUL bytes).
func clipMsg(m string) string {
	m = strings.ReplaceAll(strings.ToValidUTF8(m, "\uFFFD"), "\x00", "\uFFFD")
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
	if s.isClosed() {
		return factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	tag, err := s.pool.Exec(ctx, qJobRelease, s.now().UTC().UnixNano(), id, lease)
	if err != nil {
		return mapErr("release job", err)
	}
	if tag.RowsAffected() == 0 {
		return lost(id)
	}
	return nil
}

// RetryJob queues a dead job again.
func (s *Store) RetryJob(ctx context.Context, id string) (factbase.Job, error) {
	if s.isClosed() {
		return factbase.Job{}, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	j, err := scanJob(s.pool.QueryRow(ctx, qJobRetry, s.now().UTC().UnixNano(), id))
	if errors.Is(err, pgx.ErrNoRows) {
		cur, gerr := s.Job(ctx, id)
		if gerr != nil {
			return factbase.Job{}, gerr
		}
		return factbase.Job{}, factbase.Errorf(factbase.ECONFLICT, "job %q is %s; only a dead job can be retried", id, cur.State)
	}
	if err != nil {
		return factbase.Job{}, mapErr("retry job", err)
	}
	return j, nil
}

// Job returns one job.
func (s *Store) Job(ctx context.Context, id string) (factbase.Job, error) {
	if s.isClosed() {
		return factbase.Job{}, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	j, err := scanJob(s.pool.QueryRow(ctx, qJobByID, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return factbase.Job{}, factbase.Errorf(factbase.ENOTFOUND, "job %q not found", id)
	}
	if err != nil {
		return factbase.Job{}, mapErr("job", err)
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
	var w where
	if f.User != "" {
		w.add("user_id = " + w.arg(string(f.User)))
	}
	if f.State != "" {
		w.add("state = " + w.arg(string(f.State)))
	}
	if f.Kind != "" {
		w.add("kind = " + w.arg(f.Kind))
	}
	if f.Before != "" {
		w.add("seq < coalesce((SELECT seq FROM jobs WHERE id = " + w.arg(f.Before) + "), 0)")
	}
	q := "SELECT " + jobColumns + " FROM jobs"
	if len(w.conds) > 0 {
		q += " WHERE " + w.String()
	}
	q += " ORDER BY seq DESC LIMIT " + w.arg(f.Limit)
	rows, err := s.pool.Query(ctx, q, w.args...)
	if err != nil {
		return nil, mapErr("jobs", err)
	}
	defer rows.Close()
	out := []factbase.Job{}
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, mapErr("jobs", err)
		}
		out = append(out, j)
	}
	return out, mapErr("jobs", rows.Err())
}

// JobUsage sums jobs by state, with their tokens and cost.
func (s *Store) JobUsage(ctx context.Context, user factbase.UserID) (factbase.JobUsage, error) {
	if s.isClosed() {
		return factbase.JobUsage{}, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	rows, err := s.pool.Query(ctx, qJobUsage, string(user))
	if err != nil {
		return factbase.JobUsage{}, mapErr("job usage", err)
	}
	defer rows.Close()
	u := factbase.JobUsage{Jobs: map[factbase.JobState]int{}}
	for rows.Next() {
		var (
			state     string
			n, pt, ct int64
			cost      float64
		)
		if err := rows.Scan(&state, &n, &pt, &ct, &cost); err != nil {
			return factbase.JobUsage{}, mapErr("job usage", err)
		}
		u.Jobs[factbase.JobState(state)] = int(n)
		u.PromptTokens += int(pt)
		u.CompletionTokens += int(ct)
		u.Cost += cost
	}
	if err := rows.Err(); err != nil {
		return factbase.JobUsage{}, mapErr("job usage", err)
	}
	return u, nil
}

// CompleteJob marks a running job of the transaction's user done, in the write
// path's transaction.
func (t *tx) CompleteJob(ctx context.Context, id, lease string, o factbase.JobOutcome) error {
	if o.PromptTokens < 0 || o.CompletionTokens < 0 || o.Cost < 0 || o.Cost != o.Cost {
		return factbase.Errorf(factbase.EINVALID, "postgres: a job outcome has negative usage")
	}
	result := ""
	if len(o.Result) > 0 {
		if !json.Valid(o.Result) {
			return factbase.Errorf(factbase.EINVALID, "postgres: a job result must be JSON")
		}
		result = string(o.Result)
	}
	tag, err := t.q.Exec(ctx, qJobComplete, result, o.PromptTokens, o.CompletionTokens, o.Cost, t.now.UnixNano(),
		id, string(t.user), lease)
	if err != nil {
		return mapErr("complete job", err)
	}
	if tag.RowsAffected() == 0 {
		return lost(id)
	}
	return nil
}

func scanJob(r scanner) (factbase.Job, error) {
	var (
		j                           factbase.Job
		user, state, result         string
		attempts, maxAttempts       int32
		runAt, createdAt, updatedAt int64
		pt, ct                      int64
		leaseUntil, finishedAt      *int64
	)
	if err := r.Scan(&j.ID, &user, &j.Kind, &j.Input, &state, &attempts, &maxAttempts, &runAt, &j.Lease, &leaseUntil,
		&j.ErrorCode, &j.Error, &result, &pt, &ct, &j.Cost, &createdAt, &updatedAt, &finishedAt); err != nil {
		return j, err
	}
	j.User, j.State = factbase.UserID(user), factbase.JobState(state)
	j.Attempts, j.MaxAttempts = int(attempts), int(maxAttempts)
	j.PromptTokens, j.CompletionTokens = int(pt), int(ct)
	if result != "" {
		j.Result = json.RawMessage(result)
	}
	j.RunAt = time.Unix(0, runAt).UTC()
	j.CreatedAt = time.Unix(0, createdAt).UTC()
	j.UpdatedAt = time.Unix(0, updatedAt).UTC()
	if leaseUntil != nil {
		t := time.Unix(0, *leaseUntil).UTC()
		j.LeaseUntil = &t
	}
	if finishedAt != nil {
		t := time.Unix(0, *finishedAt).UTC()
		j.FinishedAt = &t
	}
	return j, nil
}
