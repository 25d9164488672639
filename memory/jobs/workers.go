package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/inflight"
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/router"
)

// WorkerOptions configure Workers. The zero value is usable: rules only, four
// workers.
type WorkerOptions struct {
	// Extractor, when set, is asked for the facts of every message, besides the
	// rules. nil (the default): rules only, no network call.
	Extractor factbase.Extractor
	// Workers is the most jobs processed at once. Default 4. (The model client has
	// its own concurrency limit, shared by every caller.)
	Workers int
	// Lease is how long a claimed job stays with its worker without a heartbeat; the
	// worker extends it every Lease/3 while it runs. A job whose worker died is
	// claimed again once its lease expires. Default 2 minutes.
	Lease time.Duration
	// MaxAttempts is how many times a job is tried before it is dead. Default 5.
	MaxAttempts int
	// Backoff is the base delay before a failed job is tried again: after attempt n
	// it waits a random time between Backoff·2ⁿ⁻¹/2 and Backoff·2ⁿ⁻¹, at most an hour.
	// Default 5s.
	Backoff time.Duration
	// Poll is how often an idle pool looks for jobs (jobs enqueued through this pool
	// wake it at once). Default 500ms.
	Poll time.Duration
	// ReplaceOnChange is the conflict policy for a model's new value of a one-valued
	// fact that has a different current value: false (the default) keeps the current
	// value and reports the change as a conflict in the job's result; true applies it
	// (latest wins, the old value kept in history). The rules' own writes are not
	// subject to it.
	ReplaceOnChange bool
	// Endpoint is the Extractor's model server, as recorded in each job it is queued
	// for: its URL without credentials. With the Extractor's model name it decides
	// which jobs this pool claims: those queued for this model, and those that need
	// none (see factbase.JobClaim).
	Endpoint string
	// DailyTokens and UserDailyTokens are token budgets for model extraction per UTC
	// day, over every user and per user (0: no budget). A job whose budget is spent
	// is put off until the next day (JobStore.DeferJob), its attempt not counted; the
	// rules' facts of its message were stored when it was received.
	DailyTokens, UserDailyTokens int
	// UserJobs is the most model jobs of one user this pool runs at once, so that one
	// user's burst does not take every worker; a job over it waits a moment (its
	// attempt not counted). Default 2; negative: no limit.
	UserJobs int
	// Logger receives one line per job outcome. Default: none.
	Logger *slog.Logger
	// Now is the clock used to resolve temporal words. Default time.Now.
	Now func() time.Time
}

// Workers is the background extraction pool: Remember enqueues a message as a
// durable job and returns at once; Start runs workers that claim jobs and process
// them until Stop. Several pools (in several processes) may share one store.
//
// A remember job runs the rules (always) and the Extractor (when configured) on its
// message. The model proposes; the engine decides: each proposed fact must pass the
// persistence test, a least confidence (0.5), be about the user (facts about other
// people are skipped as orphans until entity resolution reaches this path), have a
// dotted key, a value whose every word is in the message and evidence quoting the
// message; then the write path's validation, cardinality rules and invariants, and
// the conflict policy (ReplaceOnChange). A message that speaks to the model ("ignore
// previous instructions") has every model proposal refused. A fact both the rules
// and the model propose is stored once, by the rules' op; the write path records its
// reference. Every decision is reported in the job's RememberResult.
//
// Exactly once: the job's facts and its completion are written in one transaction
// (Engine.ApplyWith with factbase.JobTx), held by the job's lease. A worker that dies
// before the commit leaves nothing applied and the job is claimed again after its
// lease expires; a committed job is never claimed again.
//
// It is safe for concurrent use.
type Workers struct {
	e  *Service
	js factbase.JobStore
	o  WorkerOptions

	wake chan struct{}

	mu      sync.Mutex
	cancel  context.CancelFunc
	running bool
	wg      sync.WaitGroup

	endMu sync.Mutex
	ended chan struct{} // closed and replaced whenever a job of this pool ends

	stats workerCounters

	userMu   sync.Mutex
	userJobs map[factbase.UserID]int // model jobs in progress, by user
}

