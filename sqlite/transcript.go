package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/factbase/factbase"
)

// The static statements of transcript ingestion (see allStaticQueries).
var (
	qTranscriptCheckpoint = `SELECT byte_off, line, sum, updated_at FROM transcript_checkpoints
		WHERE u = ? AND file = ?`
	qTranscriptPutCheckpoint = `INSERT INTO transcript_checkpoints (u, file, byte_off, line, sum, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (u, file) DO UPDATE SET byte_off = excluded.byte_off, line = excluded.line,
			sum = excluded.sum, updated_at = excluded.updated_at`
	qTranscriptPutSession = `INSERT INTO transcript_sessions (u, id, file, cwd, git_branch, version, summary,
		first_at, last_at, users, assistants, other, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (u, id, file) DO UPDATE SET cwd = excluded.cwd, git_branch = excluded.git_branch,
			version = excluded.version, summary = excluded.summary, first_at = excluded.first_at,
			last_at = excluded.last_at, users = excluded.users, assistants = excluded.assistants,
			other = excluded.other, updated_at = excluded.updated_at`
	qTranscriptDeleteSessions = `DELETE FROM transcript_sessions WHERE u = ? AND file = ?`
	qTranscriptLink           = `INSERT INTO transcript_subjects (u, session, subject) VALUES (?, ?, ?)
		ON CONFLICT DO NOTHING`
	transcriptSessionColumns = `id, file, cwd, git_branch, version, summary, first_at, last_at,
		users, assistants, other, updated_at`
	qTranscriptSessionsAll = "SELECT " + transcriptSessionColumns + ` FROM transcript_sessions
		WHERE u = ? ORDER BY coalesce(first_at, 0), id, file`
	qTranscriptSessionsByID = "SELECT " + transcriptSessionColumns + ` FROM transcript_sessions
		WHERE u = ? AND id = ? ORDER BY coalesce(first_at, 0), id, file`

	transcriptQueries = []string{qTranscriptCheckpoint, qTranscriptPutCheckpoint, qTranscriptPutSession,
		qTranscriptDeleteSessions, qTranscriptLink, qTranscriptSessionsAll, qTranscriptSessionsByID}
)

// TranscriptCheckpoint returns the checkpoint of file.
func (t *tx) TranscriptCheckpoint(ctx context.Context, file string) (factbase.TranscriptCheckpoint, bool, error) {
	cp := factbase.TranscriptCheckpoint{File: file}
	var at int64
	err := t.queryRow(ctx, qTranscriptCheckpoint, t.u, file).Scan(&cp.Offset, &cp.Line, &cp.Sum, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return factbase.TranscriptCheckpoint{}, false, nil
	}
	if err != nil {
		return factbase.TranscriptCheckpoint{}, false, mapErr("transcript checkpoint", err)
	}
	cp.UpdatedAt = time.Unix(0, at).UTC()
	return cp, true, nil
}

// PutTranscriptCheckpoint creates or replaces the checkpoint of cp.File.
func (t *tx) PutTranscriptCheckpoint(ctx context.Context, cp factbase.TranscriptCheckpoint) error {
	if cp.File == "" {
		return factbase.Errorf(factbase.EINVALID, "transcript checkpoint has no file name")
	}
	if cp.Offset < 0 || cp.Line < 0 {
		return factbase.Errorf(factbase.EINVALID, "transcript checkpoint of %s: offset %d, line %d; neither may be negative", cp.File, cp.Offset, cp.Line)
	}
	sum := cp.Sum
	if sum == nil {
		sum = []byte{}
	}
	_, err := t.exec(ctx, qTranscriptPutCheckpoint, t.u, cp.File, cp.Offset, cp.Line, sum, t.now.UnixNano())
	return mapErr("transcript checkpoint", err)
}

func nullUnix(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixNano()
}

// PutTranscriptSession creates or replaces the row of (s.ID, s.File).
func (t *tx) PutTranscriptSession(ctx context.Context, s factbase.TranscriptSession) error {
	if s.ID == "" || s.File == "" {
		return factbase.Errorf(factbase.EINVALID, "transcript session needs an id and a file (got %q, %q)", s.ID, s.File)
	}
	_, err := t.exec(ctx, qTranscriptPutSession, t.u, s.ID, s.File, s.CWD, s.GitBranch, s.Version, s.Summary,
		nullUnix(s.First), nullUnix(s.Last), s.Users, s.Assistants, s.Other, t.now.UnixNano())
	return mapErr("transcript session", err)
}

