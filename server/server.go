// Package server is Factbase's HTTP API: a JSON API under /v1 described by an OpenAPI
// 3.1 document at /openapi.json (generated from the Go types by huma on net/http's
// ServeMux), API-key authentication, problem+json errors, request ids, structured
// logs, Prometheus metrics, health checks and graceful shutdown.
//
// Handlers call the engine (memory.Engine) and the key store; they never call each
// other or the command line.
package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/version"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/jobs"
)

// DefaultAddr is where "factbase serve" listens unless told otherwise.
const DefaultAddr = "127.0.0.1:7411"

// DefaultMaxBodyBytes is the default request body limit: 1 MiB.
const DefaultMaxBodyBytes = 1 << 20

// Options configure a Server. Engine is required; so is Keys unless NoAuth is set.
type Options struct {
	// Engine serves every /v1 request.
	Engine *memory.Engine
	// Workers is the background pool whose Remember serves POST
	// /v1/users/{user}/memories (the rules at once, the model's job when the pool has
	// a model) and whose model a retried job may be retargeted to. Default: a pool
	// without a model, never started (the rules only).
	Workers *jobs.Workers
	// Keys authenticates requests: every /v1 request needs "Authorization: Bearer
	// <key>". Required unless NoAuth.
	Keys factbase.KeyStore
	// NoAuth serves /v1 without keys. The caller must allow it only on a loopback
	// address; the server logs that it is open.
	NoAuth bool
	// Logger receives one JSON-able line per request and the server's own events.
	// Default: discard.
	Logger *slog.Logger
	// Metrics are the Prometheus metrics served at /metrics. Pass the same Metrics as
	// the engine's Observer to see the write path. Default: NewMetrics().
	Metrics *Metrics
	// MaxBodyBytes limits a request body. Default DefaultMaxBodyBytes (1 MiB).
	MaxBodyBytes int64
	// ReadHeaderTimeout, ReadTimeout, WriteTimeout and IdleTimeout bound a
	// connection (see net/http.Server). Defaults: 5s, 30s, 30s, 120s.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// ShutdownTimeout bounds how long Serve waits for in-flight requests once its
	// context is cancelled. Default 10s.
	ShutdownTimeout time.Duration
	// EraseTimeout replaces WriteTimeout for the erasure of a user (DELETE
	// /v1/users/{user}), which may take minutes for a large user. Default 30m: a
	// 400,000-fact user took 10 minutes beside 16 busy writers of other users, the
	// erasure leaving them the writer half the time (TestEraseUnderLoad).
	EraseTimeout time.Duration
	// KeyCacheTTL is how long a looked-up key is trusted before it is read again, so
	// a revoked key stops working within this time. Default 2s; negative: no cache.
	KeyCacheTTL time.Duration
	// UI, when set, serves the web page at "/" and its assets under "/ui/" (package
	// web). Nil: no page.
	UI http.Handler
	// RateLimit is the requests a second each API key may send (a token bucket of
	// RateBurst); over it a request gets 429 with Retry-After. Default
	// DefaultRateLimit (20, bursts of 40) with keys; none with NoAuth unless set (then
	// per client address); negative: no limit.
	RateLimit float64
	RateBurst int
	// Build describes the running binary: /healthz reports it, /metrics exports it
	// as factbase_build_info, and its Version is the OpenAPI document's info.version.
	// Defaults: Version "dev", GoVersion runtime.Version().
	Build version.Info
	// MCP, when set, is served at /mcp: the Model Context Protocol endpoint (see
	// mcp.NewHandler, which checks the API keys itself). Default nil: no /mcp.
	MCP http.Handler
	// Model and Embedder are what /readyz reports about the model server and the
	// embedder (health.go). Default: none configured.
	Model, Embedder Dependency
	// Vectors names how the store ranks vectors, for /readyz: VectorsPgvector or
	// VectorsInMemory (the PostgreSQL store), VectorsSQLiteVec (the SQLite store).
	// Default "": not reported.
	Vectors string
}

// Server is the HTTP API. It is safe for concurrent use.
type Server struct {
	opts    Options
	log     *slog.Logger
	metrics *Metrics
	mux     *http.ServeMux
	api     huma.API
	keys    *keyCache
	limiter *rateLimiter // nil: requests are not limited
	handler http.Handler

	mu   sync.Mutex
	srv  *http.Server
	addr string // the address Serve listens on

	// active counts connections that have started a request: a request in the
	// kernel's accept queue is not in flight yet; one counted here is.
	active atomic.Int64
}