// NewWorkers returns a pool over e's store's job queue; EINVALID for a negative
// option.
func NewWorkers(e *Service, o WorkerOptions) (*Workers, error) {
	js := e.core.Store()
	if o.Workers < 0 || o.Lease < 0 || o.MaxAttempts < 0 || o.Backoff < 0 || o.Poll < 0 || o.DailyTokens < 0 || o.UserDailyTokens < 0 {
		return nil, factbase.Errorf(factbase.EINVALID, "worker options must not be negative")
	}
	if o.Workers == 0 {
		o.Workers = 4
	}
	if o.Lease == 0 {
		o.Lease = 2 * time.Minute
	}
	if o.MaxAttempts == 0 {
		o.MaxAttempts = 5
	}
	if o.Backoff == 0 {
		o.Backoff = 5 * time.Second
	}
	if o.Poll == 0 {
		o.Poll = 500 * time.Millisecond
	}
	if o.UserJobs == 0 {
		o.UserJobs = 2
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Workers{e: e, js: js, o: o, wake: make(chan struct{}, 1), ended: make(chan struct{}),
		userJobs: map[factbase.UserID]int{}}, nil
}

// DefaultMaxAttempts is how many times a job is tried by default.
const DefaultMaxAttempts = 5

// claim is what this pool claims: extraction jobs (and remember jobs queued before
// the rules ran at once) for its model or for none.
func (w *Workers) claim() factbase.JobClaim {
	return factbase.JobClaim{Kinds: []string{factbase.JobExtract, factbase.JobRemember},
		Model: w.Model(), Endpoint: w.endpoint()}
}

// Model returns the name of the pool's model, "" for none.
func (w *Workers) Model() string {
	if w.o.Extractor == nil {
		return ""
	}
	return w.o.Extractor.Model()
}

func (w *Workers) endpoint() string {
	if w.o.Extractor == nil {
		return ""
	}
	return w.o.Endpoint
}

// Claim returns what the pool claims (for a command to say which queued jobs it
// leaves to others).
func (w *Workers) Claim() factbase.JobClaim { return w.claim() }

// Wake makes an idle pool look for jobs now.
func (w *Workers) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Start runs the pool until ctx ends or Stop is called. ECONFLICT if it is running.
func (w *Workers) Start(ctx context.Context) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.running {
		return factbase.Errorf(factbase.ECONFLICT, "the workers are already running")
	}
	ctx, cancel := context.WithCancel(ctx)
	w.cancel, w.running = cancel, true
	w.wg.Add(1)
	go w.dispatch(ctx)
	return nil
}

// Stop stops claiming jobs, cancels the jobs in progress (each is released to the
// queue, its attempt not counted, unless it already committed) and waits for every
// goroutine of the pool to end. Stopping a pool that is not running does nothing.
func (w *Workers) Stop() {
	w.mu.Lock()
	cancel, running := w.cancel, w.running
	w.running = false
	w.mu.Unlock()
	if !running {
		return
	}
	cancel()
	w.wg.Wait()
}

// dispatch claims jobs while a worker slot is free and hands each to a goroutine.
func (w *Workers) dispatch(ctx context.Context) {
	defer w.wg.Done()
	slots := make(chan struct{}, w.o.Workers)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		j, ok, err := w.js.ClaimJob(ctx, w.o.Lease, w.claim())
		if err != nil || !ok {
			<-slots
			if err != nil && ctx.Err() == nil {
				w.o.Logger.Warn("claim job", "err", err)
			}
			timer.Reset(w.o.Poll)
			select {
			case <-ctx.Done():
				return
			case <-w.wake:
			case <-timer.C:
			}
			continue
		}
		w.stats.claimed.Add(1)
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			defer func() { <-slots }()
			w.run(ctx, j)
		}()
	}
}

// RunOne claims and processes one job in the calling goroutine; ok is false when no
// job was runnable. It is for tests and for draining a queue from a command.
func (w *Workers) RunOne(ctx context.Context) (ok bool, err error) {
	j, ok, err := w.js.ClaimJob(ctx, w.o.Lease, w.claim())
	if err != nil || !ok {
		return false, err
	}
	w.stats.claimed.Add(1)
	w.run(ctx, j)
	return true, nil
}

