package server

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
)

// me says whose data the caller's key opens.
type me struct {
	Key  string `json:"key,omitempty" doc:"The key's id; empty on an open server."`
	Kind string `json:"kind" enum:"user,application,open" doc:"user: a key for one user; application: a key for every user; open: the server needs no key."`
	User string `json:"user,omitempty" doc:"The one user a user key is for."`
}

type meOutput struct {
	Body me
}

func (s *Server) registerMe() {
	huma.Register(s.api, s.op("get-me", http.MethodGet, "/v1/me", tagUsers, "Who am I",
		"Says which key the request carries and whose data it opens: a user key's user, or every user for an application key. The web page uses it after sign-in."),
		func(ctx context.Context, _ *struct{}) (*meOutput, error) {
			if s.opts.NoAuth {
				return &meOutput{Body: me{Kind: "open"}}, nil
			}
			ri := reqInfoFrom(ctx)
			if ri == nil || ri.keyID == "" {
				return nil, huma.Error401Unauthorized("missing API key")
			}
			if ri.keyUser == "" {
				return &meOutput{Body: me{Key: ri.keyID, Kind: "application"}}, nil
			}
			return &meOutput{Body: me{Key: ri.keyID, Kind: "user", User: string(ri.keyUser)}}, nil
		})
}