// DeleteTranscriptSessions deletes the session rows of file.
func (t *tx) DeleteTranscriptSessions(ctx context.Context, file string) (int, error) {
	res, err := t.exec(ctx, qTranscriptDeleteSessions, t.u, file)
	if err != nil {
		return 0, mapErr("transcript sessions", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// LinkTranscriptSubjects records subject -> session links, skipping stored ones.
func (t *tx) LinkTranscriptSubjects(ctx context.Context, links []factbase.TranscriptLink) error {
	if len(links) == 0 {
		return nil
	}
	s, err := t.stmt(ctx, qTranscriptLink)
	if err != nil {
		return err
	}
	for _, l := range links {
		if l.Subject == "" || l.Session == "" {
			return factbase.Errorf(factbase.EINVALID, "transcript link needs a subject and a session (got %q, %q)", l.Subject, l.Session)
		}
		if _, err := s.ExecContext(ctx, t.u, l.Session, l.Subject); err != nil {
			return mapErr("transcript link", err)
		}
	}
	return nil
}

// TranscriptSessions returns the session rows of id, or all of them for id "".
func (t *tx) TranscriptSessions(ctx context.Context, id string) ([]factbase.TranscriptSession, error) {
	var (
		rows *sql.Rows
		err  error
	)
	if id == "" {
		rows, err = t.query(ctx, qTranscriptSessionsAll, t.u)
	} else {
		rows, err = t.query(ctx, qTranscriptSessionsByID, t.u, id)
	}
	if err != nil {
		return nil, mapErr("transcript sessions", err)
	}
	defer rows.Close()
	var out []factbase.TranscriptSession
	for rows.Next() {
		var (
			s           factbase.TranscriptSession
			first, last sql.NullInt64
			at          int64
		)
		if err := rows.Scan(&s.ID, &s.File, &s.CWD, &s.GitBranch, &s.Version, &s.Summary, &first, &last,
			&s.Users, &s.Assistants, &s.Other, &at); err != nil {
			return nil, mapErr("transcript sessions", err)
		}
		if first.Valid {
			s.First = time.Unix(0, first.Int64).UTC()
		}
		if last.Valid {
			s.Last = time.Unix(0, last.Int64).UTC()
		}
		s.UpdatedAt = time.Unix(0, at).UTC()
		out = append(out, s)
	}
	return out, mapErr("transcript sessions", rows.Err())
}

// transcriptWhere builds the filter of a TranscriptQuery over the facts table, its
// columns qualified with p ("" or "f.").
func (t *tx) transcriptWhere(q factbase.TranscriptQuery, p string) (string, []any) {
	where := []string{p + "u = ?", p + "current = 1", p + "source_kind = ?"}
	args := []any{t.u, factbase.SourceTranscript}
	if q.Predicate != "" {
		where, args = append(where, p+"key = ?"), append(args, q.Predicate)
	}
	if q.Subject != "" {
		where, args = append(where, p+"subject = ?"), append(args, q.Subject)
	}
	if q.MinConfidence > 0 {
		where, args = append(where, p+"confidence >= ?"), append(args, q.MinConfidence)
	}
	if q.ObjectContains != "" {
		where, args = append(where, p+`value LIKE ? ESCAPE '\'`), append(args, "%"+escapeLike(q.ObjectContains)+"%")
	}
	if q.Session != "" {
		where = append(where, p+"subject IN (SELECT ts.subject FROM transcript_subjects ts WHERE ts.u = ? AND ts.session = ?)")
		args = append(args, t.u, q.Session)
	}
	return strings.Join(where, " AND "), args
}

// escapeLike escapes the LIKE wildcards of s for ESCAPE '\'.
func escapeLike(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}

func limitClause(limit, offset int, args []any) (string, []any) {
	switch {
	case limit > 0:
		return " LIMIT ? OFFSET ?", append(args, limit, offset)
	case offset > 0:
		return " LIMIT -1 OFFSET ?", append(args, offset)
	}
	return "", args
}

// TranscriptFacts returns the current transcript facts q selects, oldest first.
func (t *tx) TranscriptFacts(ctx context.Context, q factbase.TranscriptQuery) ([]factbase.Fact, error) {
	where, args := t.transcriptWhere(q, "")
	lim, args := limitClause(q.Limit, q.Offset, args)
	query := "SELECT " + factColumns + " FROM facts WHERE " + where + " ORDER BY recorded_at, seq" + lim
	return t.scanFacts(t.query(ctx, query, args...))
}

// TranscriptObjects groups the facts q selects by normalised object.
func (t *tx) TranscriptObjects(ctx context.Context, q factbase.TranscriptQuery) ([]factbase.TranscriptObject, error) {
	where, args := t.transcriptWhere(q, "")
	lim, args := limitClause(q.Limit, q.Offset, args)
	query := "SELECT norm, min(value), count(*) FROM facts WHERE " + where +
		" GROUP BY norm ORDER BY count(*) DESC, min(value), norm" + lim
	rows, err := t.query(ctx, query, args...)
	if err != nil {
		return nil, mapErr("transcript objects", err)
	}
	var (
		out   []factbase.TranscriptObject
		norms []any
		index = map[string]int{}
	)
	for rows.Next() {
		var norm string
		var o factbase.TranscriptObject
		if err := rows.Scan(&norm, &o.Object, &o.Facts); err != nil {
			rows.Close()
			return nil, mapErr("transcript objects", err)
		}
		o.Sessions = []string{}
		index[norm] = len(out)
		norms = append(norms, norm)
		out = append(out, o)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return nil, mapErr("transcript objects", err)
	}
	if len(out) == 0 {
		return out, nil
	}
	// The sessions of the groups on this page, in one query.
	where, args = t.transcriptWhere(q, "f.")
	query = "SELECT DISTINCT f.norm, s.session FROM facts f JOIN transcript_subjects s ON s.u = f.u AND s.subject = f.subject" +
		" WHERE " + where + " AND f.norm IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(norms)), ", ") + ")"
	rows, err = t.query(ctx, query, append(args, norms...)...)
	if err != nil {
		return nil, mapErr("transcript objects", err)
	}
	defer rows.Close()
	for rows.Next() {
		var norm, session string
		if err := rows.Scan(&norm, &session); err != nil {
			return nil, mapErr("transcript objects", err)
		}
		if i, ok := index[norm]; ok {
			out[i].Sessions = append(out[i].Sessions, session)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, mapErr("transcript objects", err)
	}
	for i := range out {
		sort.Strings(out[i].Sessions)
	}
	return out, nil
}