// RunJob processes job id in the calling goroutine until it is done or dead, and
// returns it: it claims only that job, waits while it waits for a retry or runs
// elsewhere, and takes no other job. ECONFLICT when the job is queued for another
// model than the pool's; ctx's error (with the job as last read) when ctx ends first.
func (w *Workers) RunJob(ctx context.Context, id string) (factbase.Job, error) {
	c := w.claim()
	c.ID = id
	for {
		j, err := w.js.Job(ctx, id)
		if err != nil {
			return j, err
		}
		if j.State == factbase.JobDone || j.State == factbase.JobDead {
			return j, nil
		}
		if !c.Serves(j) {
			return j, factbase.Errorf(factbase.ECONFLICT, "job %s is queued for the model %q at %q, not this command's %q at %q",
				id, j.Model, j.Endpoint, c.Model, c.Endpoint)
		}
		got, ok, err := w.js.ClaimJob(ctx, w.o.Lease, c)
		if err != nil {
			return j, err
		}
		if ok {
			w.stats.claimed.Add(1)
			w.run(ctx, got)
			continue
		}
		t := time.NewTimer(w.o.Poll)
		select {
		case <-ctx.Done():
			t.Stop()
			return j, ctx.Err()
		case <-t.C:
		}
	}
}

// enterUser counts a job of user as running, unless the user has UserJobs running
// already (false).
func (w *Workers) enterUser(user factbase.UserID) bool {
	if w.o.UserJobs < 0 || w.o.Extractor == nil {
		return true
	}
	w.userMu.Lock()
	defer w.userMu.Unlock()
	if w.userJobs[user] >= w.o.UserJobs {
		return false
	}
	w.userJobs[user]++
	return true
}

func (w *Workers) leaveUser(user factbase.UserID) {
	if w.o.UserJobs < 0 || w.o.Extractor == nil {
		return
	}
	w.userMu.Lock()
	defer w.userMu.Unlock()
	if w.userJobs[user]--; w.userJobs[user] <= 0 {
		delete(w.userJobs, user)
	}
}

// errLeaseLost marks a completion refused because the job's lease is no longer ours.
type errLeaseLost struct{ err error }

func (e *errLeaseLost) Error() string { return e.err.Error() }
func (e *errLeaseLost) Unwrap() error { return e.err }

// run processes one claimed job to its end: completed, failed (retried or dead),
// released (the pool stopped), or abandoned (its lease was lost).
func (w *Workers) run(ctx context.Context, j factbase.Job) {
	defer w.stats.inFlight.Start()()
	defer w.jobEnded()
	jctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The heartbeat keeps the lease while the job runs; losing it cancels the job.
	hb := make(chan struct{})
	go func() {
		defer close(hb)
		t := time.NewTicker(max(w.o.Lease/3, time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-jctx.Done():
				return
			case <-t.C:
				if err := w.js.ExtendJob(jctx, j.ID, j.Lease, w.o.Lease); err != nil && jctx.Err() == nil {
					if factbase.ErrorCode(err) == factbase.ECONFLICT {
						w.o.Logger.Warn("job lease lost", "job", j.ID)
						cancel()
						return
					}
					w.o.Logger.Warn("extend job lease", "job", j.ID, "err", err)
				}
			}
		}
	}()
	defer func() { cancel(); <-hb }()

	if until, why, err := w.overBudget(jctx, j.User); err == nil && why != "" {
		w.deferJob(ctx, j, until, why)
		return
	}
	if !w.enterUser(j.User) {
		w.deferJob(ctx, j, time.Now().Add(w.o.Poll*2), fmt.Sprintf("this user already has %d model jobs running; it waits its turn", w.o.UserJobs))
		return
	}
	defer w.leaveUser(j.User)
	start := time.Now()
	res, usage, err := w.process(jctx, j)
	var lostLease *errLeaseLost
	switch {
	case err == nil:
		w.stats.done.Add(1)
		w.stats.addUsage(usage)
		w.o.Logger.Info("job done", "job", j.ID, "kind", j.Kind, "stored", res.Stored, "decisions", len(res.Decisions),
			"took", time.Since(start).Round(time.Millisecond).String())
	case errors.As(err, &lostLease) || jctx.Err() != nil && ctx.Err() == nil:
		// Another worker holds the job now (or will): nothing of ours was committed.
		w.stats.lost.Add(1)
		w.stats.addUsage(usage)
		w.o.Logger.Warn("job abandoned: lease lost", "job", j.ID)
	case ctx.Err() != nil:
		// The pool is stopping: give the job back without counting the attempt.
		rctx, rcancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer rcancel()
		if rerr := w.js.ReleaseJob(rctx, j.ID, j.Lease); rerr != nil {
			w.o.Logger.Warn("release job", "job", j.ID, "err", rerr)
		}
		w.stats.released.Add(1)
		w.stats.addUsage(usage)
	default:
		w.stats.addUsage(usage)
		w.fail(ctx, j, err, usage)
	}
}

