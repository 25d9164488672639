package server

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/factbase/factbase"
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
