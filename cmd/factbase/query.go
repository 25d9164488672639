package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/ingest"
)

const factsQueryUsage = `Usage:
  factbase facts query [flags]

Queries the facts ingested from agent session transcripts: by predicate, subject,
session, object substring and minimum confidence. --by-object groups them by
object with counts and sessions, e.g. every host the user's agents connected to:

  factbase facts query --user $U --predicate connects_to_host --by-object

Flags:
`

// queryFactJSON is a transcript fact in "facts query --json".
type queryFactJSON struct {
	ID         string          `json:"id"`
	Subject    string          `json:"subject"`
	Predicate  string          `json:"predicate"`
	Object     string          `json:"object"`
	Confidence float64         `json:"confidence"`
	Extractor  string          `json:"extractor"`
	ValidFrom  time.Time       `json:"valid_from"`
	Source     factbase.Source `json:"source"`
}

// runFactsQuery implements "factbase facts query".
func (m *Main) runFactsQuery(ctx context.Context, args []string) error {
	var (
		c        common
		q        factbase.TranscriptQuery
		byObject bool
	)
	fs := m.flags("facts query", &c, true)
	fs.StringVar(&q.Predicate, "predicate", "", "only this predicate (connects_to_host, executed_command, ...)")
	fs.StringVar(&q.Subject, "subject", "", "only this subject (task_<uuid>, action_<uuid>)")
	fs.StringVar(&q.Session, "session", "", "only facts of this session id")
	fs.StringVar(&q.ObjectContains, "object", "", "only objects containing this text (ASCII case ignored)")
	fs.Float64Var(&q.MinConfidence, "min-confidence", 0, "only facts with at least this confidence (0..1)")
	fs.IntVar(&q.Limit, "limit", ingest.DefaultTranscriptLimit, fmt.Sprintf("at most this many facts (or objects with --by-object; up to %d)", ingest.MaxTranscriptLimit))
	fs.IntVar(&q.Offset, "offset", 0, "skip this many first")
	fs.BoolVar(&byObject, "by-object", false, "group by object: how many facts and in which sessions")
	setUsage(fs, factsQueryUsage)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("facts query takes no arguments, only flags (got %q)", fs.Arg(0))
	}
	user, e, closeFn, err := m.openUser(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()

	if byObject {
		objs, more, err := e.Ingest.TranscriptObjects(ctx, user, q)
		if err != nil {
			return err
		}
		return m.print(&c, map[string]any{"objects": objs, "more": more}, func() error {
			err := printTable(m, "No facts.", "OBJECT\tFACTS\tSESSIONS", objs, func(o factbase.TranscriptObject) string {
				sessions := strings.Join(o.Sessions, ", ")
				if n := o.SessionsTotal - len(o.Sessions); n > 0 {
					sessions += fmt.Sprintf(" and %d more", n)
				}
				return fmt.Sprintf("%s\t%d\t%s", oneLine(o.Object, 60, "..."), o.Facts, sessions)
			})
			m.printNext(more, q.Offset+len(objs))
			return err
		})
	}
	facts, more, err := e.Ingest.TranscriptFacts(ctx, user, q)
	if err != nil {
		return err
	}
	out := mapEach(facts, func(f factbase.Fact) queryFactJSON {
		return queryFactJSON{ID: f.ID, Subject: f.Subject, Predicate: f.Key, Object: f.Value,
			Confidence: f.Confidence, Extractor: f.Extractor, ValidFrom: f.ValidFrom, Source: f.Source}
	})
	return m.print(&c, map[string]any{"facts": out, "more": more}, func() error {
		err := printTable(m, "No facts.", "SUBJECT\tPREDICATE\tOBJECT\tCONFIDENCE\tSOURCE", facts, func(f factbase.Fact) string {
			return fmt.Sprintf("%s\t%s\t%s\t%.2f\t%s", f.Subject, f.Key, oneLine(f.Value, 60, "..."), f.Confidence, f.Source.ID)
		})
		m.printNext(more, q.Offset+len(facts))
		return err
	})
}
