package factbase

import (
	"context"
	"strings"
	"time"
)

// Role is an entity's relationship to the user, coarse enough to compare: the words
// of the relation ("son", "wife", "son's friend") are kept in Entity.Relation.
type Role string

// The roles.
const (
	RolePartner   Role = "partner"
	RoleChild     Role = "child"
	RoleParent    Role = "parent"
	RoleSibling   Role = "sibling"
	RoleFriend    Role = "friend"
	RoleColleague Role = "colleague"
	RolePet       Role = "pet"
	RoleService   Role = "service_provider"
	RoleOther     Role = "other"
)

// Roles lists the roles.
var Roles = []Role{RolePartner, RoleChild, RoleParent, RoleSibling, RoleFriend, RoleColleague, RolePet, RoleService, RoleOther}

// ParseRole validates s as a role; "service provider" and "service-provider" are
// accepted for RoleService, "" is RoleOther.
func ParseRole(s string) (Role, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.NewReplacer(" ", "_", "-", "_").Replace(s)
	if s == "" {
		return RoleOther, nil
	}
	for _, r := range Roles {
		if string(r) == s {
			return r, nil
		}
	}
	return "", Errorf(EINVALID, "role %q is not one of partner, child, parent, sibling, friend, colleague, pet, service_provider, other", s)
}

// Entity is a person (or pet) a user talks about. Facts about it have the subject
// EntitySubject(ID); facts it stated have SaidBy EntitySubject(ID).
type Entity struct {
	ID   string `json:"id"` // time-sortable (UUIDv7)
	User UserID `json:"user"`
	// Name is the display name; "" while only the relation is known ("my son").
	Name string `json:"name"`
	Role Role   `json:"role"`
	// Relation is the relation in words, as the user put it: "son", "wife", "son's
	// friend", "accountant"; "" when unknown.
	Relation string   `json:"relation,omitempty"`
	Aliases  []string `json:"aliases"`
	// Attributes are known attributes used to tell entities apart (e.g. "age").
	Attributes map[string]string `json:"attributes,omitempty"`
	CreatedAt  time.Time         `json:"created_at"`
	UpdatedAt  time.Time         `json:"updated_at"`
	// MergedInto is the id of the entity this one was merged into; "" while it
	// stands on its own. A merged entity keeps its history but takes no new facts.
	MergedInto string `json:"merged_into,omitempty"`
}

// Subject returns the fact subject of the entity.
func (e Entity) Subject() string { return EntitySubject(e.ID) }

// Label names the entity for people: its name, or "your <relation>" when it has none.
func (e Entity) Label() string {
	switch {
	case e.Name != "":
		return e.Name
	case e.Relation != "":
		return "your " + e.Relation
	}
	return "someone (" + string(e.Role) + ")"
}

// Validate reports whether e can be stored (PeopleTx.PutEntity): it needs an id.
// Returns EINVALID otherwise.
func (e Entity) Validate() error {
	if e.ID == "" {
		return Errorf(EINVALID, "entity has no id")
	}
	return nil
}

// EntityID returns the entity id of an "entity:<id>" subject or said-by value; ok is
// false for anything else.
func EntityID(subject string) (id string, ok bool) {
	id, ok = strings.CutPrefix(subject, "entity:")
	return id, ok && id != ""
}

// Limits of an entity.
const (
	MaxEntityName = 200 // bytes of a name, alias or relation
	MaxAliases    = 32
)

// ConflictStatus is where a conflict stands.
type ConflictStatus string

// The conflict statuses.
const (
	ConflictPending   ConflictStatus = "pending"
	ConflictConfirmed ConflictStatus = "confirmed"
	ConflictRejected  ConflictStatus = "rejected"
)

