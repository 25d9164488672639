package rowcodec

import (
	"encoding/json"
	"strings"

	"github.com/factbase/factbase"
)

// EpisodeColumns are the columns of an episode, in the order EpisodeRow.Dest reads
// them.
const EpisodeColumns = "id, content, tags, importance, created_at, metadata, extracted_at"

// Prefixed qualifies each column of a comma-separated column list with prefix:
// Prefixed("e.", "id, content") is "e.id, e.content".
func Prefixed(prefix, columns string) string {
	cols := strings.Split(columns, ",")
	for i, c := range cols {
		cols[i] = prefix + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}

// EpisodeRow is an episode's row as scanned. Each store keeps the tags its own way (a
// JSON array, an array column), so it scans them itself and hands them to
// Owner.Episode.
type EpisodeRow struct {
	id, content string
	importance  float64
	created     int64
	meta        []byte
	extracted   *int64
}

// ID returns the id read into r.
func (r *EpisodeRow) ID() string { return r.id }

// Dest returns the scan destinations of EpisodeColumns, tags being the store's own.
func (r *EpisodeRow) Dest(tags any) []any {
	return []any{&r.id, &r.content, tags, &r.importance, &r.created, &r.meta, &r.extracted}
}

// Episode returns the episode of row r with tags (never nil in the result); metadata
// "{}" is none.
func (o Owner) Episode(r *EpisodeRow, tags []string) (factbase.Episode, error) {
	e := factbase.Episode{ID: r.id, User: factbase.UserID(o), Content: r.content, Tags: NonNil(tags),
		Importance: r.importance, CreatedAt: Time(r.created), ExtractedAt: TimePtr(r.extracted)}
	if string(r.meta) != "{}" {
		if err := json.Unmarshal(r.meta, &e.Metadata); err != nil {
			return e, factbase.Errorf(factbase.EINTERNAL, "episode %s: bad metadata: %v", e.ID, err)
		}
	}
	return e, nil
}

// EpisodeMetadata returns the metadata column of an episode: JSON, "{}" when empty.
func EpisodeMetadata(m map[string]string) (string, error) {
	if len(m) == 0 {
		return "{}", nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return "", factbase.Errorf(factbase.EINTERNAL, "encode metadata: %v", err)
	}
	return string(b), nil
}

// Candidates reads the candidates of kind, best first, from rows of (id, score,
// time, subject, importance): their ranks are 1, 2, ... It closes rows.
func Candidates(kind string, rows Rows) ([]factbase.Candidate, error) {
	out, err := All(rows, func(r Scanner) (factbase.Candidate, error) {
		var at int64
		c := factbase.Candidate{Kind: kind}
		err := r.Scan(&c.ID, &c.Score, &at, &c.Subject, &c.Importance)
		c.Time = Time(at)
		return c, err
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out, err
}

// ListEvent reads the events of list (subject, key) from rows of (at, action, fact
// id, value, from rank, to rank).
func ListEvent(subject, key string) func(Scanner) (factbase.ListEvent, error) {
	return func(r Scanner) (factbase.ListEvent, error) {
		e := factbase.ListEvent{Subject: subject, Key: key}
		var (
			at     int64
			action string
		)
		if err := r.Scan(&at, &action, &e.FactID, &e.Value, &e.From, &e.To); err != nil {
			return e, err
		}
		e.At, e.Action = Time(at), factbase.Action(action)
		return e, nil
	}
}
