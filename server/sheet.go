package server

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/sheet"
)

type sheetPromptInput struct {
	User      string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	MaxTokens int    `query:"max_tokens" minimum:"0" doc:"The most tokens the block may take, estimated as characters / 4. Default: no limit beyond the sheet's own size (at most 100 entries)."`
	MaxChars  int    `query:"max_chars" minimum:"0" doc:"The most characters the block may take. Default: no limit beyond the sheet's own size (at most 100 entries)."`
}

func (s *Server) registerSheet() {
	huma.Register(s.api, s.op("get-fact-sheet", http.MethodGet, "/v1/users/{user}/fact-sheet", tagSheet, "The latest fact sheet",
		`The user's most recently saved fact sheet: the scored selection of their most
important facts (at most 100; by category, then score), with its count and created time,
each entry's explanation (category weight × the decay points of its references, per age
bucket, and the assembly step that took it) and the log of duplicates left off (those
that bear on the sheet, at most 10 per fact kept). Sheets are regenerated after writes
that change the user's facts and on demand (POST). 404 if none has been saved yet. Not
paged: the sheet's own size cap (100 entries) bounds it.`, http.StatusNotFound), s.getSheet)
	huma.Register(s.api, s.op("generate-fact-sheet", http.MethodPost, "/v1/users/{user}/fact-sheet", tagSheet, "Generate the fact sheet now",
		`Scores the user's current facts by their references, assembles and saves a new
sheet (deleting the user's sheets older than the retention, 7 days by default) and
returns it. The answer is bounded by the sheet's size cap (100 entries); the work reads
one row per current fact of the user, with its references counted in the database.`), s.generateSheet)
	huma.Register(s.api, s.op("get-fact-sheet-prompt", http.MethodGet, "/v1/users/{user}/fact-sheet/prompt", tagSheet, "The fact sheet as a prompt block",
		`The latest sheet rendered for a prompt: "# Fact sheet", then per category a
"## <category>" heading and one "- <text>" line per entry. With max_tokens or max_chars,
the lowest-ranked entries are dropped until it fits ("dropped" counts them). A user
without a saved sheet gets one generated first. Bounded by the sheet's size cap (100
entries).`), s.sheetPrompt)
}

func (s *Server) getSheet(ctx context.Context, in *userInput) (*output[factbase.FactSheet], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (factbase.FactSheet, error) {
		return s.opts.Engine.SavedSheet(ctx, u)
	})
}

func (s *Server) generateSheet(ctx context.Context, in *userInput) (*output[factbase.FactSheet], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (factbase.FactSheet, error) {
		return s.opts.Engine.GenerateSheet(ctx, u, core.SheetOptions{})
	})
}

func (s *Server) sheetPrompt(ctx context.Context, in *sheetPromptInput) (*output[core.SheetPrompt], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (core.SheetPrompt, error) {
		return s.opts.Engine.SheetPrompt(ctx, u, sheet.RenderOptions{MaxTokens: in.MaxTokens, MaxChars: in.MaxChars})
	})
}
