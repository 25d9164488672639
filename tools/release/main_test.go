package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestCheckVersion(t *testing.T) {
	cases := []struct {
		version string
		ok      bool
	}{
		{"v1.2.3", true},
		{"v0.1.0", true},
		{"v1.3.0-rc.1", true},
		{"v2.0.0-alpha.beta-1.0", true},
		{"", false},
		{"1.2.3", false},          // no v
		{"v1.2", false},           // not three numbers
		{"v01.2.3", false},        // leading zero
		{"v1.2.3-", false},        // empty pre-release
		{"v1.2.3-rc.01", false},   // leading zero in a numeric identifier
		{"v1.2.3+build.5", false}, // build metadata cannot be an image tag
		{"v1.2.3 ", false},
	}
	for _, tc := range cases {
		if err := checkVersion(tc.version); (err == nil) != tc.ok {
			t.Errorf("checkVersion(%q) = %v, want ok %t", tc.version, err, tc.ok)
		}
	}
}

func TestFlags(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{name: "no version", args: nil, want: "-version is required"},
		{name: "bad version", args: []string{"-version", "1.0"}, want: "not a semver tag"},
		{name: "unknown platform", args: []string{"-version", "v1.0.0", "-platforms", "plan9/386"}, want: `"plan9/386" is not one of`},
		{name: "no platform", args: []string{"-version", "v1.0.0", "-platforms", ","}, want: "names no platform"},
		{name: "arguments", args: []string{"-version", "v1.0.0", "extra"}, want: "unexpected arguments"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := run(context.Background(), tc.args, &out, &errb)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("run(%q) = %v, want an error containing %q", tc.args, err, tc.want)
			}
		})
	}
}

// TestCheckStaticELF: a dynamically linked program is refused.
func TestCheckStaticELF(t *testing.T) {
	const sh = "/bin/sh" // dynamically linked on Debian, as on most distributions
	if _, err := os.Stat(sh); err != nil {
		t.Skip("no /bin/sh")
	}
	if err := checkStaticELF(sh); err == nil || !strings.Contains(err.Error(), "not static") {
		t.Errorf("checkStaticELF(%s) = %v, want not static", sh, err)
	}
}

