package sealed

import (
	"context"
	"slices"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/normalize"
)

// TranscriptFacts returns the facts q selects. ObjectContains matches a value, which
// the store holds sealed: the facts q selects without it are read and filtered here,
// and the page is cut after the filter.
func (r *readTx) TranscriptFacts(ctx context.Context, q factbase.TranscriptQuery) ([]factbase.Fact, error) {
	if q.ObjectContains == "" {
		return all(ctx, r.c.openFact)(r.ReadTx.TranscriptFacts(ctx, q))
	}
	fs, err := r.transcriptFacts(ctx, q)
	if err != nil {
		return nil, err
	}
	return page(fs, q.Offset, q.Limit), nil
}

// transcriptFacts returns every fact q selects, its page ignored, opened.
func (r *readTx) transcriptFacts(ctx context.Context, q factbase.TranscriptQuery) ([]factbase.Fact, error) {
	contains := q.ObjectContains
	q.ObjectContains, q.Offset, q.Limit = "", 0, 0
	fs, err := all(ctx, r.c.openFact)(r.ReadTx.TranscriptFacts(ctx, q))
	if err != nil || contains == "" {
		return fs, err
	}
	return slices.DeleteFunc(fs, func(f factbase.Fact) bool { return !containsFold(f.Value, contains) }), nil
}

// TranscriptObjects groups the facts q selects by normalised object, as the stores
// do in SQL: the store holds the objects sealed and their normalised forms as blind
// indexes, which neither order nor show, so the facts and the links of their
// subjects to sessions are read and grouped here. Its cost grows with the facts q
// selects and the user's links.
func (r *readTx) TranscriptObjects(ctx context.Context, q factbase.TranscriptQuery) ([]factbase.TranscriptObject, error) {
	fs, err := r.transcriptFacts(ctx, q)
	if err != nil || len(fs) == 0 {
		return nil, err
	}
	type group struct {
		norm     string
		object   factbase.TranscriptObject
		subjects map[string]bool
	}
	var groups []*group
	byNorm := map[string]*group{}
	for _, f := range fs {
		n := normalize.Value(f.Value)
		g := byNorm[n]
		if g == nil {
			g = &group{norm: n, object: factbase.TranscriptObject{Object: f.Value, Sessions: []string{}}, subjects: map[string]bool{}}
			byNorm[n] = g
			groups = append(groups, g)
		}
		g.object.Facts++
		g.object.Object = min(g.object.Object, f.Value) // the stores keep min(value)
		g.subjects[f.Subject] = true
	}
	slices.SortFunc(groups, func(a, b *group) int {
		if a.object.Facts != b.object.Facts {
			return b.object.Facts - a.object.Facts
		}
		return cmpStrings(a.object.Object, b.object.Object, a.norm, b.norm)
	})
	groups = page(groups, q.Offset, q.Limit)
	if len(groups) == 0 {
		return nil, nil
	}
	links, err := r.ReadTx.ExportTranscriptLinks(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]factbase.TranscriptObject, len(groups))
	for i, g := range groups {
		seen := map[string]bool{}
		for _, l := range links { // by session, then subject: the sessions come sorted
			if g.subjects[l.Subject] && !seen[l.Session] {
				seen[l.Session] = true
				if g.object.SessionsTotal++; len(g.object.Sessions) < factbase.MaxObjectSessions {
					g.object.Sessions = append(g.object.Sessions, l.Session)
				}
			}
		}
		out[i] = g.object
	}
	return out, nil
}

// page returns xs[offset:offset+limit], limit 0 meaning no limit.
func page[T any](xs []T, offset, limit int) []T {
	xs = xs[min(max(offset, 0), len(xs)):]
	if limit > 0 && limit < len(xs) {
		xs = xs[:limit]
	}
	return xs
}

// containsFold reports whether s contains sub, ASCII letters compared without case
// (as SQL's LIKE does, and TranscriptQuery.ObjectContains says).
func containsFold(s, sub string) bool {
	return strings.Contains(asciiLower(s), asciiLower(sub))
}

func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}
