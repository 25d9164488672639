package postgres

import (
	"context"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/listpos"
	"github.com/factbase/factbase/internal/rowcodec"
)

// The statements of transcript ingestion.
const (
	qTranscriptCheckpoint = `SELECT byte_off, line, sum, updated_at FROM transcript_checkpoints
		WHERE u = $1 AND file = $2`
	qTranscriptPutCheckpoint = `INSERT INTO transcript_checkpoints (u, file, byte_off, line, sum, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (u, file) DO UPDATE SET byte_off = excluded.byte_off, line = excluded.line,
			sum = excluded.sum, updated_at = excluded.updated_at`
	qTranscriptPutSession = `INSERT INTO transcript_sessions (u, id, file, cwd, git_branch, version, summary,
		first_at, last_at, users, assistants, other, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
		ON CONFLICT (u, id, file) DO UPDATE SET cwd = excluded.cwd, git_branch = excluded.git_branch,
			version = excluded.version, summary = excluded.summary, first_at = excluded.first_at,
			last_at = excluded.last_at, users = excluded.users, assistants = excluded.assistants,
			other = excluded.other, updated_at = excluded.updated_at`
	qTranscriptDeleteSessions = `DELETE FROM transcript_sessions WHERE u = $1 AND file = $2`
	// One statement links a whole batch: the subjects and sessions go as two arrays.
	qTranscriptLink = `INSERT INTO transcript_subjects (u, session, subject)
		SELECT $1, l.session, l.subject FROM unnest($2::text[], $3::text[]) AS l (session, subject)
		ON CONFLICT DO NOTHING`
	qTranscriptSessionsAll = "SELECT " + rowcodec.TranscriptSessionColumns + ` FROM transcript_sessions
		WHERE u = $1 ORDER BY coalesce(first_at, 0), id, file`
	qTranscriptSessionsByID = "SELECT " + rowcodec.TranscriptSessionColumns + ` FROM transcript_sessions
		WHERE u = $1 AND id = $2 ORDER BY coalesce(first_at, 0), id, file`
)

// TranscriptCheckpoint returns the checkpoint of file.
func (t *tx) TranscriptCheckpoint(ctx context.Context, file string) (factbase.TranscriptCheckpoint, bool, error) {
	row := t.q.QueryRow(ctx, qTranscriptCheckpoint, string(t.user), file)
	cp, ok, err := rowcodec.One(row, pgx.ErrNoRows, rowcodec.Checkpoint(file))
	if err != nil {
		return cp, false, mapErr("transcript checkpoint", err)
	}
	return cp, ok, nil
}

// PutTranscriptCheckpoint creates or replaces the checkpoint of cp.File.
func (t *tx) PutTranscriptCheckpoint(ctx context.Context, cp factbase.TranscriptCheckpoint) error {
	return put(ctx, t, "transcript checkpoint", qTranscriptPutCheckpoint, rowcodec.CheckpointArgs, cp)
}

// PutTranscriptSession creates or replaces the row of (s.ID, s.File).
func (t *tx) PutTranscriptSession(ctx context.Context, s factbase.TranscriptSession) error {
	return put(ctx, t, "transcript session", qTranscriptPutSession, rowcodec.TranscriptSessionArgs, s)
}

// DeleteTranscriptSessions deletes the session rows of file.
func (t *tx) DeleteTranscriptSessions(ctx context.Context, file string) (int, error) {
	return t.execCount(ctx, "transcript sessions", qTranscriptDeleteSessions, string(t.user), file)
}

// LinkTranscriptSubjects records subject -> session links, skipping stored ones.
func (t *tx) LinkTranscriptSubjects(ctx context.Context, links []factbase.TranscriptLink) error {
	if err := rowcodec.ValidateLinks(links); err != nil || len(links) == 0 {
		return err
	}
	sessions := make([]string, len(links))
	subjects := make([]string, len(links))
	for i, l := range links {
		sessions[i], subjects[i] = l.Session, l.Subject
	}
	_, err := t.q.Exec(ctx, qTranscriptLink, string(t.user), sessions, subjects)
	return mapErr("transcript link", err)
}

