package rowcodec

import (
	"encoding/json"

	"github.com/factbase/factbase"
)

// JobColumns are the columns of a job, in the order Job reads them.
const JobColumns = `id, user_id, kind, input, state, attempts, max_attempts, run_at, lease, lease_until,
	error_code, error, result, prompt_tokens, completion_tokens, cost, created_at, updated_at, finished_at, model, endpoint`

// Job reads a job selected with JobColumns. An empty result column is no Result.
func Job(r Scanner) (factbase.Job, error) {
	var (
		j                           factbase.Job
		user, state, result         string
		runAt, createdAt, updatedAt int64
		leaseUntil, finishedAt      *int64
	)
	if err := r.Scan(&j.ID, &user, &j.Kind, &j.Input, &state, &j.Attempts, &j.MaxAttempts, &runAt, &j.Lease, &leaseUntil,
		&j.ErrorCode, &j.Error, &result, &j.PromptTokens, &j.CompletionTokens, &j.Cost, &createdAt, &updatedAt, &finishedAt,
		&j.Model, &j.Endpoint); err != nil {
		return j, err
	}
	j.User, j.State = factbase.UserID(user), factbase.JobState(state)
	if result != "" {
		j.Result = json.RawMessage(result)
	}
	j.RunAt, j.CreatedAt, j.UpdatedAt = Time(runAt), Time(createdAt), Time(updatedAt)
	j.LeaseUntil, j.FinishedAt = TimePtr(leaseUntil), TimePtr(finishedAt)
	return j, nil
}

// JobResult returns the result column of a job outcome: the JSON text, or "" for
// none. It validates o (factbase.JobOutcome.Validate).
func JobResult(o factbase.JobOutcome) (string, error) {
	if err := o.Validate(); err != nil {
		return "", err
	}
	return string(o.Result), nil
}

// Usage sums rows of (state, jobs, prompt tokens, completion tokens, cost), one per
// state, into a JobUsage. It closes rows.
func Usage(rows Rows) (factbase.JobUsage, error) {
	defer closeRows(rows)
	u := factbase.JobUsage{Jobs: map[factbase.JobState]int{}}
	for rows.Next() {
		var (
			state     string
			n, pt, ct int
			cost      float64
		)
		if err := rows.Scan(&state, &n, &pt, &ct, &cost); err != nil {
			return factbase.JobUsage{}, err
		}
		u.Jobs[factbase.JobState(state)] = n
		u.PromptTokens += pt
		u.CompletionTokens += ct
		u.Cost += cost
	}
	if err := rows.Err(); err != nil {
		return factbase.JobUsage{}, err
	}
	return u, nil
}