// fail records a failed attempt: retried after a backoff, or dead.
func (w *Workers) fail(ctx context.Context, j factbase.Job, err error, usage factbase.ModelUsage) {
	kind := factbase.ModelErrorKindOf(err)
	permanent := kind.Permanent()
	var fe *factbase.Error
	if kind == "" && errors.As(err, &fe) && fe.Code == factbase.EINVALID {
		permanent = true // the message itself is refused: no retry can help
	}
	wait := w.o.Backoff << max(j.Attempts-1, 0)
	if wait <= 0 || wait > time.Hour {
		wait = time.Hour
	}
	wait = wait/2 + rand.N(wait/2+1)
	code := factbase.ErrorCode(err)
	msg := factbase.ErrorMessage(err)
	if code == factbase.EINTERNAL {
		msg = err.Error()
	}
	if kind != "" {
		msg = string(kind) + ": " + msg
	}
	// The failure is recorded even while the pool stops, so that the attempt counts.
	fctx, fcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer fcancel()
	f, ferr := w.js.FailJob(fctx, j.ID, j.Lease, factbase.JobFailure{Code: code, Message: msg, Dead: permanent, RetryIn: wait,
		PromptTokens: usage.PromptTokens, CompletionTokens: usage.CompletionTokens, Cost: usage.Cost})
	if ferr != nil {
		w.o.Logger.Warn("record job failure", "job", j.ID, "err", ferr, "failure", msg)
		return
	}
	if f.State == factbase.JobDead {
		w.stats.dead.Add(1)
		w.o.Logger.Error("job dead", "job", j.ID, "attempts", f.Attempts, "model", j.Model, "err", msg)
		return
	}
	w.stats.retried.Add(1)
	w.o.Logger.Warn("job failed, will retry", "job", j.ID, "attempt", f.Attempts, "model", j.Model,
		"in", wait.Round(time.Millisecond).String(), "err", msg)
}

