package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/factbase/factbase"
)

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

// parseRFC3339 reads the RFC 3339 time s of the flag flagName.
func parseRFC3339(flagName, s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, factbase.Errorf(factbase.EINVALID, "--%s %q is not an RFC 3339 time (e.g. 2026-01-02T15:04:05Z)", flagName, s)
	}
	return t, nil
}

// scopeFlags are the --tags, --since and --until flags of the commands that select
// episodes, or facts by their source episode, by tag and by time.
type scopeFlags struct{ tags, since, until string }

// flags registers the three flags on fs with their help texts.
func (s *scopeFlags) flags(fs *flag.FlagSet, tagsHelp, sinceHelp, untilHelp string) {
	fs.StringVar(&s.tags, "tags", "", tagsHelp)
	fs.StringVar(&s.since, "since", "", sinceHelp)
	fs.StringVar(&s.until, "until", "", untilHelp)
}

// into parses the flags into tags, from and to; a time not given is the zero time.
func (s *scopeFlags) into(tags *[]string, from, to *time.Time) error {
	var err error
	*tags = splitList(s.tags)
	if *from, err = parseTime("since", s.since); err != nil {
		return err
	}
	*to, err = parseTime("until", s.until)
	return err
}
