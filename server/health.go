package server

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
)

// Dependency is a part of the service the API still serves without, though less
// well: the model server (background extraction, the topic teacher, the question
// planner) and the embedder (the vector half of search). /readyz reports its state
// but never answers 503 for it: the store alone decides readiness. The zero value is
// a dependency that is not configured ("none").
type Dependency struct {
	// Probe reports whether a remote dependency answers: nil if it does, else an
	// error whose factbase.ErrorMessage says why not (reported as the reason, to
	// callers without a key: it must name no address or credential). /readyz calls it
	// on every request, beside the store's Ping, so it must be cheap (llm's probes
	// keep their answer for a few seconds) and safe for concurrent use. Nil: nothing
	// to probe.
	Probe func(ctx context.Context) error
	// Builtin marks a dependency that runs in this process (the GloVe embedder): with
	// no Probe it is reported "builtin" rather than "none".
	Builtin bool
}

// The states /readyz reports for a dependency.
const (
	stateOK       = "ok"
	stateDegraded = "degraded"
	stateNone     = "none"
	stateBuiltin  = "builtin"
)

// state probes d and returns its state and, when degraded, why.
func (d Dependency) state(ctx context.Context) (string, string) {
	switch {
	case d.Probe != nil:
		if err := d.Probe(ctx); err != nil {
			return stateDegraded, factbase.ErrorMessage(err)
		}
		return stateOK, ""
	case d.Builtin:
		return stateBuiltin, ""
	}
	return stateNone, ""
}

// The ways of ranking vectors /readyz reports (Options.Vectors).
const (
	VectorsPgvector  = "pgvector"   // in PostgreSQL, by pgvector
	VectorsInMemory  = "in-memory"  // PostgreSQL rows ranked in each server's memory
	VectorsSQLiteVec = "sqlite-vec" // SQLite's vec0 tables (in memory for large users)
)

// status is the body of the liveness check: ok, and which build answers.
type status struct {
	Status    string `json:"status" example:"ok"`
	Version   string `json:"version" example:"v1.2.0" doc:"the release version of this build (a semver tag), or dev for a build that carries none"`
	Commit    string `json:"commit,omitempty" example:"4f0c3a9e1b7d2c6a8e5f0b3d9c1a7e4f2b6d8c0a" doc:"the git commit it was built from, when known"`
	Modified  bool   `json:"modified,omitempty" doc:"true when it was built from a tree with uncommitted changes"`
	BuildDate string `json:"build_date,omitempty" example:"2026-01-02T15:04:05Z" doc:"when it was built: the time of its commit (RFC 3339), when known"`
	GoVersion string `json:"go_version" example:"go1.26.0" doc:"the Go release it was built with"`
}

type statusOutput struct {
	Body status
}

// readiness is the body of /readyz when the store answers.
type readiness struct {
	Status         string `json:"status" enum:"ready,degraded" doc:"ready, or degraded when the model or the embedder cannot be reached (the API still serves: the store is up)"`
	Store          string `json:"store" enum:"ok" doc:"the store answered (when it does not, /readyz answers 503)"`
	Model          string `json:"model" enum:"ok,degraded,none" doc:"the model server: ok (it answers), degraded (it does not: background extraction waits and retries; rules still apply), none (no model is configured: rules only)"`
	ModelReason    string `json:"model_reason,omitempty" doc:"why the model is degraded" example:"cannot reach the model server: connection refused"`
	Embedder       string `json:"embedder" enum:"ok,degraded,builtin,none" doc:"the embedder: ok (its server answers), degraded (it does not: writes and searches that need vectors fail until it does), builtin (in process), none (no vectors: full-text search only)"`
	EmbedderReason string `json:"embedder_reason,omitempty" doc:"why the embedder is degraded"`
	Vectors        string `json:"vectors,omitempty" enum:"pgvector,in-memory,sqlite-vec" doc:"how the store ranks vectors: pgvector (in PostgreSQL, by the pgvector extension), in-memory (PostgreSQL without pgvector: each server ranks a user's vectors in its memory), sqlite-vec (the SQLite store)"`
}

type readinessOutput struct {
	Body readiness
}

func (s *Server) registerHealth() {
	huma.Register(s.api, huma.Operation{OperationID: "get-health", Method: http.MethodGet, Path: "/healthz",
		Tags: []string{tagOperations}, Security: public, Summary: "Liveness",
		Description: "200 while the process serves HTTP, with the build that serves: version, commit, build date " +
			"and Go version (as \"factbase version\" prints them). Needs no key."}, s.healthz)
	huma.Register(s.api, huma.Operation{OperationID: "get-readiness", Method: http.MethodGet, Path: "/readyz",
		Tags: []string{tagOperations}, Security: public, Summary: "Readiness",
		Description: "200 while the store can be reached, else 503: the store alone decides readiness. " +
			"The body also reports the model server and the embedder: when one cannot be reached the answer is " +
			"still 200, with status \"degraded\", that part \"degraded\" and a reason. A remote model or embedder " +
			"is probed at most every few seconds (the answer is kept meanwhile), each probe bounded to a second. " +
			"Needs no key.",
		Errors: []int{http.StatusServiceUnavailable}}, s.readyz)
}

func (s *Server) healthz(ctx context.Context, _ *struct{}) (*statusOutput, error) {
	b := s.opts.Build
	return &statusOutput{Body: status{Status: "ok", Version: b.Version, Commit: b.Commit, Modified: b.Modified,
		BuildDate: b.BuildDate, GoVersion: b.GoVersion}}, nil
}

func (s *Server) readyz(ctx context.Context, _ *struct{}) (*readinessOutput, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	// The probes run beside the store's ping, so a slow model server adds nothing to
	// a slow store's wait.
	var r readiness
	var wg sync.WaitGroup
	wg.Go(func() { r.Model, r.ModelReason = s.opts.Model.state(ctx) })
	wg.Go(func() { r.Embedder, r.EmbedderReason = s.opts.Embedder.state(ctx) })
	err := s.opts.Engine.Store().Ping(ctx)
	wg.Wait()
	if err != nil {
		code := factbase.ErrorCode(err)
		if code != factbase.EUNAVAILABLE && code != factbase.ETIMEOUT {
			err = &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "store unavailable", Err: err}
		}
		logger(ctx).Warn("not ready", errAttr(err))
		return nil, huma.NewError(http.StatusServiceUnavailable, "store unavailable: "+factbase.ErrorMessage(err))
	}
	r.Status, r.Store, r.Vectors = "ready", stateOK, s.opts.Vectors
	if r.Model == stateDegraded || r.Embedder == stateDegraded {
		r.Status = stateDegraded
	}
	return &readinessOutput{Body: r}, nil
}
