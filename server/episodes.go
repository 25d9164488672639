package server

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/retrieve"
)

// episodeFactBody is a fact added to an episode by hand.
type episodeFactBody struct {
	Key        string  `json:"key" minLength:"1" maxLength:"200" doc:"The fact's key." example:"release.owner"`
	Value      string  `json:"value" minLength:"1" maxLength:"4096" doc:"The value." example:"Dana"`
	ValueType  string  `json:"value_type,omitempty" enum:"string,number,bool,date,json" doc:"How to read the value. Default string."`
	Type       string  `json:"type,omitempty" maxLength:"100" doc:"The fact's type." example:"work"`
	Category   string  `json:"category,omitempty" enum:"core,technical,project,transient" doc:"The fact-sheet category. Default transient."`
	Confidence float64 `json:"confidence,omitempty" minimum:"0" maximum:"1" doc:"Confidence 0..1. Default 1."`
	Text       string  `json:"text,omitempty" maxLength:"200" doc:"The fact as a sentence."`
	Subject    string  `json:"subject,omitempty" maxLength:"200" doc:"Whose fact: user (the default) or entity:<id>."`
}

func (b episodeFactBody) fact() factbase.Fact {
	return factbase.Fact{Key: b.Key, Value: b.Value, ValueType: factbase.ValueType(b.ValueType), Type: b.Type,
		Category: factbase.Category(b.Category), Confidence: b.Confidence, Text: b.Text, Subject: b.Subject, Extractor: "api"}
}

type addEpisodeInput struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Body struct {
		Content    string            `json:"content" minLength:"1" maxLength:"65536" doc:"The narrative." example:"Session 14 complete: NEXUS v2.3.1 deployed, accuracy 94.2% on 500 questions. Phase 3 IN_PROGRESS."`
		Tags       []string          `json:"tags,omitempty" maxItems:"32" doc:"Tags; lower-cased and deduplicated." example:"[\"nexus\", \"deploy\"]"`
		Importance *float64          `json:"importance,omitempty" minimum:"0" maximum:"1" doc:"Importance 0..1. Default 0.5."`
		CreatedAt  *time.Time        `json:"created_at,omitempty" doc:"When it happened, if before now (RFC 3339). Default: now."`
		Metadata   map[string]string `json:"metadata,omitempty" doc:"Free-form string metadata (at most 64 entries)."`
		NoExtract  bool              `json:"no_extract,omitempty" doc:"Store without extracting facts; a backfill extracts them later."`
		Facts      []episodeFactBody `json:"facts,omitempty" maxItems:"1000" doc:"Facts to link to the episode by hand, besides the extracted ones."`
	}
}

