package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/factbase/factbase"
	"github.com/jackc/pgx/v5"
)

// The statements of people: entities, conflicts, preference sessions and anchored
// facts.
const (
	entityColumns = `id, name, role, relation, aliases, attributes, created_at, updated_at, merged_into`
	qEntities     = "SELECT " + entityColumns + " FROM entities WHERE u = $1 ORDER BY created_at, id"
	qEntity       = "SELECT " + entityColumns + " FROM entities WHERE u = $1 AND id = $2"
	qEntityPut    = `INSERT INTO entities (u, id, name, role, relation, aliases, attributes, created_at, updated_at, merged_into)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		ON CONFLICT (u, id) DO UPDATE SET name = excluded.name, role = excluded.role, relation = excluded.relation,
			aliases = excluded.aliases, attributes = excluded.attributes, updated_at = excluded.updated_at,
			merged_into = excluded.merged_into`
	qEntityDelete          = "DELETE FROM entities WHERE u = $1 AND id = $2"
	qEntityDeleteConflicts = "DELETE FROM conflicts WHERE u = $1 AND subject = $2"
	conflictColumns        = `id, subject, key, current_id, current_value, proposed, reason, status, created_at, resolved_at, result_id`
	qConflict              = "SELECT " + conflictColumns + " FROM conflicts WHERE u = $1 AND id = $2"
	qConflictPut           = `INSERT INTO conflicts (u, id, subject, key, current_id, current_value, proposed, reason, status,
		created_at, resolved_at, result_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
		ON CONFLICT (u, id) DO UPDATE SET status = excluded.status, resolved_at = excluded.resolved_at,
			result_id = excluded.result_id, reason = excluded.reason, proposed = excluded.proposed,
			current_id = excluded.current_id, current_value = excluded.current_value`
	qAnchored = "SELECT " + factColumns + ` FROM facts
		WHERE u = $1 AND current AND anchor IS NOT NULL AND anchor >= $2 AND anchor < $3 ORDER BY anchor, seq`
	qPrefSessions = "SELECT session FROM preference_sessions WHERE u = $1 AND key = $2 AND norm = $3 ORDER BY session"
	qPrefNote     = `INSERT INTO preference_sessions (u, key, norm, session) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`
)

func (t *tx) scanEntity(r scanner) (factbase.Entity, error) {
	var (
		e                    factbase.Entity
		role, aliases, attrs string
		created, updated     int64
	)
	if err := r.Scan(&e.ID, &e.Name, &role, &e.Relation, &aliases, &attrs, &created, &updated, &e.MergedInto); err != nil {
		return e, err
	}
	e.User, e.Role = t.user, factbase.Role(role)
	e.CreatedAt, e.UpdatedAt = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
	if err := json.Unmarshal([]byte(aliases), &e.Aliases); err != nil {
		return e, factbase.Errorf(factbase.EINTERNAL, "entity %s: aliases are not JSON: %v", e.ID, err)
	}
	if e.Aliases == nil {
		e.Aliases = []string{}
	}
	if err := json.Unmarshal([]byte(attrs), &e.Attributes); err != nil {
		return e, factbase.Errorf(factbase.EINTERNAL, "entity %s: attributes are not JSON: %v", e.ID, err)
	}
	if len(e.Attributes) == 0 {
		e.Attributes = nil
	}
	return e, nil
}

// Entities returns every entity of the user, oldest first.
func (t *tx) Entities(ctx context.Context) ([]factbase.Entity, error) {
	rows, err := t.q.Query(ctx, qEntities, string(t.user))
	if err != nil {
		return nil, mapErr("entities", err)
	}
	defer rows.Close()
	var out []factbase.Entity
	for rows.Next() {
		e, err := t.scanEntity(rows)
		if err != nil {
			return nil, mapErr("entities", err)
		}
		out = append(out, e)
	}
	return out, mapErr("entities", rows.Err())
}

// Entity returns one entity by id.
func (t *tx) Entity(ctx context.Context, id string) (factbase.Entity, error) {
	e, err := t.scanEntity(t.q.QueryRow(ctx, qEntity, string(t.user), id))
	if errors.Is(err, pgx.ErrNoRows) {
		return e, factbase.Errorf(factbase.ENOTFOUND, "entity %q not found", id)
	}
	return e, mapErr("entity", err)
}

// PutEntity creates or replaces an entity; its creation time is kept.
func (t *tx) PutEntity(ctx context.Context, e factbase.Entity) error {
	if e.ID == "" {
		return factbase.Errorf(factbase.EINVALID, "entity has no id")
	}
	aliases := e.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	al, err := json.Marshal(aliases)
	if err != nil {
		return factbase.Errorf(factbase.EINVALID, "entity %s: aliases: %v", e.ID, err)
	}
	attrs := e.Attributes
	if attrs == nil {
		attrs = map[string]string{}
	}
	at, err := json.Marshal(attrs)
	if err != nil {
		return factbase.Errorf(factbase.EINVALID, "entity %s: attributes: %v", e.ID, err)
	}
	created := e.CreatedAt
	if created.IsZero() {
		created = t.now
	}
	_, err = t.q.Exec(ctx, qEntityPut, string(t.user), e.ID, e.Name, string(e.Role), e.Relation, string(al), string(at),
		created.UnixNano(), t.now.UnixNano(), e.MergedInto)
	return mapErr("put entity", err)
}