// process does a remember job's work and commits it with the job's completion.
func (w *Workers) process(ctx context.Context, j factbase.Job) (RememberResult, factbase.ModelUsage, error) {
	e := w.e
	res := RememberResult{RuleOps: []chat.OpView{}, Notes: []string{}, Topics: []string{}, Decisions: []Decision{}, FactIDs: []string{},
		Entities: []string{}}
	p, err := router.Parse(j.Input)
	if err != nil {
		return res, factbase.ModelUsage{}, err
	}
	now := w.o.Now()
	src := factbase.Source{Kind: factbase.SourceMessage, ID: j.ID}
	res.Route = p.Route
	// An extraction job's message had its rule facts stored when it was received:
	// the rules are planned again only so that the model's proposals are compared
	// with them. A remember job (queued before that) applies them.
	applyRules := j.Kind == factbase.JobRemember
	res.Rules = RulesAtMessage
	if applyRules {
		res.Rules = RulesInJob
	}
	if !applyRules && w.o.Extractor == nil {
		return res, factbase.ModelUsage{}, factbase.Errorf(factbase.EINVALID,
			"job %s is for the model %s, and this worker has no model configured", j.ID, j.Model)
	}
	// The rules, as Say runs them: the router's statements and the personal facts.
	ruleOps, _, notes, skipped, err := e.chat.StatementOps(ctx, j.User, p.Statements, src)
	if err != nil {
		return res, factbase.ModelUsage{}, err
	}
	res.Notes = append(append(res.Notes, notes...), skipped...)
	var pp people.PersonalPlan
	if pp, err = e.people.PlanPersonal(ctx, j.User, j.Input, people.MessageInfo{Time: now}, src); err != nil {
		return res, factbase.ModelUsage{}, err
	}
	pp = pp.KeepSet(ruleOps) // a key the router sets anew is not also ended
	ruleOps = append(ruleOps, pp.Ops...)
	res.Notes = append(res.Notes, pp.Skipped...)
	for _, op := range ruleOps {
		res.RuleOps = append(res.RuleOps, chat.OpView{Kind: op.Kind, Key: op.Fact.Key, Value: op.Fact.Value, Rank: op.Fact.Rank})
	}
	var (
		mp modelPlan
		mc modelContext
	)
	if x := w.o.Extractor; x != nil {
		res.Model = x.Model()
		if mc, err = e.modelInput(ctx, j.User, j.Input, now); err != nil {
			return res, factbase.ModelUsage{}, err
		}
		ext, err := x.Extract(ctx, mc.prompt)
		res.Usage = ext.Usage
		if err != nil {
			var le *factbase.ModelError
			if errors.As(err, &le) {
				res.Usage = le.Usage
			}
			return res, res.Usage, err
		}
		res.Prompt = ext.Prompt
		res.Topics = append(res.Topics, ext.Topics...)
		if mp, err = e.modelOps(ctx, j.User, j.ID, j.Input, ext, ruleOps, pp.Created, mc, w.o.ReplaceOnChange, now); err != nil {
			return res, res.Usage, err
		}
		res.Decisions = mp.decisions
		if injection(j.Input) && len(res.Decisions) > 0 {
			mp = modelPlan{}
			res.ModelNote = "the message speaks to the model (a prompt-injection attempt?): every model proposal is refused"
			for i := range res.Decisions {
				d := &res.Decisions[i]
				d.Action, d.Reason, d.CurrentID, d.CurrentValue = DecisionSkipped, "refused: the message speaks to the model", "", ""
			}
		}
	}
	commit := func(ops []factbase.Op, mp modelPlan) error {
		_, err := e.core.ApplyWith(ctx, j.User, ops, func(wr *core.Writer) error {
			tx, r := wr.Tx(), wr.Result()
			if len(mp.entities) > 0 || len(mp.conflicts) > 0 {
				// The model's entities were resolved against the entities read before
				// the call: if they changed since, resolve again (a retry).
				now, err := tx.Entities(ctx, factbase.EntityFilter{})
				if err != nil {
					return err
				}
				if people.Fingerprint(now) != mc.fingerprint {
					return factbase.Errorf(factbase.EUNAVAILABLE, "the user's people changed while the model read the message; the job will run again")
				}
			}
			if pp.With != nil && applyRules {
				if err := pp.With(wr); err != nil {
					return err
				}
			}
			for _, en := range mp.entities {
				en.User = j.User
				en.CreatedAt, en.UpdatedAt = tx.Now(), tx.Now()
				if err := tx.PutEntity(ctx, en); err != nil {
					return err
				}
			}
			for _, c := range mp.conflicts {
				c.CreatedAt = tx.Now()
				if err := tx.PutConflict(ctx, c); err != nil {
					return err
				}
			}
			res.Stored, res.Updated, res.Retracted = r.Stored, r.Updated, r.Retracted
			res.Duplicates, res.Mutations = r.Duplicates, r.Mutations
			res.Entities = res.Entities[:0]
			for _, en := range mp.entities {
				res.Entities = append(res.Entities, en.ID)
			}
			res.FactIDs = res.FactIDs[:0]
			for _, f := range r.Facts {
				res.FactIDs = append(res.FactIDs, f.ID)
			}
			body, err := json.Marshal(res)
			if err != nil {
				return factbase.Errorf(factbase.EINTERNAL, "encode the job result: %v", err)
			}
			err = tx.CompleteJob(ctx, j.ID, j.Lease, factbase.JobOutcome{Result: body,
				PromptTokens: res.Usage.PromptTokens, CompletionTokens: res.Usage.CompletionTokens, Cost: res.Usage.Cost})
			if err != nil && factbase.ErrorCode(err) == factbase.ECONFLICT {
				return &errLeaseLost{err}
			}
			return err
		})
		return err
	}
	applied := ruleOps
	if !applyRules {
		applied = nil
	}
	err = commit(append(append([]factbase.Op{}, applied...), mp.ops...), mp)
	var lostLease *errLeaseLost
	if err != nil && len(mp.ops)+len(mp.entities)+len(mp.conflicts) > 0 && !errors.As(err, &lostLease) && deterministic(err) {
		// The write path refused the model's part as a whole (a key holding another
		// kind of list, ...): the rules' ops are still applied, the model's reported.
		note := "the write path refused the model's facts: " + factbase.ErrorMessage(err)
		for i := range res.Decisions {
			if d := &res.Decisions[i]; d.Action == DecisionApplied || d.Action == DecisionConflict {
				d.Action, d.Reason = DecisionSkipped, note
			}
		}
		res.ModelNote = note
		err = commit(applied, modelPlan{})
	}
	return res, res.Usage, err
}