// New returns a server over the engine and key store in o.
func New(o Options) *Server {
	if o.Logger == nil {
		o.Logger = discard
	}
	if o.Metrics == nil {
		o.Metrics = NewMetrics()
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.Workers == nil && o.Engine != nil {
		o.Workers, _ = jobs.NewWorkers(o.Engine.Jobs, jobs.WorkerOptions{}) // valid options: no error
	}
	o.ReadHeaderTimeout = orDefault(o.ReadHeaderTimeout, 5*time.Second)
	o.ReadTimeout = orDefault(o.ReadTimeout, 30*time.Second)
	o.WriteTimeout = orDefault(o.WriteTimeout, 30*time.Second)
	o.IdleTimeout = orDefault(o.IdleTimeout, 120*time.Second)
	o.ShutdownTimeout = orDefault(o.ShutdownTimeout, 10*time.Second)
	o.EraseTimeout = orDefault(o.EraseTimeout, 30*time.Minute)
	if o.KeyCacheTTL == 0 {
		o.KeyCacheTTL = 2 * time.Second
	}
	if o.Build.Version == "" {
		o.Build.Version = version.Dev
	}
	if o.Build.GoVersion == "" {
		o.Build.GoVersion = runtime.Version()
	}
	o.Metrics.setBuild(o.Build)
	s := &Server{opts: o, log: o.Logger, metrics: o.Metrics, mux: http.NewServeMux()}
	s.keys = newKeyCache(o.Keys, o.KeyCacheTTL)
	s.limiter = newRateLimiter(o, o.Metrics.Registry())
	s.api = humago.New(s.mux, s.config())
	s.api.UseMiddleware(s.authenticate, s.limitRate)
	s.register()
	s.registerHealth()
	documentPlainRoutes(s.api.OpenAPI()) // api.go: /metrics and /openapi.json
	addExamples(s.api.OpenAPI())         // examples.go
	s.mux.Handle("GET /metrics", o.Metrics.Handler())
	if o.MCP != nil {
		s.mux.Handle("/mcp", o.MCP)
	}
	if o.UI != nil {
		s.mux.Handle("GET /{$}", o.UI)
		s.mux.Handle("GET /ui/", o.UI)
	}
	s.mux.HandleFunc("/", s.noRoute)
	s.handler = http.HandlerFunc(s.serveHTTP)
	return s
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Handler returns the server's HTTP handler: every route with its middleware.
func (s *Server) Handler() http.Handler { return s.handler }

// API returns the huma API, e.g. to read the OpenAPI document.
func (s *Server) API() huma.API { return s.api }

// Serve serves HTTP on l until ctx is cancelled, then shuts down gracefully: it
// stops accepting, lets in-flight requests finish (for up to ShutdownTimeout) and
// returns. It does not close the engine's store; the caller owns it and closes it
// after Serve returns.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: s.opts.ReadHeaderTimeout,
		ReadTimeout:       s.opts.ReadTimeout,
		WriteTimeout:      s.opts.WriteTimeout,
		IdleTimeout:       s.opts.IdleTimeout,
		// Go's server answers a request over its limit with a text/plain 431 of its own;
		// under this higher limit serveHTTP answers one over maxHeaderBytes itself,
		// as problem+json.
		MaxHeaderBytes: 1 << 20,
		ErrorLog:       slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		ConnState: func(_ net.Conn, st http.ConnState) {
			if st == http.StateActive {
				s.active.Add(1)
			}
		},
	}
	s.mu.Lock()
	if s.srv != nil {
		s.mu.Unlock()
		return errors.New("server: Serve called twice")
	}
	s.srv = srv
	s.addr = l.Addr().String()
	s.mu.Unlock()

	if s.opts.NoAuth {
		s.log.Warn("authentication is off: every /v1 request is served without an API key", "addr", l.Addr().String())
	}
	s.log.Info("listening", "addr", l.Addr().String(), "openapi", "http://"+l.Addr().String()+"/openapi.json")
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	select {
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return fmt.Errorf("server: %w", err)
	case <-ctx.Done():
	}
	s.log.Info("shutting down: finishing in-flight requests", "timeout", s.opts.ShutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), s.opts.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	<-errc
	if err != nil {
		srv.Close()
		return fmt.Errorf("server: shutdown: %w", err)
	}
	s.log.Info("stopped")
	return nil
}

// Shutdown stops a running Serve gracefully, as cancelling its context does, but
// waits at most until ctx is done.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	srv := s.srv
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	return srv.Shutdown(ctx)
}

