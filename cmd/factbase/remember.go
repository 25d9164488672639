package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/jobs"
)

// remembered is what "factbase remember" prints as JSON: what the rules stored at
// once, the model's job, and with --wait that job as it ended.
type remembered struct {
	jobs.Remembered
}

// runRemember implements "factbase remember": the rules' facts stored at once, and
// the message queued for the model when one is configured.
func (m *Main) runRemember(ctx context.Context, args []string) error {
	var (
		c       common
		wait    bool
		timeout time.Duration
	)
	fs := m.flags("remember", &c, true)
	m.llmFlags(fs, &c)
	fs.BoolVar(&wait, "wait", false, "run this message's model job here and wait until it is done or dead")
	fs.DurationVar(&timeout, "timeout", 5*time.Minute, "with --wait, how long to wait")
	setUsage(fs, `Usage: factbase remember [flags] "MESSAGE"

Store what the rules find in a user's message at once (as "factbase say" does) and, with
--llm-url and --llm-model (or $FACTBASE_LLM_URL and $FACTBASE_LLM_MODEL), queue the
message for the model as a background job; the facts it proposes are checked before
anything is written. A model that is down loses nothing the rules stored. The job is
processed by "factbase serve" or "factbase jobs work" with the same model, or here
with --wait (this job only).

`)
	message, user, e, closeFn, err := m.openText(ctx, fs, &c, args, "remember needs the message as its argument")
	if err != nil {
		return err
	}
	defer closeFn()
	w, err := m.newWorkers(e, &c, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	rem, err := w.Remember(ctx, user, message)
	if err != nil {
		return err
	}
	if wait && rem.Job != nil {
		wctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		j, err := w.RunJob(wctx, rem.Job.ID)
		rem.Job = &j
		if err != nil && factbase.ErrorCode(err) == factbase.ECONFLICT {
			return err
		}
		if err != nil {
			why := ""
			if j.Error != "" {
				why = " (last: " + j.Error + ")"
			}
			return factbase.Errorf(factbase.ETIMEOUT, "the rules' facts are stored; the model's job %s is still %s after %v%s: see factbase jobs show %s",
				j.ID, j.State, timeout, why, j.ID)
		}
	}
	if err := m.print(&c, remembered{rem}, func() error { return m.printRemembered(rem) }); err != nil {
		return err
	}
	if wait && rem.Job != nil && rem.Job.State == factbase.JobDead {
		return factbase.Errorf(factbase.EUNAVAILABLE, "the model's job %s is dead: %s (the rules' facts are kept)", rem.Job.ID, rem.Job.Error)
	}
	return nil
}

// printRemembered prints what remember did for people.
func (m *Main) printRemembered(rem jobs.Remembered) error {
	fmt.Fprintln(m.Stdout, rem.Reply)
	if n := rem.Result.Stored + rem.Result.Updated; n > 0 || len(rem.Ops) > 0 {
		fmt.Fprintf(m.Stdout, "rules: %d stored, %d updated, %d duplicates\n", rem.Result.Stored, rem.Result.Updated, len(rem.Result.Duplicates))
	}
	if rem.ModelNote != "" {
		fmt.Fprintln(m.Stdout, "model: "+rem.ModelNote)
	}
	j := rem.Job
	switch {
	case j == nil:
	case j.State == factbase.JobQueued || j.State == factbase.JobRunning:
		fmt.Fprintf(m.Stdout, "model: job %s %s (factbase jobs show %s)\n", j.ID, j.State, j.ID)
	default:
		return m.printJob(*j)
	}
	return nil
}
