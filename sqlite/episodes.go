package sqlite

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/storeerr"
)

// The static statements of episodes, prepared at open.
var (
	qEpisode       = "SELECT " + rowcodec.EpisodeColumns + " FROM episodes WHERE u = ? AND id = ?"
	qEpisodeInsert = `INSERT INTO episodes (id, u, content, tags, importance, created_at, metadata, extracted_at, terms)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
	qEpisodeTag       = "INSERT OR IGNORE INTO episode_tags (u, tag, episode) VALUES (?, ?, ?)"
	qEpisodeDelete    = "DELETE FROM episodes WHERE u = ? AND id = ?"
	qEpisodeExtracted = "UPDATE episodes SET extracted_at = ? WHERE u = ? AND id = ?"
	qEpisodeFacts     = "SELECT " + factColumns + ` FROM facts
		WHERE u = ? AND source_kind = 'episode' AND source_id = ? AND current = 1 ORDER BY recorded_at, seq`
	qEpisodeFactsAll = "SELECT " + factColumns + ` FROM facts
		WHERE u = ? AND source_kind = 'episode' AND source_id = ? ORDER BY recorded_at, seq`

	episodeQueries = []string{qEpisode, qEpisodeInsert, qEpisodeTag, qEpisodeDelete, qEpisodeExtracted,
		qEpisodeFacts, qEpisodeFactsAll}
)

// InsertEpisode writes a new episode, its tags and (by trigger) its full-text entry:
// of e.Index, when set, in place of its content and tags (migration 0023).
func (t *tx) InsertEpisode(ctx context.Context, e factbase.Episode) error {
	tags, err := json.Marshal(rowcodec.NonNil(e.Tags))
	if err != nil {
		return factbase.Errorf(factbase.EINTERNAL, "sqlite: encode tags: %v", err)
	}
	meta, err := rowcodec.EpisodeMetadata(e.Metadata)
	if err != nil {
		return err
	}
	res, err := t.exec(ctx, qEpisodeInsert, e.ID, t.u, e.Content, string(tags), e.Importance,
		e.CreatedAt.UnixNano(), meta, rowcodec.Nanos(e.ExtractedAt), indexTerms(e.Index))
	if err != nil {
		return mapErr("insert episode", err)
	}
	seq, err := res.LastInsertId()
	if err != nil {
		return mapErr("insert episode", err)
	}
	for _, tag := range e.Tags {
		if _, err := t.exec(ctx, qEpisodeTag, t.u, tag, seq); err != nil {
			return mapErr("insert episode tag", err)
		}
	}
	return nil
}

// DeleteEpisode erases an episode; triggers remove its tags, full-text entry and vector.
func (t *tx) DeleteEpisode(ctx context.Context, id string) (int, error) {
	return t.execCount(ctx, "delete episode", qEpisodeDelete, t.u, id)
}

// MarkExtracted records the time pattern extraction ran over an episode.
func (t *tx) MarkExtracted(ctx context.Context, id string, at time.Time) error {
	n, err := t.execCount(ctx, "mark extracted", qEpisodeExtracted, at.UnixNano(), t.u, id)
	return storeerr.Changed(n, err, "episode", id)
}

// scanEpisode reads an episode selected with rowcodec.EpisodeColumns; its tags are
// a JSON array.
func (t *tx) scanEpisode(r rowcodec.Scanner) (factbase.Episode, error) {
	var (
		row  rowcodec.EpisodeRow
		tags string
		list []string
	)
	if err := r.Scan(row.Dest(&tags)...); err != nil {
		return factbase.Episode{}, mapErr("scan episode", err)
	}
	if err := json.Unmarshal([]byte(tags), &list); err != nil {
		return factbase.Episode{}, factbase.Errorf(factbase.EINTERNAL, "sqlite: episode %s: bad tags: %v", row.ID(), err)
	}
	return rowcodec.Owner(t.user).Episode(&row, list)
}

// Episode returns one episode by id.
func (t *tx) Episode(ctx context.Context, id string) (factbase.Episode, error) {
	return byID(ctx, t, "episode", qEpisode, id, t.scanEpisode)
}

// episodeWhere builds the WHERE clause of an episode filter over table alias e.
func (t *tx) episodeWhere(f factbase.EpisodeFilter) (string, []any) {
	where := []string{"e.u = ?"}
	args := []any{t.u}
	for _, tag := range f.Tags {
		where = append(where, "EXISTS (SELECT 1 FROM episode_tags g WHERE g.u = e.u AND g.tag = ? AND g.episode = e.seq)")
		args = append(args, tag)
	}
	if !f.From.IsZero() {
		where, args = append(where, "e.created_at >= ?"), append(args, f.From.UnixNano())
	}
	if !f.To.IsZero() {
		where, args = append(where, "e.created_at < ?"), append(args, f.To.UnixNano())
	}
	if f.Unextracted {
		where = append(where, "e.extracted_at IS NULL")
	}
	return strings.Join(where, " AND "), args
}

// Episodes returns the episodes matching f.
func (t *tx) Episodes(ctx context.Context, f factbase.EpisodeFilter) ([]factbase.Episode, error) {
	where, args := t.episodeWhere(f)
	order := " ORDER BY e.created_at, e.id"
	if f.NewestFirst {
		order = " ORDER BY e.created_at DESC, e.id DESC"
	}
	page, args := literalLimit(f.Limit, f.Offset, args)
	q := "SELECT " + rowcodec.Prefixed("e.", rowcodec.EpisodeColumns) + " FROM episodes e WHERE " + where + order + page
	eps, err := queryAll(ctx, t, t.scanEpisode, q, args...)
	return eps, mapErr("episodes", err)
}

// CountEpisodes returns how many episodes match f.
func (t *tx) CountEpisodes(ctx context.Context, f factbase.EpisodeFilter) (int, error) {
	where, args := t.episodeWhere(f)
	var n int
	err := t.queryRow(ctx, "SELECT count(*) FROM episodes e WHERE "+where, args...).Scan(&n)
	return n, mapErr("count episodes", err)
}

// EpisodeFacts returns a page of the facts whose source is the episode.
func (t *tx) EpisodeFacts(ctx context.Context, id string, history bool, offset, limit int) ([]factbase.Fact, error) {
	q := qEpisodeFacts
	if history {
		q = qEpisodeFactsAll
	}
	page, args := literalLimit(limit, offset, []any{t.u, id})
	return t.queryFacts(ctx, q+page, args...)
}