// TranscriptSessions returns a page of the session rows of id, or of all of them
// for id "".
func (t *tx) TranscriptSessions(ctx context.Context, id string, offset, limit int) ([]factbase.TranscriptSession, error) {
	q, w := qTranscriptSessionsAll, where{args: []any{string(t.user)}}
	if id != "" {
		q, w.args = qTranscriptSessionsByID, append(w.args, id)
	}
	sessions, err := queryAll(ctx, t, rowcodec.TranscriptSession, q+w.page(limit, offset), w.args...)
	return sessions, mapErr("transcript sessions", err)
}

// transcriptWhere builds the filter of a TranscriptQuery over the facts table, its
// columns qualified with p ("" or "f."), its arguments appended to args.
func (t *tx) transcriptWhere(q factbase.TranscriptQuery, p string, args []any) (string, []any) {
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	where := []string{p + "u = " + arg(string(t.user)), p + "current", p + "source_kind = " + arg(factbase.SourceTranscript)}
	if q.Predicate != "" {
		where = append(where, p+"key = "+arg(q.Predicate))
	}
	if q.Subject != "" {
		where = append(where, p+"subject = "+arg(q.Subject))
	}
	if q.MinConfidence > 0 {
		where = append(where, p+"confidence >= "+arg(q.MinConfidence))
	}
	if q.ObjectContains != "" {
		// Under the "C" collation ILIKE folds ASCII letters only, as the contract says.
		where = append(where, p+`value COLLATE "C" ILIKE `+arg("%"+escapeLike(q.ObjectContains)+"%")+` ESCAPE '\'`)
	}
	if q.Session != "" {
		where = append(where, p+"subject IN (SELECT ts.subject FROM transcript_subjects ts WHERE ts.u = "+
			arg(string(t.user))+" AND ts.session = "+arg(q.Session)+")")
	}
	return strings.Join(where, " AND "), args
}

// escapeLike escapes the LIKE wildcards of s for ESCAPE '\'.
func escapeLike(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}

// limitClause appends LIMIT and OFFSET for limit and offset (0: none).
func limitClause(limit, offset int, args []any) (string, []any) {
	var s string
	if limit > 0 {
		args = append(args, limit)
		s += " LIMIT $" + strconv.Itoa(len(args))
	}
	if offset > 0 {
		args = append(args, offset)
		s += " OFFSET $" + strconv.Itoa(len(args))
	}
	return s, args
}

// TranscriptFacts returns the current transcript facts q selects, oldest first.
func (t *tx) TranscriptFacts(ctx context.Context, q factbase.TranscriptQuery) ([]factbase.Fact, error) {
	where, args := t.transcriptWhere(q, "", nil)
	lim, args := limitClause(q.Limit, q.Offset, args)
	query := "SELECT " + factColumns + " FROM facts WHERE " + where + " ORDER BY recorded_at, seq" + lim
	return t.queryFacts(ctx, query, args...)
}

// TranscriptObjects groups the facts q selects by normalised object, most facts
// first; the object shown is the bytewise-least spelling, as in the SQLite store.
func (t *tx) TranscriptObjects(ctx context.Context, q factbase.TranscriptQuery) ([]factbase.TranscriptObject, error) {
	where, args := t.transcriptWhere(q, "", nil)
	lim, args := limitClause(q.Limit, q.Offset, args)
	query := `SELECT norm, min(value COLLATE "C"), count(*) FROM facts WHERE ` + where +
		` GROUP BY norm ORDER BY count(*) DESC, min(value COLLATE "C"), norm` + lim
	var groups *rowcodec.ObjectGroups
	rows, err := t.q.Query(ctx, query, args...)
	if err == nil {
		groups, err = rowcodec.ReadObjectGroups(rows)
	}
	if err != nil {
		return nil, mapErr("transcript objects", err)
	}
	if len(groups.Norms()) > 0 {
		// The sessions of the groups on this page, in one query.
		where, args = t.transcriptWhere(q, "f.", nil)
		args = append(args, groups.Norms())
		query = "SELECT DISTINCT f.norm, s.session FROM facts f JOIN transcript_subjects s ON s.u = f.u AND s.subject = f.subject" +
			" WHERE " + where + " AND f.norm = ANY($" + strconv.Itoa(len(args)) + "::text[]) ORDER BY f.norm, s.session"
		if rows, err = t.q.Query(ctx, query, args...); err == nil {
			err = groups.AddSessions(rows)
		}
		if err != nil {
			return nil, mapErr("transcript objects", err)
		}
	}
	return groups.Objects(), nil
}

