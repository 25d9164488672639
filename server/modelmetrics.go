package server

import (
	"context"
	"log/slog"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/llm"
	"github.com/factbase/factbase/memory/jobs"
	"github.com/prometheus/client_golang/prometheus"
)

// modelCollector exports the model client's and the job pool's counters to
// Prometheus, read at each scrape.
type modelCollector struct {
	client  *llm.Client // nil: no model
	workers *jobs.Workers

	calls, requests, retries, fallbacks, think, errors, tokens, cost, inFlight *prometheus.Desc
	jobs, jobsInFlight, jobTokens, jobCost                                     *prometheus.Desc
	tokensToday, budget                                                        *prometheus.Desc
}

// NewModelCollector returns the collector of the model client c (nil: no model) and
// the pool w, for Metrics.Registry: "factbase serve" registers it.
func NewModelCollector(c *llm.Client, w *jobs.Workers) prometheus.Collector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(name, help, labels, nil)
	}
	return &modelCollector{client: c, workers: w,
		calls:        d("factbase_llm_calls_total", "Model calls (one per extraction, teacher or planner question), retries not counted."),
		requests:     d("factbase_llm_requests_total", "HTTP requests sent to the model server, retries included."),
		retries:      d("factbase_llm_retries_total", "Requests retried after a 429, a 5xx or a failed connection."),
		fallbacks:    d("factbase_llm_json_mode_fallbacks_total", "Switches from a JSON schema to JSON mode because the server refused the schema."),
		think:        d("factbase_llm_think_stripped_total", "Answers whose leading <think> block was stripped (--llm-allow-think)."),
		errors:       d("factbase_llm_errors_total", "Failed model calls by kind (timeout, connection, server_error, rate_limited, not_json, schema, think, truncated, ...).", "kind", "code"),
		tokens:       d("factbase_llm_tokens_total", "Tokens the model server reported, by type (prompt, completion).", "type"),
		cost:         d("factbase_llm_cost_usd_total", "Cost of the model calls at the configured prices, in US dollars."),
		inFlight:     d("factbase_llm_requests_in_flight", "Requests to the model server in flight."),
		jobs:         d("factbase_jobs_total", "Background jobs of this process by outcome (enqueued, done, retried, dead, lost, released, deferred: put off by a spent token budget).", "outcome"),
		jobsInFlight: d("factbase_jobs_in_flight", "Background jobs being processed by this process."),
		jobTokens:    d("factbase_jobs_tokens_total", "Model tokens used by this process's background jobs, failed attempts included, by type.", "type"),
		jobCost:      d("factbase_jobs_cost_usd_total", "Model cost of this process's background jobs, in US dollars."),
		tokensToday:  d("factbase_llm_tokens_today", "Model tokens of every user's jobs today (UTC), read from the store, against the daily budget."),
		budget:       d("factbase_llm_daily_budget_tokens", "The daily token budgets for model extraction, by scope (all: every user; user: each user); 0: none.", "scope"),
	}
}

// Describe implements prometheus.Collector.
func (m *modelCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{m.calls, m.requests, m.retries, m.fallbacks, m.think, m.errors, m.tokens, m.cost,
		m.inFlight, m.jobs, m.jobsInFlight, m.jobTokens, m.jobCost, m.tokensToday, m.budget} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (m *modelCollector) Collect(ch chan<- prometheus.Metric) {
	counter := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, labels...)
	}
	if c := m.client; c != nil {
		s := c.Stats()
		counter(m.calls, float64(s.Calls))
		counter(m.requests, float64(s.Requests))
		counter(m.retries, float64(s.Retries))
		counter(m.fallbacks, float64(s.Fallbacks))
		counter(m.think, float64(s.Think))
		for _, k := range factbase.ModelErrorKinds {
			counter(m.errors, float64(s.Errors[k]), string(k), k.Code())
		}
		counter(m.tokens, float64(s.Usage.PromptTokens), "prompt")
		counter(m.tokens, float64(s.Usage.CompletionTokens), "completion")
		counter(m.cost, s.Usage.Cost)
		ch <- prometheus.MustNewConstMetric(m.inFlight, prometheus.GaugeValue, float64(s.InFlight))
	}
	if w := m.workers; w != nil {
		s := w.Stats()
		for _, o := range []struct {
			name string
			v    int64
		}{{"enqueued", s.Enqueued}, {"done", s.Done}, {"retried", s.Retried}, {"dead", s.Dead}, {"lost", s.Lost}, {"released", s.Released}, {"deferred", s.Deferred}} {
			counter(m.jobs, float64(o.v), o.name)
		}
		ch <- prometheus.MustNewConstMetric(m.jobsInFlight, prometheus.GaugeValue, float64(s.InFlight))
		counter(m.jobTokens, float64(s.Usage.PromptTokens), "prompt")
		counter(m.jobTokens, float64(s.Usage.CompletionTokens), "completion")
		counter(m.jobCost, s.Usage.Cost)
		if m.client != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			if b, err := w.Budget(ctx, ""); err == nil { // a store that cannot answer: left out of this scrape
				ch <- prometheus.MustNewConstMetric(m.tokensToday, prometheus.GaugeValue, float64(b.Tokens))
				ch <- prometheus.MustNewConstMetric(m.budget, prometheus.GaugeValue, float64(b.DailyTokens), "all")
				ch <- prometheus.MustNewConstMetric(m.budget, prometheus.GaugeValue, float64(b.UserDailyTokens), "user")
			}
		}
	}
}

// jobStateCollector exports the store's jobs by state: the queue as every process on
// the store sees it (the counters above are this process's own). It is read at each
// scrape, with one grouped query (JobStore.JobUsage of every user). When the store
// cannot answer, the gauge is left out of that scrape (and a warning logged) rather
// than failing the scrape: /readyz reports the store.
type jobStateCollector struct {
	store factbase.JobStore
	log   *slog.Logger
	jobs  *prometheus.Desc
}

// NewJobStateCollector returns the collector of the factbase_jobs gauge over s,
// warning on log when s cannot answer a scrape.
func NewJobStateCollector(s factbase.JobStore, log *slog.Logger) prometheus.Collector {
	return &jobStateCollector{store: s, log: log, jobs: prometheus.NewDesc("factbase_jobs",
		"Background jobs in the store by state (queued, running, done, dead), of every user and every process on the store, read at each scrape.",
		[]string{"state"}, nil)}
}

// jobStates are the states the gauge reports, each present even at 0.
var jobStates = []factbase.JobState{factbase.JobQueued, factbase.JobRunning, factbase.JobDone, factbase.JobDead}

// Describe implements prometheus.Collector.
func (j *jobStateCollector) Describe(ch chan<- *prometheus.Desc) { ch <- j.jobs }

// Collect implements prometheus.Collector.
func (j *jobStateCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	u, err := j.store.JobUsage(ctx, "")
	if err != nil {
		j.log.Warn("metrics: cannot read the jobs by state", "err", err)
		return
	}
	for _, s := range jobStates {
		ch <- prometheus.MustNewConstMetric(j.jobs, prometheus.GaugeValue, float64(u.Jobs[s]), string(s))
	}
}
