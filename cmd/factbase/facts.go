package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
)

const factsUsage = `Usage:
  factbase facts set     [flags] KEY VALUE
  factbase facts get     [flags] KEY
  factbase facts list    [flags]
  factbase facts history [flags] KEY
  factbase facts retract [flags] ID | --key KEY
  factbase facts delete  [flags] ID | --key KEY

set writes by the key's cardinality: a single-valued key (the default) keeps the
newest value current and the earlier ones in history. retract ends a fact's
validity and keeps its history; delete erases it, history included.
`

// factJSON is a fact in JSON output.
type factJSON struct {
	ID         string          `json:"id"`
	Subject    string          `json:"subject"`
	Key        string          `json:"key"`
	Value      string          `json:"value"`
	Rank       int             `json:"rank,omitempty"`
	Type       string          `json:"type,omitempty"`
	Category   string          `json:"category"`
	Confidence float64         `json:"confidence"`
	Current    bool            `json:"current"`
	RecordedAt time.Time       `json:"recorded_at"`
	ValidFrom  time.Time       `json:"valid_from"`
	ValidTo    *time.Time      `json:"valid_to,omitempty"`
	Supersedes string          `json:"supersedes,omitempty"`
	Source     factbase.Source `json:"source"`
	Text       string          `json:"text,omitempty"`
	SaidBy     string          `json:"said_by,omitempty"`
	Temporal   string          `json:"temporal,omitempty"`
	Anchor     *time.Time      `json:"anchor,omitempty"`
}

func toJSON(f factbase.Fact) factJSON {
	return factJSON{ID: f.ID, Subject: f.Subject, Key: f.Key, Value: f.Value, Rank: f.Rank, Type: f.Type,
		Category: string(f.Category), Confidence: f.Confidence, Current: f.Current, RecordedAt: f.RecordedAt,
		ValidFrom: f.ValidFrom, ValidTo: f.ValidTo, Supersedes: f.Supersedes, Source: f.Source,
		Text: f.Text, SaidBy: f.SaidBy, Temporal: f.Temporal, Anchor: f.Anchor}
}

func toJSONs(facts []factbase.Fact) []factJSON {
	return mapEach(facts, toJSON)
}

