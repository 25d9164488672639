package postgres

import (
	"context"
	"errors"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/jackc/pgx/v5"
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
	transcriptSessionColumns = `id, file, cwd, git_branch, version, summary, first_at, last_at,
		users, assistants, other, updated_at`
	qTranscriptSessionsAll = "SELECT " + transcriptSessionColumns + ` FROM transcript_sessions
		WHERE u = $1 ORDER BY coalesce(first_at, 0), id, file`
	qTranscriptSessionsByID = "SELECT " + transcriptSessionColumns + ` FROM transcript_sessions
		WHERE u = $1 AND id = $2 ORDER BY coalesce(first_at, 0), id, file`
)

// TranscriptCheckpoint returns the checkpoint of file.
func (t *tx) TranscriptCheckpoint(ctx context.Context, file string) (factbase.TranscriptCheckpoint, bool, error) {
	cp := factbase.TranscriptCheckpoint{File: file}
	var at int64
	err := t.q.QueryRow(ctx, qTranscriptCheckpoint, string(t.user), file).Scan(&cp.Offset, &cp.Line, &cp.Sum, &at)
	if errors.Is(err, pgx.ErrNoRows) {
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
	_, err := t.q.Exec(ctx, qTranscriptPutCheckpoint, string(t.user), cp.File, cp.Offset, cp.Line, sum, t.now.UnixNano())
	return mapErr("transcript checkpoint", err)
}

func nullUnix(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	n := t.UnixNano()
	return &n
}

// PutTranscriptSession creates or replaces the row of (s.ID, s.File).
func (t *tx) PutTranscriptSession(ctx context.Context, s factbase.TranscriptSession) error {
	if s.ID == "" || s.File == "" {
		return factbase.Errorf(factbase.EINVALID, "transcript session needs an id and a file (got %q, %q)", s.ID, s.File)
	}
	_, err := t.q.Exec(ctx, qTranscriptPutSession, string(t.user), s.ID, s.File, s.CWD, s.GitBranch, s.Version, s.Summary,
		nullUnix(s.First), nullUnix(s.Last), s.Users, s.Assistants, s.Other, t.now.UnixNano())
	return mapErr("transcript session", err)
}

// DeleteTranscriptSessions deletes the session rows of file.
func (t *tx) DeleteTranscriptSessions(ctx context.Context, file string) (int, error) {
	tag, err := t.q.Exec(ctx, qTranscriptDeleteSessions, string(t.user), file)
	if err != nil {
		return 0, mapErr("transcript sessions", err)
	}
	return int(tag.RowsAffected()), nil
}

// LinkTranscriptSubjects records subject -> session links, skipping stored ones.
func (t *tx) LinkTranscriptSubjects(ctx context.Context, links []factbase.TranscriptLink) error {
	if len(links) == 0 {
		return nil
	}
	sessions := make([]string, len(links))
	subjects := make([]string, len(links))
	for i, l := range links {
		if l.Subject == "" || l.Session == "" {
			return factbase.Errorf(factbase.EINVALID, "transcript link needs a subject and a session (got %q, %q)", l.Subject, l.Session)
		}
		sessions[i], subjects[i] = l.Session, l.Subject
	}
	_, err := t.q.Exec(ctx, qTranscriptLink, string(t.user), sessions, subjects)
	return mapErr("transcript link", err)
}

// TranscriptSessions returns the session rows of id, or all of them for id "".
func (t *tx) TranscriptSessions(ctx context.Context, id string) ([]factbase.TranscriptSession, error) {
	var (
		rows pgx.Rows
		err  error
	)
	if id == "" {
		rows, err = t.q.Query(ctx, qTranscriptSessionsAll, string(t.user))
	} else {
		rows, err = t.q.Query(ctx, qTranscriptSessionsByID, string(t.user), id)
	}
	if err != nil {
		return nil, mapErr("transcript sessions", err)
	}
	defer rows.Close()
	var out []factbase.TranscriptSession
	for rows.Next() {
		var (
			s                       factbase.TranscriptSession
			first, last             *int64
			at                      int64
			users, assistants, othr int64
		)
		if err := rows.Scan(&s.ID, &s.File, &s.CWD, &s.GitBranch, &s.Version, &s.Summary, &first, &last,
			&users, &assistants, &othr, &at); err != nil {
			return nil, mapErr("transcript sessions", err)
		}
		if first != nil {
			s.First = time.Unix(0, *first).UTC()
		}
		if last != nil {
			s.Last = time.Unix(0, *last).UTC()
		}
		s.Users, s.Assistants, s.Other = int(users), int(assistants), int(othr)
		s.UpdatedAt = time.Unix(0, at).UTC()
		out = append(out, s)
	}
	return out, mapErr("transcript sessions", rows.Err())
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
	rows, err := t.q.Query(ctx, query, args...)
	if err != nil {
		return nil, mapErr("transcript objects", err)
	}
	var (
		out   []factbase.TranscriptObject
		norms []string
		index = map[string]int{}
	)
	for rows.Next() {
		var norm string
		var n int64
		var o factbase.TranscriptObject
		if err := rows.Scan(&norm, &o.Object, &n); err != nil {
			rows.Close()
			return nil, mapErr("transcript objects", err)
		}
		o.Facts = int(n)
		o.Sessions = []string{}
		index[norm] = len(out)
		norms = append(norms, norm)
		out = append(out, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, mapErr("transcript objects", err)
	}
	if len(out) == 0 {
		return out, nil
	}
	// The sessions of the groups on this page, in one query.
	where, args = t.transcriptWhere(q, "f.", nil)
	args = append(args, norms)
	query = "SELECT DISTINCT f.norm, s.session FROM facts f JOIN transcript_subjects s ON s.u = f.u AND s.subject = f.subject" +
		" WHERE " + where + " AND f.norm = ANY($" + strconv.Itoa(len(args)) + "::text[])"
	rows, err = t.q.Query(ctx, query, args...)
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

// normScanner scans a fact row followed by its norm.
type normScanner struct {
	r    pgx.Rows
	norm *string
}

func (s normScanner) Scan(dest ...any) error { return s.r.Scan(append(dest, s.norm)...) }

// Members returns the current members that keys name, in one statement.
func (t *tx) Members(ctx context.Context, keys []factbase.MemberKey) (map[factbase.MemberKey]factbase.Fact, error) {
	out := make(map[factbase.MemberKey]factbase.Fact)
	if len(keys) == 0 {
		return out, nil
	}
	s, k, n := memberArrays(keys)
	rows, err := t.q.Query(ctx, qMembers, string(t.user), s, k, n)
	if err != nil {
		return nil, mapErr("members", err)
	}
	var norm string
	for rows.Next() {
		f, err := t.scanFact(normScanner{rows, &norm})
		if err != nil {
			rows.Close()
			return nil, err
		}
		out[factbase.MemberKey{Subject: f.Subject, Key: f.Key, Norm: norm}] = f
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, mapErr("members", err)
	}
	for k, f := range out { // a key declared many may hold a ranked list
		if err := t.fixRank(ctx, &f); err != nil {
			return nil, err
		}
		out[k] = f
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
