package main

import (
	"context"
	"fmt"

	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/retrieve"
)

const lookupUsage = `Usage:
  factbase lookup [flags]

The direct fact look-up: the current facts of a type (version, metric, latency,
count, status, date, phase, ...) or a key, newest first, with their value,
source episode, confidence and time. At least one of --type, --key and --prefix.

  factbase lookup --user $U --type version --tags nexus --limit 1

Flags:
`

func (m *Main) runLookup(ctx context.Context, args []string) error {
	var (
		c     common
		o     retrieve.LookupOptions
		scope scopeFlags
	)
	fs := m.flags("lookup", &c, true)
	setUsage(fs, lookupUsage)
	fs.StringVar(&o.Type, "type", "", "fact type")
	fs.StringVar(&o.Key, "key", "", "exact key")
	fs.StringVar(&o.KeyPrefix, "prefix", "", "keys starting with this")
	fs.StringVar(&o.Subject, "subject", "", "only facts about this subject")
	scope.flags(fs, "only facts whose source episode has every one of these comma-separated tags",
		"only facts true from this time on (RFC 3339 or YYYY-MM-DD)", "only facts true from before this time")
	fs.IntVar(&o.Limit, "limit", retrieve.DefaultLookupLimit, fmt.Sprintf("at most this many (up to %d)", core.MaxPageSize))
	fs.IntVar(&o.Offset, "offset", 0, "skip this many of the newest")
	if err := parse(fs, args); err != nil {
		return err
	}
	if len(fs.Args()) != 0 {
		return usagef("lookup takes no arguments\n%s", lookupUsage)
	}
	if o.Type == "" && o.Key == "" && o.KeyPrefix == "" {
		return usagef("lookup needs --type, --key or --prefix")
	}
	if err := scope.into(&o.Tags, &o.From, &o.To); err != nil {
		return err
	}
	user, e, closeFn, err := m.openUser(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	rs, more, err := e.Retrieve.Lookup(ctx, user, o)
	if err != nil {
		return err
	}
	return m.print(&c, map[string]any{"facts": rs, "more": more}, func() error {
		err := printTable(m, "No facts.", "KEY\tVALUE\tCONFIDENCE\tTIME\tEPISODE", rs, func(r retrieve.LookupResult) string {
			return fmt.Sprintf("%s\t%s\t%.2f\t%s\t%s", r.Key, oneLine(r.Value, 60, "..."), r.Confidence, localTime(r.Timestamp), r.Episode)
		})
		m.printNext(more, o.Offset+len(rs))
		return err
	})
}
