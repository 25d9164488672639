package userdata

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/factbase/factbase"
)

// The export format (docs/export-format.md): JSON lines, a header first, one line per
// record, and an end line with the number of records of each kind, so that a file cut
// short is told from a whole one.
const (
	Format  = "factbase-export"
	Version = 1
)

// maxLine is the longest line Decode reads (a saved sheet, or a long episode).
const maxLine = 16 << 20

// Header is the first line of an export.
type Header struct {
	Format     string          `json:"format"`
	Version    int             `json:"version"`
	User       factbase.UserID `json:"user"`
	ExportedAt time.Time       `json:"exported_at"`
	Vectors    bool            `json:"vectors"` // whether the embeddings are included
}

// record is one line after the header: its kind and exactly one of the values.
type record struct {
	Kind       string                         `json:"kind"`
	Fact       *factbase.Fact                 `json:"fact,omitempty"`
	Event      *factbase.ListEvent            `json:"list_event,omitempty"`
	Episode    *factbase.Episode              `json:"episode,omitempty"`
	Session    *factbase.TranscriptSession    `json:"transcript_session,omitempty"`
	Entity     *factbase.Entity               `json:"entity,omitempty"`
	Conflict   *factbase.Conflict             `json:"conflict,omitempty"`
	Reference  *factbase.Reference            `json:"reference,omitempty"`
	Vector     *factbase.Vector               `json:"vector,omitempty"`
	Checkpoint *factbase.TranscriptCheckpoint `json:"transcript_checkpoint,omitempty"`
	Link       *factbase.TranscriptLink       `json:"transcript_link,omitempty"`
	Pref       *factbase.PreferenceSession    `json:"preference_session,omitempty"`
	Sheet      *factbase.FactSheet            `json:"sheet,omitempty"`
	Counts     map[string]int                 `json:"counts,omitempty"` // the end line's
}

// Encode writes d, the data of user, as an export: vectors only when withVectors.
// It returns the number of records of each kind written.
func Encode(w io.Writer, user factbase.UserID, d *Data, now time.Time, withVectors bool) (map[string]int, error) {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(Header{Format: Format, Version: Version, User: user, ExportedAt: now.UTC(), Vectors: withVectors}); err != nil {
		return nil, err
	}
	counts := map[string]int{}
	put := func(r record) error {
		counts[r.Kind]++
		return enc.Encode(r)
	}
	var err error
	each := func(n int, rec func(i int) record) {
		for i := 0; i < n && err == nil; i++ {
			err = put(rec(i))
		}
	}
	// Dependencies first: entities and episodes before the facts that name them, facts
	// before their events, references and vectors, sheets last.
	each(len(d.Entities), func(i int) record { return record{Kind: "entity", Entity: &d.Entities[i]} })
	each(len(d.Episodes), func(i int) record { return record{Kind: "episode", Episode: &d.Episodes[i]} })
	each(len(d.Facts), func(i int) record { return record{Kind: "fact", Fact: &d.Facts[i]} })
	each(len(d.Events), func(i int) record { return record{Kind: "list_event", Event: &d.Events[i]} })
	each(len(d.Refs), func(i int) record { return record{Kind: "reference", Reference: &d.Refs[i]} })
	if withVectors {
		each(len(d.Vectors), func(i int) record { return record{Kind: "vector", Vector: &d.Vectors[i]} })
	}
	each(len(d.Conflicts), func(i int) record { return record{Kind: "conflict", Conflict: &d.Conflicts[i]} })
	each(len(d.Sessions), func(i int) record { return record{Kind: "transcript_session", Session: &d.Sessions[i]} })
	each(len(d.Checkpoints), func(i int) record {
		return record{Kind: "transcript_checkpoint", Checkpoint: &d.Checkpoints[i]}
	})
	each(len(d.Links), func(i int) record { return record{Kind: "transcript_link", Link: &d.Links[i]} })
	each(len(d.Prefs), func(i int) record { return record{Kind: "preference_session", Pref: &d.Prefs[i]} })
	each(len(d.Sheets), func(i int) record { return record{Kind: "sheet", Sheet: &d.Sheets[i]} })
	if err != nil {
		return nil, err
	}
	if err := enc.Encode(record{Kind: "end", Counts: counts}); err != nil {
		return nil, err
	}
	return counts, bw.Flush()
}

