// Package version says which build of Factbase is running: its release version, the
// commit it was built from, when, and with which Go. The release program sets the
// first three with the linker:
//
//	go build -ldflags "-X github.com/factbase/factbase/internal/version.version=v1.2.3
//	  -X github.com/factbase/factbase/internal/version.commit=0123abc...
//	  -X github.com/factbase/factbase/internal/version.date=2026-01-02T15:04:05Z" ./cmd/factbase
//
// What the linker did not set comes from the build information the go command
// records (runtime/debug.ReadBuildInfo): the module version of "go install
// ...@v1.2.3", and vcs.revision, vcs.time and vcs.modified of a build in a git
// checkout. An unreleased build without either is version "dev".
package version

import (
	"runtime"
	"runtime/debug"
	"strconv"
)

// Set by the linker (-X); empty otherwise.
var (
	version  string // a semver tag, "v1.2.3"
	commit   string // the full commit hash
	date     string // the commit's time, RFC 3339
	modified string // "true" when the tree had uncommitted changes
)

// Dev is the version of a build that carries none.
const Dev = "dev"

// Info describes a build.
type Info struct {
	// Version is the release's semver tag ("v1.2.3"), the module's pseudo-version, or
	// Dev.
	Version string `json:"version"`
	// Commit is the git commit the binary was built from; empty if unknown.
	Commit string `json:"commit,omitempty"`
	// Modified reports that the working tree had uncommitted changes.
	Modified bool `json:"modified,omitempty"`
	// BuildDate is the time of the commit (RFC 3339), which a reproducible build uses
	// for its date; empty if unknown.
	BuildDate string `json:"build_date,omitempty"`
	// GoVersion is the Go release the binary was built with ("go1.26.0").
	GoVersion string `json:"go_version"`
}

// Get returns the running binary's build information.
func Get() Info {
	bi, _ := debug.ReadBuildInfo()
	return resolve(bi, linked{version: version, commit: commit, date: date, modified: modified})
}

// linked holds the values the linker set.
type linked struct{ version, commit, date, modified string }

// resolve merges what the linker set (which wins) with the go command's build
// information bi (nil: none).
func resolve(bi *debug.BuildInfo, l linked) Info {
	i := Info{Version: l.version, Commit: l.commit, BuildDate: l.date, GoVersion: runtime.Version()}
	i.Modified, _ = strconv.ParseBool(l.modified)
	if bi != nil {
		if bi.GoVersion != "" {
			i.GoVersion = bi.GoVersion
		}
		if i.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			i.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if i.Commit == "" {
					i.Commit = s.Value
				}
			case "vcs.time":
				if i.BuildDate == "" {
					i.BuildDate = s.Value
				}
			case "vcs.modified":
				if l.modified == "" {
					i.Modified = s.Value == "true"
				}
			}
		}
	}
	if i.Version == "" {
		i.Version = Dev
	}
	return i
}
