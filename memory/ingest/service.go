// Package ingest is the engine's ingest service: narrative episodes (stored,
// searched, their facts extracted by patterns on creation or by a backfill) and
// coding-agent session transcripts (JSONL files read in batches, resumable and
// idempotent, their facts stored through the write path).
//
// Its door is Service; it writes through the engine core.
package ingest

import "github.com/factbase/factbase/memory/core"

// Service is the ingest service. It is safe for concurrent use.
type Service struct {
	core *core.Engine
}

// New returns the ingest service over an engine core.
func New(c *core.Engine) *Service { return &Service{core: c} }