func (m *Main) runFacts(ctx context.Context, args []string) error {
	if len(args) > 0 && args[0] == "query" {
		return m.runFactsQuery(ctx, args[1:]) // query.go: facts from transcripts
	}
	sub, nargs, err := m.pickSubcommand(args, "facts", factsUsage,
		subcommand{"set", 2}, subcommand{"get", 1}, subcommand{"list", 0}, subcommand{"history", 1}, subcommand{"retract", 1}, subcommand{"delete", 1})
	if sub == "" {
		return err
	}
	var (
		c                       common
		subject, key, prefix    string
		typ, category, asOfText string
		confidence, minConf     float64
		history                 bool
		limit, offset           int
	)
	fs := m.flags("facts "+sub, &c, true)
	fs.StringVar(&subject, "subject", "", "whose fact: user (default), or entity:<id>, or another subject")
	switch sub {
	case "set":
		fs.StringVar(&typ, "type", "", "fact type (contact, work, preference, ...)")
		fs.StringVar(&category, "category", "", "sheet category: core, technical, project or transient")
		fs.Float64Var(&confidence, "confidence", 1, "confidence 0..1")
	case "get":
		fs.StringVar(&asOfText, "as-of", "", "read as of a past time (RFC 3339)")
	case "list":
		fs.StringVar(&prefix, "prefix", "", "only keys starting with this")
		fs.StringVar(&category, "category", "", "only this sheet category")
		fs.Float64Var(&minConf, "min-confidence", 0, "only facts with at least this confidence")
		fs.BoolVar(&history, "history", false, "include superseded, retracted and removed versions")
		fs.StringVar(&asOfText, "as-of", "", "read as of a past time (RFC 3339)")
		fs.IntVar(&limit, "limit", core.MaxPageSize, fmt.Sprintf("at most this many facts (up to %d)", core.MaxPageSize))
		fs.IntVar(&offset, "offset", 0, "skip this many facts")
	case "history":
		fs.IntVar(&limit, "limit", 100, "at most this many versions, newest first (at most 1000)")
		fs.IntVar(&offset, "offset", 0, "skip this many of the newest versions")
	case "retract", "delete":
		fs.StringVar(&key, "key", "", "act on every version of this key instead of one fact id")
	}
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	rest := fs.Args()
	if (sub == "retract" || sub == "delete") && key != "" {
		nargs = 0
	}
	if len(rest) != nargs {
		return usagef("wrong number of arguments for facts %s\n%s", sub, factsUsage)
	}
	user, err := c.userID()
	if err != nil {
		return err
	}
	var asOf *time.Time
	if asOfText != "" {
		t, err := parseRFC3339("as-of", asOfText)
		if err != nil {
			return err
		}
		asOf = &t
	}
	e, closeFn, err := m.openEngine(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()

	switch sub {
	case "set":
		op := factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Subject: subject, Key: rest[0], Value: rest[1],
			Type: typ, Category: factbase.Category(category), Confidence: confidence,
			Source: factbase.Source{Kind: factbase.SourceManual}, Extractor: "cli"}}
		res, err := e.Apply(ctx, user, []factbase.Op{op})
		if err != nil {
			return err
		}
		return m.printResult(&c, res)
	case "get":
		facts, err := e.Get(ctx, user, subject, rest[0], asOf)
		if err != nil {
			return err
		}
		if len(facts) == 0 {
			if c.json {
				return m.printJSON(map[string]any{"key": rest[0], "facts": []factJSON{}})
			}
			return factbase.Errorf(factbase.ENOTFOUND, "no current value for %s", rest[0])
		}
		if c.json {
			return m.printJSON(map[string]any{"key": rest[0], "facts": toJSONs(facts)})
		}
		for _, f := range facts {
			if f.Rank > 0 {
				fmt.Fprintf(m.Stdout, "#%d  %s\n", f.Rank, f.Value)
			} else {
				fmt.Fprintln(m.Stdout, f.Value)
			}
		}
		return nil
	case "list":
		if limit, err = core.PageLimit(offset, limit); err != nil {
			return err
		}
		facts, err := e.Facts(ctx, user, factbase.FactFilter{Subject: subject, KeyPrefix: prefix,
			Category: factbase.Category(category), MinConfidence: minConf, History: history, AsOf: asOf, Limit: limit + 1, Offset: offset})
		if err != nil {
			return err
		}
		facts, more := core.TrimPage(facts, limit)
		return m.print(&c, map[string]any{"facts": toJSONs(facts), "more": more}, func() error {
			err := m.printFacts(facts)
			m.printNext(more, offset+len(facts))
			return err
		})
	case "history":
		p, err := e.History(ctx, user, subject, rest[0], offset, limit)
		if err != nil {
			return err
		}
		if c.json {
			return m.printJSON(map[string]any{"key": rest[0], "versions": toJSONs(p.Versions), "more": p.More})
		}
		if len(p.Versions) == 0 && offset == 0 {
			return factbase.Errorf(factbase.ENOTFOUND, "no history for %s", rest[0])
		}
		if err := m.printFacts(p.Versions); err != nil {
			return err
		}
		if p.More {
			fmt.Fprintf(m.Stdout, "(older versions remain: --offset %d)\n", offset+len(p.Versions))
		}
		return nil
	default: // retract, delete
		kind := factbase.OpRetract
		if sub == "delete" {
			kind = factbase.OpDelete
		}
		op := factbase.Op{Kind: kind, Fact: factbase.Fact{Subject: subject, Key: key}}
		if key == "" {
			op.ID = rest[0]
		}
		res, err := e.Apply(ctx, user, []factbase.Op{op})
		if err != nil {
			return err
		}
		return m.printResult(&c, res)
	}
}

func (m *Main) printFacts(facts []factbase.Fact) error {
	return printTable(m, "No facts.", "KEY\tVALUE\tSTATE\tRECORDED\tSUBJECT\tID", facts, func(f factbase.Fact) string {
		state := "current"
		if !f.Current {
			state = "ended " + localTime(*f.ValidTo)
		}
		v := f.Value
		if f.Rank > 0 {
			v = fmt.Sprintf("#%d %s", f.Rank, v)
		}
		if len(v) > 60 {
			v = v[:57] + "..."
		}
		return fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s", f.Key, strings.ReplaceAll(v, "\n", " "), state,
			localTime(f.RecordedAt), f.Subject, f.ID)
	})
}