type listEpisodesInput struct {
	User        string    `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Tags        string    `query:"tags" maxLength:"2000" doc:"Only episodes with every one of these comma-separated tags." example:"nexus,deploy"`
	Since       time.Time `query:"since" doc:"Only episodes created at or after this time (RFC 3339)."`
	Until       time.Time `query:"until" doc:"Only episodes created before this time (RFC 3339)."`
	Unextracted bool      `query:"unextracted" doc:"Only episodes waiting for a backfill."`
	Newest      bool      `query:"newest_first" doc:"Newest first; the default is oldest first."`
	Limit       int       `query:"limit" minimum:"1" maximum:"1000" default:"100" doc:"At most this many."`
	Offset      int       `query:"offset" minimum:"0" doc:"Skip this many."`
}

type episodeInput struct {
	User    string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	ID      string `path:"id" maxLength:"100" doc:"The episode's id."`
	History bool   `query:"history" doc:"Also list the episode's superseded facts."`
	Offset  int    `query:"offset" minimum:"0" doc:"Skip this many of the episode's facts."`
	Limit   int    `query:"limit" minimum:"1" maximum:"1000" default:"100" doc:"At most this many of the episode's facts."`
}

type episodeWithFacts struct {
	Episode factbase.Episode `json:"episode"`
	Facts   []factbase.Fact  `json:"facts" doc:"A page of the facts whose source is the episode, oldest first."`
	Offset  int              `json:"offset" doc:"The facts' offset."`
	Limit   int              `json:"limit" doc:"The facts' limit."`
	More    bool             `json:"more" doc:"More facts follow this page: ask again with offset+limit."`
}

type deleteEpisodeInput struct {
	User      string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	ID        string `path:"id" maxLength:"100" doc:"The episode's id."`
	KeepFacts bool   `query:"keep_facts" doc:"Keep the facts extracted from the episode; by default they are erased with it."`
}

type addEpisodeFactsInput struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	ID   string `path:"id" maxLength:"100" doc:"The episode's id."`
	Body struct {
		Facts []episodeFactBody `json:"facts" minItems:"1" maxItems:"1000" doc:"The facts to link to the episode."`
	}
}

type searchInput struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Body struct {
		Query             string     `json:"query" minLength:"1" maxLength:"4096" doc:"What to look for, in words." example:"What does Martin eat?"`
		Kinds             []string   `json:"kinds,omitempty" enum:"fact,episode" doc:"What to search. Default both."`
		Limit             int        `json:"limit,omitempty" minimum:"0" maximum:"100" doc:"At most this many hits. Default 10."`
		KeyPrefix         string     `json:"key_prefix,omitempty" maxLength:"200" doc:"Only facts whose key starts with this."`
		Type              string     `json:"type,omitempty" maxLength:"100" doc:"Only facts of this type."`
		Category          string     `json:"category,omitempty" enum:"core,technical,project,transient" doc:"Only facts of this sheet category."`
		Subject           string     `json:"subject,omitempty" maxLength:"200" doc:"Only facts about this subject."`
		MinConfidence     float64    `json:"min_confidence,omitempty" minimum:"0" maximum:"1" doc:"Only facts with at least this confidence."`
		Tags              []string   `json:"tags,omitempty" maxItems:"32" doc:"Only episodes with every tag, and facts whose source episode has them."`
		Since             *time.Time `json:"since,omitempty" doc:"Only items from this time on (a fact's valid-from, an episode's created time)."`
		Until             *time.Time `json:"until,omitempty" doc:"Only items before this time."`
		IncludeSuperseded bool       `json:"include_superseded,omitempty" doc:"Also find facts a newer value replaced."`
		Threshold         float64    `json:"threshold,omitempty" minimum:"0" doc:"The least score a hit must have."`
	}
}

type queryInput struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Body struct {
		Question string `json:"question" minLength:"1" maxLength:"4096" doc:"The question." example:"What is the NEXUS version?"`
		Prefer   string `json:"prefer,omitempty" enum:"auto,fact,narrative" doc:"Which source to try first; auto (the default) lets the question decide."`
		Passages int    `json:"passages,omitempty" minimum:"0" maximum:"20" doc:"At most this many narrative passages. Default 3."`
	}
}

type lookupInput struct {
	User   string    `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Type   string    `query:"type" maxLength:"100" doc:"Fact type: version, metric, latency, count, status, date, phase, ..." example:"version"`
	Key    string    `query:"key" maxLength:"200" doc:"An exact key." example:"nexus.version"`
	Prefix string    `query:"prefix" maxLength:"200" doc:"Keys starting with this."`
	Tags   string    `query:"tags" maxLength:"2000" doc:"Only facts whose source episode has every one of these comma-separated tags."`
	Since  time.Time `query:"since" doc:"Only facts true from this time on (RFC 3339)."`
	Until  time.Time `query:"until" doc:"Only facts true from before this time (RFC 3339)."`
	Limit  int       `query:"limit" minimum:"1" maximum:"1000" default:"10" doc:"At most this many."`
	Offset int       `query:"offset" minimum:"0" doc:"Skip this many of the newest."`
}

type backfillInput struct {
	User  string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Limit int    `query:"limit" minimum:"1" maximum:"10000" default:"1000" doc:"Extract at most about this many episodes (whole batches of 64); call again while \"remaining\" is not 0."`
}

