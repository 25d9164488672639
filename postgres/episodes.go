package postgres

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/storeerr"
)

// episodeFTS is the full-text entry of an episode, from two arguments ($9, $10 of
// qEpisodeInsert: episodeFTSArgs).
const episodeFTS = `setweight(to_tsvector('english', $9), 'A') || setweight(to_tsvector('english', $10), 'B')`

// The statements of episodes.
const (
	qEpisode = "SELECT " + rowcodec.EpisodeColumns + " FROM episodes WHERE u = $1 AND id = $2"
	// The full-text entry: the content weighted A, the tags B (episodeFTSArgs).
	qEpisodeInsert = `INSERT INTO episodes (id, u, content, tags, importance, created_at, metadata, extracted_at, fts, terms)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, ` + episodeFTS + `, $11)`
	qEpisodeDelete    = "DELETE FROM episodes WHERE u = $1 AND id = $2"
	qEpisodeExtracted = "UPDATE episodes SET extracted_at = $1 WHERE u = $2 AND id = $3"
	qEpisodeFacts     = "SELECT " + factColumns + ` FROM facts
		WHERE u = $1 AND source_kind = 'episode' AND source_id = $2 AND current ORDER BY recorded_at, seq`
	qEpisodeFactsAll = "SELECT " + factColumns + ` FROM facts
		WHERE u = $1 AND source_kind = 'episode' AND source_id = $2 ORDER BY recorded_at, seq`
)

// InsertEpisode writes a new episode with its tags and full-text entry (of e.Index
// when set).
func (t *tx) InsertEpisode(ctx context.Context, e factbase.Episode) error {
	tags := rowcodec.NonNil(e.Tags)
	meta, err := rowcodec.EpisodeMetadata(e.Metadata)
	if err != nil {
		return err
	}
	t.writes++
	fts := episodeFTSArgs(e.Content, tags, e.Index)
	_, err = t.q.Exec(ctx, qEpisodeInsert, e.ID, string(t.user), e.Content, tags, e.Importance,
		e.CreatedAt.UnixNano(), meta, rowcodec.Nanos(e.ExtractedAt), fts[0], fts[1], indexTerms(e.Index))
	return mapErr("insert episode", err)
}

// DeleteEpisode erases an episode; its full-text entry goes with the row and a
// trigger deletes its vector.
func (t *tx) DeleteEpisode(ctx context.Context, id string) (int, error) {
	return t.execCount(ctx, "delete episode", qEpisodeDelete, string(t.user), id)
}

// MarkExtracted records the time pattern extraction ran over an episode.
func (t *tx) MarkExtracted(ctx context.Context, id string, at time.Time) error {
	n, err := t.execCount(ctx, "mark extracted", qEpisodeExtracted, at.UnixNano(), string(t.user), id)
	return storeerr.Changed(n, err, "episode", id)
}

// scanEpisode reads an episode selected with rowcodec.EpisodeColumns; its tags are a
// text array.
func (t *tx) scanEpisode(r rowcodec.Scanner) (factbase.Episode, error) {
	var (
		row  rowcodec.EpisodeRow
		tags []string
	)
	if err := r.Scan(row.Dest(&tags)...); err != nil {
		return factbase.Episode{}, mapErr("scan episode", err)
	}
	return rowcodec.Owner(t.user).Episode(&row, tags)
}

// Episode returns one episode by id; ENOTFOUND if the user has none.
func (t *tx) Episode(ctx context.Context, id string) (factbase.Episode, error) {
	return byID(ctx, t, "episode", qEpisode, id, t.scanEpisode)
}

// where collects the conditions and arguments of a dynamic statement.
type where struct {
	conds []string
	args  []any
}

// arg adds an argument and returns its placeholder.
func (w *where) arg(v any) string {
	w.args = append(w.args, v)
	return "$" + strconv.Itoa(len(w.args))
}

func (w *where) add(cond string) { w.conds = append(w.conds, cond) }

// page returns the LIMIT and OFFSET clause of a page, each bound as an argument; a
// limit or an offset of 0 is none.
func (w *where) page(limit, offset int) string {
	var s string
	if limit > 0 {
		s += " LIMIT " + w.arg(limit)
	}
	if offset > 0 {
		s += " OFFSET " + w.arg(offset)
	}
	return s
}

// eq adds the condition that column equals v, if v is set (not "").
func (w *where) eq(column, v string) {
	if v != "" {
		w.add(column + " = " + w.arg(v))
	}
}

func (w *where) String() string { return strings.Join(w.conds, " AND ") }

// episodeWhere adds the conditions of an episode filter over table alias e.
func (t *tx) episodeWhere(w *where, f factbase.EpisodeFilter) {
	w.add("e.u = " + w.arg(string(t.user)))
	if len(f.Tags) > 0 {
		w.add("e.tags @> " + w.arg(f.Tags) + "::text[]")
	}
	if !f.From.IsZero() {
		w.add("e.created_at >= " + w.arg(f.From.UnixNano()))
	}
	if !f.To.IsZero() {
		w.add("e.created_at < " + w.arg(f.To.UnixNano()))
	}
	if f.Unextracted {
		w.add("e.extracted_at IS NULL")
	}
}

// Episodes returns the episodes matching f.
func (t *tx) Episodes(ctx context.Context, f factbase.EpisodeFilter) ([]factbase.Episode, error) {
	var w where
	t.episodeWhere(&w, f)
	order := " ORDER BY e.created_at, e.id"
	if f.NewestFirst {
		order = " ORDER BY e.created_at DESC, e.id DESC"
	}
	q := "SELECT " + rowcodec.Prefixed("e.", rowcodec.EpisodeColumns) + " FROM episodes e WHERE " + w.String() + order + w.page(f.Limit, f.Offset)
	return t.queryEpisodes(ctx, q, w.args...)
}

// queryEpisodes runs a query of rowcodec.EpisodeColumns and reads its episodes.
func (t *tx) queryEpisodes(ctx context.Context, q string, args ...any) ([]factbase.Episode, error) {
	eps, err := queryAll(ctx, t, t.scanEpisode, q, args...)
	return eps, mapErr("episodes", err)
}

// CountEpisodes returns how many episodes match f.
func (t *tx) CountEpisodes(ctx context.Context, f factbase.EpisodeFilter) (int, error) {
	var w where
	t.episodeWhere(&w, f)
	var n int
	err := t.q.QueryRow(ctx, "SELECT count(*) FROM episodes e WHERE "+w.String(), w.args...).Scan(&n)
	return n, mapErr("count episodes", err)
}

// EpisodeFacts returns a page of the facts whose source is the episode.
func (t *tx) EpisodeFacts(ctx context.Context, id string, history bool, offset, limit int) ([]factbase.Fact, error) {
	q := qEpisodeFacts
	if history {
		q = qEpisodeFactsAll
	}
	w := where{args: []any{string(t.user), id}}
	return t.queryFacts(ctx, q+w.page(limit, offset), w.args...)
}