// Conflict is a change to a single-valued fact that waits for the user: the value
// that is current, the value proposed, where the proposal came from and when.
// Confirming applies Proposed through the write path (superseding the current fact);
// rejecting records the decision and changes nothing.
type Conflict struct {
	ID      string `json:"id"`
	User    UserID `json:"user"`
	Subject string `json:"subject"`
	Key     string `json:"key"`
	// CurrentID and CurrentValue are the fact that was current when the change was
	// proposed.
	CurrentID    string `json:"current_id"`
	CurrentValue string `json:"current_value"`
	// Proposed is the fact template the change would write (value, source, said-by,
	// confidence, text, ...).
	Proposed Fact `json:"proposed"`
	// Reason says why the change was queued rather than applied.
	Reason     string         `json:"reason"`
	Status     ConflictStatus `json:"status"`
	CreatedAt  time.Time      `json:"created_at"`
	ResolvedAt *time.Time     `json:"resolved_at,omitempty"`
	// ResultID is the fact a confirmation wrote (or found already current).
	ResultID string `json:"result_id,omitempty"`
}

// Validate reports whether c can be stored (PeopleTx.PutConflict): it needs an id, a
// subject, a key and one of the statuses. Returns EINVALID otherwise.
func (c Conflict) Validate() error {
	if c.ID == "" || c.Subject == "" || c.Key == "" {
		return Errorf(EINVALID, "conflict needs an id, a subject and a key")
	}
	switch c.Status {
	case ConflictPending, ConflictConfirmed, ConflictRejected:
		return nil
	}
	return Errorf(EINVALID, "conflict status %q is not pending, confirmed or rejected", c.Status)
}

// ConflictFilter selects conflicts. Zero fields do not filter.
type ConflictFilter struct {
	Status  ConflictStatus
	Subject string
	Key     string
	Limit   int // 0: no limit
	Offset  int
}

// EntityFilter selects entities. The zero value selects every entity, merged ones
// included.
type EntityFilter struct {
	// Live leaves out the entities merged into another.
	Live   bool
	Limit  int // 0: no limit
	Offset int
}

// PeopleReadTx is what the people features read in one transaction: entities,
// conflicts, facts by time anchor and the sessions a preference was stated in.
// Methods return EUNAVAILABLE when the store cannot be reached.
type PeopleReadTx interface {
	// Entities returns the user's entities f selects, oldest first (by created time,
	// then id).
	Entities(ctx context.Context, f EntityFilter) ([]Entity, error)
	// Entity returns one entity by id. ENOTFOUND if the user has none.
	Entity(ctx context.Context, id string) (Entity, error)
	// Conflicts returns the conflicts matching f, oldest first (by created time, then
	// id).
	Conflicts(ctx context.Context, f ConflictFilter) ([]Conflict, error)
	// Conflict returns one conflict by id. ENOTFOUND if the user has none.
	Conflict(ctx context.Context, id string) (Conflict, error)
	// AnchoredFacts returns the current facts whose time anchor is in [from, to),
	// by anchor, at most limit of them (0: no limit).
	AnchoredFacts(ctx context.Context, from, to time.Time, limit int) ([]Fact, error)
	// PreferenceSessions returns the distinct sessions in which the value with
	// normalised form norm was stated for key, sorted.
	PreferenceSessions(ctx context.Context, key, norm string) ([]string, error)
}

// PeopleTx writes entities and conflicts inside the write path's transaction
// (memory.Engine.ApplyWith), so that an entity and the facts about it commit
// together.
type PeopleTx interface {
	// PutEntity creates the entity e.ID or replaces all its fields. e.CreatedAt is
	// kept from the first write; UpdatedAt is set to the transaction's time. EINVALID
	// if e fails Entity.Validate.
	PutEntity(ctx context.Context, e Entity) error
	// DeleteEntity erases entity id and its conflicts (not its facts: the write path
	// erases those) and returns the number of entities deleted, 0 or 1.
	DeleteEntity(ctx context.Context, id string) (int, error)
	// PutConflict creates conflict c.ID or replaces it (to resolve it). EINVALID if c
	// fails Conflict.Validate.
	PutConflict(ctx context.Context, c Conflict) error
	// NotePreferenceSession records that the value norm of key was stated in session;
	// recording it again is a no-op.
	NotePreferenceSession(ctx context.Context, key, norm, session string) error
}
