package mcp

import (
	"context"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/ingest"
)

func (s *Server) registerEpisodes() {
	addTool(s, tool("add_episode", "Store an episode", "Add episode", writes,
		`Store what happened as an episode: a narrative record ("Deployed NEXUS v2.3.1; accuracy 94.2% on 500 questions"), with tags, an importance and when it happened. The patterns of episodes (versions, metrics, statuses, dates, owners) are extracted as facts linked to it, unless no_extract is set; search finds the episode and its facts. Returns the episode and the facts linked to it.`),
		s.addEpisode)
}

// AddEpisodeInput is the input of the add_episode tool.
type AddEpisodeInput struct {
	Caller
	Content    string            `json:"content" maxLength:"65536" jsonschema:"What happened, as plain text (at most 64 KiB)."`
	Tags       []string          `json:"tags,omitempty" maxItems:"32" jsonschema:"Tags to find it by, e.g. [\"nexus\", \"deploy\"]; lower-cased and deduplicated."`
	Importance *float64          `json:"importance,omitempty" minimum:"0" maximum:"1" jsonschema:"How important it is, 0 to 1 (default 0.5); search boosts important episodes."`
	CreatedAt  string            `json:"created_at,omitempty" format:"date-time" jsonschema:"When it happened, if before now (RFC 3339); default now."`
	Metadata   map[string]string `json:"metadata,omitempty" jsonschema:"Free-form string metadata (at most 64 entries)."`
	NoExtract  bool              `json:"no_extract,omitempty" jsonschema:"Store it without extracting facts (a backfill extracts them later)."`
}

// AddEpisodeOutput is what add_episode stored.
type AddEpisodeOutput struct {
	Episode Episode `json:"episode" jsonschema:"The stored episode."`
	Facts   []Fact  `json:"facts" jsonschema:"The facts extracted from it and linked to it, as stored (or the fact already holding a value)."`
	Counts  Counts  `json:"counts" jsonschema:"What the store did with the facts."`
}

func (s *Server) addEpisode(ctx context.Context, user factbase.UserID, in AddEpisodeInput) (AddEpisodeOutput, error) {
	if strings.TrimSpace(in.Content) == "" {
		return AddEpisodeOutput{}, factbase.Errorf(factbase.EINVALID, "content is empty")
	}
	at, err := parseTime("created_at", in.CreatedAt)
	if err != nil {
		return AddEpisodeOutput{}, err
	}
	res, err := s.e.Ingest.AddEpisode(ctx, user, ingest.EpisodeInput{Content: in.Content, Tags: in.Tags,
		Importance: in.Importance, CreatedAt: at, Metadata: in.Metadata, NoExtract: in.NoExtract})
	if err != nil {
		return AddEpisodeOutput{}, err
	}
	return AddEpisodeOutput{Episode: episodeOut(res.Episode), Facts: factsOut(res.Facts), Counts: countsOf(res.Result)}, nil
}
