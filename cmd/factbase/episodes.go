package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

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

// parseTime reads an RFC 3339 time or a date (YYYY-MM-DD, midnight UTC).
func parseTime(flagName, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	return time.Time{}, factbase.Errorf(factbase.EINVALID, "--%s %q is not a date (2026-01-02) or an RFC 3339 time (2026-01-02T15:04:05Z)", flagName, s)
}

// splitList splits a comma-separated flag value.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// metaFlag collects repeated --meta key=value flags.
type metaFlag map[string]string

func (f metaFlag) String() string { return "" }

func (f metaFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("%q is not key=value", s)
	}
	f[k] = v
	return nil
}

func (m *Main) runEpisodes(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(m.Stdout, episodesUsage)
		if len(args) == 0 {
			return usagef("episodes needs a subcommand: add, list, get, delete, add-fact or backfill")
		}
		return nil
	}
	sub := args[0]
	var (
		c                      common
		tags, at, since, until string
		importance, confidence float64
		noExtract, keepFacts   bool
		unextracted, history   bool
		limit, offset          int
		typ                    string
		meta                   = metaFlag{}
	)
	fs := m.flags("episodes "+sub, &c, true)
	nargs := map[string]int{"add": -1, "list": 0, "get": 1, "delete": 1, "add-fact": 3, "backfill": 0}
	want, known := nargs[sub]
	if !known {
		return usagef("unknown episodes subcommand %q (add, list, get, delete, add-fact, backfill)", sub)
	}
	switch sub {
	case "add":
		fs.StringVar(&tags, "tags", "", "comma-separated tags")
		fs.Float64Var(&importance, "importance", ingest.DefaultImportance, "importance 0..1")
		fs.StringVar(&at, "at", "", "when it happened (RFC 3339 or YYYY-MM-DD; default now)")
		fs.Var(meta, "meta", "metadata key=value (repeatable)")
		fs.BoolVar(&noExtract, "no-extract", false, "store without extracting facts (backfill later)")
	case "list":
		fs.StringVar(&tags, "tags", "", "only episodes with every one of these comma-separated tags")
		fs.StringVar(&since, "since", "", "only episodes from this time on (RFC 3339 or YYYY-MM-DD)")
		fs.StringVar(&until, "until", "", "only episodes before this time")
		fs.BoolVar(&unextracted, "unextracted", false, "only episodes waiting for a backfill")
		fs.IntVar(&limit, "limit", core.DefaultPageSize, fmt.Sprintf("at most this many (up to %d)", core.MaxPageSize))
		fs.IntVar(&offset, "offset", 0, "skip this many")
	case "get":
		fs.BoolVar(&history, "history", false, "also show the episode's superseded facts")
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
	if want >= 0 && len(rest) != want || want < 0 && len(rest) == 0 {
		return usagef("wrong number of arguments for episodes %s\n%s", sub, episodesUsage)
	}
	user, err := c.userID()
	if err != nil {
		return err
	}
	e, closeFn, err := m.openEngine(ctx, &c)
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
		in := ingest.EpisodeInput{Content: content, Tags: splitList(tags), Importance: &importance,
			CreatedAt: when, NoExtract: noExtract}
		if len(meta) > 0 {
			in.Metadata = meta
		}
		r, err := e.Ingest.AddEpisode(ctx, user, in)
		if err != nil {
			return err
		}
		if c.json {
			return m.printJSON(r)
		}
		fmt.Fprintf(m.Stdout, "Episode %s\n", r.Episode.ID)
		if noExtract {
			fmt.Fprintln(m.Stdout, "Extraction skipped; run \"factbase episodes backfill\" later.")
			return nil
		}
		return m.printEpisodeFacts(r.Facts, r.Result)
	case "list":
		from, err := parseTime("since", since)
		if err != nil {
			return err
		}
		to, err := parseTime("until", until)
		if err != nil {
			return err
		}
		p, err := e.Ingest.Episodes(ctx, user, factbase.EpisodeFilter{Tags: splitList(tags), From: from, To: to,
			Unextracted: unextracted, Limit: limit, Offset: offset})
		if err != nil {
			return err
		}
		if c.json {
			return m.printJSON(p)
		}
		return m.printEpisodes(p)
	case "get":
		ep, err := e.Ingest.Episode(ctx, user, rest[0])
		if err != nil {
			return err
		}
		facts, err := e.Ingest.EpisodeFacts(ctx, user, rest[0], history)
		if err != nil {
			return err
		}
		if c.json {
			return m.printJSON(map[string]any{"episode": ep, "facts": toJSONs(facts)})
		}
		fmt.Fprintf(m.Stdout, "Episode %s\nCreated:    %s\nImportance: %.2f\n", ep.ID, ep.CreatedAt.Local().Format(time.DateTime), ep.Importance)
		if len(ep.Tags) > 0 {
			fmt.Fprintf(m.Stdout, "Tags:       %s\n", strings.Join(ep.Tags, ", "))
		}
		for k, v := range ep.Metadata {
			fmt.Fprintf(m.Stdout, "Meta:       %s=%s\n", k, v)
		}
		fmt.Fprintf(m.Stdout, "\n%s\n\n", ep.Content)
		if len(facts) == 0 {
			fmt.Fprintln(m.Stdout, "No facts.")
			return nil
		}
		return m.printFacts(facts)
	case "delete":
		d, err := e.Ingest.DeleteEpisode(ctx, user, rest[0], keepFacts)
		if err != nil {
			return err
		}
		if c.json {
			return m.printJSON(d)
		}
		fmt.Fprintf(m.Stdout, "Deleted episode %s and %d fact row(s).\n", rest[0], d.Facts)
		return nil
	case "add-fact":
		res, err := e.Ingest.AddEpisodeFacts(ctx, user, rest[0], []factbase.Fact{{Key: rest[1], Value: rest[2],
			Confidence: confidence, Type: typ, Extractor: "cli"}})
		if err != nil {
			return err
		}
		if c.json {
			return m.printJSON(res)
		}
		for _, line := range describe(res) {
			fmt.Fprintln(m.Stdout, line)
		}
		return nil
	default: // backfill
		r, err := e.Ingest.BackfillEpisodes(ctx, user, func(done, total int) {
			fmt.Fprintf(m.Stderr, "backfill: %d/%d episodes\n", done, total)
		})
		if err != nil {
			return err
		}
		if c.json {
			return m.printJSON(r)
		}
		fmt.Fprintf(m.Stdout, "Extracted %d episode(s): %d fact(s) stored.\n", r.Episodes, r.Facts)
		return nil
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
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
	for _, f := range facts {
		note := f.Extractor
		if dup[f.ID] {
			note = "already known"
		}
		fmt.Fprintf(tw, "  %s\t= %s\tconfidence %.2f\t%s\n", f.Key, f.Value, f.Confidence, note)
	}
	return tw.Flush()
}

func (m *Main) printEpisodes(p ingest.EpisodePage) error {
	if p.Total == 0 {
		fmt.Fprintln(m.Stdout, "No episodes.")
		return nil
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tCREATED\tIMPORTANCE\tTAGS\tCONTENT")
	for _, ep := range p.Episodes {
		fmt.Fprintf(tw, "%s\t%s\t%.2f\t%s\t%s\n", ep.ID, ep.CreatedAt.Local().Format(time.DateTime), ep.Importance,
			strings.Join(ep.Tags, ","), oneLine(ep.Content, 60))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if shown := p.Offset + len(p.Episodes); shown < p.Total {
		fmt.Fprintf(m.Stdout, "… %d more (use --offset %d)\n", p.Total-shown, shown)
	}
	return nil
}
