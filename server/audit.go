package server

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
)

type auditInput struct {
	User   string `query:"user" doc:"Only the entries of this user (a UUID)."`
	Action string `query:"action" maxLength:"64" doc:"Only entries of this action, e.g. user.erase, entity.merge, key.create."`
	Limit  int    `query:"limit" minimum:"1" maximum:"1000" default:"100" doc:"At most this many."`
	Before string `query:"before" maxLength:"64" doc:"Only entries older than the entry with this id (the next page)."`
}

type auditList struct {
	Entries []factbase.AuditEntry `json:"entries" doc:"Newest first."`
}

func (s *Server) registerAudit() {
	huma.Register(s.api, s.op("list-audit-entries", http.MethodGet, "/v1/audit", tagUsers, "Read the audit trail",
		`The privacy-relevant operations, newest first: erasures (of a user, of facts, of a
person), merges and splits of people, conflict decisions, API keys created and revoked.
Each entry says when, which key (or the command line) acted, what, on which user and ids,
and how many rows; never the text of what was erased. The trail is append-only and a
user's erasure keeps it. Only an application key (one for every user) may read it.`), s.listAudit)
}

func (s *Server) listAudit(ctx context.Context, in *auditInput) (*output[auditList], error) {
	if ri := reqInfoFrom(ctx); ri != nil && ri.keyID != "" && ri.keyUser != "" {
		return nil, huma.NewError(http.StatusForbidden, "API key "+ri.keyID+" is for one user; the audit trail needs an application key")
	}
	f := factbase.AuditFilter{Action: in.Action, Limit: in.Limit, Before: in.Before}
	if in.User != "" {
		u, err := factbase.ParseUserID(in.User)
		if err != nil {
			return nil, fail(ctx, err)
		}
		f.User = u
	}
	entries, err := s.opts.Engine.Store().Audit(ctx, f)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &output[auditList]{Body: auditList{Entries: entries}}, nil
}
