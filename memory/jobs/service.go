// Package jobs is the engine's background work: remember jobs, queued in the
// store's durable job queue, run by a pool of workers that apply the rules and a
// model's extraction to a message and commit its facts with the job's completion,
// exactly once.
//
// Its door is Service (Remember, NewWorkers, the job queue's reads). It plans with
// the chat and people services and writes through the engine core.
package jobs

import (
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/people"
)

// Service is the background-work service. It is safe for concurrent use.
type Service struct {
	core   *core.Engine
	chat   *chat.Service
	people *people.Service
}

// New returns the background-work service over an engine core and the services it
// plans with.
func New(c *core.Engine, ch *chat.Service, p *people.Service) *Service {
	return &Service{core: c, chat: ch, people: p}
}