// deterministic reports whether a write error would happen again with the same ops.
func deterministic(err error) bool {
	switch factbase.ErrorCode(err) {
	case factbase.EINVALID, factbase.ECONFLICT, factbase.ENOTFOUND, factbase.EINVARIANT, factbase.ETOOLARGE:
		return true
	}
	return false
}

// jobEnded wakes everyone waiting for a job of this pool to end.
func (w *Workers) jobEnded() {
	w.endMu.Lock()
	close(w.ended)
	w.ended = make(chan struct{})
	w.endMu.Unlock()
}

// Wait returns job id once it is done or dead, or ctx's error. Jobs processed by
// this pool are noticed at once; others (another process's pool) by polling.
func (w *Workers) Wait(ctx context.Context, id string) (factbase.Job, error) {
	for {
		w.endMu.Lock()
		ended := w.ended
		w.endMu.Unlock()
		j, err := w.js.Job(ctx, id)
		if err != nil {
			return j, err
		}
		if j.State == factbase.JobDone || j.State == factbase.JobDead {
			return j, nil
		}
		t := time.NewTimer(w.o.Poll)
		select {
		case <-ctx.Done():
			t.Stop()
			return j, ctx.Err()
		case <-ended:
		case <-t.C:
		}
		t.Stop()
	}
}

// Jobs returns the job store the pool works on.
func (w *Workers) Jobs() factbase.JobStore { return w.js }

// WorkerStats are a pool's counters since it was made, for metrics.
type WorkerStats struct {
	Enqueued    int64               `json:"enqueued"`
	Claimed     int64               `json:"claimed"`
	Done        int64               `json:"done"`
	Retried     int64               `json:"retried"`  // failed attempts queued again
	Dead        int64               `json:"dead"`     // jobs that died in this pool
	Lost        int64               `json:"lost"`     // jobs abandoned because their lease was lost
	Released    int64               `json:"released"` // jobs given back when the pool stopped
	Deferred    int64               `json:"deferred"` // jobs put off because a token budget was spent
	InFlight    int64               `json:"in_flight"`
	MaxInFlight int64               `json:"max_in_flight"`
	Usage       factbase.ModelUsage `json:"usage"` // model usage of every attempt
}

type workerCounters struct {
	enqueued, claimed, done, retried, dead, lost, released, deferred atomic.Int64
	inFlight                                                         inflight.Gauge
	prompt, completion                                               atomic.Int64
	costMu                                                           sync.Mutex
	cost                                                             float64
}

func (c *workerCounters) addUsage(u factbase.ModelUsage) {
	c.prompt.Add(int64(u.PromptTokens))
	c.completion.Add(int64(u.CompletionTokens))
	c.costMu.Lock()
	c.cost += u.Cost
	c.costMu.Unlock()
}

// Stats returns a snapshot of the pool's counters. Per-user sums are in the job
// store (factbase.JobStore.JobUsage).
func (w *Workers) Stats() WorkerStats {
	c := &w.stats
	c.costMu.Lock()
	cost := c.cost
	c.costMu.Unlock()
	return WorkerStats{Enqueued: c.enqueued.Load(), Claimed: c.claimed.Load(), Done: c.done.Load(), Retried: c.retried.Load(),
		Dead: c.dead.Load(), Lost: c.lost.Load(), Released: c.released.Load(), Deferred: c.deferred.Load(), InFlight: c.inFlight.Now(),
		MaxInFlight: c.inFlight.Peak(),
		Usage:       factbase.ModelUsage{PromptTokens: int(c.prompt.Load()), CompletionTokens: int(c.completion.Load()), Cost: cost}}
}
