package server

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
)

func (s *Server) registerUsers() {
	huma.Register(s.api, s.op("erase-user", http.MethodDelete, "/v1/users/{user}", tagUsers,
		"Erase a user",
		`Deletes everything the user owns, in one transaction: facts and their history, ranked
lists, references, embeddings and full-text entries, episodes, transcripts, people,
conflicts, saved fact sheets, queued jobs and the API keys made for that user (so a user
key that erases its own user stops working). Before commit the store checks that no row
of the user is left; after it, the store purges what it can, and purged says whether its
data files are free of the user's rows (SQLite: deleted content is overwritten and the
write-ahead log truncated; PostgreSQL: the tables are vacuumed, and purged is true only
when the store is set to rewrite them, factbase_purge=full). Returns the rows removed per
table. 404 if the user has no data.`, http.StatusNotFound), s.eraseUser)
}

func (s *Server) eraseUser(ctx context.Context, in *userInput) (*output[factbase.UserErasure], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (factbase.UserErasure, error) {
		res, err := s.opts.Engine.EraseUser(ctx, u)
		if err == nil && s.keys != nil {
			s.keys.forgetUser(u) // the erased user's keys are gone from the store: now, not at expiry
		}
		return res, err
	})
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
