package factbase

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"
)

// JobState is where a background job is in its life.
type JobState string

// The job states. A job is queued until a worker claims it, running while a worker
// holds its lease, and ends done (its effects committed) or dead (it failed
// MaxAttempts times, or failed in a way no retry can fix; Error says why). A dead job
// can be queued again by hand (JobStore.RetryJob).
const (
	JobQueued  JobState = "queued"
	JobRunning JobState = "running"
	JobDone    JobState = "done"
	JobDead    JobState = "dead"
)

// Valid reports whether s is one of the job states.
func (s JobState) Valid() bool {
	return s == JobQueued || s == JobRunning || s == JobDone || s == JobDead
}

// The kinds of job. JobExtract is the model's reading of one message (the job's
// Input) whose rule facts were stored when the message was received: the job writes
// only what the model proposes and the engine accepts. JobRemember is the kind
// queued before rules ran at once: such a job applies the rules and the model
// together; none is queued any more, and those still queued are processed as before.
const (
	JobExtract  = "extract"
	JobRemember = "remember"
)

// Job is one unit of background work, kept in the store so that it survives
// restarts. A worker claims it with a lease; a worker that dies leaves the lease to
// expire, and the job is claimed again.
type Job struct {
	ID    string `json:"id"` // time-sortable (UUIDv7)
	User  UserID `json:"user"`
	Kind  string `json:"kind"`  // JobExtract, JobRemember
	Input string `json:"input"` // the message
	// Model and Endpoint name the model the job was queued for (its name, and the
	// model server's URL without credentials); "" for a job that needs none. Only a
	// worker configured with the same model claims it (see JobClaim).
	Model       string   `json:"model,omitempty"`
	Endpoint    string   `json:"model_endpoint,omitempty"`
	State       JobState `json:"state"`
	Attempts    int      `json:"attempts"` // claims so far, the running one included
	MaxAttempts int      `json:"max_attempts"`
	// RunAt is the earliest time a queued job may be claimed (a retry's backoff).
	RunAt time.Time `json:"run_at"`
	// Lease is the token of the current claim; only its holder may complete, fail,
	// extend or release the job. Never shown outside the process.
	Lease      string     `json:"-"`
	LeaseUntil *time.Time `json:"lease_until,omitempty"`
	// ErrorCode and Error are the last failure's factbase code and message ("" when
	// none): the reason a dead job died.
	ErrorCode string `json:"error_code,omitempty"`
	Error     string `json:"error,omitempty"`
	// Result is what the job did, as JSON written by its worker (for JobRemember:
	// jobs.RememberResult).
	Result json.RawMessage `json:"result,omitempty"`
	// Tokens and cost of every model call the job made, failed attempts included.
	PromptTokens     int        `json:"prompt_tokens"`
	CompletionTokens int        `json:"completion_tokens"`
	Cost             float64    `json:"cost_usd"`
	CreatedAt        time.Time  `json:"created_at"`
	UpdatedAt        time.Time  `json:"updated_at"`
	FinishedAt       *time.Time `json:"finished_at,omitempty"` // when it became done or dead
}

// JobDeferredCode is the error code of a job put off by JobStore.DeferJob.
const JobDeferredCode = "deferred"

// JobClaim says which jobs a worker may claim (JobStore.ClaimJob). Zero fields do
// not filter, except the model: a job queued for a model is claimed only by a worker
// with that Model and Endpoint; a job queued for none by any worker.
type JobClaim struct {
	Kinds []string // any kind if empty
	ID    string   // only this job
	// Model and Endpoint are the worker's model ("" for none).
	Model, Endpoint string
}

// Serves reports whether a worker claiming with c may take j (ignoring its state).
func (c JobClaim) Serves(j Job) bool {
	if j.Model != "" && (j.Model != c.Model || j.Endpoint != c.Endpoint) {
		return false
	}
	if c.ID != "" && j.ID != c.ID {
		return false
	}
	if len(c.Kinds) == 0 {
		return true
	}
	for _, k := range c.Kinds {
		if k == j.Kind {
			return true
		}
	}
	return false
}

// JobRetry is how a dead job is queued again (JobStore.RetryJob). With Retarget the
// job is queued for Model at Endpoint instead of the model it was queued for ("" and
// "": for no model).
type JobRetry struct {
	Retarget        bool
	Model, Endpoint string
}

// Validate reports whether r can be applied: a retargeted model name of at most 200
// bytes and endpoint of at most 2000, and no endpoint without a model. Returns
// EINVALID otherwise.
func (r JobRetry) Validate() error {
	return Job{ID: "x", User: "x", Kind: "x", MaxAttempts: 1, Model: r.Model, Endpoint: r.Endpoint}.validateModel()
}

