package rowcodec

import (
	"sort"
	"time"

	"github.com/factbase/factbase"
)

// Checkpoint reads the checkpoint of file from a row of (byte offset, line, sum,
// updated at).
func Checkpoint(file string) func(Scanner) (factbase.TranscriptCheckpoint, error) {
	return func(r Scanner) (factbase.TranscriptCheckpoint, error) {
		cp := factbase.TranscriptCheckpoint{File: file}
		var at int64
		if err := r.Scan(&cp.Offset, &cp.Line, &cp.Sum, &at); err != nil {
			return factbase.TranscriptCheckpoint{}, err
		}
		cp.UpdatedAt = Time(at)
		return cp, nil
	}
}

// CheckpointArgs returns the arguments of a checkpoint's upsert: owner, file, byte
// offset, line, sum (never nil) and updated at (now). It validates cp
// (factbase.TranscriptCheckpoint.Validate).
func CheckpointArgs(owner any, cp factbase.TranscriptCheckpoint, now time.Time) ([]any, error) {
	if err := cp.Validate(); err != nil {
		return nil, err
	}
	return []any{owner, cp.File, cp.Offset, cp.Line, NonNil(cp.Sum), now.UnixNano()}, nil
}

// TranscriptSessionColumns are the columns of a transcript session, in the order
// TranscriptSession reads them and TranscriptSessionArgs writes them (after the
// owner).
const TranscriptSessionColumns = `id, file, cwd, git_branch, version, summary, first_at, last_at,
		users, assistants, other, updated_at`

// TranscriptSession reads a session selected with TranscriptSessionColumns.
func TranscriptSession(r Scanner) (factbase.TranscriptSession, error) {
	var (
		s           factbase.TranscriptSession
		first, last *int64
		at          int64
	)
	if err := r.Scan(&s.ID, &s.File, &s.CWD, &s.GitBranch, &s.Version, &s.Summary, &first, &last,
		&s.Users, &s.Assistants, &s.Other, &at); err != nil {
		return s, err
	}
	s.First, s.Last, s.UpdatedAt = TimeOrZero(first), TimeOrZero(last), Time(at)
	return s, nil
}

// TranscriptSessionArgs returns the arguments of a session's upsert: owner, then
// TranscriptSessionColumns, updated at now. It validates s
// (factbase.TranscriptSession.Validate).
func TranscriptSessionArgs(owner any, s factbase.TranscriptSession, now time.Time) ([]any, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return []any{owner, s.ID, s.File, s.CWD, s.GitBranch, s.Version, s.Summary,
		NanosOrNull(s.First), NanosOrNull(s.Last), s.Users, s.Assistants, s.Other, now.UnixNano()}, nil
}

// ValidateLinks validates every link (factbase.TranscriptLink.Validate), so that a
// batch with a bad link stores none.
func ValidateLinks(links []factbase.TranscriptLink) error {
	for _, l := range links {
		if err := l.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// ObjectGroups builds the TranscriptObjects of one page of groups in two reads: the
// groups, then the sessions of their subjects.
type ObjectGroups struct {
	objects []factbase.TranscriptObject
	norms   []string
	index   map[string]int
}

// ReadObjectGroups reads the groups of a page from rows of (normalised object, first
// spelling, facts), in the page's order. It closes rows.
func ReadObjectGroups(rows Rows) (*ObjectGroups, error) {
	defer closeRows(rows)
	g := &ObjectGroups{index: map[string]int{}}
	for rows.Next() {
		var norm string
		var o factbase.TranscriptObject
		if err := rows.Scan(&norm, &o.Object, &o.Facts); err != nil {
			return nil, err
		}
		o.Sessions = []string{}
		g.index[norm] = len(g.objects)
		g.norms = append(g.norms, norm)
		g.objects = append(g.objects, o)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return g, nil
}

// Norms returns the normalised objects of the groups, in the page's order: the
// groups whose sessions the second read asks for.
func (g *ObjectGroups) Norms() []string { return g.norms }

// AddSessions reads rows of (normalised object, session), each session once, and
// counts each in its group, keeping the first factbase.MaxObjectSessions of a group
// (the least, when the rows come ordered by session); rows of other objects are
// ignored. It closes rows.
func (g *ObjectGroups) AddSessions(rows Rows) error {
	defer closeRows(rows)
	for rows.Next() {
		var norm, session string
		if err := rows.Scan(&norm, &session); err != nil {
			return err
		}
		if i, ok := g.index[norm]; ok {
			o := &g.objects[i]
			if o.SessionsTotal++; len(o.Sessions) < factbase.MaxObjectSessions {
				o.Sessions = append(o.Sessions, session)
			}
		}
	}
	return rows.Err()
}

// Objects returns the groups, each with its sessions sorted; nil when there are none.
func (g *ObjectGroups) Objects() []factbase.TranscriptObject {
	for i := range g.objects {
		sort.Strings(g.objects[i].Sessions)
	}
	return g.objects
}
