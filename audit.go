package factbase

import (
	"context"
	"time"
)

// The actions an audit entry records.
const (
	AuditUserErase      = "user.erase"      // every row of a user erased (counts by table)
	AuditFactsDelete    = "facts.delete"    // facts erased with their history (OpDelete, forget)
	AuditEntityDelete   = "entity.delete"   // a person and every fact about them erased
	AuditEntityMerge    = "entity.merge"    // two people merged (Target: "into <- from")
	AuditEntitySplit    = "entity.split"    // facts of a person moved to a new one
	AuditConflictDecide = "conflict.decide" // a pending change confirmed or rejected
	AuditKeyCreate      = "key.create"      // an API key made
	AuditKeyRevoke      = "key.revoke"      // an API key revoked
	AuditExport         = "user.export"     // a user's data exported (counts by kind)
	AuditImport         = "user.import"     // data imported into a user (counts by kind)
	AuditDataKeyRotate  = "datakey.rotate"  // the data key rotated (Target: "old -> new", counts by table)
)

// Bounds of the audit trail.
const (
	DefaultAuditLimit = 100 // entries an Audit read returns by default
	MaxAuditLimit     = 1000

	auditActorUnknown   = "unknown" // no actor in the context
	maxAuditTarget      = 500       // bytes of an entry's target kept
	maxAuditCounts      = 32        // counts kept per entry
	auditActorMaxLength = 200       // bytes of an actor kept
)

// AuditEntry records one privacy-relevant operation: when, by whom (which API key,
// or the command line), what, on which user and ids, and how many rows. It never
// holds the text of what was erased, exported or decided: ids and counts only.
type AuditEntry struct {
	ID     string         `json:"id"` // time-sortable
	At     time.Time      `json:"at"`
	Actor  string         `json:"actor"`  // "key:<id>", "cli", "mcp:key:<id>", "unknown"
	Action string         `json:"action"` // one of the Audit* actions
	User   UserID         `json:"user,omitempty"`
	Target string         `json:"target,omitempty"` // ids the action was on
	Counts map[string]int `json:"counts,omitempty"` // rows by kind
}

// Validate reports whether e can be appended: an id, an action, a valid user when
// one is named, and bounded sizes. Returns EINVALID otherwise.
func (e AuditEntry) Validate() error {
	switch {
	case e.ID == "" || len(e.ID) > 64:
		return Errorf(EINVALID, "an audit entry needs an id of at most 64 bytes")
	case e.Action == "" || len(e.Action) > 64:
		return Errorf(EINVALID, "an audit entry needs an action of at most 64 bytes")
	case e.User != "" && !e.User.Valid():
		return e.User.Validate()
	case len(e.Actor) > auditActorMaxLength || len(e.Target) > maxAuditTarget || len(e.Counts) > maxAuditCounts:
		return Errorf(EINVALID, "an audit entry's actor, target or counts are too long")
	}
	return nil
}

// AuditFilter selects audit entries. Zero fields do not filter.
type AuditFilter struct {
	User   UserID
	Action string
	Before string // entries older than the entry with this id (the next page)
	Limit  int    // 0: DefaultAuditLimit; at most MaxAuditLimit
}

// WithDefaults returns f with its zero Limit set, or EINVALID for a limit out of range.
func (f AuditFilter) WithDefaults() (AuditFilter, error) {
	switch {
	case f.Limit == 0:
		f.Limit = DefaultAuditLimit
	case f.Limit < 0 || f.Limit > MaxAuditLimit:
		return f, Errorf(EINVALID, "limit %d is outside 1..%d", f.Limit, MaxAuditLimit)
	}
	return f, nil
}

// AuditStore keeps the audit trail: append-only (no entry is changed or deleted, and
// a user's erasure keeps the entries that name the user, which hold no content).
type AuditStore interface {
	// AppendAudit stores e (At set by the store when zero). EINVALID if e fails
	// AuditEntry.Validate; ECONFLICT for a taken id.
	AppendAudit(ctx context.Context, e AuditEntry) error
	// Audit returns the entries f selects, newest first.
	Audit(ctx context.Context, f AuditFilter) ([]AuditEntry, error)
}

type actorKey struct{}

// WithActor returns ctx naming who acts in it, for the audit trail.
func WithActor(ctx context.Context, actor string) context.Context {
	return context.WithValue(ctx, actorKey{}, actor)
}

// ActorOf returns who acts in ctx (WithActor), "unknown" when nobody was named.
func ActorOf(ctx context.Context) string {
	if a, ok := ctx.Value(actorKey{}).(string); ok && a != "" {
		if len(a) > auditActorMaxLength {
			a = a[:auditActorMaxLength]
		}
		return a
	}
	return auditActorUnknown
}

// ClipAuditTarget cuts a target to what an entry keeps.
func ClipAuditTarget(s string) string {
	if len(s) > maxAuditTarget {
		return s[:maxAuditTarget]
	}
	return s
}
