package rowcodec

import (
	"encoding/json"
	"time"

	"github.com/factbase/factbase"
)

// Owner decodes the rows of one user's tables. A row names its owner by the store's
// own key (a row number, a UUID column); the decoded values take the user id from
// here.
type Owner factbase.UserID

// EntityColumns are the columns of an entity, in the order Owner.Entity reads them
// and EntityArgs writes them (after the owner).
const EntityColumns = `id, name, role, relation, aliases, attributes, created_at, updated_at, merged_into`

// Entity reads an entity selected with EntityColumns: its aliases never nil, its
// attributes nil when there are none.
func (o Owner) Entity(r Scanner) (factbase.Entity, error) {
	var (
		e                    factbase.Entity
		role, aliases, attrs string
		created, updated     int64
	)
	if err := r.Scan(&e.ID, &e.Name, &role, &e.Relation, &aliases, &attrs, &created, &updated, &e.MergedInto); err != nil {
		return e, err
	}
	e.User, e.Role = factbase.UserID(o), factbase.Role(role)
	e.CreatedAt, e.UpdatedAt = Time(created), Time(updated)
	if err := json.Unmarshal([]byte(aliases), &e.Aliases); err != nil {
		return e, factbase.Errorf(factbase.EINTERNAL, "entity %s: aliases are not JSON: %v", e.ID, err)
	}
	e.Aliases = NonNil(e.Aliases)
	if err := json.Unmarshal([]byte(attrs), &e.Attributes); err != nil {
		return e, factbase.Errorf(factbase.EINTERNAL, "entity %s: attributes are not JSON: %v", e.ID, err)
	}
	if len(e.Attributes) == 0 {
		e.Attributes = nil
	}
	return e, nil
}

// EntityArgs returns the arguments of an entity's upsert: owner, then EntityColumns.
// It validates e (factbase.Entity.Validate); nil aliases and attributes are stored
// as an empty array and object, and a zero CreatedAt or UpdatedAt as now.
func EntityArgs(owner any, e factbase.Entity, now time.Time) ([]any, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	al, err := json.Marshal(NonNil(e.Aliases))
	if err != nil {
		return nil, factbase.Errorf(factbase.EINVALID, "entity %s: aliases: %v", e.ID, err)
	}
	attrs := e.Attributes
	if attrs == nil {
		attrs = map[string]string{}
	}
	at, err := json.Marshal(attrs)
	if err != nil {
		return nil, factbase.Errorf(factbase.EINVALID, "entity %s: attributes: %v", e.ID, err)
	}
	// The writer's times are kept (a copy or an import keeps them); a zero time is
	// the transaction's.
	created, updated := e.CreatedAt, e.UpdatedAt
	if created.IsZero() {
		created = now
	}
	if updated.IsZero() {
		updated = now
	}
	return []any{owner, e.ID, e.Name, string(e.Role), e.Relation, string(al), string(at),
		created.UnixNano(), updated.UnixNano(), e.MergedInto}, nil
}

// ConflictColumns are the columns of a conflict, in the order Owner.Conflict reads
// them and ConflictArgs writes them (after the owner).
const ConflictColumns = `id, subject, key, current_id, current_value, proposed, reason, status, created_at, resolved_at, result_id`

// Conflict reads a conflict selected with ConflictColumns.
func (o Owner) Conflict(r Scanner) (factbase.Conflict, error) {
	var (
		c                factbase.Conflict
		proposed, status string
		created          int64
		resolved         *int64
	)
	if err := r.Scan(&c.ID, &c.Subject, &c.Key, &c.CurrentID, &c.CurrentValue, &proposed, &c.Reason, &status,
		&created, &resolved, &c.ResultID); err != nil {
		return c, err
	}
	c.User, c.Status = factbase.UserID(o), factbase.ConflictStatus(status)
	c.CreatedAt, c.ResolvedAt = Time(created), TimePtr(resolved)
	if err := json.Unmarshal([]byte(proposed), &c.Proposed); err != nil {
		return c, factbase.Errorf(factbase.EINTERNAL, "conflict %s: proposed fact is not JSON: %v", c.ID, err)
	}
	return c, nil
}

// ConflictArgs returns the arguments of a conflict's upsert: owner, then
// ConflictColumns. It validates c (factbase.Conflict.Validate); a zero CreatedAt is
// stored as now.
func ConflictArgs(owner any, c factbase.Conflict, now time.Time) ([]any, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	p, err := json.Marshal(c.Proposed)
	if err != nil {
		return nil, factbase.Errorf(factbase.EINVALID, "conflict %s: proposed: %v", c.ID, err)
	}
	created := c.CreatedAt
	if created.IsZero() {
		created = now
	}
	return []any{owner, c.ID, c.Subject, c.Key, c.CurrentID, c.CurrentValue, string(p), c.Reason,
		string(c.Status), created.UnixNano(), Nanos(c.ResolvedAt), c.ResultID}, nil
}
