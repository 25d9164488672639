package server

import (
	"strings"
	"testing"
)

func TestOpenAPI(t *testing.T) {
	e := newTestEnv(t, nil)
	var doc struct {
		OpenAPI string `json:"openapi"`
		Paths   map[string]map[string]struct {
			Summary     string                    `json:"summary"`
			Description string                    `json:"description"`
			Security    []map[string][]string     `json:"security"`
			Responses   map[string]map[string]any `json:"responses"`
		} `json:"paths"`
		Components struct {
			SecuritySchemes map[string]struct {
				Type   string `json:"type"`
				Scheme string `json:"scheme"`
			} `json:"securitySchemes"`
		} `json:"components"`
	}
	r := e.do("GET", "/openapi.json", "", "")
	r.json(t, &doc)
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	if s := doc.Components.SecuritySchemes[bearerScheme]; s.Type != "http" || s.Scheme != "bearer" {
		t.Errorf("security scheme = %+v, want http bearer", s)
	}
	want := map[string][]string{
		"/v1/users/{user}/messages":                  {"post"},
		"/v1/users/{user}/questions":                 {"post"},
		"/v1/users/{user}/facts":                     {"get", "post"},
		"/v1/users/{user}/facts/{id}":                {"get", "delete"},
		"/v1/users/{user}/facts/{id}/retract":        {"post"},
		"/v1/users/{user}/history/{key}":             {"get"},
		"/v1/users/{user}/lists/{key}":               {"get", "post"},
		"/v1/users/{user}/lists/{key}/rank":          {"post"},
		"/v1/users/{user}/lists/{key}/items/{value}": {"delete"},
		"/healthz": {"get"},
		"/readyz":  {"get"},
	}
	for path, methods := range want {
		for _, m := range methods {
			op, ok := doc.Paths[path][m]
			if !ok {
				t.Errorf("the document lacks %s %s", m, path)
				continue
			}
			if op.Summary == "" || op.Description == "" {
				t.Errorf("%s %s has no summary or description", m, path)
			}
			if !strings.HasPrefix(path, "/v1/") {
				continue
			}
			if len(op.Security) == 0 {
				t.Errorf("%s %s does not require the bearer key", m, path)
			}
			for _, status := range []string{"401", "403", "422"} {
				if _, ok := op.Responses[status]["content"].(map[string]any)[problemType]; !ok {
					t.Errorf("%s %s does not document %s as %s", m, path, status, problemType)
				}
			}
			if m == "post" && op.Responses["413"] == nil {
				t.Errorf("%s %s does not document 413", m, path)
			}
		}
	}
}

// TestOpenAPIBounds checks that every operation returning a list documents its
// bound: a limit parameter with a default and a maximum, stated in its description
// too.
func TestOpenAPIBounds(t *testing.T) {
	e := newTestEnv(t, nil)
	var doc struct {
		Paths map[string]map[string]struct {
			Description string `json:"description"`
			Parameters  []struct {
				Name   string `json:"name"`
				In     string `json:"in"`
				Schema struct {
					Maximum *float64 `json:"maximum"`
					Default any      `json:"default"`
				} `json:"schema"`
			} `json:"parameters"`
		} `json:"paths"`
	}
	e.do("GET", "/openapi.json", "", "").json(t, &doc)
	const u = "/v1/users/{user}"
	lists := map[string]float64{
		u + "/facts": 1000, u + "/history/{key}": 1000, u + "/lists/{key}": 1000, u + "/entities": 1000,
		u + "/entities/{id}": 1000, u + "/conflicts": 1000, u + "/episodes": 1000, u + "/episodes/{id}": 1000,
		u + "/lookup": 1000, u + "/transcripts/facts": 10000, u + "/transcripts/objects": 10000,
		u + "/transcripts/sessions": 1000, u + "/jobs": 1000,
	}
	for path, max := range lists {
		op, ok := doc.Paths[path]["get"]
		if !ok {
			t.Errorf("the document lacks GET %s", path)
			continue
		}
		var found bool
		for _, p := range op.Parameters {
			if p.Name == "limit" && p.In == "query" {
				found = true
				if p.Schema.Maximum == nil || *p.Schema.Maximum != max || p.Schema.Default == nil {
					t.Errorf("GET %s: limit schema %+v, want maximum %v and a default", path, p.Schema, max)
				}
			}
		}
		if !found {
			t.Errorf("GET %s has no limit parameter", path)
		}
		if !strings.Contains(op.Description, "at most") {
			t.Errorf("GET %s: the description does not state the bound: %q", path, op.Description)
		}
	}
}
