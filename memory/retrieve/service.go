// Package retrieve is the engine's retrieval service: hybrid search (full text and
// vectors, fused) over a user's facts and episodes, the direct look-up of facts by
// type, the hybrid query that tries facts before narrative, and re-embedding when
// the embedder's model changes.
//
// Its door is Service; it reads through the engine core and writes vectors through
// the core's write path.
package retrieve

import (
	"log/slog"

	"github.com/factbase/factbase/memory/core"
)

// Options configure a Service. The zero value is usable.
type Options struct {
	// Logger receives one warning for each search that ranked by full text alone
	// because the embedder failed or the user's stored vectors are of another
	// embedder (the search result's Warnings). Default: none.
	Logger *slog.Logger
}

// Service is the retrieval service. It is safe for concurrent use.
type Service struct {
	core *core.Engine
	log  *slog.Logger
}

// New returns the retrieval service over an engine core.
func New(c *core.Engine, o Options) *Service {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{core: c, log: o.Logger}
}
