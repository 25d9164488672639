package server

import (
	"bytes"
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/userdata"
)

type exportInput struct {
	User    string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Vectors bool   `query:"vectors" doc:"Include the embeddings (large)."`
}

type importInput struct {
	User    string `path:"user" doc:"The user's id, a UUID: the user the data is imported into." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	RawBody []byte `contentType:"application/x-ndjson" doc:"An export (docs/export-format.md)."`
}

type importResult struct {
	User   factbase.UserID `json:"user"`
	Counts map[string]int  `json:"counts" doc:"Rows imported per table, counted in the store after the import."`
}

func (s *Server) registerExport() {
	huma.Register(s.api, s.op("export-user", http.MethodGet, "/v1/users/{user}/export", tagUsers, "Export everything a user owns",
		`Streams everything the user owns, read in one snapshot, as Factbase's export format
(JSON lines, application/x-ndjson; docs/export-format.md): facts with their history,
list events, references, people, conflicts, episodes, transcript state, preference
sessions and saved sheets; the embeddings with vectors=true. Recorded in the audit
trail.`), s.exportUser)
	huma.Register(s.api, s.op("import-user", http.MethodPost, "/v1/users/{user}/import", tagUsers, "Import an export into a user",
		`Loads an export into the user in one transaction (its saved sheets after), refusing a
user who already has data (409), a file of a newer format version, a file cut short or
malformed (422 naming the line). Into another user id than the export's, every id is
renewed. The rows are counted afterwards. The body is bounded by the server's
--max-body (default 1 MiB); import larger files with "factbase import". Recorded in the
audit trail.`, http.StatusConflict), s.importUser)
}

func (s *Server) exportUser(ctx context.Context, in *exportInput) (*huma.StreamResponse, error) {
	u, err := factbase.ParseUserID(in.User)
	if err != nil {
		return nil, fail(ctx, err)
	}
	d, err := userdata.Read(ctx, s.opts.Engine.Store(), u)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		hctx.SetHeader("Content-Type", "application/x-ndjson")
		hctx.SetHeader("Content-Disposition", `attachment; filename="factbase-`+string(u)+`.jsonl"`)
		counts, err := userdata.Encode(hctx.BodyWriter(), u, d, time.Now(), in.Vectors)
		if err != nil {
			logger(ctx).Warn("export cut short", errAttr(err))
			return
		}
		s.opts.Engine.Audit(ctx, factbase.AuditExport, u, "", counts)
	}}, nil
}

func (s *Server) importUser(ctx context.Context, in *importInput) (*output[importResult], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (importResult, error) {
		h, d, err := userdata.Decode(bytes.NewReader(in.RawBody))
		if err != nil {
			return importResult{}, err
		}
		if u != h.User {
			d.Retarget(u)
			d.Renew(s.opts.Engine.NewID)
		}
		d.Counts = userdata.Expected(d)
		st := s.opts.Engine.Store()
		if err := userdata.Refuse(ctx, st, []factbase.UserID{u}); err != nil {
			return importResult{}, err
		}
		if err := userdata.Write(ctx, st, u, d); err != nil {
			return importResult{}, err
		}
		counts, err := userdata.Verify(ctx, st, u, d)
		if err != nil {
			return importResult{}, err
		}
		s.opts.Engine.Audit(ctx, factbase.AuditImport, u, "factbase", counts)
		return importResult{User: u, Counts: counts}, nil
	})
}
