package sqlite

import (
	"context"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
)

// The static statements of people: entities, conflicts, preference sessions and
// anchored facts (see allStaticQueries).
var (
	qEntities  = "SELECT " + rowcodec.EntityColumns + " FROM entities WHERE u = ? ORDER BY created_at, id"
	qEntity    = "SELECT " + rowcodec.EntityColumns + " FROM entities WHERE u = ? AND id = ?"
	qEntityPut = `INSERT INTO entities (u, id, name, role, relation, aliases, attributes, created_at, updated_at, merged_into)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (u, id) DO UPDATE SET name = excluded.name, role = excluded.role, relation = excluded.relation,
			aliases = excluded.aliases, attributes = excluded.attributes, updated_at = excluded.updated_at,
			merged_into = excluded.merged_into`
	qEntityDelete          = "DELETE FROM entities WHERE u = ? AND id = ?"
	qEntityDeleteConflicts = "DELETE FROM conflicts WHERE u = ? AND subject = ?"
	qConflict              = "SELECT " + rowcodec.ConflictColumns + " FROM conflicts WHERE u = ? AND id = ?"
	qConflictPut           = `INSERT INTO conflicts (u, id, subject, key, current_id, current_value, proposed, reason, status,
		created_at, resolved_at, result_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (u, id) DO UPDATE SET status = excluded.status, resolved_at = excluded.resolved_at,
			result_id = excluded.result_id, reason = excluded.reason, proposed = excluded.proposed,
			current_id = excluded.current_id, current_value = excluded.current_value`
	qAnchored = "SELECT " + factColumns + ` FROM facts
		WHERE u = ? AND current = 1 AND anchor IS NOT NULL AND anchor >= ? AND anchor < ? ORDER BY anchor, seq`
	qPrefSessions = "SELECT session FROM preference_sessions WHERE u = ? AND key = ? AND norm = ? ORDER BY session"
	qPrefNote     = `INSERT INTO preference_sessions (u, key, norm, session) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`

	peopleQueries = []string{qEntities, qEntity, qEntityPut, qEntityDelete, qEntityDeleteConflicts, qConflict,
		qConflictPut, qAnchored, qPrefSessions, qPrefNote}
)

// Entities returns the entities f selects, oldest first.
func (t *tx) Entities(ctx context.Context, f factbase.EntityFilter) ([]factbase.Entity, error) {
	q, args := qEntities, []any{t.u}
	if f.Live || f.Limit > 0 || f.Offset > 0 {
		where := " WHERE u = ?"
		if f.Live {
			where += " AND merged_into = ''"
		}
		var page string
		page, args = literalLimit(f.Limit, f.Offset, args)
		q = "SELECT " + rowcodec.EntityColumns + " FROM entities" + where + " ORDER BY created_at, id" + page
	}
	es, err := queryAll(ctx, t, rowcodec.Owner(t.user).Entity, q, args...)
	return es, mapErr("entities", err)
}

// Entity returns one entity by id.
func (t *tx) Entity(ctx context.Context, id string) (factbase.Entity, error) {
	return byID(ctx, t, "entity", qEntity, id, rowcodec.Owner(t.user).Entity)
}

// PutEntity creates or replaces an entity; its creation time is kept.
func (t *tx) PutEntity(ctx context.Context, e factbase.Entity) error {
	return put(ctx, t, "put entity", qEntityPut, rowcodec.EntityArgs, e)
}

// DeleteEntity erases an entity and its conflicts.
func (t *tx) DeleteEntity(ctx context.Context, id string) (int, error) {
	if _, err := t.exec(ctx, qEntityDeleteConflicts, t.u, factbase.EntitySubject(id)); err != nil {
		return 0, mapErr("delete entity", err)
	}
	return t.execCount(ctx, "delete entity", qEntityDelete, t.u, id)
}

// Conflicts returns the conflicts matching f, oldest first.
func (t *tx) Conflicts(ctx context.Context, f factbase.ConflictFilter) ([]factbase.Conflict, error) {
	where, args := []string{"u = ?"}, []any{t.u}
	where, args = eq(where, args, "status", string(f.Status))
	where, args = eq(where, args, "subject", f.Subject)
	where, args = eq(where, args, "key", f.Key)
	page, args := literalLimit(f.Limit, f.Offset, args)
	cs, err := queryAll(ctx, t, rowcodec.Owner(t.user).Conflict, "SELECT "+rowcodec.ConflictColumns+" FROM conflicts WHERE "+
		strings.Join(where, " AND ")+" ORDER BY created_at, id"+page, args...)
	return cs, mapErr("conflicts", err)
}

// Conflict returns one conflict by id.
func (t *tx) Conflict(ctx context.Context, id string) (factbase.Conflict, error) {
	return byID(ctx, t, "conflict", qConflict, id, rowcodec.Owner(t.user).Conflict)
}

// PutConflict creates or replaces a conflict.
func (t *tx) PutConflict(ctx context.Context, c factbase.Conflict) error {
	return put(ctx, t, "put conflict", qConflictPut, rowcodec.ConflictArgs, c)
}

// AnchoredFacts returns the current facts anchored in [from, to), by anchor, at most
// limit of them.
func (t *tx) AnchoredFacts(ctx context.Context, from, to time.Time, limit int) ([]factbase.Fact, error) {
	page, args := literalLimit(limit, 0, []any{t.u, from.UnixNano(), to.UnixNano()})
	return t.queryFacts(ctx, qAnchored+page, args...)
}

// PreferenceSessions returns the sessions a preference value was stated in.
func (t *tx) PreferenceSessions(ctx context.Context, key, norm string) ([]string, error) {
	ss, err := queryAll(ctx, t, rowcodec.String, qPrefSessions, t.u, key, norm)
	return ss, mapErr("preference sessions", err)
}

// NotePreferenceSession records that a preference value was stated in session.
func (t *tx) NotePreferenceSession(ctx context.Context, key, norm, session string) error {
	_, err := t.exec(ctx, qPrefNote, t.u, key, norm, session)
	return mapErr("preference session", err)
}
