// Package retrieve is the engine's retrieval service: hybrid search (full text and
// vectors, fused) over a user's facts and episodes, the direct look-up of facts by
// type, the hybrid query that tries facts before narrative, and re-embedding when
// the embedder's model changes.
//
// Its door is Service; it reads through the engine core and writes vectors through
// the core's write path.
package retrieve

import "github.com/factbase/factbase/memory/core"

// Service is the retrieval service. It is safe for concurrent use.
type Service struct {
	core *core.Engine
}

// New returns the retrieval service over an engine core.
func New(c *core.Engine) *Service { return &Service{core: c} }
