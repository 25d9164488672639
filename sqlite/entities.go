package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/storeerr"
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

// Entities returns every entity of the user, oldest first.
func (t *tx) Entities(ctx context.Context) ([]factbase.Entity, error) {
	es, err := queryAll(ctx, t, rowcodec.Owner(t.user).Entity, qEntities, t.u)
	return es, mapErr("entities", err)
}

// Entity returns one entity by id.
func (t *tx) Entity(ctx context.Context, id string) (factbase.Entity, error) {
	e, err := rowcodec.Owner(t.user).Entity(t.queryRow(ctx, qEntity, t.u, id))
	return e, mapErr("entity", storeerr.NotFoundIf(err, sql.ErrNoRows, "entity", id))
}

// PutEntity creates or replaces an entity; its creation time is kept.
func (t *tx) PutEntity(ctx context.Context, e factbase.Entity) error {
	args, err := rowcodec.EntityArgs(t.u, e, t.now)
	if err == nil {
		_, err = t.exec(ctx, qEntityPut, args...)
	}
	return mapErr("put entity", err)
}

// DeleteEntity erases an entity and its conflicts.
func (t *tx) DeleteEntity(ctx context.Context, id string) (int, error) {
	if _, err := t.exec(ctx, qEntityDeleteConflicts, t.u, factbase.EntitySubject(id)); err != nil {
		return 0, mapErr("delete entity", err)
	}
	res, err := t.exec(ctx, qEntityDelete, t.u, id)
	if err != nil {
		return 0, mapErr("delete entity", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// Conflicts returns the conflicts matching f, oldest first.
func (t *tx) Conflicts(ctx context.Context, f factbase.ConflictFilter) ([]factbase.Conflict, error) {
	where, args := []string{"u = ?"}, []any{t.u}
	if f.Status != "" {
		where, args = append(where, "status = ?"), append(args, string(f.Status))
	}
	if f.Subject != "" {
		where, args = append(where, "subject = ?"), append(args, f.Subject)
	}
	if f.Key != "" {
		where, args = append(where, "key = ?"), append(args, f.Key)
	}
	cs, err := queryAll(ctx, t, rowcodec.Owner(t.user).Conflict, "SELECT "+rowcodec.ConflictColumns+" FROM conflicts WHERE "+
		strings.Join(where, " AND ")+" ORDER BY created_at, id", args...)
	return cs, mapErr("conflicts", err)
}

// Conflict returns one conflict by id.
func (t *tx) Conflict(ctx context.Context, id string) (factbase.Conflict, error) {
	c, err := rowcodec.Owner(t.user).Conflict(t.queryRow(ctx, qConflict, t.u, id))
	return c, mapErr("conflict", storeerr.NotFoundIf(err, sql.ErrNoRows, "conflict", id))
}

// PutConflict creates or replaces a conflict.
func (t *tx) PutConflict(ctx context.Context, c factbase.Conflict) error {
	args, err := rowcodec.ConflictArgs(t.u, c, t.now)
	if err == nil {
		_, err = t.exec(ctx, qConflictPut, args...)
	}
	return mapErr("put conflict", err)
}

// AnchoredFacts returns the current facts anchored in [from, to), by anchor.
func (t *tx) AnchoredFacts(ctx context.Context, from, to time.Time) ([]factbase.Fact, error) {
	return t.queryFacts(ctx, qAnchored, t.u, from.UnixNano(), to.UnixNano())
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