// DeleteEntity erases an entity and its conflicts.
func (t *tx) DeleteEntity(ctx context.Context, id string) (int, error) {
	if _, err := t.q.Exec(ctx, qEntityDeleteConflicts, string(t.user), factbase.EntitySubject(id)); err != nil {
		return 0, mapErr("delete entity", err)
	}
	tag, err := t.q.Exec(ctx, qEntityDelete, string(t.user), id)
	if err != nil {
		return 0, mapErr("delete entity", err)
	}
	return int(tag.RowsAffected()), nil
}

func (t *tx) scanConflict(r scanner) (factbase.Conflict, error) {
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
	c.User, c.Status = t.user, factbase.ConflictStatus(status)
	c.CreatedAt = time.Unix(0, created).UTC()
	if resolved != nil {
		r := time.Unix(0, *resolved).UTC()
		c.ResolvedAt = &r
	}
	if err := json.Unmarshal([]byte(proposed), &c.Proposed); err != nil {
		return c, factbase.Errorf(factbase.EINTERNAL, "conflict %s: proposed fact is not JSON: %v", c.ID, err)
	}
	return c, nil
}

// Conflicts returns the conflicts matching f, oldest first.
func (t *tx) Conflicts(ctx context.Context, f factbase.ConflictFilter) ([]factbase.Conflict, error) {
	var w where
	w.add("u = " + w.arg(string(t.user)))
	if f.Status != "" {
		w.add("status = " + w.arg(string(f.Status)))
	}
	if f.Subject != "" {
		w.add("subject = " + w.arg(f.Subject))
	}
	if f.Key != "" {
		w.add("key = " + w.arg(f.Key))
	}
	rows, err := t.q.Query(ctx, "SELECT "+conflictColumns+" FROM conflicts WHERE "+w.String()+" ORDER BY created_at, id", w.args...)
	if err != nil {
		return nil, mapErr("conflicts", err)
	}
	defer rows.Close()
	var out []factbase.Conflict
	for rows.Next() {
		c, err := t.scanConflict(rows)
		if err != nil {
			return nil, mapErr("conflicts", err)
		}
		out = append(out, c)
	}
	return out, mapErr("conflicts", rows.Err())
}

// Conflict returns one conflict by id.
func (t *tx) Conflict(ctx context.Context, id string) (factbase.Conflict, error) {
	c, err := t.scanConflict(t.q.QueryRow(ctx, qConflict, string(t.user), id))
	if errors.Is(err, pgx.ErrNoRows) {
		return c, factbase.Errorf(factbase.ENOTFOUND, "conflict %q not found", id)
	}
	return c, mapErr("conflict", err)
}

// PutConflict creates or replaces a conflict.
func (t *tx) PutConflict(ctx context.Context, c factbase.Conflict) error {
	if c.ID == "" || c.Subject == "" || c.Key == "" {
		return factbase.Errorf(factbase.EINVALID, "conflict needs an id, a subject and a key")
	}
	switch c.Status {
	case factbase.ConflictPending, factbase.ConflictConfirmed, factbase.ConflictRejected:
	default:
		return factbase.Errorf(factbase.EINVALID, "conflict status %q is not pending, confirmed or rejected", c.Status)
	}
	p, err := json.Marshal(c.Proposed)
	if err != nil {
		return factbase.Errorf(factbase.EINVALID, "conflict %s: proposed: %v", c.ID, err)
	}
	created := c.CreatedAt
	if created.IsZero() {
		created = t.now
	}
	_, err = t.q.Exec(ctx, qConflictPut, string(t.user), c.ID, c.Subject, c.Key, c.CurrentID, c.CurrentValue, string(p), c.Reason,
		string(c.Status), created.UnixNano(), nullTime(c.ResolvedAt), c.ResultID)
	return mapErr("put conflict", err)
}

// AnchoredFacts returns the current facts anchored in [from, to), by anchor.
func (t *tx) AnchoredFacts(ctx context.Context, from, to time.Time) ([]factbase.Fact, error) {
	return t.queryFacts(ctx, qAnchored, string(t.user), from.UnixNano(), to.UnixNano())
}

// PreferenceSessions returns the sessions a preference value was stated in, sorted.
func (t *tx) PreferenceSessions(ctx context.Context, key, norm string) ([]string, error) {
	rows, err := t.q.Query(ctx, qPrefSessions, string(t.user), key, norm)
	if err != nil {
		return nil, mapErr("preference sessions", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, mapErr("preference sessions", err)
		}
		out = append(out, s)
	}
	return out, mapErr("preference sessions", rows.Err())
}

// NotePreferenceSession records that a preference value was stated in session.
func (t *tx) NotePreferenceSession(ctx context.Context, key, norm, session string) error {
	_, err := t.q.Exec(ctx, qPrefNote, string(t.user), key, norm, session)
	return mapErr("preference session", err)
}