// Decode reads an export. It refuses, naming the line, a file of another format or
// of a newer version, a malformed line, a record of an unknown kind or without its
// value, and a file without its end line or whose counts disagree with its records.
func Decode(r io.Reader) (Header, *Data, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	var h Header
	line := 0
	bad := func(format string, args ...any) error {
		return factbase.Errorf(factbase.EINVALID, "export line %d: %s", line, fmt.Sprintf(format, args...))
	}
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return h, nil, factbase.Errorf(factbase.EINVALID, "export: %v", err)
		}
		return h, nil, factbase.Errorf(factbase.EINVALID, "export: the file is empty")
	}
	line = 1
	if err := json.Unmarshal(sc.Bytes(), &h); err != nil || h.Format != Format {
		return h, nil, bad("not a Factbase export (the first line must be its header, format %q)", Format)
	}
	if h.Version > Version || h.Version < 1 {
		return h, nil, bad("format version %d; this Factbase reads versions 1 to %d (upgrade it to import this file)", h.Version, Version)
	}
	if !h.User.Valid() {
		return h, nil, bad("the header's user %q is not a UUID", h.User)
	}
	d := &Data{}
	counts := map[string]int{}
	ended := false
	for sc.Scan() {
		line++
		if ended {
			return h, nil, bad("a line after the end line")
		}
		var rec record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return h, nil, bad("not a JSON record: %v", err)
		}
		missing := false
		switch rec.Kind {
		case "end":
			ended = true
			for k, n := range rec.Counts {
				if counts[k] != n {
					return h, nil, bad("the end line counts %d %s records, the file holds %d", n, k, counts[k])
				}
			}
			for k, n := range counts {
				if rec.Counts[k] != n {
					return h, nil, bad("the end line counts %d %s records, the file holds %d", rec.Counts[k], k, n)
				}
			}
			continue
		case "fact":
			missing = rec.Fact == nil
			if !missing {
				d.Facts = append(d.Facts, *rec.Fact)
			}
		case "list_event":
			missing = rec.Event == nil
			if !missing {
				d.Events = append(d.Events, *rec.Event)
			}
		case "episode":
			missing = rec.Episode == nil
			if !missing {
				d.Episodes = append(d.Episodes, *rec.Episode)
			}
		case "transcript_session":
			missing = rec.Session == nil
			if !missing {
				d.Sessions = append(d.Sessions, *rec.Session)
			}
		case "entity":
			missing = rec.Entity == nil
			if !missing {
				d.Entities = append(d.Entities, *rec.Entity)
			}
		case "conflict":
			missing = rec.Conflict == nil
			if !missing {
				d.Conflicts = append(d.Conflicts, *rec.Conflict)
			}
		case "reference":
			missing = rec.Reference == nil
			if !missing {
				d.Refs = append(d.Refs, *rec.Reference)
			}
		case "vector":
			missing = rec.Vector == nil
			if !missing {
				d.Vectors = append(d.Vectors, *rec.Vector)
			}
		case "transcript_checkpoint":
			missing = rec.Checkpoint == nil
			if !missing {
				d.Checkpoints = append(d.Checkpoints, *rec.Checkpoint)
			}
		case "transcript_link":
			missing = rec.Link == nil
			if !missing {
				d.Links = append(d.Links, *rec.Link)
			}
		case "preference_session":
			missing = rec.Pref == nil
			if !missing {
				d.Prefs = append(d.Prefs, *rec.Pref)
			}
		case "sheet":
			missing = rec.Sheet == nil
			if !missing {
				d.Sheets = append(d.Sheets, *rec.Sheet)
			}
		default:
			return h, nil, bad("unknown record kind %q", rec.Kind)
		}
		if missing {
			return h, nil, bad("a %s record without its %s", rec.Kind, rec.Kind)
		}
		counts[rec.Kind]++
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return h, nil, bad("a line longer than %d bytes", maxLine)
		}
		return h, nil, factbase.Errorf(factbase.EINVALID, "export: %v", err)
	}
	if !ended {
		return h, nil, factbase.Errorf(factbase.EINVALID, "export: no end line after line %d: the file was cut short", line)
	}
	return h, d, nil
}

// Retarget makes d the data of user: the user named in its entities, conflicts,
// episodes and sheets (facts, events and the rest take their user from the
// transaction that writes them).
func (d *Data) Retarget(user factbase.UserID) {
	for i := range d.Entities {
		d.Entities[i].User = user
	}
	for i := range d.Conflicts {
		d.Conflicts[i].User = user
	}
	for i := range d.Episodes {
		d.Episodes[i].User = user
	}
	for i := range d.Sheets {
		d.Sheets[i].User = user
	}
}