// TestRelease builds the linux/amd64 release (the full matrix is .ci/run's) and
// checks each artifact: the checksums, a static binary that reports its version
// and commit, and an image whose manifest, config and layer hold that binary, the
// CA certificates and a non-root user; the binary in the image runs.
func TestRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: skipped in -short")
	}
	const v = "v0.0.0-test.1"
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"-version", v, "-out", out, "-platforms", "linux/amd64", "-allow-dirty"}
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("release %v: %v\n%s", args, err, stderr.String())
	}
	binName, imgName := "factbase-"+v+"-linux-amd64", "factbase-"+v+"-image.tar"
	for _, n := range []string{binName, imgName, "SHA256SUMS"} {
		if !strings.Contains(stdout.String(), filepath.Join(out, n)) {
			t.Errorf("the release's output does not list %s:\n%s", n, stdout.String())
		}
	}

	// SHA256SUMS: every other artifact once, with its digest, as sha256sum -c reads it.
	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	line := regexp.MustCompile(`^([0-9a-f]{64})  (\S+)$`)
	sc := bufio.NewScanner(bytes.NewReader(sums))
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			t.Fatalf("SHA256SUMS line %q is not \"<sha256>  <name>\"", sc.Text())
		}
		b, err := os.ReadFile(filepath.Join(out, m[2]))
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != m[1] {
			t.Errorf("SHA256SUMS: %s is %x, listed as %s", m[2], sum, m[1])
		}
		listed = append(listed, m[2])
	}
	if slices.Sort(listed); !slices.Equal(listed, []string{imgName, binName}) {
		t.Errorf("SHA256SUMS lists %v, want %v", listed, []string{imgName, binName})
	}

	// The binary: static, without cgo, and it says what it is.
	bin := filepath.Join(out, binName)
	if err := checkStaticELF(bin); err != nil {
		t.Error(err)
	}
	bi, err := buildinfo.ReadFile(bin)
	if err != nil || !slices.Contains(bi.Settings, debug.BuildSetting{Key: "CGO_ENABLED", Value: "0"}) || !slices.Contains(bi.Settings, debug.BuildSetting{Key: "-trimpath", Value: "true"}) {
		t.Errorf("build settings %v (%v): want CGO_ENABLED=0 and -trimpath", bi, err)
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := versionOf(t, bin)
	if want.Version != v || want.Commit != strings.TrimSpace(string(head)) || want.BuildDate == "" {
		t.Errorf("%s version --json = %+v, want version %s and commit %s", binName, want, v, head)
	}

	// The image: what docker load reads (manifest.json) and what OCI readers read
	// (index.json) name the same manifest, config and layer.
	a := readImageArchive(t, filepath.Join(out, imgName))
	if len(a.docker) != 1 || !slices.Equal(a.docker[0].RepoTags, []string{"factbase:" + v}) {
		t.Fatalf("manifest.json = %+v, want one image tagged factbase:%s", a.docker, v)
	}
	d := a.docker[0]
	m, ok := a.platformManifests(t)["linux/amd64"]
	if !ok || blob(m.Config.Digest) != d.Config || len(m.Layers) != 1 || blob(m.Layers[0].Digest) != d.Layers[0] {
		t.Fatalf("index.json's linux/amd64 manifest %+v is not manifest.json's %+v", m, d)
	}
	var cfg ociConfig
	a.decode(t, d.Config, &cfg)
	if cfg.OS != "linux" || cfg.Architecture != "amd64" || !slices.Equal(cfg.Config.Entrypoint, []string{"/usr/local/bin/factbase"}) ||
		!slices.Contains(cfg.Config.Env, "FACTBASE_DB=/var/lib/factbase/factbase.db") {
		t.Errorf("config = %+v", cfg)
	}
	files, headers, _ := a.layerFiles(t, d.Layers[0])

	// USER is numeric, not root, and /etc/passwd and /etc/group name it.
	uid, gid, _ := strings.Cut(cfg.Config.User, ":")
	if uid == "" || uid == "0" || gid == "0" || !regexp.MustCompile(`^\d+$`).MatchString(uid) {
		t.Errorf("USER %q, want a numeric user that is not root", cfg.Config.User)
	}
	if !regexp.MustCompile(`(?m)^factbase:x:`+uid+`:`+gid+`:[^:]*:/var/lib/factbase:`).Match(files["etc/passwd"]) ||
		!regexp.MustCompile(`(?m)^factbase:x:`+gid+`:`).Match(files["etc/group"]) {
		t.Errorf("/etc/passwd %q and /etc/group %q do not name user %s", files["etc/passwd"], files["etc/group"], cfg.Config.User)
	}
	if h := headers["var/lib/factbase"]; h == nil || h.Typeflag != tar.TypeDir || strconv.Itoa(h.Uid) != uid {
		t.Errorf("/var/lib/factbase = %+v, want a directory the user owns", h)
	}
	certs, err := os.ReadFile("/etc/ssl/certs/ca-certificates.crt")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(files["etc/ssl/certs/ca-certificates.crt"], certs) {
		t.Error("the image's CA certificates are not the build machine's")
	}
	var paths []string
	for p, h := range headers {
		if h.Typeflag == tar.TypeReg {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	if want := []string{"etc/group", "etc/nsswitch.conf", "etc/passwd", "etc/ssl/certs/ca-certificates.crt", "usr/local/bin/factbase"}; !slices.Equal(paths, want) {
		t.Errorf("the image's files are %v, want only %v", paths, want)
	}

	// The binary takes the image's command: "serve ARGS -h" parses ARGS with serve's
	// flags and stops before serving.
	cmd := exec.Command(bin, append(append(cfg.Config.Entrypoint[1:], cfg.Config.Cmd...), "-h")...)
	cmd.Env = cfg.Config.Env
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("factbase %q -h, the image's command: %v\n%s", cfg.Config.Cmd, err, b)
	}

	// The binary in the image is the release's, and runs.
	inImage := filepath.Join(t.TempDir(), "factbase")
	if err := os.WriteFile(inImage, files["usr/local/bin/factbase"], 0o755); err != nil {
		t.Fatal(err)
	}
	if got := versionOf(t, inImage); got != want {
		t.Errorf("factbase version in the image = %+v, want %+v", got, want)
	}
	runInRootFS(t, files, headers, cfg)
}

// buildVersion is what "factbase version --json" prints.
type buildVersion struct {
	Version   string `json:"version"`
	Commit    string `json:"commit"`
	Modified  bool   `json:"modified"`
	BuildDate string `json:"build_date"`
	GoVersion string `json:"go_version"`
}

// versionOf runs "bin version --json".
func versionOf(t *testing.T, bin string) buildVersion {
	t.Helper()
	out, err := exec.Command(bin, "version", "--json").Output()
	if err != nil {
		t.Fatalf("%s version --json: %v", bin, err)
	}
	var v buildVersion
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s version --json printed %q: %v", bin, out, err)
	}
	return v
}