// serveHTTP is the outermost layer: request id, logging, metrics, panic recovery and
// the body limit, around the routes.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	ri := &reqInfo{id: requestID(r)}
	ri.log = s.log.With("request_id", ri.id)
	rec := &recorder{ResponseWriter: w}
	rec.Header().Set("X-Request-Id", ri.id)
	r = r.WithContext(withReqInfo(r.Context(), ri))
	ctx, cancel := s.replyDeadline(rec, r, start)
	defer cancel()
	r = r.WithContext(ctx)
	s.metrics.inFlight.Inc()
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			ri.log.Error("panic serving request", "panic", fmt.Sprint(v), "method", r.Method, "path", r.URL.Path)
			if rec.status == 0 {
				writeProblem(rec, http.StatusInternalServerError, "internal error")
			}
		}
		s.metrics.inFlight.Dec()
		d := time.Since(start)
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		route := routeOf(r.Pattern)
		s.metrics.observeRequest(route, methodLabel(r.Method), status, d)
		attrs := []slog.Attr{
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.String("route", route),
			slog.Int("status", status), slog.Int64("bytes", rec.bytes),
			slog.Float64("duration_ms", float64(d.Microseconds())/1000), slog.String("remote", r.RemoteAddr),
		}
		if ri.keyID != "" {
			attrs = append(attrs, slog.String("key", ri.keyID))
		}
		if ri.userID != "" {
			attrs = append(attrs, slog.String("user", ri.userID))
		}
		ri.log.LogAttrs(r.Context(), levelFor(status), "request", attrs...)
	}()
	if n := headerBytes(r); n > maxHeaderBytes {
		writeProblem(rec, http.StatusRequestHeaderFieldsTooLarge, fmt.Sprintf(
			"the request line and headers are %d bytes, more than the limit of %d: send long input in the body", n, maxHeaderBytes))
		return
	}
	if !s.limitBody(rec, r) {
		return
	}
	if s.opts.NoAuth && !s.guardNoAuth(rec, r) { // guard.go
		return
	}
	if r.Header.Get("Content-Type") == "application/x-www-form-urlencoded" {
		// curl -d's default: the API takes JSON only, so read the body as what it is.
		r.Header.Set("Content-Type", "application/json")
	}
	if !checkJSONBody(rec, r) { // jsonbody.go
		return
	}
	s.mux.ServeHTTP(rec, r)
}

// replyDeadline bounds the work of a request so that its reply is always sent: the
// server closes a connection WriteTimeout after the request was read, so a write that
// committed after that would be done with nobody told (a client that retries would
// store it twice). The request's context ends a margin before the deadline; a write
// still waiting for the store then rolls back and the client gets a 503. The
// erasure of a user gets EraseTimeout instead, its connection's deadline moved to
// match.
func (s *Server) replyDeadline(w http.ResponseWriter, r *http.Request, start time.Time) (context.Context, context.CancelFunc) {
	d := s.opts.WriteTimeout
	if r.Method == http.MethodDelete {
		if _, p := s.mux.Handler(r); p == "DELETE /v1/users/{user}" {
			d = s.opts.EraseTimeout
			_ = http.NewResponseController(w).SetWriteDeadline(start.Add(d))
		}
	}
	if d <= 0 {
		return context.WithCancel(r.Context())
	}
	return context.WithDeadline(r.Context(), start.Add(d-min(2*time.Second, d/10)))
}

// maxHeaderBytes bounds a request's line and headers.
const maxHeaderBytes = 64 << 10

// headerBytes counts the bytes of r's request line and headers, as sent.
func headerBytes(r *http.Request) int {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + 4
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	return n + len(r.Host) + 8
}

// routeOf returns the route label of a ServeMux pattern ("POST /v1/users/{user}/facts"
// -> "/v1/users/{user}/facts"); requests no route matched share one label.
func routeOf(pattern string) string {
	if pattern == "" || pattern == "/" {
		return "unmatched"
	}
	if _, p, ok := strings.Cut(pattern, " "); ok {
		return p
	}
	return pattern
}

// methodLabel bounds the method label to the methods the API uses.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodHead, http.MethodOptions:
		return m
	}
	return "other"
}

// limitBody enforces MaxBodyBytes. A declared length over the limit is refused at
// once, without reading the body. A body of unknown length is read up to the limit
// here, so that every later reader sees either a whole body or none.
func (s *Server) limitBody(w http.ResponseWriter, r *http.Request) bool {
	limit := s.opts.MaxBodyBytes
	tooLarge := func() bool {
		if _, p := s.mux.Handler(r); p != "/" {
			r.Pattern = p // for the route label of the request's metrics and log line
		}
		writeProblem(w, http.StatusRequestEntityTooLarge,
			fmt.Sprintf("request body is larger than the limit of %d bytes", limit))
		return false
	}
	switch {
	case r.ContentLength > limit:
		return tooLarge()
	case r.ContentLength >= 0:
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		return true
	}
	body, err := readAllLimit(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return tooLarge()
		}
		writeProblem(w, http.StatusBadRequest, "cannot read the request body")
		return false
	}
	r.Body, r.ContentLength = body, int64(body.Len())
	return true
}

// noRoute answers requests that match no route: 405 if the path exists for other
// methods, else 404. Both are problem+json.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) {
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if m == r.Method {
			continue
		}
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, p := s.mux.Handler(probe); p != "" && p != "/" {
			allowed = append(allowed, m)
		}
	}
	if len(allowed) > 0 {
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		writeProblem(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s is not allowed on %s; use %s",
			r.Method, r.URL.Path, strings.Join(allowed, " or ")))
		return
	}
	writeProblem(w, http.StatusNotFound, fmt.Sprintf("no route %s %s; the API is described at /openapi.json", r.Method, r.URL.Path))
}

// bodyBuffer is a request body read into memory.
type bodyBuffer struct{ *bytes.Reader }

// Close implements io.Closer.
func (bodyBuffer) Close() error { return nil }

func readAllLimit(r io.Reader) (bodyBuffer, error) {
	b, err := io.ReadAll(r)
	return bodyBuffer{bytes.NewReader(b)}, err
}
