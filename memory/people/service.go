// Package people is the engine's people service: the personal facts of a message
// (about the user and the people they name) planned for the write path, the
// entities those facts are about (create, rename, alias, merge, split, delete), and
// the conflicts a changed value waits in until the user confirms or rejects it.
//
// Its door is Service; other services call it, never its files' helpers. The rules
// that read a message are package personal (pure); this package adds the user's
// stored entities, conflicts and preference sessions, and writes through the core.
package people

import "github.com/factbase/factbase/memory/core"

// Service is the people service. It is safe for concurrent use.
type Service struct {
	core *core.Engine
	opts Options
}

// New returns the people service over an engine core.
func New(c *core.Engine, o Options) *Service { return &Service{core: c, opts: o} }
