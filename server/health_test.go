package server

import (
	"context"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/version"
)

// TestReadyz: the store decides ready or not; the model and the embedder only make
// the answer degraded, with a reason.
func TestReadyz(t *testing.T) {
	down := func(ctx context.Context) error {
		return factbase.Errorf(factbase.EUNAVAILABLE, "cannot reach the model server: connection refused")
	}
	up := func(ctx context.Context) error { return nil }
	cases := []struct {
		name            string
		model, embedder Dependency
		vectors         string
		want            readiness
	}{
		{name: "nothing configured", want: readiness{Status: "ready", Store: "ok", Model: "none", Embedder: "none"}},
		{name: "vectors in pgvector", vectors: VectorsPgvector,
			want: readiness{Status: "ready", Store: "ok", Model: "none", Embedder: "none", Vectors: "pgvector"}},
		{name: "builtin embedder", embedder: Dependency{Builtin: true},
			want: readiness{Status: "ready", Store: "ok", Model: "none", Embedder: "builtin"}},
		{name: "both answer", model: Dependency{Probe: up}, embedder: Dependency{Probe: up},
			want: readiness{Status: "ready", Store: "ok", Model: "ok", Embedder: "ok"}},
		{name: "model down", model: Dependency{Probe: down}, embedder: Dependency{Builtin: true},
			want: readiness{Status: "degraded", Store: "ok", Model: "degraded",
				ModelReason: "cannot reach the model server: connection refused", Embedder: "builtin"}},
		{name: "embedder down", model: Dependency{Probe: up}, embedder: Dependency{Probe: down},
			want: readiness{Status: "degraded", Store: "ok", Model: "ok", Embedder: "degraded",
				EmbedderReason: "cannot reach the model server: connection refused"}},
		{name: "foreign error", model: Dependency{Probe: func(ctx context.Context) error { return context.DeadlineExceeded }},
			want: readiness{Status: "degraded", Store: "ok", Model: "degraded", ModelReason: "internal error", Embedder: "none"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEnv(t, func(o *Options) { o.Model, o.Embedder, o.Vectors = tc.model, tc.embedder, tc.vectors })
			var got readiness
			r := e.do("GET", "/readyz", "", "")
			if r.status != http.StatusOK {
				t.Fatalf("GET /readyz = %d %s, want 200", r.status, r.body)
			}
			r.json(t, &got)
			if got != tc.want {
				t.Errorf("GET /readyz = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestReadyzStoreDown: a store that cannot be reached is 503, whatever the model.
func TestReadyzStoreDown(t *testing.T) {
	up := func(ctx context.Context) error { return nil }
	e := newTestEnv(t, func(o *Options) { o.Model = Dependency{Probe: up} })
	e.store.Close()
	r := e.do("GET", "/readyz", "", "")
	if r.status != http.StatusServiceUnavailable {
		t.Fatalf("GET /readyz with the store closed = %d %s, want 503", r.status, r.body)
	}
	if p := r.problem(t); !strings.Contains(p.Detail, "store unavailable") {
		t.Errorf("detail %q does not name the store", p.Detail)
	}
}

// TestReadyzDocumented: the OpenAPI document describes the body /readyz answers.
func TestReadyzDocumented(t *testing.T) {
	e := newTestEnv(t, nil)
	op := e.srv.API().OpenAPI().Paths["/readyz"].Get
	if !strings.Contains(op.Description, "degraded") {
		t.Errorf("/readyz description %q does not say when it is degraded", op.Description)
	}
	res, ok := op.Responses["200"]
	if !ok || res.Content["application/json"] == nil {
		t.Fatalf("/readyz documents no 200 JSON body")
	}
	sch := res.Content["application/json"].Schema
	if sch.Ref != "" {
		sch = e.srv.API().OpenAPI().Components.Schemas.SchemaFromRef(sch.Ref)
	}
	for _, p := range []string{"status", "store", "model", "model_reason", "embedder", "embedder_reason", "vectors"} {
		if _, ok := sch.Properties[p]; !ok {
			t.Errorf("the /readyz schema lacks %q", p)
		}
	}
	if m := sch.Properties["model"]; m == nil || len(m.Enum) != 3 {
		t.Errorf("the model property's enum = %v, want ok, degraded, none", m)
	}
	if v := sch.Properties["vectors"]; v == nil || len(v.Enum) != 3 {
		t.Errorf("the vectors property's enum = %v, want pgvector, in-memory, sqlite-vec", v)
	}
}

// TestBuildInfo: the build the server is given is what /healthz, /metrics and the
// OpenAPI document report; without one, version dev and this Go.
func TestBuildInfo(t *testing.T) {
	cases := []struct {
		name   string
		build  version.Info
		health status
		metric string
	}{
		{name: "a release",
			build: version.Info{Version: "v1.2.3", Commit: "4f0c3a9e1b7d2c6a8e5f0b3d9c1a7e4f2b6d8c0a",
				BuildDate: "2026-01-02T15:04:05Z", GoVersion: "go1.26.0"},
			health: status{Status: "ok", Version: "v1.2.3", Commit: "4f0c3a9e1b7d2c6a8e5f0b3d9c1a7e4f2b6d8c0a",
				BuildDate: "2026-01-02T15:04:05Z", GoVersion: "go1.26.0"},
			metric: `factbase_build_info{commit="4f0c3a9e1b7d2c6a8e5f0b3d9c1a7e4f2b6d8c0a",go_version="go1.26.0",version="v1.2.3"} 1`},
		{name: "a modified tree", build: version.Info{Version: "v1.2.3", Commit: "abc", Modified: true, GoVersion: "go1.26.0"},
			health: status{Status: "ok", Version: "v1.2.3", Commit: "abc", Modified: true, GoVersion: "go1.26.0"},
			metric: `factbase_build_info{commit="abc",go_version="go1.26.0",version="v1.2.3"} 1`},
		{name: "none given",
			health: status{Status: "ok", Version: "dev", GoVersion: runtime.Version()},
			metric: `factbase_build_info{commit="",go_version="` + runtime.Version() + `",version="dev"} 1`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEnv(t, func(o *Options) { o.Build = tc.build })
			var got status
			e.ok("GET", "/healthz", "", "", &got)
			if got != tc.health {
				t.Errorf("GET /healthz = %+v, want %+v", got, tc.health)
			}
			r := e.do("GET", "/metrics", "", "")
			if n := strings.Count(string(r.body), "factbase_build_info{"); n != 1 || !strings.Contains(string(r.body), tc.metric) {
				t.Errorf("/metrics has %d factbase_build_info series, want one: %s", n, tc.metric)
			}
			var doc struct {
				Info struct {
					Version string `json:"version"`
				} `json:"info"`
			}
			e.do("GET", "/openapi.json", "", "").json(t, &doc)
			if got, want := doc.Info.Version, tc.health.Version; got != want {
				t.Errorf("OpenAPI info.version = %q, want %q", got, want)
			}
		})
	}
}
