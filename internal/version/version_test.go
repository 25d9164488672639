package version

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestResolve(t *testing.T) {
	vcs := &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Path: "github.com/factbase/factbase", Version: "(devel)"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "1111111111111111111111111111111111111111"},
			{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"},
			{Key: "vcs.modified", Value: "true"},
		}}
	installed := &debug.BuildInfo{GoVersion: "go1.26.2", Main: debug.Module{Path: "github.com/factbase/factbase", Version: "v1.4.0"}}
	cases := []struct {
		name string
		bi   *debug.BuildInfo
		l    linked
		want Info
	}{
		{name: "nothing known", want: Info{Version: Dev, GoVersion: runtime.Version()}},
		{name: "a devel build in a checkout", bi: vcs,
			want: Info{Version: Dev, Commit: "1111111111111111111111111111111111111111", BuildDate: "2026-01-02T03:04:05Z", Modified: true, GoVersion: "go1.26.1"}},
		{name: "go install at a tag", bi: installed, want: Info{Version: "v1.4.0", GoVersion: "go1.26.2"}},
		{name: "the linker wins", bi: vcs,
			l:    linked{version: "v1.2.3", commit: "2222", date: "2026-02-03T00:00:00Z", modified: "false"},
			want: Info{Version: "v1.2.3", Commit: "2222", BuildDate: "2026-02-03T00:00:00Z", GoVersion: "go1.26.1"}},
		{name: "linker version, the rest from vcs", bi: vcs, l: linked{version: "v2.0.0-rc.1"},
			want: Info{Version: "v2.0.0-rc.1", Commit: "1111111111111111111111111111111111111111", BuildDate: "2026-01-02T03:04:05Z", Modified: true, GoVersion: "go1.26.1"}},
		{name: "linker modified without vcs", l: linked{version: "v1.0.0", modified: "true"},
			want: Info{Version: "v1.0.0", Modified: true, GoVersion: runtime.Version()}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := resolve(tc.bi, tc.l); got != tc.want {
				t.Errorf("resolve() = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestGet(t *testing.T) {
	// A test binary is a devel build: no version, and Go's own version.
	got := Get()
	if got.Version != Dev || got.GoVersion != runtime.Version() {
		t.Errorf("Get() = %+v, want version %q and Go %q", got, Dev, runtime.Version())
	}
}
