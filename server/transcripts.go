package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/transcript"
)

// uploadTranscriptInput is a transcript upload: the JSONL body is not parsed by huma
// but streamed by the handler (see Resolve).
type uploadTranscriptInput struct {
	User     string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	File     string `query:"file" required:"true" minLength:"1" maxLength:"4096" doc:"The transcript's name, the same on every upload of the same file (e.g. its path on the agent's machine): the checkpoint is kept under it, so an upload of a grown file stores only its new lines." example:"/home/anna/.claude/projects/homelab/5f3c1a9e.jsonl"`
	Finished bool   `query:"finished" doc:"The file is complete: read a last line that has no newline. By default such a line is left for the next upload."`
	Redact   bool   `query:"redact" doc:"Mask passwords and tokens in stored commands."`

	body io.Reader
}

// Resolve takes the request body as a stream.
func (in *uploadTranscriptInput) Resolve(ctx huma.Context) []error {
	in.body = ctx.BodyReader()
	return nil
}

type transcriptQueryInput struct {
	User          string  `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Predicate     string  `query:"predicate" maxLength:"200" doc:"Only this predicate." example:"connects_to_host"`
	Subject       string  `query:"subject" maxLength:"200" doc:"Only this subject (task_<uuid>, action_<uuid>)."`
	Session       string  `query:"session" maxLength:"200" doc:"Only facts of this session id."`
	Object        string  `query:"object" maxLength:"4096" doc:"Only objects containing this text (ASCII letters compared without case)." example:"192.168."`
	MinConfidence float64 `query:"min_confidence" minimum:"0" maximum:"1" doc:"Only facts with at least this confidence." example:"0.8"`
	Limit         int     `query:"limit" minimum:"1" maximum:"10000" default:"1000" doc:"At most this many facts (objects for /objects)."`
	Offset        int     `query:"offset" minimum:"0" doc:"Skip this many first."`
}

func (in *transcriptQueryInput) query() factbase.TranscriptQuery {
	return factbase.TranscriptQuery{Predicate: in.Predicate, Subject: in.Subject, Session: in.Session,
		ObjectContains: in.Object, MinConfidence: in.MinConfidence, Limit: in.Limit, Offset: in.Offset}
}

// transcriptFact is a fact from a transcript as the API shows it.
type transcriptFact struct {
	ID         string          `json:"id"`
	Subject    string          `json:"subject" doc:"task_<uuid> (a user's request) or action_<uuid> (an assistant message)."`
	Predicate  string          `json:"predicate" example:"connects_to_host"`
	Object     string          `json:"object" example:"192.168.20.4"`
	Confidence float64         `json:"confidence" example:"0.9"`
	Extractor  string          `json:"extractor" doc:"The rule that found it; structural for tasks, actions, tools and commands." example:"ssh-target"`
	ValidFrom  time.Time       `json:"valid_from" doc:"The message's time."`
	Source     factbase.Source `json:"source" doc:"Kind transcript, id file:line:message-uuid."`
}

type transcriptSessionsInput struct {
	User   string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	ID     string `query:"id" maxLength:"200" doc:"Only this session (one row per file that holds it)."`
	Offset int    `query:"offset" minimum:"0" doc:"Skip this many sessions."`
	Limit  int    `query:"limit" minimum:"1" maximum:"1000" default:"100" doc:"At most this many sessions."`
}

func (s *Server) registerTranscripts() {
	up := s.op("upload-transcript", http.MethodPost, "/v1/users/{user}/transcripts", tagTranscripts,
		"Ingest an agent session transcript",
		`Reads an agent session log (JSONL, one message per line, such as Claude Code's
~/.claude/projects/*/*.jsonl) from the request body, streamed, and stores its facts:
tasks, actions, tools used and commands run (confidence 1.0), and pattern facts
(hosts connected to 0.9, operation types 0.8, paths 0.8, systems 0.7, ...).

Upload the whole file each time under the same "file" name: what was stored before is
recognised by its checksum and only the lines after it are read; a file that was
rewritten is read again from the start. Malformed lines are counted and listed in the
summary and skipped. The server's request body limit applies ("factbase serve
--max-body"); the CLI ("factbase ingest transcript") has none.`, http.StatusConflict)
	up.RequestBody = &huma.RequestBody{
		Description: "The transcript: JSON Lines.",
		Required:    true,
		Content: map[string]*huma.MediaType{
			"application/x-ndjson": {Schema: &huma.Schema{Type: "string", Format: "binary"}},
		},
	}
	huma.Register(s.api, up, s.uploadTranscript)
	huma.Register(s.api, s.op("list-transcript-facts", http.MethodGet, "/v1/users/{user}/transcripts/facts", tagTranscripts,
		"Query facts from transcripts",
		`Lists the current facts ingested from transcripts, oldest first, filtered by
predicate, subject, session, object substring and minimum confidence. Paged: at most
limit facts (default 1000, at most 10000) from offset on; "more" says whether more
follow.`), s.transcriptFacts)
	huma.Register(s.api, s.op("list-transcript-objects", http.MethodGet, "/v1/users/{user}/transcripts/objects", tagTranscripts,
		"Group transcript facts by object",
		`Groups the facts the same filters select by object, most facts first, with the
sessions they came from: for example every host the user's agents connected to
(predicate=connects_to_host). Paged: at most limit objects (default 1000, at most 10000)
from offset on; "more" says whether more follow. Each object lists at most 100 of its
sessions, the least first, and counts them all in sessions_total. The grouping counts
every fact the filters select, so a narrow filter is the cheap one.`), s.transcriptObjects)
	huma.Register(s.api, s.op("list-transcript-sessions", http.MethodGet, "/v1/users/{user}/transcripts/sessions", tagTranscripts,
		"List transcript sessions",
		`Lists the agent sessions found in ingested transcripts, by first message time: file,
project directory, branch, first and last message time, and message counts. Paged: at
most limit sessions (default 100, at most 1000) from offset on; "more" says whether more
follow.`), s.transcriptSessions)
}

func (s *Server) uploadTranscript(ctx context.Context, in *uploadTranscriptInput) (*output[ingest.IngestSummary], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (ingest.IngestSummary, error) {
		if in.body == nil {
			return ingest.IngestSummary{}, factbase.Errorf(factbase.EINVALID, "the request has no body; send the transcript's lines")
		}
		// The engine reads the file twice when it resumes (it re-hashes the part stored
		// before, and reads it from the start again if it changed), so the body is
		// spooled to a temporary file first: streamed, never held in memory.
		tmp, err := os.CreateTemp("", "factbase-transcript-*.jsonl")
		if err != nil {
			return ingest.IngestSummary{}, &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "cannot store the upload", Err: err}
		}
		defer os.Remove(tmp.Name())
		defer tmp.Close()
		if _, err := io.Copy(tmp, in.body); err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return ingest.IngestSummary{}, factbase.Errorf(factbase.ETOOLARGE, "request body is larger than the limit of %d bytes", mbe.Limit)
			}
			return ingest.IngestSummary{}, &factbase.Error{Code: factbase.EINVALID, Message: "cannot read the request body", Err: err}
		}
		return s.opts.Engine.Ingest.IngestTranscript(ctx, u, tmp, in.File, ingest.IngestOptions{Finished: in.Finished,
			Extractor: transcript.ExtractorOptions{Redact: in.Redact}})
	})
}

// transcriptFactsOutputBody is the body of a transcript fact query; the name keeps the
// schema's name in the OpenAPI document (likewise the two below).
type transcriptFactsOutputBody struct {
	Facts []transcriptFact `json:"facts"`
	More  bool             `json:"more" doc:"More facts follow this page: ask again with offset+limit."`
}

type transcriptObjectsOutputBody struct {
	Objects []factbase.TranscriptObject `json:"objects"`
	More    bool                        `json:"more" doc:"More objects follow this page: ask again with offset+limit."`
}

type transcriptSessionsOutputBody struct {
	Sessions []factbase.TranscriptSession `json:"sessions"`
	More     bool                         `json:"more" doc:"More sessions follow this page: ask again with offset+limit."`
}

func (s *Server) transcriptFacts(ctx context.Context, in *transcriptQueryInput) (*output[transcriptFactsOutputBody], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (transcriptFactsOutputBody, error) {
		facts, more, err := s.opts.Engine.Ingest.TranscriptFacts(ctx, u, in.query())
		out := transcriptFactsOutputBody{Facts: make([]transcriptFact, len(facts)), More: more}
		for i, f := range facts {
			out.Facts[i] = transcriptFact{ID: f.ID, Subject: f.Subject, Predicate: f.Key, Object: f.Value,
				Confidence: f.Confidence, Extractor: f.Extractor, ValidFrom: f.ValidFrom, Source: f.Source}
		}
		return out, err
	})
}

func (s *Server) transcriptObjects(ctx context.Context, in *transcriptQueryInput) (*output[transcriptObjectsOutputBody], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (transcriptObjectsOutputBody, error) {
		objs, more, err := s.opts.Engine.Ingest.TranscriptObjects(ctx, u, in.query())
		if objs == nil {
			objs = []factbase.TranscriptObject{}
		}
		return transcriptObjectsOutputBody{Objects: objs, More: more}, err
	})
}

func (s *Server) transcriptSessions(ctx context.Context, in *transcriptSessionsInput) (*output[transcriptSessionsOutputBody], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (transcriptSessionsOutputBody, error) {
		ss, more, err := s.opts.Engine.Ingest.TranscriptSessions(ctx, u, in.ID, in.Offset, in.Limit)
		return transcriptSessionsOutputBody{Sessions: ss, More: more}, err
	})
}
