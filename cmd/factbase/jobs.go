package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/jobs"
)

// runJobs implements "factbase jobs": the background job queue.
func (m *Main) runJobs(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usagef("jobs needs a subcommand: list, show, retry, work or usage")
	}
	switch args[0] {
	case "list":
		return m.jobsList(ctx, args[1:])
	case "show":
		return m.jobsShow(ctx, args[1:])
	case "retry":
		return m.jobsRetry(ctx, args[1:])
	case "work":
		return m.jobsWork(ctx, args[1:])
	case "usage":
		return m.jobsUsage(ctx, args[1:])
	}
	return usagef("jobs: unknown subcommand %q (list, show, retry, work, usage)", args[0])
}

// jobStore opens the store of --db as a job store.
func (m *Main) jobStore(ctx context.Context, c *common) (factbase.JobStore, func(), error) {
	s, err := m.openStore(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	return s, func() { s.Close() }, nil
}

func (m *Main) jobsList(ctx context.Context, args []string) error {
	var (
		c           common
		state, kind string
		limit       int
		before      string
	)
	fs := m.flags("jobs list", &c, true)
	fs.StringVar(&state, "state", "", "only jobs in this state: queued, running, done or dead")
	fs.StringVar(&kind, "kind", "", "only jobs of this kind (remember)")
	fs.IntVar(&limit, "limit", 20, "at most this many (1..1000)")
	fs.StringVar(&before, "before", "", "only jobs created before the job with this id (the next page)")
	setUsage(fs, "Usage: factbase jobs list [flags]\n\nList background jobs, newest first (every user's unless --user or $FACTBASE_USER is set).\n\n")
	if err := parseNone(fs, args, "jobs list"); err != nil {
		return err
	}
	user, err := c.optionalUser()
	if err != nil {
		return err
	}
	if limit < 1 || limit > 1000 {
		return usagef("--limit must be in 1..1000, got %d", limit)
	}
	js, closeFn, err := m.jobStore(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	jobs, next, err := factbase.JobsPage(ctx, js, factbase.JobFilter{User: user, State: factbase.JobState(state), Kind: kind, Limit: limit, Before: before})
	if err != nil {
		return err
	}
	out := struct {
		Jobs []factbase.Job `json:"jobs"`
		Next string         `json:"next,omitempty"`
	}{jobs, next}
	return m.print(&c, out, func() error {
		if len(jobs) == 0 {
			fmt.Fprintln(m.Stdout, "no jobs")
			return nil
		}
		for _, j := range jobs {
			line := fmt.Sprintf("%s  %-7s  %d/%d  %s  %s", j.ID, j.State, j.Attempts, j.MaxAttempts,
				j.CreatedAt.Format(time.RFC3339), oneLine(j.Input, 50, "…"))
			if j.State == factbase.JobDead || j.State == factbase.JobQueued && j.Error != "" {
				line += "  [" + oneLine(j.Error, 80, "…") + "]"
			}
			fmt.Fprintln(m.Stdout, line)
		}
		if next != "" {
			fmt.Fprintf(m.Stdout, "… older jobs follow (use --before %s)\n", next)
		}
		return nil
	})
}

// jobsOne runs a subcommand that takes one job id: it parses the flags, applies do
// to the job and prints the job do returns, for people with text.
func (m *Main) jobsOne(ctx context.Context, args []string, name, summary string,
	do func(js factbase.JobStore, id string) (factbase.Job, error), text func(j factbase.Job) error) error {
	var c common
	fs := m.flags("jobs "+name, &c, false)
	setUsage(fs, fmt.Sprintf("Usage: factbase jobs %s [flags] JOB_ID\n\n%s\n\n", name, summary))
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("jobs %s needs one job id", name)
	}
	js, closeFn, err := m.jobStore(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	j, err := do(js, fs.Arg(0))
	if err != nil {
		return err
	}
	return m.print(&c, j, func() error { return text(j) })
}

func (m *Main) jobsShow(ctx context.Context, args []string) error {
	return m.jobsOne(ctx, args, "show", "Show a job: its state, attempts, last error, tokens and what it did.",
		func(js factbase.JobStore, id string) (factbase.Job, error) { return js.Job(ctx, id) },
		m.printJob)
}

func (m *Main) jobsRetry(ctx context.Context, args []string) error {
	var (
		c        common
		retarget bool
	)
	fs := m.flags("jobs retry", &c, false)
	m.llmFlags(fs, &c)
	fs.BoolVar(&retarget, "retarget", false, "queue the job for the model of --llm-url and --llm-model (none if unset) instead of the one it was queued for")
	setUsage(fs, "Usage: factbase jobs retry [flags] JOB_ID\n\nQueue a dead job again, with its attempts reset; with --retarget, for another model.\n\n")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("jobs retry needs one job id")
	}
	r := factbase.JobRetry{Retarget: retarget}
	if retarget {
		client, err := c.llm.client(nil)
		if err != nil {
			return err
		}
		if client != nil {
			r.Model, r.Endpoint = client.Model(), client.Endpoint()
		}
	}
	js, closeFn, err := m.jobStore(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	j, err := js.RetryJob(ctx, fs.Arg(0), r)
	if err != nil {
		return err
	}
	return m.print(&c, j, func() error {
		if j.Model == "" {
			fmt.Fprintf(m.Stdout, "job %s queued again (no model)\n", j.ID)
		} else {
			fmt.Fprintf(m.Stdout, "job %s queued again for the model %s at %s\n", j.ID, j.Model, j.Endpoint)
		}
		return nil
	})
}

// jobsWork processes jobs in this process: until the queue is empty (--drain), or
// until interrupted.
func (m *Main) jobsWork(ctx context.Context, args []string) error {
	var (
		c     common
		drain bool
	)
	fs := m.flags("jobs work", &c, false)
	m.llmFlags(fs, &c)
	fs.BoolVar(&drain, "drain", false, "stop once no job is runnable (jobs waiting for a retry are left queued)")
	setUsage(fs, "Usage: factbase jobs work [flags]\n\nProcess background jobs here until interrupted (or, with --drain, until none is runnable).\n\n")
	if err := parseNone(fs, args, "jobs work"); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(m.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo, ReplaceAttr: humanDurations}))
	c.log = log
	e, closeFn, err := m.openEngine(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	w, err := m.newWorkers(e, &c, log)
	if err != nil {
		return err
	}
	if err := m.reportSkipped(ctx, e.Store(), w.Claim()); err != nil {
		return err
	}
	if drain {
		n := 0
		for {
			ok, err := w.RunOne(ctx)
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			n++
		}
		st := w.Stats()
		fmt.Fprintf(m.Stdout, "processed %d jobs: %d done, %d to retry, %d dead\n", n, st.Done, st.Retried, st.Dead)
		return nil
	}
	if err := w.Start(ctx); err != nil {
		return err
	}
	<-ctx.Done()
	w.Stop()
	st := w.Stats()
	fmt.Fprintf(m.Stdout, "stopped: %d done, %d to retry, %d dead, %d given back\n", st.Done, st.Retried, st.Dead, st.Released)
	return nil
}

func (m *Main) jobsUsage(ctx context.Context, args []string) error {
	var c common
	fs := m.flags("jobs usage", &c, true)
	m.llmFlags(fs, &c)
	setUsage(fs, "Usage: factbase jobs usage [flags]\n\nJobs by state and model tokens and cost, for one user (--user) or every user, and\ntoday's tokens against the daily budgets (--llm-daily-tokens, --llm-user-daily-tokens).\n\n")
	if err := parse(fs, args); err != nil {
		return err
	}
	user, err := c.optionalUser()
	if err != nil {
		return err
	}
	js, closeFn, err := m.jobStore(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	u, err := js.JobUsage(ctx, user)
	if err != nil {
		return err
	}
	b, err := jobs.BudgetOf(ctx, js, user, time.Now(), c.llm.dailyTokens, c.llm.userDailyTokens)
	if err != nil {
		return err
	}
	out := struct {
		factbase.JobUsage
		Budget jobs.Budget `json:"budget"`
	}{u, b}
	return m.print(&c, out, func() error {
		fmt.Fprintf(m.Stdout, "jobs: %d queued, %d running, %d done, %d dead\n", u.Jobs[factbase.JobQueued], u.Jobs[factbase.JobRunning],
			u.Jobs[factbase.JobDone], u.Jobs[factbase.JobDead])
		fmt.Fprintf(m.Stdout, "model tokens: %d prompt + %d completion, $%.6f\n", u.PromptTokens, u.CompletionTokens, u.Cost)
		fmt.Fprintf(m.Stdout, "today (%s UTC): %d tokens%s", b.Day, b.Tokens, budgetOf(b.DailyTokens))
		if user != "" {
			fmt.Fprintf(m.Stdout, "; this user %d%s", b.UserTokens, budgetOf(b.UserDailyTokens))
		}
		fmt.Fprintln(m.Stdout)
		return nil
	})
}

// reportSkipped says on stderr which queued jobs a worker claiming with c leaves to
// others: those queued for another model, counted by model (among the oldest
// factbase.MaxJobsLimit queued jobs).
func (m *Main) reportSkipped(ctx context.Context, js factbase.JobStore, c factbase.JobClaim) error {
	queued, err := js.Jobs(ctx, factbase.JobFilter{State: factbase.JobQueued, Limit: factbase.MaxJobsLimit})
	if err != nil {
		return err
	}
	other := map[string]int{}
	for _, j := range queued {
		if !c.Serves(j) {
			other[fmt.Sprintf("%q at %s", j.Model, j.Endpoint)]++
		}
	}
	for _, k := range slices.Sorted(maps.Keys(other)) {
		mine := "no model"
		if c.Model != "" {
			mine = fmt.Sprintf("%q at %s", c.Model, c.Endpoint)
		}
		fmt.Fprintf(m.Stderr, "factbase: skipping %d queued jobs for the model %s (this worker has %s; run it with that model, or retry them with --retarget)\n",
			other[k], k, mine)
	}
	return nil
}

// budgetOf prints a daily budget: " of N", or " (no budget)".
func budgetOf(n int) string {
	if n == 0 {
		return " (no budget)"
	}
	return fmt.Sprintf(" of %d", n)
}

// printJob prints a job for people.
func (m *Main) printJob(j factbase.Job) error {
	fmt.Fprintf(m.Stdout, "job %s: %s (attempt %d of %d)\n", j.ID, j.State, j.Attempts, j.MaxAttempts)
	fmt.Fprintf(m.Stdout, "  user %s, created %s\n", j.User, j.CreatedAt.Format(time.RFC3339))
	fmt.Fprintf(m.Stdout, "  message: %s\n", oneLine(j.Input, 200, "…"))
	if j.Error != "" {
		fmt.Fprintf(m.Stdout, "  last error (%s): %s\n", j.ErrorCode, j.Error)
	}
	if j.PromptTokens+j.CompletionTokens > 0 {
		fmt.Fprintf(m.Stdout, "  model tokens: %d prompt + %d completion", j.PromptTokens, j.CompletionTokens)
		if j.Cost > 0 {
			fmt.Fprintf(m.Stdout, ", $%.6f", j.Cost)
		}
		fmt.Fprintln(m.Stdout)
	}
	if len(j.Result) == 0 {
		return nil
	}
	var r jobs.RememberResult
	if json.Unmarshal(j.Result, &r) != nil {
		return nil
	}
	fmt.Fprintf(m.Stdout, "  stored %d, updated %d, duplicates %d\n", r.Stored, r.Updated, len(r.Duplicates))
	for _, op := range r.RuleOps {
		fmt.Fprintf(m.Stdout, "  rules: %s %s = %s\n", op.Kind, op.Key, op.Value)
	}
	if r.Model != "" {
		fmt.Fprintf(m.Stdout, "  model %s (prompt %s)\n", r.Model, r.Prompt)
	}
	if r.ModelNote != "" {
		fmt.Fprintf(m.Stdout, "  model: %s\n", r.ModelNote)
	}
	for _, d := range r.Decisions {
		line := fmt.Sprintf("  model: %s %s = %s", d.Action, d.Key, d.Value)
		if d.Reason != "" {
			line += " (" + d.Reason + ")"
		}
		fmt.Fprintln(m.Stdout, line)
	}
	return nil
}