// registerEpisodes adds the episode, search, query and look-up operations.
func (s *Server) registerEpisodes() {
	huma.Register(s.api, s.op("add-episode", http.MethodPost, "/v1/users/{user}/episodes", tagEpisodes, "Store an episode",
		`Stores a narrative record. Unless no_extract is set, pattern extraction turns its
content into facts linked to it (versions, percentages, latencies, counts, statuses,
phases, dates), each with its confidence, in the same transaction; the answer lists
them.`), s.addEpisode)
	huma.Register(s.api, s.op("list-episodes", http.MethodGet, "/v1/users/{user}/episodes", tagEpisodes, "List episodes",
		`Lists the user's episodes, oldest first, filtered by tags and time. Paged: at most
limit episodes (default 100, at most 1000) from offset on, with the total that match.`), s.listEpisodes)
	huma.Register(s.api, s.op("get-episode", http.MethodGet, "/v1/users/{user}/episodes/{id}", tagEpisodes, "Get an episode",
		`Returns an episode and a page of the facts linked to it: at most limit facts
(default 100, at most 1000) from offset on; "more" says whether more follow.`, http.StatusNotFound), s.getEpisode)
	huma.Register(s.api, s.op("delete-episode", http.MethodDelete, "/v1/users/{user}/episodes/{id}", tagEpisodes, "Delete an episode",
		`Erases an episode with its search index entries and, unless keep_facts, every
version of the facts linked to it (the work grows with those facts).`, http.StatusNotFound), s.deleteEpisode)
	huma.Register(s.api, s.op("add-episode-facts", http.MethodPost, "/v1/users/{user}/episodes/{id}/facts", tagEpisodes, "Add facts to an episode",
		`Links facts to an episode by hand; each goes through the one write path.`, http.StatusNotFound), s.addEpisodeFacts)
	huma.Register(s.api, s.op("backfill-episodes", http.MethodPost, "/v1/users/{user}/episodes/backfill", tagEpisodes, "Extract facts from stored episodes",
		`Runs pattern extraction over the episodes stored without it, oldest first, in
batches of 64, one transaction each; an interrupted backfill resumes where it stopped.
One call extracts at most about limit episodes (default 1000, at most 10000) and
reports how many still wait in "remaining": call again until it is 0.`), s.backfillEpisodes)
	huma.Register(s.api, s.op("search-memory", http.MethodPost, "/v1/users/{user}/search", tagSearch, "Search facts and episodes",
		`Hybrid search: full-text (BM25) and vector candidates fused by reciprocal rank,
damped by recency at query time, boosted for facts about a subject the query names.
Every hit explains its score. At most limit hits (default 10, at most 100), the best
ones: a ranking, not a list to page through. Each index contributes at most
max(50, 4 × limit) candidates per kind. When the embedder cannot be reached, or the
user's stored vectors were made by another embedder, the search ranks by full text
alone and says why in "warnings".`), s.search)
	huma.Register(s.api, s.op("query-memory", http.MethodPost, "/v1/users/{user}/query", tagSearch, "Answer a question (hybrid query)",
		`Decides whether the question seeks a fact ("What is the NEXUS version?"), tries the
facts first when it does and falls back to a narrative search over episodes, and says
which source answered: the value of a fact, or passages of episodes (at most
passages of them, default 3, at most 20).`), s.query)
	huma.Register(s.api, s.op("lookup-facts", http.MethodGet, "/v1/users/{user}/lookup", tagSearch, "Look up facts directly",
		`The direct fact look-up: current facts of a type or key, newest first, with value,
source episode, confidence and time. Needs type, key or prefix. Paged: at most limit
facts (default 10, at most 1000) from offset on; "more" says whether more follow.`), s.lookup)
}

func (s *Server) addEpisode(ctx context.Context, in *addEpisodeInput) (*output[ingest.EpisodeResult], error) {
	b := in.Body
	ei := ingest.EpisodeInput{Content: b.Content, Tags: b.Tags, Importance: b.Importance, Metadata: b.Metadata, NoExtract: b.NoExtract}
	if b.CreatedAt != nil {
		ei.CreatedAt = *b.CreatedAt
	}
	ei.Facts = episodeFacts(b.Facts)
	return forUser(ctx, in.User, func(u factbase.UserID) (ingest.EpisodeResult, error) {
		return s.opts.Engine.Ingest.AddEpisode(ctx, u, ei)
	})
}

// episodeFacts returns the facts of bodies, in order.
func episodeFacts(bodies []episodeFactBody) []factbase.Fact {
	var facts []factbase.Fact
	for _, f := range bodies {
		facts = append(facts, f.fact())
	}
	return facts
}

