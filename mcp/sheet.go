package mcp

import (
	"context"
	"strconv"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/sheet"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// SheetURITemplate is the URI template of the fact sheet resource.
const SheetURITemplate = "factbase://users/{user}/fact-sheet"

// SheetURI returns the URI of user's fact sheet resource.
func SheetURI(user factbase.UserID) string { return "factbase://users/" + string(user) + "/fact-sheet" }

// PromptName is the name of the prompt that injects the fact sheet.
const PromptName = "with_fact_sheet"

// emptySheet is the resource text of a sheet with no entries.
const emptySheet = "# Fact sheet\n\nNothing is known about the user yet.\n"

func (s *Server) registerSheet() {
	addTool(s, tool("fact_sheet", "The user's fact sheet", "Fact sheet", reads,
		`The user's fact sheet as a prompt block: their most important facts, scored by category weight and how often and how recently each was mentioned, grouped by category (core, technical, project, transient). Bounded by max_tokens or max_chars, dropping the lowest-scored entries first. The sheet is regenerated after each write that changes the user's facts, through any entry point.`),
		s.factSheet)
	res := &mcpsdk.ResourceTemplate{Name: "fact-sheet", Title: "Fact sheet", URITemplate: SheetURITemplate,
		MIMEType:    "text/markdown",
		Description: "The user's fact sheet as a prompt block (Markdown): their most important facts by category."}
	s.sdk.AddResourceTemplate(res, s.readSheet)
	if s.opts.User != "" {
		s.sdk.AddResource(&mcpsdk.Resource{Name: "fact-sheet", Title: "Fact sheet", URI: SheetURI(s.opts.User),
			MIMEType: res.MIMEType, Description: res.Description}, s.readSheet)
	}
	s.sdk.AddPrompt(&mcpsdk.Prompt{Name: PromptName, Title: "Answer with the user's fact sheet",
		Description: "Starts a conversation with the user's fact sheet injected, so that the answer can use what is known about them.",
		Arguments: []*mcpsdk.PromptArgument{
			{Name: "task", Description: "What to do with it, e.g. a question from the user (optional)."},
			{Name: "max_tokens", Description: "The most tokens the sheet may take, estimated (optional; default no limit)."},
			{Name: "user", Description: "The user's id (a UUID); leave it out unless you were told to name a user."},
		}}, s.prompt)
}

// FactSheetInput is the input of the fact_sheet tool.
type FactSheetInput struct {
	Caller
	MaxTokens int `json:"max_tokens,omitempty" minimum:"0" jsonschema:"The most tokens the block may take, estimated as characters / 4 (default: no limit)."`
	MaxChars  int `json:"max_chars,omitempty" minimum:"0" jsonschema:"The most characters the block may take (default: no limit)."`
}

// FactSheetOutput is the fact sheet as a prompt block.
type FactSheetOutput struct {
	Text      string `json:"text" jsonschema:"The prompt block (Markdown); empty when nothing is known about the user yet."`
	Entries   int    `json:"entries" jsonschema:"How many facts the saved sheet holds."`
	Dropped   int    `json:"dropped" jsonschema:"Facts left out to fit the budget."`
	Tokens    int    `json:"tokens" jsonschema:"The block's estimated tokens."`
	SheetID   string `json:"sheet_id" jsonschema:"The saved sheet's id."`
	CreatedAt string `json:"created_at" jsonschema:"When the sheet was generated (RFC 3339)."`
}

func (s *Server) factSheet(ctx context.Context, user factbase.UserID, in FactSheetInput) (FactSheetOutput, error) {
	p, n, err := s.sheetPrompt(ctx, user, sheet.RenderOptions{MaxTokens: in.MaxTokens, MaxChars: in.MaxChars})
	if err != nil {
		return FactSheetOutput{}, err
	}
	return FactSheetOutput{Text: p.Text, Entries: n, Dropped: p.Dropped, Tokens: p.Tokens, SheetID: p.SheetID,
		CreatedAt: timeText(p.CreatedAt)}, nil
}

// sheetPrompt renders the user's latest sheet (one read, so that the entry count
// and the text agree).
func (s *Server) sheetPrompt(ctx context.Context, user factbase.UserID, ro sheet.RenderOptions) (core.SheetPrompt, int, error) {
	if ro.MaxChars < 0 || ro.MaxTokens < 0 {
		return core.SheetPrompt{}, 0, factbase.Errorf(factbase.EINVALID, "a prompt budget cannot be negative")
	}
	fs, err := s.e.LatestSheet(ctx, user)
	if err != nil {
		return core.SheetPrompt{}, 0, err
	}
	text, dropped := sheet.Render(core.FromFactSheet(fs), ro)
	return core.SheetPrompt{SheetID: fs.ID, CreatedAt: fs.CreatedAt, Text: text, Dropped: dropped,
		Tokens: sheet.EstimateTokens(text)}, len(fs.Entries), nil
}

// sheetText renders the fact sheet of the user a resource or prompt request names
// (userArg) as resource text, within maxTokens ("" for no limit). A failure is a
// JSON-RPC error with a valid code (rpcError), logged with its details when
// internal.
func (s *Server) sheetText(ctx context.Context, what string, extra *mcpsdk.RequestExtra, userArg, maxTokens string) (string, error) {
	fail := func(err error) (string, error) {
		if factbase.ErrorCode(err) == factbase.EINTERNAL {
			s.log.ErrorContext(ctx, "mcp request failed", "request", what, "error", err.Error())
		}
		return "", rpcError(err)
	}
	user, err := s.user(extra, userArg)
	if err != nil {
		return fail(err)
	}
	var ro sheet.RenderOptions
	if maxTokens != "" {
		n, err := strconv.Atoi(maxTokens)
		if err != nil || n < 0 {
			return fail(factbase.Errorf(factbase.EINVALID, "max_tokens %q is not a whole number of at least 0", maxTokens))
		}
		ro.MaxTokens = n
	}
	p, _, err := s.sheetPrompt(ctx, user, ro)
	if err != nil {
		return fail(err)
	}
	if p.Text == "" {
		return emptySheet, nil
	}
	return p.Text, nil
}

// readSheet serves the fact sheet resource.
func (s *Server) readSheet(ctx context.Context, req *mcpsdk.ReadResourceRequest) (*mcpsdk.ReadResourceResult, error) {
	uri := req.Params.URI
	arg, ok := strings.CutPrefix(uri, "factbase://users/")
	if ok {
		arg, ok = strings.CutSuffix(arg, "/fact-sheet")
	}
	if !ok || arg == "" || strings.Contains(arg, "/") {
		return nil, mcpsdk.ResourceNotFoundError(uri)
	}
	text, err := s.sheetText(ctx, "resource fact-sheet", req.Extra, arg, "")
	if err != nil {
		return nil, err
	}
	// One user's sheet: private to that user's client, never cached by a shared one
	// (Server.cacheable says so too, for every resource read).
	return &mcpsdk.ReadResourceResult{Cacheable: mcpsdk.Cacheable{CacheScope: "private"},
		Contents: []*mcpsdk.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: text}}}, nil
}

// prompt serves the prompt that injects the fact sheet.
func (s *Server) prompt(ctx context.Context, req *mcpsdk.GetPromptRequest) (*mcpsdk.GetPromptResult, error) {
	args := req.Params.Arguments
	text, err := s.sheetText(ctx, "prompt", req.Extra, args["user"], args["max_tokens"])
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("Here is what you know about me, from my Factbase fact sheet. Use it where it is relevant; do not repeat it back unprompted.\n\n")
	b.WriteString(text)
	if t := strings.TrimSpace(args["task"]); t != "" {
		b.WriteString("\n")
		b.WriteString(t)
		b.WriteString("\n")
	}
	return &mcpsdk.GetPromptResult{Description: "The user's fact sheet, then the task.",
		Messages: []*mcpsdk.PromptMessage{{Role: "user", Content: &mcpsdk.TextContent{Text: b.String()}}}}, nil
}