// Renew gives every fact, episode, person, conflict and saved sheet of d a new id
// from newID, and rewrites each place that names one (supersessions, subjects and
// speakers "entity:<id>", episode sources, references, vectors, list events,
// conflicts' facts, transcript links and sheet entries), so that d can be imported
// beside its original in the same store (ids are unique in a store).
func (d *Data) Renew(newID func() string) {
	ids := map[string]string{}
	renew := func(id string) string {
		if id == "" {
			return ""
		}
		n, ok := ids[id]
		if !ok {
			n = newID()
			ids[id] = n
		}
		return n
	}
	for i := range d.Facts {
		renew(d.Facts[i].ID)
	}
	for i := range d.Episodes {
		renew(d.Episodes[i].ID)
	}
	for i := range d.Entities {
		renew(d.Entities[i].ID)
	}
	known := func(id string) string { // an id renewed above, else as it is
		if n, ok := ids[id]; ok {
			return n
		}
		return id
	}
	subject := func(s string) string {
		if id, ok := factbase.EntityID(s); ok {
			return factbase.EntitySubject(known(id))
		}
		return s
	}
	fact := func(f *factbase.Fact) {
		f.ID, f.Supersedes, f.SupersededBy = known(f.ID), known(f.Supersedes), known(f.SupersededBy)
		f.Subject, f.SaidBy = subject(f.Subject), subject(f.SaidBy)
		if f.Source.Kind == factbase.SourceEpisode {
			f.Source.ID = known(f.Source.ID)
		}
	}
	for i := range d.Facts {
		fact(&d.Facts[i])
	}
	for i := range d.Episodes {
		d.Episodes[i].ID = known(d.Episodes[i].ID)
	}
	for i := range d.Entities {
		d.Entities[i].ID, d.Entities[i].MergedInto = known(d.Entities[i].ID), known(d.Entities[i].MergedInto)
	}
	for i := range d.Events {
		d.Events[i].FactID, d.Events[i].Subject = known(d.Events[i].FactID), subject(d.Events[i].Subject)
	}
	for i := range d.Refs {
		d.Refs[i].FactID = known(d.Refs[i].FactID)
	}
	for i := range d.Vectors {
		d.Vectors[i].ID = known(d.Vectors[i].ID)
	}
	for i := range d.Links {
		d.Links[i].Subject = subject(d.Links[i].Subject)
	}
	for i := range d.Conflicts {
		c := &d.Conflicts[i]
		c.ID = renew(c.ID)
		c.Subject, c.CurrentID, c.ResultID = subject(c.Subject), known(c.CurrentID), known(c.ResultID)
		fact(&c.Proposed)
	}
	for i := range d.Sheets {
		sh := &d.Sheets[i]
		sh.ID = renew(sh.ID)
		for j := range sh.Entries {
			sh.Entries[j].FactID = known(sh.Entries[j].FactID)
		}
	}
}

// Expected returns the rows each table should hold after d is written: what Verify
// compares a written import with.
func Expected(d *Data) map[string]int64 {
	return map[string]int64{"facts": int64(len(d.Facts)), "list_events": int64(len(d.Events)),
		"fact_references": storedRefs(d), "sheets": int64(len(d.Sheets)), "episodes": int64(len(d.Episodes)),
		"embeddings": int64(len(d.Vectors)), "transcript_checkpoints": int64(len(d.Checkpoints)),
		"transcript_sessions": int64(len(d.Sessions)), "transcript_subjects": int64(len(d.Links)),
		"entities": int64(len(d.Entities)), "conflicts": int64(len(d.Conflicts)), "preference_sessions": int64(len(d.Prefs))}
}

// storedRefs returns how many of d's references a store keeps as rows: all but the
// facts' creations (a reference at a fact's recorded time from its own source, which
// the fact's row records; see factbase.Reference).
func storedRefs(d *Data) int64 {
	type creation struct {
		at  int64
		src factbase.Source
	}
	created := make(map[string]creation, len(d.Facts))
	for _, f := range d.Facts {
		created[f.ID] = creation{f.RecordedAt.UnixNano(), f.Source}
	}
	n := int64(0)
	for _, r := range d.Refs {
		if c, ok := created[r.FactID]; !ok || c.at != r.At.UnixNano() || c.src != r.Source {
			n++
		}
	}
	return n
}
