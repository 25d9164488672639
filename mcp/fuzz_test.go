package mcp_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/factbase/factbase/mcp"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzToolCall calls every tool with arbitrary JSON arguments: whatever they are, the
// answer is a result (maybe a tool error), never a protocol error, and a tool error
// carries a message and no structured content.
func FuzzToolCall(f *testing.F) {
	seeds := []struct {
		tool string
		args string
	}{
		{"remember", `{"text":"My favorite editors are Helix and Neovim"}`},
		{"ask", `{"question":"What is my second favorite editor?"}`},
		{"search", `{"query":"Neovim","kinds":["fact"],"from":"2026-01-01T00:00:00Z"}`},
		{"set_fact", `{"key":"favorites.text_editor","value":"Vim","rank":1}`},
		{"set_fact", `{"key":"favorites.text_editor","value":"Vim","rank":0}`},
		{"list_facts", `{"key_prefix":"favorites.","history":true,"limit":3}`},
		{"fact_history", `{"key":"contact.email"}`},
		{"forget", `{"key":"favorites.text_editor","mode":"delete","reason":"fuzz"}`},
		{"fact_sheet", `{"max_tokens":10}`},
		{"recall", `{"query":"what does my wife eat?"}`},
		{"list_people", `{"with_facts":true}`},
		{"list_conflicts", `{"status":"all"}`},
		{"resolve_conflict", `{"id":"x","decision":"confirm"}`},
		{"add_episode", `{"content":"Deployed v2.3.1","tags":["deploy"],"importance":0.5}`},
		{"get_fact", `{"id":"x"}`},
		{"erase_fact", `{"id":"x","confirm":false}`},
		{"remember", `{"text":5}`},
		{"ask", `[]`},
		{"search", `null`},
		{"set_fact", `{"key":"k","value":"v","user":"not-a-uuid"}`},
		{"list_facts", `{"limit":-1,"offset":-5}`},
	}
	fx := newFixture(f)
	srv, err := mcp.New(mcp.Options{Engine: fx.engine, User: alice})
	if err != nil {
		f.Fatal(err)
	}
	tools := srv.Tools()
	for _, s := range seeds {
		i := slices.Index(tools, s.tool)
		if i < 0 {
			f.Fatalf("seed for unknown tool %s", s.tool)
		}
		f.Add(i, s.args)
	}
	ct, st := mcpsdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.SDK().Connect(ctx, st, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { ss.Close() })
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "fuzz", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { cs.Close() })

	f.Fuzz(func(t *testing.T, tool int, args string) {
		if !json.Valid([]byte(args)) || len(args) > 1<<16 {
			t.Skip()
		}
		name := tools[(tool%len(tools)+len(tools))%len(tools)]
		res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s(%s): protocol error %v", name, args, err)
		}
		if res.IsError {
			msg := text(res)
			if msg == "" || res.StructuredContent != nil {
				t.Fatalf("%s(%s): tool error %q with structured content %v", name, args, msg, res.StructuredContent)
			}
			if strings.Contains(msg, "goroutine ") || strings.Contains(msg, ".go:") {
				t.Fatalf("%s(%s): tool error leaks internals: %q", name, args, msg)
			}
		}
	})
}
