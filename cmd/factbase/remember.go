package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/factbase/factbase"
)

// runRemember implements "factbase remember": a message enqueued for background
// extraction (the rules, and the model when one is configured).
func (m *Main) runRemember(ctx context.Context, args []string) error {
	var (
		c       common
		wait    bool
		timeout time.Duration
	)
	fs := m.flags("remember", &c, true)
	m.llmFlags(fs, &c)
	fs.BoolVar(&wait, "wait", false, "process the job here and wait until it is done or dead")
	fs.DurationVar(&timeout, "timeout", 5*time.Minute, "with --wait, how long to wait")
	setUsage(fs, `Usage: factbase remember [flags] "MESSAGE"

Enqueue a user's message for background extraction and print the job id at once. The
rules always run; with --llm-url and --llm-model (or $FACTBASE_LLM_URL and
$FACTBASE_LLM_MODEL) a model proposes facts too, which are checked before anything is
written. Jobs are processed by "factbase serve", "factbase jobs work" or --wait.

`)
	message, user, e, closeFn, err := m.openText(ctx, fs, &c, args, "remember needs the message as its argument")
	if err != nil {
		return err
	}
	defer closeFn()
	log := slog.New(slog.DiscardHandler)
	w, err := m.newWorkers(e, &c, log)
	if err != nil {
		return err
	}
	j, err := w.Remember(ctx, user, message)
	if err != nil {
		return err
	}
	if !wait {
		return m.printLine(&c, j, "queued job "+j.ID)
	}
	if err := w.Start(ctx); err != nil {
		return err
	}
	defer w.Stop()
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	j, err = w.Wait(wctx, j.ID)
	if err != nil {
		return factbase.Errorf(factbase.ETIMEOUT, "job %s is still %s after %v; it stays queued (see factbase jobs show %s)", j.ID, j.State, timeout, j.ID)
	}
	if err := m.print(&c, j, func() error { return m.printJob(j) }); err != nil {
		return err
	}
	if j.State == factbase.JobDead {
		return factbase.Errorf(factbase.EUNAVAILABLE, "job %s is dead: %s", j.ID, j.Error)
	}
	return nil
}
