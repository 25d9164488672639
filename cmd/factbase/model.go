package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/redact"
	"github.com/factbase/factbase/llm"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/jobs"
	"github.com/factbase/factbase/memory/people"
	"github.com/factbase/factbase/server"
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
	dailyTokens     int // budgets per UTC day, 0: none
	userDailyTokens int
	userJobs        int
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
	fs.IntVar(&lc.userJobs, "user-jobs", 2, "model jobs of one user processed at once (negative: no limit)")
	envInt := func(k string) int {
		n, _ := strconv.Atoi(m.Getenv(k))
		return n
	}
	fs.IntVar(&lc.dailyTokens, "llm-daily-tokens", envInt("FACTBASE_LLM_DAILY_TOKENS"), "model tokens allowed per UTC day over every user; past it the rules still store each message and its model job waits for the next day (0: no budget; $FACTBASE_LLM_DAILY_TOKENS)")
	fs.IntVar(&lc.userDailyTokens, "llm-user-daily-tokens", envInt("FACTBASE_LLM_USER_DAILY_TOKENS"), "model tokens allowed per UTC day for one user (0: no budget; $FACTBASE_LLM_USER_DAILY_TOKENS)")
}

// client returns the configured model client, logging to log (nil: discard), or nil
// when no URL is set.
func (lc *llmConfig) client(log *slog.Logger) (*llm.Client, error) {
	if lc == nil || lc.url == "" {
		return nil, nil
	}
	if lc.model == "" {
		return nil, usagef("--llm-url needs --llm-model (or $FACTBASE_LLM_MODEL)")
	}
	return llm.New(llm.Options{BaseURL: lc.url, Model: lc.model, APIKey: lc.key, Format: lc.format, Timeout: lc.timeout,
		MaxConcurrent: lc.concurrency, Rate: lc.rate, AllowThink: lc.allowThink,
		PromptPrice: lc.promptPrice, CompletionPrice: lc.completionPrice, Logger: log})
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
	client, err := c.llm.client(c.log)
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
		log.Warn("background jobs are off: this store does not keep them", "db", redact.URL(c.db))
		return nil, func() {}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if err := w.Start(ctx); err != nil {
		return nil, nil, err
	}
	// serve's metrics (the engine's observer) export the model's and the pool's
	// counters, and the store's jobs by state.
	if r, ok := c.observer.(interface{ Registry() *prometheus.Registry }); ok {
		var client *llm.Client
		if c.llm != nil {
			client = c.llm.c
		}
		skipped := prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "factbase_embed_skipped_total",
			Help: "Texts stored without vectors because the embedder was unreachable (factbase reembed gives them vectors)."},
			func() float64 { return float64(e.EmbedSkipped()) })
		for _, col := range []prometheus.Collector{server.NewModelCollector(client, w), server.NewJobStateCollector(e.Store(), log), skipped} {
			if err := r.Registry().Register(col); err != nil {
				w.Stop()
				return nil, nil, fmt.Errorf("register the model metrics: %w", err)
			}
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
		if lc.dailyTokens < 0 || lc.userDailyTokens < 0 {
			return nil, usagef("--llm-daily-tokens and --llm-user-daily-tokens must not be negative")
		}
		o.DailyTokens, o.UserDailyTokens, o.UserJobs = lc.dailyTokens, lc.userDailyTokens, lc.userJobs
		if lc.userJobs == 0 {
			return nil, usagef("--user-jobs must not be 0 (negative: no limit)")
		}
		if lc.c != nil {
			o.Extractor, o.Endpoint = lc.c, lc.c.Endpoint()
		}
	}
	return jobs.NewWorkers(e.Jobs, o)
}
