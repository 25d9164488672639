package postgres

import (
	"context"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
)

// The statements of people: entities, conflicts, preference sessions and anchored
// facts.
const (
	qEntityPut = `INSERT INTO entities (u, id, name, role, relation, aliases, attributes, created_at, updated_at, merged_into)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		ON CONFLICT (u, id) DO UPDATE SET name = excluded.name, role = excluded.role, relation = excluded.relation,
			aliases = excluded.aliases, attributes = excluded.attributes, updated_at = excluded.updated_at,
			merged_into = excluded.merged_into`
	qEntity                = "SELECT " + rowcodec.EntityColumns + " FROM entities WHERE u = $1 AND id = $2"
	qEntityDelete          = "DELETE FROM entities WHERE u = $1 AND id = $2"
	qEntityDeleteConflicts = "DELETE FROM conflicts WHERE u = $1 AND subject = $2"
	qConflict              = "SELECT " + rowcodec.ConflictColumns + " FROM conflicts WHERE u = $1 AND id = $2"
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

// Entities returns the entities f selects, oldest first.
func (t *tx) Entities(ctx context.Context, f factbase.EntityFilter) ([]factbase.Entity, error) {
	var w where
	w.add("u = " + w.arg(string(t.user)))
	if f.Live {
		w.add("merged_into = ''")
	}
	q := "SELECT " + rowcodec.EntityColumns + " FROM entities WHERE " + w.String() + " ORDER BY created_at, id" + w.page(f.Limit, f.Offset)
	all, err := queryAll(ctx, t, rowcodec.Owner(t.user).Entity, q, w.args...)
	return all, mapErr("entities", err)
}

// Entity returns one entity by id; ENOTFOUND if the user has none.
func (t *tx) Entity(ctx context.Context, id string) (factbase.Entity, error) {
	return byID(ctx, t, "entity", qEntity, id, rowcodec.Owner(t.user).Entity)
}

// PutEntity creates or replaces an entity, keeping its creation time.
func (t *tx) PutEntity(ctx context.Context, e factbase.Entity) error {
	return put(ctx, t, "put entity", qEntityPut, rowcodec.EntityArgs, e)
}

// DeleteEntity erases an entity and the conflicts about it.
func (t *tx) DeleteEntity(ctx context.Context, id string) (int, error) {
	if _, err := t.q.Exec(ctx, qEntityDeleteConflicts, string(t.user), factbase.EntitySubject(id)); err != nil {
		return 0, mapErr("delete entity", err)
	}
	return t.execCount(ctx, "delete entity", qEntityDelete, string(t.user), id)
}

// Conflicts returns the conflicts matching f, oldest first.
func (t *tx) Conflicts(ctx context.Context, f factbase.ConflictFilter) ([]factbase.Conflict, error) {
	var w where
	w.add("u = " + w.arg(string(t.user)))
	w.eq("status", string(f.Status))
	w.eq("subject", f.Subject)
	w.eq("key", f.Key)
	q := "SELECT " + rowcodec.ConflictColumns + " FROM conflicts WHERE " + w.String() + " ORDER BY created_at, id" + w.page(f.Limit, f.Offset)
	all, err := queryAll(ctx, t, rowcodec.Owner(t.user).Conflict, q, w.args...)
	return all, mapErr("conflicts", err)
}

// Conflict returns one conflict by id; ENOTFOUND if the user has none.
func (t *tx) Conflict(ctx context.Context, id string) (factbase.Conflict, error) {
	return byID(ctx, t, "conflict", qConflict, id, rowcodec.Owner(t.user).Conflict)
}

// PutConflict creates a conflict or replaces it.
func (t *tx) PutConflict(ctx context.Context, c factbase.Conflict) error {
	return put(ctx, t, "put conflict", qConflictPut, rowcodec.ConflictArgs, c)
}

// AnchoredFacts returns the current facts anchored in [from, to), by anchor, at most
// limit of them.
func (t *tx) AnchoredFacts(ctx context.Context, from, to time.Time, limit int) ([]factbase.Fact, error) {
	w := where{args: []any{string(t.user), from.UnixNano(), to.UnixNano()}}
	return t.queryFacts(ctx, qAnchored+w.page(limit, 0), w.args...)
}

// PreferenceSessions returns the sessions a preference value was stated in, sorted.
func (t *tx) PreferenceSessions(ctx context.Context, key, norm string) ([]string, error) {
	sessions, err := queryAll(ctx, t, rowcodec.String, qPrefSessions, string(t.user), key, norm)
	return sessions, mapErr("preference sessions", err)
}

// NotePreferenceSession records that a preference value was stated in session.
func (t *tx) NotePreferenceSession(ctx context.Context, key, norm, session string) error {
	_, err := t.q.Exec(ctx, qPrefNote, string(t.user), key, norm, session)
	return mapErr("preference session", err)
}
