package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/llm"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/jobs"
	"github.com/factbase/factbase/memory/people"
	"github.com/prometheus/client_golang/prometheus"
)

// llmConfig is the model configuration of the commands that can use one: flags, with
// defaults from the environment. No URL, no model, no network call.
type llmConfig struct {
	url, model, key string
	format          string
	timeout         time.Duration
	concurrency     int
	rate            float64
	allowThink      bool
	promptPrice     float64
	completionPrice float64
	replace         bool
	workers         int
	c               *llm.Client // made by modelEngineOptions
}

// llmFlags registers the model flags on fs and keeps them in c.llm.
func (m *Main) llmFlags(fs *flag.FlagSet, c *common) {
	lc := &llmConfig{}
	c.llm = lc
	envFloat := func(k string) float64 {
		f, _ := strconv.ParseFloat(m.Getenv(k), 64)
		return f
	}
	fs.StringVar(&lc.url, "llm-url", m.Getenv("FACTBASE_LLM_URL"), "OpenAI-compatible API root for background extraction, e.g. http://localhost:11434 (Ollama) or https://api.openai.com/v1 (default $FACTBASE_LLM_URL; empty: rules only)")
	fs.StringVar(&lc.model, "llm-model", m.Getenv("FACTBASE_LLM_MODEL"), "model name, e.g. qwen2.5:7b or gpt-4o-mini (default $FACTBASE_LLM_MODEL)")
	fs.StringVar(&lc.key, "llm-key", m.Getenv("FACTBASE_LLM_KEY"), "API key sent as a bearer token (default $FACTBASE_LLM_KEY)")
	fs.StringVar(&lc.format, "llm-format", "auto", "how JSON is requested: auto (a JSON schema, else JSON mode), json_schema or json_object")
	fs.DurationVar(&lc.timeout, "llm-timeout", 60*time.Second, "time allowed for one model request")
	fs.IntVar(&lc.concurrency, "llm-concurrency", 4, "most model requests in flight at once")
	fs.Float64Var(&lc.rate, "llm-rate", 0, "most model requests started per second (0: no limit)")
	fs.BoolVar(&lc.allowThink, "llm-allow-think", m.Getenv("FACTBASE_LLM_ALLOW_THINK") == "1", "strip one leading <think> block of a reasoning model (default: such output is invalid; $FACTBASE_LLM_ALLOW_THINK=1)")
	fs.Float64Var(&lc.promptPrice, "llm-prompt-price", envFloat("FACTBASE_LLM_PROMPT_PRICE"), "US dollars per million prompt tokens, for cost accounting ($FACTBASE_LLM_PROMPT_PRICE)")
	fs.Float64Var(&lc.completionPrice, "llm-completion-price", envFloat("FACTBASE_LLM_COMPLETION_PRICE"), "US dollars per million completion tokens ($FACTBASE_LLM_COMPLETION_PRICE)")
	fs.BoolVar(&lc.replace, "llm-replace", false, "let the model change a one-valued fact's value (default: such a change is reported as a conflict, not applied)")
	fs.IntVar(&lc.workers, "workers", 4, "background jobs processed at once")
}

// client returns the configured model client, or nil when no URL is set.
func (lc *llmConfig) client() (*llm.Client, error) {
	if lc == nil || lc.url == "" {
		return nil, nil
	}
	if lc.model == "" {
		return nil, usagef("--llm-url needs --llm-model (or $FACTBASE_LLM_MODEL)")
	}
	return llm.New(llm.Options{BaseURL: lc.url, Model: lc.model, APIKey: lc.key, Format: lc.format, Timeout: lc.timeout,
		MaxConcurrent: lc.concurrency, Rate: lc.rate, AllowThink: lc.allowThink,
		PromptPrice: lc.promptPrice, CompletionPrice: lc.completionPrice})
}

// modelEngineOptions completes the engine options every command uses: the keys the
// model and the personal-fact extractor write several values under are sets (so
// reads by key agree with the writes of background extraction), and with a model
// configured, canon's teacher hook asks it about topics the other steps are unsure
// of and Ask's planner about questions no rule understood.
func (m *Main) modelEngineOptions(c *common, o *memory.Options) error {
	if o.Cardinalities.Exact == nil && o.Cardinalities.Prefix == nil {
		o.Cardinalities = factbase.DefaultCardinalities()
	}
	jobs.DeclareModelSets(&o.Cardinalities)
	people.DeclarePeopleKeys(&o.Cardinalities)
	client, err := c.llm.client()
	if err != nil || client == nil {
		return err
	}
	c.llm.c = client
	o.TopicTeacher = client
	o.Planner = client
	return nil
}

// startWorkers starts the background job pool over e, with the model configured by
// c.llm if any. It returns the pool and its stop function; a store that keeps no
// jobs gets no pool (nil) and a warning.
func (m *Main) startWorkers(ctx context.Context, e *memory.Engine, c *common, log *slog.Logger) (*jobs.Workers, func(), error) {
	w, err := m.newWorkers(e, c, log)
	if factbase.ErrorCode(err) == factbase.EUNAVAILABLE {
		log.Warn("background jobs are off: this store does not keep them", "db", c.db)
		return nil, func() {}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if err := w.Start(ctx); err != nil {
		return nil, nil, err
	}
	// serve's metrics (the engine's observer) export the model's and the pool's counters.
	if r, ok := c.observer.(interface{ Registry() *prometheus.Registry }); ok {
		var client *llm.Client
		if c.llm != nil {
			client = c.llm.c
		}
		if err := r.Registry().Register(newModelCollector(client, w)); err != nil {
			w.Stop()
			return nil, nil, fmt.Errorf("register the model metrics: %w", err)
		}
	}
	return w, w.Stop, nil
}

func (m *Main) newWorkers(e *memory.Engine, c *common, log *slog.Logger) (*jobs.Workers, error) {
	o := jobs.WorkerOptions{Logger: log}
	if lc := c.llm; lc != nil {
		o.ReplaceOnChange, o.Workers = lc.replace, lc.workers
		if lc.workers < 1 {
			return nil, usagef("--workers must be at least 1, got %d", lc.workers)
		}
		if lc.c != nil {
			o.Extractor = lc.c
		}
	}
	return jobs.NewWorkers(e.Jobs, o)
}

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
	if err := m.print(&c, j, func() error { m.printJob(j); return nil }); err != nil {
		return err
	}
	if j.State == factbase.JobDead {
		return factbase.Errorf(factbase.EUNAVAILABLE, "job %s is dead: %s", j.ID, j.Error)
	}
	return nil
}

// printJob prints a job for people.
func (m *Main) printJob(j factbase.Job) {
	fmt.Fprintf(m.Stdout, "job %s: %s (attempt %d of %d)\n", j.ID, j.State, j.Attempts, j.MaxAttempts)
	fmt.Fprintf(m.Stdout, "  user %s, created %s\n", j.User, j.CreatedAt.Format(time.RFC3339))
	fmt.Fprintf(m.Stdout, "  message: %s\n", clipLine(j.Input, 200))
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
		return
	}
	var r jobs.RememberResult
	if json.Unmarshal(j.Result, &r) != nil {
		return
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
}

func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
