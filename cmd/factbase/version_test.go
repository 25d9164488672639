package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/factbase/factbase/internal/version"
)

var testBuild = version.Info{Version: "v1.2.3-test.1", Commit: "4f0c3a9e1b7d2c6a8e5f0b3d9c1a7e4f2b6d8c0a",
	Modified: true, BuildDate: "2026-01-02T15:04:05Z", GoVersion: "go1.26.0"}

// runBuild runs the program of build b with args and returns stdout and the exit status.
func runBuild(t *testing.T, b version.Info, args ...string) (string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Build: b}
	code := m.Run(context.Background(), args)
	if errb.Len() > 0 && code == 0 {
		t.Errorf("%v wrote to stderr: %s", args, errb.String())
	}
	return out.String(), code
}

func TestVersion(t *testing.T) {
	release := fmt.Sprintf("factbase v1.2.3-test.1\ncommit: 4f0c3a9e1b7d2c6a8e5f0b3d9c1a7e4f2b6d8c0a (modified)\n"+
		"built:  2026-01-02T15:04:05Z\ngo:     go1.26.0 %s/%s\n", runtime.GOOS, runtime.GOARCH)
	dev := fmt.Sprintf("factbase dev\ncommit: unknown\nbuilt:  unknown\ngo:     %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	cases := []struct {
		name  string
		build version.Info
		args  []string
		want  string
		code  int
	}{
		{name: "version", build: testBuild, args: []string{"version"}, want: release},
		{name: "--version", build: testBuild, args: []string{"--version"}, want: release},
		{name: "-version", build: testBuild, args: []string{"-version"}, want: release},
		{name: "a test binary is dev", args: []string{"version"}, want: dev},
		{name: "arguments are refused", build: testBuild, args: []string{"version", "extra"}, code: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, code := runBuild(t, tc.build, tc.args...)
			if code != tc.code || out != tc.want {
				t.Errorf("factbase %v = %d %q, want %d %q", tc.args, code, out, tc.code, tc.want)
			}
		})
	}

	out, code := runBuild(t, testBuild, "version", "--json")
	var got version.Info
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || got != testBuild {
		t.Errorf("version --json = %d %s (%v), want %+v", code, out, err, testBuild)
	}
	if out, _ := runBuild(t, testBuild, "help"); !strings.Contains(out, "  version ") {
		t.Errorf("help does not list version:\n%s", out)
	}
}

// TestServeReportsBuild: serve reports its build everywhere a client can see it:
// /healthz, /metrics, the OpenAPI document, the web page and the MCP handshake.
func TestServeReportsBuild(t *testing.T) {
	env := testEnv(t)
	s := serveBuild(t, env, testBuild, "--no-auth")

	var health map[string]any
	st, _, b := call(t, "GET", s.base+"/healthz", "", "")
	if err := json.Unmarshal(b, &health); st != 200 || err != nil {
		t.Fatalf("GET /healthz = %d %s", st, b)
	}
	for k, want := range map[string]any{"status": "ok", "version": testBuild.Version, "commit": testBuild.Commit,
		"modified": true, "build_date": testBuild.BuildDate, "go_version": testBuild.GoVersion} {
		if health[k] != want {
			t.Errorf("/healthz %s = %v, want %v", k, health[k], want)
		}
	}

	_, _, metrics := call(t, "GET", s.base+"/metrics", "", "")
	want := `factbase_build_info{commit="4f0c3a9e1b7d2c6a8e5f0b3d9c1a7e4f2b6d8c0a",go_version="go1.26.0",version="v1.2.3-test.1"} 1`
	if !bytes.Contains(metrics, []byte(want)) {
		t.Errorf("/metrics lacks %s", want)
	}

	var doc struct {
		Info struct{ Version string } `json:"info"`
	}
	_, _, b = call(t, "GET", s.base+"/openapi.json", "", "")
	if err := json.Unmarshal(b, &doc); err != nil || doc.Info.Version != testBuild.Version {
		t.Errorf("OpenAPI info.version = %q (%v), want %q", doc.Info.Version, err, testBuild.Version)
	}

	if _, _, page := call(t, "GET", s.base+"/", "", ""); !bytes.Contains(page, []byte("<footer>Factbase v1.2.3-test.1</footer>")) {
		t.Errorf("the page's footer does not show the version")
	}

	cs, err := mcpHTTP(t, s.base, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.InitializeResult().ServerInfo.Version; got != testBuild.Version {
		t.Errorf("MCP handshake version = %q, want %q", got, testBuild.Version)
	}
	if logs := s.stderr.String(); !strings.Contains(logs, `"msg":"build","version":"v1.2.3-test.1"`) {
		t.Errorf("serve did not log its build at start:\n%s", logs)
	}
}
