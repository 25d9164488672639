package mcp_test

import (
	"context"
	"encoding/json"
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
		tool int
		args string
	}{
		{0, `{"text":"My favorite editors are Helix and Neovim"}`},
		{1, `{"question":"What is my second favorite editor?"}`},
		{2, `{"query":"Neovim","kinds":["fact"],"from":"2026-01-01T00:00:00Z"}`},
		{3, `{"key":"favorites.text_editor","value":"Vim","rank":1}`},
		{4, `{"key_prefix":"favorites.","history":true,"limit":3}`},
		{5, `{"key":"contact.email"}`},
		{6, `{"key":"favorites.text_editor","mode":"delete","reason":"fuzz"}`},
		{7, `{"max_tokens":10}`},
		{8, `{"query":"what does my wife eat?"}`},
		{9, `{"with_facts":true}`},
		{10, `{"status":"all"}`},
		{11, `{"id":"x","decision":"confirm"}`},
		{0, `{"text":5}`},
		{1, `[]`},
		{2, `null`},
		{3, `{"key":"k","value":"v","user":"not-a-uuid"}`},
		{4, `{"limit":-1,"offset":-5}`},
	}
	for _, s := range seeds {
		f.Add(s.tool, s.args)
	}
	fx := newFixture(f)
	srv, err := mcp.New(mcp.Options{Engine: fx.engine, User: alice})
	if err != nil {
		f.Fatal(err)
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
	tools := srv.Tools()

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
