package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/ingest"
)

const episodesUsage = `Usage:
  factbase episodes add      [flags] CONTENT...   (CONTENT "-" reads standard input)
  factbase episodes list     [flags]
  factbase episodes get      [flags] ID
  factbase episodes delete   [flags] ID
  factbase episodes add-fact [flags] ID KEY VALUE
  factbase episodes backfill [flags]

Episodes are narrative records ("Session 14 complete: NEXUS v2.3.1 deployed,
accuracy 94.2%"). add stores one and prints its id and the facts pattern
extraction found in it (versions, percentages, latencies, counts, statuses,
phases, dates), each linked to the episode with its confidence. add-fact links a
fact to an episode by hand. delete erases the episode and, unless --keep-facts,
the facts it gave. backfill extracts facts from the episodes stored without
extraction (add --no-extract), resumably, with progress on standard error.
`

func (m *Main) runEpisodes(ctx context.Context, args []string) error {
	sub, want, err := m.pickSubcommand(args, "episodes", episodesUsage, subcommand{"add", -1}, subcommand{"list", 0},
		subcommand{"get", 1}, subcommand{"delete", 1}, subcommand{"add-fact", 3}, subcommand{"backfill", 0})
	if sub == "" {
		return err
	}
	var (
		c                      common
		at                     string
		scope                  scopeFlags
		importance, confidence float64
		noExtract, keepFacts   bool
		unextracted, history   bool
		limit, offset          int
		typ                    string
		meta                   = metaFlag{}
	)
	fs := m.flags("episodes "+sub, &c, true)
	switch sub {
	case "add":
		fs.StringVar(&scope.tags, "tags", "", "comma-separated tags")
		fs.Float64Var(&importance, "importance", ingest.DefaultImportance, "importance 0..1")
		fs.StringVar(&at, "at", "", "when it happened (RFC 3339 or YYYY-MM-DD; default now)")
		fs.Var(meta, "meta", "metadata key=value (repeatable)")
		fs.BoolVar(&noExtract, "no-extract", false, "store without extracting facts (backfill later)")
	case "list":
		scope.flags(fs, "only episodes with every one of these comma-separated tags",
			"only episodes from this time on (RFC 3339 or YYYY-MM-DD)", "only episodes before this time")
		fs.BoolVar(&unextracted, "unextracted", false, "only episodes waiting for a backfill")
		fs.IntVar(&limit, "limit", core.DefaultPageSize, fmt.Sprintf("at most this many (up to %d)", core.MaxPageSize))
		fs.IntVar(&offset, "offset", 0, "skip this many")
	case "get":
		fs.BoolVar(&history, "history", false, "also show the episode's superseded facts")
		fs.IntVar(&limit, "limit", core.DefaultPageSize, fmt.Sprintf("at most this many facts (up to %d)", core.MaxPageSize))
		fs.IntVar(&offset, "offset", 0, "skip this many facts")
	case "delete":
		fs.BoolVar(&keepFacts, "keep-facts", false, "keep the facts extracted from the episode")
	case "add-fact":
		fs.Float64Var(&confidence, "confidence", 1, "confidence 0..1")
		fs.StringVar(&typ, "type", "", "fact type")
	}
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	rest := fs.Args()
	if !arity(want, len(rest)) {
		return usagef("wrong number of arguments for episodes %s\n%s", sub, episodesUsage)
	}
	user, e, closeFn, err := m.openUser(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()

	switch sub {
	case "add":
		content := strings.Join(rest, " ")
		if content == "-" {
			b, err := io.ReadAll(io.LimitReader(m.Stdin, factbase.MaxEpisodeLen+1))
			if err != nil {
				return err
			}
			content = string(b)
		}
		when, err := parseTime("at", at)
		if err != nil {
			return err
		}
		in := ingest.EpisodeInput{Content: content, Tags: splitList(scope.tags), Importance: &importance,
			CreatedAt: when, NoExtract: noExtract}
		if len(meta) > 0 {
			in.Metadata = meta
		}
		r, err := e.Ingest.AddEpisode(ctx, user, in)
		if err != nil {
			return err
		}
		return m.print(&c, r, func() error {
			fmt.Fprintf(m.Stdout, "Episode %s\n", r.Episode.ID)
			if noExtract {
				fmt.Fprintln(m.Stdout, "Extraction skipped; run \"factbase episodes backfill\" later.")
				return nil
			}
			return m.printEpisodeFacts(r.Facts, r.Result)
		})
	case "list":
		f := factbase.EpisodeFilter{Unextracted: unextracted, Limit: limit, Offset: offset}
		if err := scope.into(&f.Tags, &f.From, &f.To); err != nil {
			return err
		}
		p, err := e.Ingest.Episodes(ctx, user, f)
		if err != nil {
			return err
		}
		return m.print(&c, p, func() error { return m.printEpisodes(p) })
	case "get":
		ep, err := e.Ingest.Episode(ctx, user, rest[0])
		if err != nil {
			return err
		}
		facts, more, err := e.Ingest.EpisodeFacts(ctx, user, rest[0], history, offset, limit)
		if err != nil {
			return err
		}
		return m.print(&c, map[string]any{"episode": ep, "facts": toJSONs(facts), "more": more}, func() error {
			fmt.Fprintf(m.Stdout, "Episode %s\nCreated:    %s\nImportance: %.2f\n", ep.ID, localTime(ep.CreatedAt), ep.Importance)
			if len(ep.Tags) > 0 {
				fmt.Fprintf(m.Stdout, "Tags:       %s\n", strings.Join(ep.Tags, ", "))
			}
			for k, v := range ep.Metadata {
				fmt.Fprintf(m.Stdout, "Meta:       %s=%s\n", k, v)
			}
			fmt.Fprintf(m.Stdout, "\n%s\n\n", ep.Content)
			err := m.printFacts(facts)
			m.printNext(more, offset+len(facts))
			return err
		})
	case "delete":
		d, err := e.Ingest.DeleteEpisode(ctx, user, rest[0], keepFacts)
		if err != nil {
			return err
		}
		return m.printLine(&c, d, fmt.Sprintf("Deleted episode %s and %d fact row(s).", rest[0], d.Facts))
	case "add-fact":
		res, err := e.Ingest.AddEpisodeFacts(ctx, user, rest[0], []factbase.Fact{{Key: rest[1], Value: rest[2],
			Confidence: confidence, Type: typ, Extractor: "cli"}})
		if err != nil {
			return err
		}
		return m.printResult(&c, res)
	default: // backfill
		r, err := e.Ingest.BackfillEpisodes(ctx, user, 0, func(done, total int) {
			fmt.Fprintf(m.Stderr, "backfill: %d/%d episodes\n", done, total)
		})
		if err != nil {
			return err
		}
		return m.printLine(&c, r, fmt.Sprintf("Extracted %d episode(s): %d fact(s) stored.", r.Episodes, r.Facts))
	}
}

// printEpisodeFacts lists the facts an episode gave.
func (m *Main) printEpisodeFacts(facts []factbase.Fact, res factbase.Result) error {
	if len(facts) == 0 {
		fmt.Fprintln(m.Stdout, "No facts extracted.")
		return nil
	}
	dup := map[string]bool{}
	for _, d := range res.Duplicates {
		dup[d.FactID] = true
	}
	fmt.Fprintf(m.Stdout, "Facts (%d):\n", len(facts))
	return writeTable(m.Stdout, "", facts, func(f factbase.Fact) string {
		note := f.Extractor
		if dup[f.ID] {
			note = "already known"
		}
		return fmt.Sprintf("  %s\t= %s\tconfidence %.2f\t%s", f.Key, f.Value, f.Confidence, note)
	})
}

func (m *Main) printEpisodes(p ingest.EpisodePage) error {
	if p.Total == 0 {
		fmt.Fprintln(m.Stdout, "No episodes.")
		return nil
	}
	err := writeTable(m.Stdout, "ID\tCREATED\tIMPORTANCE\tTAGS\tCONTENT", p.Episodes, func(ep factbase.Episode) string {
		return fmt.Sprintf("%s\t%s\t%.2f\t%s\t%s", ep.ID, localTime(ep.CreatedAt), ep.Importance,
			strings.Join(ep.Tags, ","), oneLine(ep.Content, 60, "..."))
	})
	if err != nil {
		return err
	}
	m.printMore("", p.Offset+len(p.Episodes), p.Total)
	return nil
}
