package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

// printJSON writes v as indented JSON.
func (m *Main) printJSON(v any) error {
	enc := json.NewEncoder(m.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// print writes v as JSON with --json, else calls text to write it for people: the
// two forms every command prints its outcome in.
func (m *Main) print(c *common, v any, text func() error) error {
	if c.json {
		return m.printJSON(v)
	}
	return text()
}

// printLine writes v as JSON with --json, else the line.
func (m *Main) printLine(c *common, v any, line string) error {
	return m.print(c, v, func() error {
		fmt.Fprintln(m.Stdout, line)
		return nil
	})
}

// printResult writes a write's result as JSON with --json, else as sentences.
func (m *Main) printResult(c *common, res factbase.Result) error {
	return m.print(c, res, func() error {
		for _, line := range describe(res) {
			fmt.Fprintln(m.Stdout, line)
		}
		return nil
	})
}

// newTable returns a writer that aligns tab-separated columns, as every table the
// commands print is aligned.
func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
}

// writeTable writes header (if any) and a line per item, the columns aligned.
func writeTable[T any](w io.Writer, header string, items []T, row func(T) string) error {
	tw := newTable(w)
	if header != "" {
		fmt.Fprintln(tw, header)
	}
	for _, it := range items {
		fmt.Fprintln(tw, row(it))
	}
	return tw.Flush()
}

// printTable writes items under header to standard output, or the line empty when
// there are none.
func printTable[T any](m *Main, empty, header string, items []T, row func(T) string) error {
	if len(items) == 0 {
		fmt.Fprintln(m.Stdout, empty)
		return nil
	}
	return writeTable(m.Stdout, header, items, row)
}

// jsonLogger returns a logger of JSON lines on standard error at the --log-level
// level (debug, info, warn or error), durations written as people read them.
func (m *Main) jsonLogger(level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, usagef("--log-level %q is not one of debug, info, warn, error", level)
	}
	return slog.New(slog.NewJSONHandler(m.Stderr, &slog.HandlerOptions{Level: l, ReplaceAttr: humanDurations})), nil
}

// humanDurations is the loggers' ReplaceAttr: it writes a time.Duration as a string
// of three significant digits ("2.7s", "850ms", "1m30s"), where slog's JSON handler
// would write a count of nanoseconds (2702304021) and its text handler every digit
// ("2.702304021s"). It fixes every call site at once, this program's and its
// libraries'.
func humanDurations(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindDuration {
		return slog.String(a.Key, roundDuration(a.Value.Duration()).String())
	}
	return a
}

// roundDuration rounds d to three significant digits.
func roundDuration(d time.Duration) time.Duration {
	abs := d
	if abs < 0 {
		abs = -abs
	}
	unit := time.Duration(1)
	for abs/unit >= 1000 {
		unit *= 10
	}
	return d.Round(unit)
}

// localTime formats t in the local time zone to the second, as tables show times.
func localTime(t time.Time) string {
	return t.Local().Format(time.DateTime)
}

// mapEach returns f of each item, in order, for JSON output: no items give an empty
// slice, which encodes as [] rather than null.
func mapEach[T, U any](items []T, f func(T) U) []U {
	out := make([]U, len(items))
	for i, it := range items {
		out[i] = f(it)
	}
	return out
}

// oneLine puts s on one line of at most n runes; a longer one is cut and ends in
// ellipsis.
func oneLine(s string, n int, ellipsis string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-utf8.RuneCountInString(ellipsis)]) + ellipsis
	}
	return s
}
