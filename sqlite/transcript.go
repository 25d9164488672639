package sqlite

import (
	"context"
	"database/sql"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/listpos"
	"github.com/factbase/factbase/internal/rowcodec"
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
	qTranscriptSessionsAll    = "SELECT " + rowcodec.TranscriptSessionColumns + ` FROM transcript_sessions
		WHERE u = ? ORDER BY coalesce(first_at, 0), id, file`
	qTranscriptSessionsByID = "SELECT " + rowcodec.TranscriptSessionColumns + ` FROM transcript_sessions
		WHERE u = ? AND id = ? ORDER BY coalesce(first_at, 0), id, file`

	transcriptQueries = []string{qTranscriptCheckpoint, qTranscriptPutCheckpoint, qTranscriptPutSession,
		qTranscriptDeleteSessions, qTranscriptSessionsAll, qTranscriptSessionsByID,
		qMembersBulk, qMemberCountsBulk, qInsertBulk, qTranscriptLinkBulk}
)

// TranscriptCheckpoint returns the checkpoint of file.
func (t *tx) TranscriptCheckpoint(ctx context.Context, file string) (factbase.TranscriptCheckpoint, bool, error) {
	cp, ok, err := rowcodec.One(t.queryRow(ctx, qTranscriptCheckpoint, t.u, file), sql.ErrNoRows, rowcodec.Checkpoint(file))
	return cp, ok, mapErr("transcript checkpoint", err)
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
	return t.execCount(ctx, "transcript sessions", qTranscriptDeleteSessions, t.u, file)
}

// LinkTranscriptSubjects records subject -> session links, skipping stored ones,
// bulkRows links a statement.
func (t *tx) LinkTranscriptSubjects(ctx context.Context, links []factbase.TranscriptLink) error {
	if err := rowcodec.ValidateLinks(links); err != nil {
		return err
	}
	for len(links) > 0 {
		n := min(len(links), bulkRows)
		args := make([]any, 0, 3*n)
		for _, l := range links[:n] {
			args = append(args, t.u, l.Session, l.Subject)
		}
		if _, err := t.exec(ctx, bulkQuery(n, qTranscriptLinkBulk, qTranscriptLinkN), args...); err != nil {
			return mapErr("transcript link", err)
		}
		links = links[n:]
	}
	return nil
}

// TranscriptSessions returns a page of the session rows of id, or of all of them for
// id "".
func (t *tx) TranscriptSessions(ctx context.Context, id string, offset, limit int) ([]factbase.TranscriptSession, error) {
	q, args := qTranscriptSessionsAll, []any{t.u}
	if id != "" {
		q, args = qTranscriptSessionsByID, append(args, id)
	}
	page, args := literalLimit(limit, offset, args)
	sessions, err := queryAll(ctx, t, rowcodec.TranscriptSession, q+page, args...)
	return sessions, mapErr("transcript sessions", err)
}

// transcriptWhere builds the filter of a TranscriptQuery over the facts table, its
// columns qualified with p ("" or "f.").
func (t *tx) transcriptWhere(q factbase.TranscriptQuery, p string) (string, []any) {
	// The kind is a literal so that SQLite can use the partial index facts_transcript
	// (migration 0017).
	where := []string{p + "u = ?", p + "current = 1", p + "source_kind = '" + factbase.SourceTranscript + "'"}
	args := []any{t.u}
	where, args = eq(where, args, p+"key", q.Predicate)
	where, args = eq(where, args, p+"subject", q.Subject)
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
	return t.queryFacts(ctx, query, args...)
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
	groups, err := rowcodec.ReadObjectGroups(rows)
	if err != nil || len(groups.Norms()) == 0 {
		return nil, mapErr("transcript objects", err)
	}
	// The sessions of the groups on this page, in one query.
	where, args = t.transcriptWhere(q, "f.")
	for _, n := range groups.Norms() {
		args = append(args, n)
	}
	query = "SELECT DISTINCT f.norm, s.session FROM facts f JOIN transcript_subjects s ON s.u = f.u AND s.subject = f.subject" +
		" WHERE " + where + " AND f.norm IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(groups.Norms())), ", ") + ")" +
		" ORDER BY f.norm, s.session"
	rows, err = t.query(ctx, query, args...)
	if err == nil {
		err = groups.AddSessions(rows)
	}
	if err != nil {
		return nil, mapErr("transcript objects", err)
	}
	return groups.Objects(), nil
}

// bulkRows is the most rows one statement of the bulk set insert binds: 29
// parameters a row for an insert, within SQLite's limit of 32,766. Each statement
// that writes facts also flushes the full-text index's pending terms (FTS5 does at
// every statement savepoint), so a statement per fact made a segment per fact.
const bulkRows = 256

// valuesRows returns "(?, ?), (?, ?)" for rows rows of cols parameters.
func valuesRows(rows, cols int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", cols), ", ") + ")"
	return strings.TrimSuffix(strings.Repeat(row+", ", rows), ", ")
}

// The statements of the bulk set insert for n rows; those of bulkRows rows are
// prepared at open (transcriptQueries), the shorter last chunk of a batch on the
// transaction.
func qMembersN(n int) string {
	return `WITH k (s, k, n) AS (VALUES ` + valuesRows(n, 3) + `)
		SELECT ` + factRecord("f.") + `, f.norm FROM k CROSS JOIN facts f
		ON f.u = ? AND f.subject = k.s AND f.key = k.k AND f.norm = k.n AND f.current = 1 AND f.cardinality <> 'one'`
}

