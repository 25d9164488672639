package mcp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/factbase/factbase/mcp"
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