// The statements of the write path's bulk set insert: the keys go as three arrays.
const (
	qMembers = "SELECT " + factColumnsF + `, f.norm
		FROM unnest($2::text[], $3::text[], $4::text[]) AS k (s, k, n)
		JOIN facts f ON f.u = $1 AND f.subject = k.s AND f.key = k.k AND f.norm = k.n AND f.current AND f.cardinality <> 'one'`
	qMemberCounts = `SELECT k.i, (SELECT count(*) FROM facts f WHERE f.u = $1 AND f.subject = k.s AND f.key = k.k
			AND f.norm = k.n AND f.current AND f.cardinality <> 'one')
		FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS k (s, k, n, i)`
)

func memberArrays(keys []factbase.MemberKey) (subjects, names, norms []string) {
	subjects, names, norms = make([]string, len(keys)), make([]string, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		subjects[i], names[i], norms[i] = k.Subject, k.Key, k.Norm
	}
	return subjects, names, norms
}

// Members returns the current members that keys name, in one statement.
func (t *tx) Members(ctx context.Context, keys []factbase.MemberKey) (map[factbase.MemberKey]factbase.Fact, error) {
	out := make(map[factbase.MemberKey]factbase.Fact)
	if len(keys) == 0 {
		return out, nil
	}
	s, k, n := memberArrays(keys)
	rows, err := t.q.Query(ctx, qMembers, string(t.user), s, k, n)
	if err == nil {
		err = rowcodec.Members(rows, t.scanFact, out)
	}
	if err == nil {
		err = listpos.DeriveMemberRanks(out, func(subject, key string, pos int64) (int, error) {
			return t.rankOf(ctx, subject, key, pos)
		})
	}
	if err != nil {
		return nil, mapErr("members", err)
	}
	return out, nil
}

// MemberCounts returns how many current members hold each key, in one statement.
func (t *tx) MemberCounts(ctx context.Context, keys []factbase.MemberKey) ([]int, error) {
	out := make([]int, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	s, k, n := memberArrays(keys)
	rows, err := t.q.Query(ctx, qMemberCounts, string(t.user), s, k, n)
	if err != nil {
		return nil, mapErr("member counts", err)
	}
	defer rows.Close()
	for rows.Next() {
		var i, c int64
		if err := rows.Scan(&i, &c); err != nil {
			return nil, mapErr("member counts", err)
		}
		if i < 1 || i > int64(len(keys)) {
			return nil, factbase.Errorf(factbase.EINTERNAL, "member counts: row %d outside 1..%d", i, len(keys))
		}
		out[i-1] = int(c)
	}
	return out, mapErr("member counts", rows.Err())
}

// InsertFacts writes new fact rows; each insert is queued and they go to the server
// pipelined in one batch with the next statement (see pipeline.go).
func (t *tx) InsertFacts(ctx context.Context, facts []factbase.Fact, norms []string) error {
	if len(norms) != len(facts) {
		return factbase.Errorf(factbase.EINTERNAL, "insert facts: %d facts but %d normalised values", len(facts), len(norms))
	}
	for i, f := range facts {
		if err := t.Insert(ctx, f, norms[i]); err != nil {
			return err
		}
	}
	return nil
}