// JobFilter selects jobs in JobStore.Jobs. Zero fields do not filter.
type JobFilter struct {
	User  UserID
	State JobState
	Kind  string
	Limit int // 0: 100; at most 1000
	// Before lists jobs created before the job with this id (the next page of a
	// newest-first listing).
	Before string
}

// Limits of JobFilter.Limit.
const (
	DefaultJobsLimit = 100
	MaxJobsLimit     = 1000
)

// WithDefaults returns f with its zero Limit set to DefaultJobsLimit, or EINVALID for a
// limit outside 1..MaxJobsLimit or an unknown state.
func (f JobFilter) WithDefaults() (JobFilter, error) {
	switch {
	case f.Limit == 0:
		f.Limit = DefaultJobsLimit
	case f.Limit < 0 || f.Limit > MaxJobsLimit:
		return f, Errorf(EINVALID, "limit %d is outside 1..%d", f.Limit, MaxJobsLimit)
	}
	if f.State != "" && !f.State.Valid() {
		return f, Errorf(EINVALID, "job state %q is not one of queued, running, done, dead", f.State)
	}
	return f, nil
}

// JobsPage returns the jobs f selects from js, newest first, and next: when older
// jobs remain, the Before of the next page (the last job's id); "" when none do. A
// full page costs one more read of one job, past it.
func JobsPage(ctx context.Context, js JobStore, f JobFilter) (jobs []Job, next string, err error) {
	if f, err = f.WithDefaults(); err != nil {
		return nil, "", err
	}
	if jobs, err = js.Jobs(ctx, f); err != nil || len(jobs) < f.Limit {
		return jobs, "", err
	}
	last := jobs[len(jobs)-1].ID
	f.Before, f.Limit = last, 1
	after, err := js.Jobs(ctx, f)
	if err != nil || len(after) == 0 {
		return jobs, "", err
	}
	return jobs, last, nil
}

// Validate reports whether j can be enqueued (JobStore.EnqueueJob): an id of at most
// 64 bytes, a valid user, a kind and at least one attempt. Returns EINVALID otherwise.
func (j Job) Validate() error {
	switch {
	case j.ID == "" || len(j.ID) > 64:
		return Errorf(EINVALID, "a job needs an id of at most 64 bytes")
	case !j.User.Valid():
		return j.User.Validate()
	case j.Kind == "":
		return Errorf(EINVALID, "a job needs a kind")
	case j.MaxAttempts < 1:
		return Errorf(EINVALID, "a job needs at least one attempt, got %d", j.MaxAttempts)
	}
	return j.validateModel()
}

func (j Job) validateModel() error {
	switch {
	case len(j.Model) > 200 || len(j.Endpoint) > 2000:
		return Errorf(EINVALID, "a job's model name is at most 200 bytes and its endpoint at most 2000")
	case j.Endpoint != "" && j.Model == "":
		return Errorf(EINVALID, "a job with a model endpoint needs a model name")
	}
	return nil
}

// ValidateLease returns EINVALID unless a lease of d is positive.
func ValidateLease(d time.Duration) error {
	if d <= 0 {
		return Errorf(EINVALID, "a lease must be positive, got %v", d)
	}
	return nil
}

// NewJobLease returns a new random lease token (32 hex digits).
func NewJobLease() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", &Error{Code: EINTERNAL, Message: "cannot read random bytes", Err: err}
	}
	return hex.EncodeToString(b[:]), nil
}

// JobUsage sums the jobs of a user (or of every user).
type JobUsage struct {
	Jobs             map[JobState]int `json:"jobs"` // jobs by state
	PromptTokens     int              `json:"prompt_tokens"`
	CompletionTokens int              `json:"completion_tokens"`
	Cost             float64          `json:"cost_usd"`
}

// JobFailure is how an attempt failed, for JobStore.FailJob.
type JobFailure struct {
	Code, Message string
	// Dead ends the job now; otherwise it is queued again after RetryIn, unless it
	// has used MaxAttempts, in which case it is dead too.
	Dead    bool
	RetryIn time.Duration
	// Usage of this attempt, added to the job's totals.
	PromptTokens, CompletionTokens int
	Cost                           float64
}

// Validate reports whether f can be recorded (JobStore.FailJob): no negative delay
// or usage. Returns EINVALID otherwise.
func (f JobFailure) Validate() error {
	if f.RetryIn < 0 || f.PromptTokens < 0 || f.CompletionTokens < 0 || f.Cost < 0 || f.Cost != f.Cost {
		return Errorf(EINVALID, "a job failure has a negative delay or usage")
	}
	return nil
}

// maxJobError is the most bytes of a failure's message a job keeps.
const maxJobError = 1000

