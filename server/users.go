package server

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
)

type eraseUserInput struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
}

type eraseUserOutput struct {
	Body factbase.UserErasure
}

func (s *Server) registerUsers() {
	huma.Register(s.api, s.op("eraseUser", http.MethodDelete, "/v1/users/{user}", "Operations",
		"Erase a user",
		`Deletes everything the user owns, in one transaction: facts and their history, ranked
lists, references, embeddings and full-text entries, episodes, transcripts, people,
conflicts, saved fact sheets, queued jobs and the API keys made for that user (so a user
key that erases its own user stops working). Before commit the store checks that no row
of the user is left; after it, the freed space is purged (SQLite: deleted content is
overwritten and the write-ahead log truncated). Returns the rows removed per table. 404
if the user has no data.`, http.StatusNotFound), s.eraseUser)
}

func (s *Server) eraseUser(ctx context.Context, in *eraseUserInput) (*eraseUserOutput, error) {
	u, err := parseUser(ctx, in.User)
	if err != nil {
		return nil, err
	}
	res, err := s.opts.Engine.EraseUser(ctx, u)
	if err != nil {
		return nil, fail(ctx, err)
	}
	if s.keys != nil {
		s.keys.forgetUser(u) // the erased user's keys are gone from the store: now, not at expiry
	}
	return &eraseUserOutput{Body: res}, nil
}

// forgetUser drops the cached keys of user u.
func (c *keyCache) forgetUser(u factbase.UserID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for h, ck := range c.m {
		if ck.key.User == u {
			delete(c.m, h)
		}
	}
}
