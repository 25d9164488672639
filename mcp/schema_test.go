package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/sqlite"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestInputSchemas checks, in the tools/list a client gets, that the input schemas
// carry the bounds, enums and formats of the HTTP API and of the engine's limits.
func TestInputSchemas(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "f.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv, err := New(Options{Engine: memory.New(st, memory.Options{}), User: "0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"})
	if err != nil {
		t.Fatal(err)
	}
	ct, sst := mcpsdk.NewInMemoryTransports()
	ss, err := srv.SDK().Connect(context.Background(), sst, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// prop returns a property of a tool's input schema as the client decoded it.
	prop := func(tool, path string) map[string]any {
		t.Helper()
		for _, tl := range res.Tools {
			if tl.Name != tool {
				continue
			}
			var p any = tl.InputSchema
			for _, step := range strings.Split(path, ".") {
				m, _ := p.(map[string]any)
				if step == "[]" {
					p = m["items"]
				} else {
					props, _ := m["properties"].(map[string]any)
					p = props[step]
				}
			}
			m, _ := p.(map[string]any)
			if m == nil {
				t.Fatalf("%s has no input property %s", tool, path)
			}
			return m
		}
		t.Fatalf("no tool %s", tool)
		return nil
	}
	categories := make([]any, len(factbase.Categories))
	for i, c := range factbase.Categories {
		categories[i] = string(c)
	}
	tests := []struct {
		tool, path, keyword string
		want                any
	}{
		{"set_fact", "rank", "minimum", 1.0},
		{"set_fact", "category", "enum", categories},
		{"set_fact", "sensitivity", "enum", []any{"low", "medium", "high"}},
		{"set_fact", "confidence", "maximum", 1.0},
		{"set_fact", "value", "maxLength", float64(factbase.MaxValueLen)},
		{"set_fact", "text", "maxLength", float64(factbase.MaxTextLen)},
		{"set_fact", "user", "format", "uuid"},
		{"list_facts", "limit", "maximum", float64(core.MaxPageSize)},
		{"list_facts", "limit", "minimum", 0.0},
		{"list_facts", "offset", "minimum", 0.0},
		{"list_facts", "category", "enum", categories},
		{"list_facts", "as_of", "format", "date-time"},
		{"list_facts", "min_confidence", "maximum", 1.0},
		{"fact_history", "limit", "maximum", float64(core.MaxPageSize)},
		{"search", "limit", "maximum", float64(retrieve.MaxSearchLimit)},
		{"search", "kinds.[]", "enum", []any{factbase.KindFact, factbase.KindEpisode}},
		{"search", "from", "format", "date-time"},
		{"search", "tags", "maxItems", float64(factbase.MaxTags)},
		{"recall", "limit", "maximum", float64(chat.MaxRecallLimit)},
		{"list_people", "limit", "maximum", float64(core.MaxPageSize)},
		{"list_conflicts", "status", "enum", []any{"pending", "confirmed", "rejected", "all"}},
		{"resolve_conflict", "decision", "enum", []any{"confirm", "reject"}},
		{"forget", "mode", "enum", []any{"retract", "delete"}},
		{"fact_sheet", "max_tokens", "minimum", 0.0},
		{"remember", "text", "maxLength", float64(MaxTextBytes)},
		{"ask", "question", "maxLength", float64(MaxTextBytes)},
		{"add_episode", "content", "maxLength", float64(factbase.MaxEpisodeLen)},
		{"add_episode", "importance", "maximum", 1.0},
		{"add_episode", "created_at", "format", "date-time"},
		{"add_episode", "tags", "maxItems", float64(factbase.MaxTags)},
		{"get_fact", "id", "maxLength", 100.0},
		{"erase_fact", "confirm", "type", "boolean"},
	}
	for _, tc := range tests {
		if got := prop(tc.tool, tc.path)[tc.keyword]; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s input %s: %s = %v, want %v", tc.tool, tc.path, tc.keyword, got, tc.want)
		}
	}
	// No default goes into a schema (see inputSchema).
	for _, tl := range res.Tools {
		if b, _ := json.Marshal(tl.InputSchema); strings.Contains(string(b), `"default"`) {
			t.Errorf("%s: the input schema has a default: %s", tl.Name, b)
		}
	}
}

// TestConstrainRefusesBadTags: a tag that does not parse fails the schema rather
// than dropping its bound unseen.
func TestConstrainRefusesBadTags(t *testing.T) {
	type badMinimum struct {
		N int `json:"n" minimum:"one" jsonschema:"n"`
	}
	type badCount struct {
		S string `json:"s" maxLength:"-3" jsonschema:"s"`
	}
	type good struct {
		Caller
		Kinds []string `json:"kinds,omitempty" enum:"a,b" maxItems:"2" jsonschema:"kinds"`
	}
	if _, err := inputSchema[badMinimum](); err == nil || !strings.Contains(err.Error(), `minimum "one"`) {
		t.Errorf("inputSchema(minimum:\"one\") error = %v, want it named", err)
	}
	if _, err := inputSchema[badCount](); err == nil || !strings.Contains(err.Error(), `maxLength "-3"`) {
		t.Errorf("inputSchema(maxLength:\"-3\") error = %v, want it named", err)
	}
	s, err := inputSchema[good]()
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Properties["kinds"].Items.Enum; !slices.Equal(got, []any{"a", "b"}) {
		t.Errorf("kinds items enum = %v, want [a b]", got)
	}
	if got := s.Properties["user"].Format; got != "uuid" {
		t.Errorf("the embedded user's format = %q, want uuid", got)
	}
}

// TestExplainRefusal checks the messages of arguments the schema refuses.
func TestExplainRefusal(t *testing.T) {
	s, err := inputSchema[SetFactInput]()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ args, want string }{
		{`{"key":"k"}`, "value is required"},
		{`null`, "key is required"},
		{`[1]`, "the arguments must be a JSON object"},
		{`{"key":"k","value":"v","rank":0}`, "rank must be at least 1, got 0"},
		{`{"key":"k","value":"v","rank":"2"}`, "rank must be a whole number, not a string"},
		{`{"key":"k","value":"v","confidence":1.5}`, "confidence must be at most 1, got 1.5"},
		{`{"key":"k","value":"v","category":"` + strings.Repeat("x", 100) + `"}`,
			fmt.Sprintf("category %q is not one of core, technical, project, transient", strings.Repeat("x", 64)+"...")},
		{`{"key":"k","value":"v","colour":"red"}`, `unknown argument "colour"`},
		{`{"key":"k","value":"v"}`, ""},
	}
	for _, tc := range tests {
		if got := explainRefusal(s, json.RawMessage(tc.args)); got != tc.want {
			t.Errorf("explainRefusal(%s) = %q, want %q", tc.args, got, tc.want)
		}
	}
}
