package mcp_test

import (
	"strings"
	"testing"

	"github.com/factbase/factbase/mcp"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAddEpisode: add_episode stores an episode with its tags and time, extracts
// its facts, and search finds it.
func TestAddEpisode(t *testing.T) {
	eachTransport(t, func(t *testing.T, f *fixture, cs *mcpsdk.ClientSession) {
		var out mcp.AddEpisodeOutput
		call(t, cs, "add_episode", map[string]any{
			"content":    "Session 14 complete: NEXUS v2.3.1 deployed, accuracy 94.2% on 500 questions.",
			"tags":       []string{"Nexus", "deploy"},
			"importance": 0.9,
			"created_at": "2026-01-02T15:04:05Z",
		}, &out)
		ep := out.Episode
		if ep.ID == "" || ep.Importance != 0.9 || ep.CreatedAt != "2026-01-02T15:04:05Z" ||
			strings.Join(ep.Tags, ",") != "deploy,nexus" {
			t.Errorf("episode = %+v, want it stored as given (tags lower-cased, sorted)", ep)
		}
		if len(out.Facts) == 0 || out.Counts.Stored == 0 {
			t.Errorf("facts = %+v, counts %+v; want the version and the accuracy extracted", out.Facts, out.Counts)
		}
		var s mcp.SearchOutput
		call(t, cs, "search", map[string]any{"query": "NEXUS deployed", "kinds": []string{"episode"}}, &s)
		if len(s.Hits) == 0 || s.Hits[0].ID != ep.ID {
			t.Errorf("search = %+v, want the episode", s.Hits)
		}

		call(t, cs, "add_episode", map[string]any{"content": "Lunch with Dana.", "no_extract": true}, &out)
		if len(out.Facts) != 0 || out.Episode.Importance != 0.5 {
			t.Errorf("no_extract episode = %+v, want no facts and the default importance", out)
		}
		errs := []struct {
			args map[string]any
			want string
		}{
			{map[string]any{"content": "  "}, "content is empty"},
			{map[string]any{"content": "x", "importance": 2}, "importance must be at most 1, got 2"},
			{map[string]any{"content": "x", "created_at": "yesterday"}, "not an RFC 3339 time"},
			{map[string]any{"content": "x", "tags": make([]string, 40)}, "tags has 40 items; the limit is 32"},
		}
		for _, tc := range errs {
			if msg := callError(t, cs, "add_episode", tc.args); !strings.Contains(msg, tc.want) {
				t.Errorf("add_episode(%v) = %q, want it to contain %q", tc.args, msg, tc.want)
			}
		}
	})
}
