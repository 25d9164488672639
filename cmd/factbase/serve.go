package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/redact"
	"github.com/factbase/factbase/llm"
	"github.com/factbase/factbase/mcp"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/postgres"
	"github.com/factbase/factbase/server"
	"github.com/factbase/factbase/web"
)

// runServe implements "factbase serve": the HTTP API on the embedded store.
func (m *Main) runServe(ctx context.Context, args []string) error {
	var (
		c              common
		addr, logLevel string
		o              server.Options // the flags fill its limits; the rest comes once the engine is open
	)
	fs := m.flags("serve", &c, false)
	m.llmFlags(fs, &c) // model.go: background extraction
	fs.StringVar(&addr, "addr", server.DefaultAddr, "listen address, host:port")
	fs.BoolVar(&o.NoAuth, "no-auth", false, "serve /v1 without API keys (only on a loopback address)")
	fs.Int64Var(&o.MaxBodyBytes, "max-body", server.DefaultMaxBodyBytes, "request body limit in bytes")
	fs.DurationVar(&o.ReadTimeout, "read-timeout", 30*time.Second, "time to read a whole request")
	fs.DurationVar(&o.WriteTimeout, "write-timeout", 30*time.Second, "time to do a request's work and write its reply; a write still waiting for the store near the end is rolled back and answered 503")
	fs.DurationVar(&o.IdleTimeout, "idle-timeout", 120*time.Second, "keep-alive connections idle longer are closed")
	fs.DurationVar(&o.ShutdownTimeout, "shutdown-timeout", 10*time.Second, "on SIGINT/SIGTERM, time allowed for in-flight requests")
	fs.DurationVar(&o.EraseTimeout, "erase-timeout", 30*time.Minute, "time allowed to erase a user (DELETE /v1/users/{user}) and write its reply")
	fs.Float64Var(&o.RateLimit, "rate-limit", 0, fmt.Sprintf("requests a second each API key may send; over it 429 with Retry-After (0: %d with keys, none with --no-auth; negative: no limit)", server.DefaultRateLimit))
	fs.IntVar(&o.RateBurst, "rate-burst", 0, fmt.Sprintf("requests a key may send at once above its rate (0: %d, or twice --rate-limit)", server.DefaultRateBurst))
	fs.DurationVar(&o.KeyCacheTTL, "key-cache", 2*time.Second, "how long a checked API key is trusted before it is read again (a revoked key stops working within this time; 0: read it every time)")
	fs.StringVar(&logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.DurationVar(&c.backgroundDelay, "background-delay", 200*time.Millisecond, "write answers' references (the fact sheet's scores) and regenerate fact sheets in the background, batched this often, so requests do not wait for them; 0: in each request")
	setUsage(fs, fmt.Sprintf(`Usage: factbase serve [flags]

Serve the HTTP API (JSON under /v1, OpenAPI 3.1 at /openapi.json, /healthz, /readyz,
/metrics) on %s by default. Every /v1 request needs "Authorization: Bearer <key>";
create keys with "factbase keys create". Logs are JSON lines on stderr.

`, server.DefaultAddr))
	if err := parseNone(fs, args, "serve"); err != nil {
		return err
	}
	if o.MaxBodyBytes <= 0 {
		return usagef("--max-body must be positive, got %d", o.MaxBodyBytes)
	}
	log, err := m.jsonLogger(logLevel)
	if err != nil {
		return err
	}
	if o.NoAuth && !isLoopback(addr) {
		return usagef("--no-auth is allowed only on a loopback address (127.0.0.1, ::1 or localhost), not %q", addr)
	}
	if o.KeyCacheTTL <= 0 {
		o.KeyCacheTTL = -1 // server.Options: negative is no cache
	}

	metrics := server.NewMetrics()
	c.observer, c.log = metrics, log
	c.backgroundError = func(err error) { log.Error("background write failed", "err", err) }
	e, closeStore, err := m.openEngine(ctx, &c)
	if err != nil {
		return err
	}
	defer func() {
		closeStore()
		log.Info("store closed", "db", redact.URL(c.db))
	}()
	o.Build = m.build()
	log.Info("build", "version", o.Build.Version, "commit", o.Build.Commit, "modified", o.Build.Modified,
		"build_date", o.Build.BuildDate, "go_version", o.Build.GoVersion)
	logConfig(log, &c, e)
	workers, stopWorkers, err := m.startWorkers(ctx, e, &c, log) // model.go: background jobs
	if err != nil {
		return err
	}
	defer stopWorkers()
	o.Engine, o.Logger, o.Metrics, o.Workers = e, log, metrics, workers
	o.Model, o.Embedder = dependencies(&c, e)
	o.Vectors, _ = vectorSearch(e.Store())
	o.UI = web.Handler(web.Options{NoAuth: o.NoAuth, Version: o.Build.Version})
	if !o.NoAuth {
		o.Keys = e.Store()
	}
	if o.MCP, err = mcp.NewHandler(mcp.HandlerOptions{Engine: e, Keys: o.Keys, NoAuth: o.NoAuth, Logger: log,
		Workers: workers, Version: o.Build.Version, Metrics: metrics.Registry()}); err != nil {
		return err
	}
	srv := server.New(o)

	l, err := net.Listen("tcp", addr)
	if err != nil {
		return factbase.Errorf(factbase.EUNAVAILABLE, "cannot listen on %s: %v", addr, err)
	}
	base := "http://" + l.Addr().String()
	fmt.Fprintf(m.Stdout, "factbase: listening on %s (database %s)\n", base, redact.URL(c.db))
	fmt.Fprintf(m.Stdout, "factbase: OpenAPI document: curl %s/openapi.json\n", base)
	fmt.Fprintf(m.Stdout, "factbase: MCP (streamable HTTP, same API keys): %s%s\n", base, mcp.Path)
	if o.NoAuth {
		fmt.Fprintf(m.Stdout, "factbase: authentication is OFF (--no-auth): anyone who can reach %s can read and write\n", base)
	} else {
		fmt.Fprintf(m.Stdout, "factbase: every /v1 request needs \"Authorization: Bearer <key>\"; create one with: factbase keys create\n")
	}
	if m.Ready != nil {
		m.Ready(l.Addr().String())
	}
	return srv.Serve(ctx, l)
}

// vectorSearch says how store ranks vectors (server.Options.Vectors) and, when
// PostgreSQL's vectors are not in pgvector, why.
func vectorSearch(store factbase.Store) (string, string) {
	if w, ok := store.(interface{ Unwrap() factbase.Store }); ok {
		store = w.Unwrap() // sealed: the store under the encryption
	}
	if s, ok := store.(*postgres.Store); ok {
		return s.VectorSearch() // its names are server's
	}
	return server.VectorsSQLiteVec, ""
}

// logConfig logs what serve runs on, once at start-up: the store, the model (or
// none: rules only) and the embedder, every URL with its credentials masked. It
// sends nothing: whether the model server answers is /readyz's to tell.
func logConfig(log *slog.Logger, c *common, e *memory.Engine) {
	kind := "sqlite"
	if isPostgres(c.db) {
		kind = "postgres"
	}
	attrs := []any{"kind", kind, "db", redact.URL(c.db)}
	if k, ok := e.Store().(interface{ KeyID() string }); ok {
		attrs = append(attrs, "encryption", "sealed with data key "+k.KeyID())
	} else {
		attrs = append(attrs, "encryption", "none: texts stored in the clear")
	}
	vectors, why := vectorSearch(e.Store())
	attrs = append(attrs, "vectors", vectors)
	if why != "" {
		attrs = append(attrs, "vectors_reason", why)
	}
	log.Info("store", attrs...)

	if c.llm != nil && c.llm.c != nil {
		lc := c.llm
		log.Info("model", "api", "openai-compatible", "endpoint", lc.c.Endpoint(), "model", lc.c.Model(),
			"format", lc.format, "timeout", lc.timeout, "concurrency", lc.concurrency, "workers", lc.workers)
	} else {
		log.Info("model", "model", "none: rules only")
	}

	switch emb := e.Embedder().(type) {
	case nil:
		log.Info("embedder", "model", "none: full-text search only")
	case *llm.Embedder:
		// The dimension of a remote model is learned from its first answer: 0 until then.
		log.Info("embedder", "api", "openai-compatible", "endpoint", emb.Endpoint(), "model", emb.Model(), "dim", emb.Dim())
	default:
		log.Info("embedder", "endpoint", "builtin", "model", emb.Model(), "dim", emb.Dim())
	}
}

// dependencies returns what /readyz reports about the model and the embedder: a
// probe of each remote server, "builtin" for an embedder in process, "none" for what
// is not configured (and then nothing is ever sent).
func dependencies(c *common, e *memory.Engine) (model, embedder server.Dependency) {
	if c.llm != nil && c.llm.c != nil {
		model.Probe = c.llm.c.Probe
	}
	switch emb := e.Embedder().(type) {
	case nil:
	case interface{ Probe(context.Context) error }:
		embedder.Probe = emb.Probe
	default:
		embedder.Builtin = true
	}
	return model, embedder
}

// isLoopback reports whether the host of addr is a loopback address or "localhost".
// An empty host means every interface, which is not loopback.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