func (s *Server) listEpisodes(ctx context.Context, in *listEpisodesInput) (*output[ingest.EpisodePage], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (ingest.EpisodePage, error) {
		return s.opts.Engine.Ingest.Episodes(ctx, u, factbase.EpisodeFilter{Tags: splitTags(in.Tags), From: in.Since, To: in.Until,
			Unextracted: in.Unextracted, NewestFirst: in.Newest, Limit: in.Limit, Offset: in.Offset})
	})
}

func (s *Server) getEpisode(ctx context.Context, in *episodeInput) (*output[episodeWithFacts], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (episodeWithFacts, error) {
		ep, err := s.opts.Engine.Ingest.Episode(ctx, u, in.ID)
		if err != nil {
			return episodeWithFacts{}, err
		}
		facts, more, err := s.opts.Engine.Ingest.EpisodeFacts(ctx, u, in.ID, in.History, in.Offset, in.Limit)
		return episodeWithFacts{Episode: ep, Facts: facts, Offset: in.Offset, Limit: in.Limit, More: more}, err
	})
}

func (s *Server) deleteEpisode(ctx context.Context, in *deleteEpisodeInput) (*output[ingest.DeleteResult], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (ingest.DeleteResult, error) {
		return s.opts.Engine.Ingest.DeleteEpisode(ctx, u, in.ID, in.KeepFacts)
	})
}

func (s *Server) addEpisodeFacts(ctx context.Context, in *addEpisodeFactsInput) (*output[factbase.Result], error) {
	facts := episodeFacts(in.Body.Facts)
	return forUser(ctx, in.User, func(u factbase.UserID) (factbase.Result, error) {
		return s.opts.Engine.Ingest.AddEpisodeFacts(ctx, u, in.ID, facts)
	})
}

func (s *Server) backfillEpisodes(ctx context.Context, in *backfillInput) (*output[ingest.BackfillResult], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (ingest.BackfillResult, error) {
		return s.opts.Engine.Ingest.BackfillEpisodes(ctx, u, in.Limit, nil)
	})
}

func (s *Server) search(ctx context.Context, in *searchInput) (*output[retrieve.SearchResult], error) {
	b := in.Body
	o := retrieve.SearchOptions{Kinds: b.Kinds, Limit: b.Limit, KeyPrefix: b.KeyPrefix, Type: b.Type,
		Category: factbase.Category(b.Category), Subject: b.Subject, MinConfidence: b.MinConfidence, Tags: b.Tags,
		IncludeSuperseded: b.IncludeSuperseded, Threshold: b.Threshold}
	if b.Since != nil {
		o.From = *b.Since
	}
	if b.Until != nil {
		o.To = *b.Until
	}
	return forUser(ctx, in.User, func(u factbase.UserID) (retrieve.SearchResult, error) {
		return s.opts.Engine.Retrieve.Search(ctx, u, b.Query, o)
	})
}

func (s *Server) query(ctx context.Context, in *queryInput) (*output[retrieve.QueryAnswer], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (retrieve.QueryAnswer, error) {
		return s.opts.Engine.Retrieve.Query(ctx, u, in.Body.Question, retrieve.QueryOptions{Prefer: in.Body.Prefer, Passages: in.Body.Passages})
	})
}

// lookupOutputBody is the body of a look-up; the name keeps the schema's name in the
// OpenAPI document.
type lookupOutputBody struct {
	Facts  []retrieve.LookupResult `json:"facts"`
	Offset int                     `json:"offset"`
	Limit  int                     `json:"limit"`
	More   bool                    `json:"more" doc:"More facts follow this page: ask again with offset+limit."`
}

func (s *Server) lookup(ctx context.Context, in *lookupInput) (*output[lookupOutputBody], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (lookupOutputBody, error) {
		rs, more, err := s.opts.Engine.Retrieve.Lookup(ctx, u, retrieve.LookupOptions{Type: in.Type, Key: in.Key, KeyPrefix: in.Prefix,
			Tags: splitTags(in.Tags), From: in.Since, To: in.Until, Limit: in.Limit, Offset: in.Offset})
		return lookupOutputBody{Facts: rs, Offset: in.Offset, Limit: in.Limit, More: more}, err
	})
}

// splitTags splits a comma-separated tags parameter.
func splitTags(s string) []string {
	var out []string
	for _, t := range strings.Split(s, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}
