package mcp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/factbase/factbase/mcp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestSheetResourceAndPrompt(t *testing.T) {
	eachTransport(t, func(t *testing.T, f *fixture, cs *mcpsdk.ClientSession) {
		ctx := context.Background()
		empty, err := cs.ReadResource(ctx, &mcpsdk.ReadResourceParams{URI: mcp.SheetURI(alice)})
		if err != nil {
			t.Fatal(err)
		}
		if len(empty.Contents) != 1 || !strings.Contains(empty.Contents[0].Text, "Nothing is known") {
			t.Errorf("empty sheet resource = %+v, want the empty note", empty.Contents)
		}
		var rem mcp.RememberOutput
		call(t, cs, "remember", map[string]any{"text": "My favorite editors are Helix and Neovim"}, &rem)

		tpls, err := cs.ListResourceTemplates(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(tpls.ResourceTemplates) != 1 || tpls.ResourceTemplates[0].URITemplate != mcp.SheetURITemplate {
			t.Errorf("resource templates = %+v, want %s", tpls.ResourceTemplates, mcp.SheetURITemplate)
		}
		res, err := cs.ReadResource(ctx, &mcpsdk.ReadResourceParams{URI: mcp.SheetURI(alice)})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, "Neovim") ||
			res.Contents[0].MIMEType != "text/markdown" {
			t.Errorf("sheet resource = %+v, want a Markdown block naming Neovim", res.Contents)
		}
		if _, err := cs.ReadResource(ctx, &mcpsdk.ReadResourceParams{URI: "factbase://users/x/y/fact-sheet"}); err == nil {
			t.Errorf("reading a malformed sheet URI succeeded")
		}

		p, err := cs.GetPrompt(ctx, &mcpsdk.GetPromptParams{Name: mcp.PromptName,
			Arguments: map[string]string{"task": "Which editor should I open?"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Messages) != 1 {
			t.Fatalf("prompt messages = %d, want 1", len(p.Messages))
		}
		tc, ok := p.Messages[0].Content.(*mcpsdk.TextContent)
		if !ok || !strings.Contains(tc.Text, "# Fact sheet") || !strings.Contains(tc.Text, "Helix") ||
			!strings.HasSuffix(tc.Text, "Which editor should I open?\n") || p.Messages[0].Role != "user" {
			t.Errorf("prompt = %+v, want the sheet then the task", p.Messages[0])
		}
		if _, err := cs.GetPrompt(ctx, &mcpsdk.GetPromptParams{Name: mcp.PromptName,
			Arguments: map[string]string{"max_tokens": "many"}}); err == nil {
			t.Errorf("prompt with max_tokens many succeeded")
		}
	})
}

// TestSheetErrorCodes: a resource or prompt request that fails answers a JSON-RPC
// error with a valid code, never code 0: the client's mistakes are invalid params
// (-32602), a resource there is none of is resource not found (the SDK's code, also
// -32602), a store that cannot be reached an internal error (-32603).
func TestSheetErrorCodes(t *testing.T) {
	eachTransport(t, func(t *testing.T, f *fixture, cs *mcpsdk.ClientSession) {
		ctx := context.Background()
		tests := []struct {
			name string
			do   func() error
			code int64
			want string
		}{
			{"resource: user not a UUID", func() error {
				_, err := cs.ReadResource(ctx, &mcpsdk.ReadResourceParams{URI: "factbase://users/alice/fact-sheet"})
				return err
			}, -32602, `user id "alice" is not a UUID`},
			{"resource: another user", func() error {
				_, err := cs.ReadResource(ctx, &mcpsdk.ReadResourceParams{URI: mcp.SheetURI(bob)})
				return err
			}, -32602, string(bob)},
			{"resource: malformed URI", func() error {
				_, err := cs.ReadResource(ctx, &mcpsdk.ReadResourceParams{URI: "factbase://users/x/y/fact-sheet"})
				return err
			}, mcpsdk.CodeResourceNotFound, "not found"},
			{"prompt: user not a UUID", func() error {
				_, err := cs.GetPrompt(ctx, &mcpsdk.GetPromptParams{Name: mcp.PromptName, Arguments: map[string]string{"user": "x"}})
				return err
			}, -32602, `user id "x" is not a UUID`},
			{"prompt: bad budget", func() error {
				_, err := cs.GetPrompt(ctx, &mcpsdk.GetPromptParams{Name: mcp.PromptName, Arguments: map[string]string{"max_tokens": "-1"}})
				return err
			}, -32602, "max_tokens"},
		}
		for _, tc := range tests {
			checkCode(t, tc.name, tc.do(), tc.code, tc.want)
		}
		f.store.Close()
		_, err := cs.ReadResource(ctx, &mcpsdk.ReadResourceParams{URI: mcp.SheetURI(alice)})
		checkCode(t, "resource: store closed", err, -32603, "store unavailable")
	})
}

func checkCode(t *testing.T, name string, err error, code int64, want string) {
	t.Helper()
	var wire *jsonrpc.Error
	switch {
	case err == nil:
		t.Errorf("%s: succeeded, want error code %d", name, code)
	case !errors.As(err, &wire):
		t.Errorf("%s: error %v (%T) is not a JSON-RPC error", name, err, err)
	case wire.Code != code || !strings.Contains(wire.Message, want):
		t.Errorf("%s: error %d %q, want code %d and a message containing %q", name, wire.Code, wire.Message, code, want)
	}
}

// TestSheetIsPrivate: the fact sheet resource, and on a server for one user the
// list of resources, are marked for the user's client alone (cacheScope private),
// while the lists every user shares stay public.
func TestSheetIsPrivate(t *testing.T) {
	eachTransport(t, func(t *testing.T, f *fixture, cs *mcpsdk.ClientSession) {
		ctx := context.Background()
		res, err := cs.ReadResource(ctx, &mcpsdk.ReadResourceParams{URI: mcp.SheetURI(alice)})
		if err != nil {
			t.Fatal(err)
		}
		if res.CacheScope != "private" {
			t.Errorf("resources/read cacheScope = %q, want private", res.CacheScope)
		}
		tools, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tools.CacheScope != "public" {
			t.Errorf("tools/list cacheScope = %q, want public", tools.CacheScope)
		}
		list, err := cs.ListResources(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := "public" // over HTTP the list is empty: the resources are per key
		if strings.HasSuffix(t.Name(), "/stdio") {
			want = "private" // it names alice's sheet
		}
		if list.CacheScope != want {
			t.Errorf("resources/list cacheScope = %q, want %s (%d resources)", list.CacheScope, want, len(list.Resources))
		}
	})
}
