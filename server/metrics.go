package server

import (
	"net/http"
	"strconv"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/version"
	"github.com/factbase/factbase/memory/core"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds the server's Prometheus metrics in a registry of its own (never the
// global one). It implements core.Observer, so the engine's write path reports into
// it: pass it as memory.Options.Observer and as Options.Metrics. Safe for concurrent
// use.
type Metrics struct {
	reg *prometheus.Registry

	requests   *prometheus.HistogramVec
	inFlight   prometheus.Gauge
	apply      *prometheus.HistogramVec
	written    *prometheus.CounterVec
	mutations  *prometheus.CounterVec
	duplicates prometheus.Counter
	invariants prometheus.Counter
	canonical  *prometheus.CounterVec
	canonConf  *prometheus.HistogramVec
	build      *prometheus.GaugeVec
}

var _ core.Observer = (*Metrics)(nil)

// latencyBuckets resolve the sub-millisecond to second range of API requests.
var latencyBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}

// NewMetrics returns a fresh set of metrics, with the Go runtime and process
// collectors registered beside Factbase's own.
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: histogramVec("factbase_http_request_duration_seconds",
			"Time to serve an HTTP request, by route pattern, method and status.",
			latencyBuckets, "route", "method", "status"),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{Name: "factbase_http_requests_in_flight",
			Help: "HTTP requests being served."}),
		apply: histogramVec("factbase_write_duration_seconds",
			"Time of one write-path transaction (memory.Engine.Apply), by outcome: ok or the error code.",
			latencyBuckets, "outcome"),
		written: counterVec("factbase_facts_written_total",
			"Fact rows changed by committed writes: stored, updated (superseded), retracted, deleted.", "kind"),
		mutations: counterVec("factbase_rank_mutations_total",
			"Ranked-list mutations by committed writes, by action (MOVE, INSERT, NOOP, APPEND, REMOVE).", "action"),
		duplicates: prometheus.NewCounter(prometheus.CounterOpts{Name: "factbase_duplicates_blocked_total",
			Help: "Writes not stored because the value was already present."}),
		invariants: prometheus.NewCounter(prometheus.CounterOpts{Name: "factbase_invariant_violations_total",
			Help: "Write transactions refused because an invariant would have been violated."}),
		canonical: counterVec("factbase_canonicalizations_total",
			"Topic canonicalisation decisions, by method (alias, exact, embedding, teacher, fallback).", "method"),
		canonConf: histogramVec("factbase_canonicalization_confidence",
			"Confidence of topic canonicalisation decisions, by method.",
			[]float64{.1, .2, .3, .4, .5, .6, .7, .8, .9, .95, 1}, "method"),
		build: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "factbase_build_info",
			Help: "Always 1; the labels say which build serves: its version, git commit and Go version."},
			[]string{"version", "commit", "go_version"}),
	}
	m.reg.MustRegister(m.requests, m.inFlight, m.apply, m.written, m.mutations, m.duplicates, m.invariants,
		m.canonical, m.canonConf, m.build,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, a := range []factbase.Action{factbase.Move, factbase.Insert, factbase.NoOp, factbase.Append, factbase.Remove} {
		m.mutations.WithLabelValues(string(a))
	}
	for _, k := range []string{"stored", "updated", "retracted", "deleted"} {
		m.written.WithLabelValues(k)
	}
	return m
}

func histogramVec(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	return prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets}, labels)
}

func counterVec(name, help, label string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, []string{label})
}

// Handler serves the metrics in the Prometheus exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Registry returns the registry the metrics are in, for tests and for callers that add
// collectors of their own.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// ObserveApply implements core.Observer: one write-path transaction.
func (m *Metrics) ObserveApply(d time.Duration, res factbase.Result, err error) {
	outcome := "ok"
	if err != nil {
		outcome = factbase.ErrorCode(err)
	}
	m.apply.WithLabelValues(outcome).Observe(d.Seconds())
	if err != nil {
		return
	}
	m.written.WithLabelValues("stored").Add(float64(res.Stored))
	m.written.WithLabelValues("updated").Add(float64(res.Updated))
	m.written.WithLabelValues("retracted").Add(float64(res.Retracted))
	m.written.WithLabelValues("deleted").Add(float64(res.Deleted))
	m.duplicates.Add(float64(len(res.Duplicates)))
	for _, mu := range res.Mutations {
		m.mutations.WithLabelValues(string(mu.Action)).Inc()
	}
}

// InvariantViolation implements core.Observer.
func (m *Metrics) InvariantViolation() { m.invariants.Inc() }

// Canonicalized implements core.Observer: one topic canonicalisation decision.
func (m *Metrics) Canonicalized(method string, confidence float64) {
	m.canonical.WithLabelValues(method).Inc()
	m.canonConf.WithLabelValues(method).Observe(confidence)
}

// setBuild makes b the one series of factbase_build_info (New calls it).
func (m *Metrics) setBuild(b version.Info) {
	m.build.Reset()
	m.build.WithLabelValues(b.Version, b.Commit, b.GoVersion).Set(1)
}

// observeRequest records one served request.
func (m *Metrics) observeRequest(route, method string, status int, d time.Duration) {
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Observe(d.Seconds())
}