func qMemberCountsN(n int) string {
	return `WITH k (i, s, k, n) AS (VALUES ` + valuesRows(n, 4) + `)
		SELECT k.i, (SELECT count(*) FROM facts f WHERE f.u = ? AND f.subject = k.s AND f.key = k.k AND f.norm = k.n
			AND f.current = 1 AND f.cardinality <> 'one') FROM k`
}

func qTranscriptLinkN(n int) string {
	return `INSERT INTO transcript_subjects (u, session, subject) VALUES ` + valuesRows(n, 3) + ` ON CONFLICT DO NOTHING`
}

func qInsertN(n int) string {
	return `INSERT INTO facts (id, u, subject, key, cardinality, value, norm, value_type,
		rank, text, type, category, confidence, scope, durability, sensitivity, said_by, temporal, anchor,
		source_kind, source_id, extractor, recorded_at, valid_from, valid_to, supersedes, superseded_by, current, terms)
		VALUES ` + valuesRows(n, 29)
}

var (
	qMembersBulk        = qMembersN(bulkRows)
	qMemberCountsBulk   = qMemberCountsN(bulkRows)
	qInsertBulk         = qInsertN(bulkRows)
	qTranscriptLinkBulk = qTranscriptLinkN(bulkRows)
)

// bulkQuery returns full when n is bulkRows, else the statement for n rows.
func bulkQuery(n int, full string, of func(int) string) string {
	if n == bulkRows {
		return full
	}
	return of(n)
}

// Members returns the current members that keys name, bulkRows keys a statement.
func (t *tx) Members(ctx context.Context, keys []factbase.MemberKey) (map[factbase.MemberKey]factbase.Fact, error) {
	out := make(map[factbase.MemberKey]factbase.Fact)
	for len(keys) > 0 {
		n := min(len(keys), bulkRows)
		args := make([]any, 0, 3*n+1)
		for _, k := range keys[:n] {
			args = append(args, k.Subject, k.Key, k.Norm)
		}
		rows, err := t.query(ctx, bulkQuery(n, qMembersBulk, qMembersN), append(args, t.u)...)
		if err == nil {
			err = rowcodec.Members(rows, t.scanFact, out)
		}
		if err != nil {
			return nil, mapErr("members", err)
		}
		keys = keys[n:]
	}
	err := listpos.DeriveMemberRanks(out, func(subject, key string, pos int64) (int, error) {
		return t.rankOf(ctx, subject, key, pos)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// MemberCounts returns how many current members hold each key.
func (t *tx) MemberCounts(ctx context.Context, keys []factbase.MemberKey) ([]int, error) {
	out := make([]int, len(keys))
	for done := 0; done < len(keys); {
		n := min(len(keys)-done, bulkRows)
		args := make([]any, 0, 4*n+1)
		for i, k := range keys[done : done+n] {
			args = append(args, done+i, k.Subject, k.Key, k.Norm)
		}
		rows, err := t.query(ctx, bulkQuery(n, qMemberCountsBulk, qMemberCountsN), append(args, t.u)...)
		if err != nil {
			return nil, mapErr("member counts", err)
		}
		for rows.Next() {
			var i, c int
			if err := rows.Scan(&i, &c); err != nil {
				rows.Close()
				return nil, mapErr("member counts", err)
			}
			if i < done || i >= done+n {
				rows.Close()
				return nil, factbase.Errorf(factbase.EINTERNAL, "member counts: row %d outside the chunk %d..%d", i, done, done+n-1)
			}
			out[i] = c
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, mapErr("member counts", err)
		}
		done += n
	}
	return out, nil
}

// InsertFacts writes new fact rows, bulkRows rows a statement; their full text and
// sheet records are written before commit (fts.go).
func (t *tx) InsertFacts(ctx context.Context, facts []factbase.Fact, norms []string) error {
	if len(norms) != len(facts) {
		return factbase.Errorf(factbase.EINTERNAL, "insert facts: %d facts but %d normalised values", len(facts), len(norms))
	}
	for _, f := range facts {
		if f.Current && f.Cardinality == factbase.Ranked { // a position to place: one by one
			for i, f := range facts {
				if err := t.Insert(ctx, f, norms[i]); err != nil {
					return err
				}
			}
			return nil
		}
	}
	if len(facts) > 1 {
		if err := t.deferDerived(ctx); err != nil {
			return err
		}
	}
	for len(facts) > 0 {
		n := min(len(facts), bulkRows)
		args := make([]any, 0, 29*n)
		for i, f := range facts[:n] {
			var rank any
			if f.Cardinality == factbase.Ranked {
				rank = f.Rank
			}
			cur := 0
			if f.Current {
				cur = 1
			}
			args = append(args, f.ID, t.u, f.Subject, f.Key, string(f.Cardinality), f.Value, norms[i], string(f.ValueType),
				rank, f.Text, f.Type, string(f.Category), f.Confidence, f.Scope, string(f.Durability),
				string(f.Sensitivity), f.SaidBy, f.Temporal, rowcodec.Nanos(f.Anchor), f.Source.Kind, f.Source.ID,
				f.Extractor, f.RecordedAt.UnixNano(), f.ValidFrom.UnixNano(), rowcodec.Nanos(f.ValidTo),
				f.Supersedes, f.SupersededBy, cur, indexTerms(f.Index))
		}
		if _, err := t.exec(ctx, bulkQuery(n, qInsertBulk, qInsertN), args...); err != nil {
			return mapErr("insert", err)
		}
		facts, norms = facts[n:], norms[n:]
	}
	return nil
}