// Record returns the code and message a job keeps of f: the code, EINTERNAL when
// empty; the message as valid UTF-8 without NUL bytes (each replaced by U+FFFD), cut
// at a character boundary to at most maxJobError bytes and "…".
func (f JobFailure) Record() (code, message string) {
	code = f.Code
	if code == "" {
		code = EINTERNAL
	}
	m := strings.ReplaceAll(strings.ToValidUTF8(f.Message, "\uFFFD"), "\x00", "\uFFFD")
	if len(m) <= maxJobError {
		return code, m
	}
	n := maxJobError
	for n > 0 && m[n]&0xC0 == 0x80 {
		n--
	}
	return code, m[:n] + "…"
}

// JobOutcome is what a successful attempt did, for Tx.CompleteJob.
type JobOutcome struct {
	Result                         json.RawMessage
	PromptTokens, CompletionTokens int
	Cost                           float64
}

// Validate reports whether o can be recorded (Tx.CompleteJob): no negative usage,
// and a Result, when set, that is JSON. Returns EINVALID otherwise.
func (o JobOutcome) Validate() error {
	if o.PromptTokens < 0 || o.CompletionTokens < 0 || o.Cost < 0 || o.Cost != o.Cost {
		return Errorf(EINVALID, "a job outcome has negative usage")
	}
	if len(o.Result) > 0 && !json.Valid(o.Result) {
		return Errorf(EINVALID, "a job result must be JSON")
	}
	return nil
}

// JobStore keeps the durable job queue. Each method is one transaction; times are
// the store's clock. All methods are safe for concurrent use, from several processes
// too, and return EUNAVAILABLE when the store cannot be reached.
type JobStore interface {
	// EnqueueJob stores a new queued job. j.ID, User, Kind, Input and MaxAttempts
	// (at least 1) must be set; State, times and counters are set by the store
	// (RunAt = now). It returns the stored job. EINVALID if j fails Job.Validate,
	// ECONFLICT for a taken id.
	EnqueueJob(ctx context.Context, j Job) (Job, error)
	// ClaimJob claims the oldest runnable job that c selects (JobClaim.Serves): a
	// queued job whose RunAt has come, or a running job whose lease expired (its
	// worker died). The claim sets State running, a new Lease valid for lease, and
	// Attempts+1. A job whose lease expired on its last attempt is made dead
	// instead ("lease expired"). ok is false when no job is runnable. EINVALID unless
	// lease is positive.
	ClaimJob(ctx context.Context, lease time.Duration, c JobClaim) (j Job, ok bool, err error)
	// ExtendJob pushes the lease of a running job to now+lease. ECONFLICT if lease is
	// no longer the job's (it expired and was claimed again, or the job ended).
	// EINVALID unless d is positive.
	ExtendJob(ctx context.Context, id, lease string, d time.Duration) error
	// FailJob records a failed attempt of the running job held by lease: queued again
	// after f.RetryIn, or dead (f.Dead, or no attempts left), keeping f.Record(). It
	// returns the job. ECONFLICT if lease is no longer the job's; EINVALID if f fails
	// JobFailure.Validate.
	FailJob(ctx context.Context, id, lease string, f JobFailure) (Job, error)
	// ReleaseJob gives a running job back to the queue without counting the attempt
	// (a worker shutting down). ECONFLICT if lease is no longer the job's.
	ReleaseJob(ctx context.Context, id, lease string) error
	// DeferJob gives a running job back to the queue until the time until, without
	// counting the attempt, and records why as its error (code JobDeferredCode): a
	// spent token budget. The reason is kept like a failure's message (JobFailure.Record). It returns the job. ECONFLICT if lease is no longer the job's.
	DeferJob(ctx context.Context, id, lease string, until time.Time, reason string) (Job, error)
	// RetryJob queues a dead job again, with its attempts reset, now; with
	// r.Retarget, for r's model. ENOTFOUND if there is no such job; ECONFLICT if it
	// is not dead.
	RetryJob(ctx context.Context, id string, r JobRetry) (Job, error)
	// Job returns one job. ENOTFOUND if there is none.
	Job(ctx context.Context, id string) (Job, error)
	// Jobs returns the jobs f selects, newest first; EINVALID if f.WithDefaults
	// refuses it.
	Jobs(ctx context.Context, f JobFilter) ([]Job, error)
	// JobUsage sums the jobs of user ("" for every user).
	JobUsage(ctx context.Context, user UserID) (JobUsage, error)
	// JobTokens sums the prompt and completion tokens of the jobs of user ("" for
	// every user) last updated at or after since: the model tokens spent since then,
	// for daily budgets (a job's tokens count on the day it last ran).
	JobTokens(ctx context.Context, user UserID, since time.Time) (int, error)
}
