package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"

	"github.com/factbase/factbase/internal/version"
)

// build returns the build this program reports: m.Build when set (tests), else the
// running binary's.
func (m *Main) build() version.Info {
	if m.Build.Version != "" {
		return m.Build
	}
	return version.Get()
}

// runVersion implements "factbase version" (and "factbase --version"): the version,
// the commit, the build date and the Go version.
func (m *Main) runVersion(_ context.Context, args []string) error {
	var asJSON bool
	fs := flag.NewFlagSet("factbase version", flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	fs.BoolVar(&asJSON, "json", false, "print JSON for programs")
	setUsage(fs, `Usage: factbase version [--json]

Print the version of this binary, the git commit it was built from (and whether the
tree had uncommitted changes), the build date (the commit's time) and the Go version.
"factbase --version" is the same. GET /healthz reports the same fields.

`)
	if err := parseNone(fs, args, "version"); err != nil {
		return err
	}
	b := m.build()
	if asJSON {
		return m.printJSON(b)
	}
	commit, date := b.Commit, b.BuildDate
	if commit == "" {
		commit = "unknown"
	}
	if b.Modified {
		commit += " (modified)"
	}
	if date == "" {
		date = "unknown"
	}
	fmt.Fprintf(m.Stdout, "factbase %s\ncommit: %s\nbuilt:  %s\ngo:     %s %s/%s\n",
		b.Version, commit, date, b.GoVersion, runtime.GOOS, runtime.GOARCH)
	return nil
}
