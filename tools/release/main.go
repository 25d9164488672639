// Command release builds Factbase's release artifacts on this machine, with no build
// service: static binaries (CGO_ENABLED=0; the SQLite driver is pure Go) for linux,
// darwin and windows on amd64 and arm64, an OCI image of the linux binaries written
// as a tarball that "docker load" accepts, and a SHA256SUMS file over them all.
//
//	go run ./tools/release -version v1.2.3                        # everything, into dist/
//	go run ./tools/release -version v1.2.3 -platforms linux/amd64 # one binary, and an amd64 image
//
// The version must be a semver tag ("v1.2.3", "v1.3.0-rc.1"). The binaries carry it,
// the commit and the commit's time (internal/version, set with -ldflags -X), so that
// "factbase version", /healthz, /metrics, the OpenAPI document, the MCP handshake and
// the web page report them. The commit's time is also every timestamp in the image,
// so the same commit gives the same artifacts. A tree with uncommitted changes is
// refused unless -allow-dirty, and such a build says "modified".
//
// Each binary is checked before it is kept: its build information must record
// CGO_ENABLED=0, and a linux binary must be a static ELF (no interpreter, no shared
// libraries). docs/releasing.md says how to cut a release.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"debug/buildinfo"
	"debug/elf"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// allPlatforms is the full matrix, the default of -platforms.
var allPlatforms = []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "windows/arm64"}

// versionPkg is the package whose variables the linker sets.
const versionPkg = "github.com/factbase/factbase/internal/version"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "release: %v\n", err)
		os.Exit(1)
	}
}

// config is what a release is built from.
type config struct {
	version    string
	out        string
	platforms  []string
	image      bool
	repo       string // the image's name in "docker load"
	certs      string
	allowDirty bool
}

// run parses args, builds the release and prints its artifacts on stdout.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c config
	var platforms string
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.version, "version", "", "the release's semver tag, e.g. v1.2.3 (required)")
	fs.StringVar(&c.out, "out", "dist", "directory the artifacts are written to (created; existing artifacts of this version are replaced)")
	fs.StringVar(&platforms, "platforms", strings.Join(allPlatforms, ","), "GOOS/GOARCH pairs to build, comma-separated")
	fs.BoolVar(&c.image, "image", true, "build the OCI image of the linux binaries")
	fs.StringVar(&c.repo, "repo", "factbase", "the image's repository name, tagged with the version")
	fs.StringVar(&c.certs, "certs", "/etc/ssl/certs/ca-certificates.crt", "CA certificates (PEM) copied into the image")
	fs.BoolVar(&c.allowDirty, "allow-dirty", false, "build from a tree with uncommitted changes (the binaries then say modified)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if err := checkVersion(c.version); err != nil {
		return err
	}
	for _, p := range strings.Split(platforms, ",") {
		if p = strings.TrimSpace(p); p != "" {
			if !slices.Contains(allPlatforms, p) {
				return fmt.Errorf("-platforms: %q is not one of %s", p, strings.Join(allPlatforms, ", "))
			}
			c.platforms = append(c.platforms, p)
		}
	}
	if len(c.platforms) == 0 {
		return errors.New("-platforms names no platform")
	}
	start := time.Now()
	arts, err := release(ctx, c, stderr)
	if err != nil {
		return err
	}
	for _, a := range arts {
		fmt.Fprintf(stdout, "%-44s %10s  sha256:%s\n", filepath.Join(c.out, a.name), humanBytes(a.size), a.sum)
	}
	fmt.Fprintf(stderr, "release: %s in %s\n", c.version, time.Since(start).Round(time.Second))
	return nil
}

// semverTag is the grammar of semver.org with a leading "v" and without build
// metadata ("+..."), which a container tag cannot carry.
var semverTag = regexp.MustCompile(`^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
	`(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?$`)

// checkVersion reports whether v is a semver tag a release can carry.
func checkVersion(v string) error {
	switch {
	case v == "":
		return errors.New("-version is required, e.g. -version v1.2.3")
	case strings.Contains(v, "+"):
		return fmt.Errorf("-version %q: build metadata (+...) cannot be part of an image tag", v)
	case !semverTag.MatchString(v):
		return fmt.Errorf("-version %q is not a semver tag (v1.2.3, v1.3.0-rc.1)", v)
	}
	return nil
}

// source is the commit a release is built from.
type source struct {
	root     string    // the module's directory
	commit   string    // full hash
	time     time.Time // the commit's time, UTC
	modified bool
}

// gitSource reads the module's root and its git state.
func gitSource(ctx context.Context) (source, error) {
	var s source
	gomod, err := output(ctx, "", "go", "env", "GOMOD")
	if err != nil || gomod == "" || gomod == os.DevNull {
		return s, fmt.Errorf("not in a Go module: %v", err)
	}
	s.root = filepath.Dir(gomod)
	if s.commit, err = output(ctx, s.root, "git", "rev-parse", "HEAD"); err != nil {
		return s, err
	}
	ct, err := output(ctx, s.root, "git", "show", "-s", "--format=%ct", "HEAD")
	if err != nil {
		return s, err
	}
	sec, err := strconv.ParseInt(ct, 10, 64)
	if err != nil {
		return s, fmt.Errorf("git: commit time %q: %v", ct, err)
	}
	s.time = time.Unix(sec, 0).UTC()
	status, err := output(ctx, s.root, "git", "status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return s, err
	}
	s.modified = status != ""
	return s, nil
}

// output runs a command in dir and returns its trimmed standard output.
func output(ctx context.Context, dir, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// artifact is one file written.
type artifact struct {
	name string // base name in the output directory
	size int64
	sum  string // hex SHA-256
}

// release builds the binaries and the image into c.out and writes SHA256SUMS.
func release(ctx context.Context, c config, log io.Writer) ([]artifact, error) {
	src, err := gitSource(ctx)
	if err != nil {
		return nil, err
	}
	if src.modified && !c.allowDirty {
		return nil, errors.New("the tree has uncommitted changes: commit them, or pass -allow-dirty for a build that says modified")
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return nil, err
	}
	var names []string
	linux := map[string]string{} // GOARCH -> binary path
	for _, p := range c.platforms {
		goos, goarch, _ := strings.Cut(p, "/")
		name := fmt.Sprintf("factbase-%s-%s-%s", c.version, goos, goarch)
		if goos == "windows" {
			name += ".exe"
		}
		t0 := time.Now()
		path := filepath.Join(c.out, name)
		if err := build(ctx, src, c.version, goos, goarch, path); err != nil {
			return nil, err
		}
		if err := checkStatic(path, goos); err != nil {
			os.Remove(path) // a binary that fails its check is no artifact
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintf(log, "release: built %s in %s\n", name, time.Since(t0).Round(100*time.Millisecond))
		names = append(names, name)
		if goos == "linux" {
			linux[goarch] = path
		}
	}
	if c.image {
		if len(linux) == 0 {
			return nil, errors.New("-image needs a linux platform in -platforms (or pass -image=false)")
		}
		certs, err := os.ReadFile(c.certs)
		if err == nil && !bytes.Contains(certs, []byte("-----BEGIN CERTIFICATE-----")) {
			err = fmt.Errorf("%s holds no PEM certificate", c.certs)
		}
		if err != nil {
			return nil, fmt.Errorf("CA certificates for the image: %w", err)
		}
		name := fmt.Sprintf("factbase-%s-image.tar", c.version)
		t0 := time.Now()
		spec := imageSpec{repo: c.repo, version: c.version, commit: src.commit, created: src.time, certs: certs, binaries: linux}
		if err := writeImageFile(filepath.Join(c.out, name), spec); err != nil {
			return nil, fmt.Errorf("image: %w", err)
		}
		fmt.Fprintf(log, "release: wrote %s in %s\n", name, time.Since(t0).Round(100*time.Millisecond))
		names = append(names, name)
	}
	return writeSums(c.out, names)
}

// build cross-compiles cmd/factbase for goos/goarch into path.
func build(ctx context.Context, src source, version, goos, goarch, path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	ldflags := fmt.Sprintf("-s -w -X %[1]s.version=%[2]s -X %[1]s.commit=%[3]s -X %[1]s.date=%[4]s -X %[1]s.modified=%[5]t",
		versionPkg, version, src.commit, src.time.Format(time.RFC3339), src.modified)
	// -trimpath drops this machine's paths; -buildvcs=false because the linker
	// flags carry the commit already, read once above for every platform.
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=false", "-ldflags", ldflags, "-o", abs, "./cmd/factbase")
	cmd.Dir = src.root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s/%s: %v\n%s", goos, goarch, err, out)
	}
	return nil
}

// checkStatic checks that the binary at path was built without cgo and, on linux,
// that it needs no dynamic loader and no shared library. (Go on darwin and windows
// always calls the system's libraries: libSystem, kernel32; without cgo that is all.)
func checkStatic(path, goos string) error {
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return err
	}
	cgo := ""
	for _, s := range bi.Settings {
		if s.Key == "CGO_ENABLED" {
			cgo = s.Value
		}
	}
	if cgo != "0" {
		return fmt.Errorf("built with CGO_ENABLED=%q, want 0", cgo)
	}
	if goos != "linux" {
		return nil
	}
	return checkStaticELF(path)
}

// checkStaticELF checks that the ELF file at path has no interpreter (PT_INTERP)
// and names no shared library (DT_NEEDED).
func checkStaticELF(path string) error {
	f, err := elf.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return errors.New("not static: it asks for a dynamic loader (PT_INTERP)")
		}
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		return err
	}
	if len(libs) > 0 {
		return fmt.Errorf("not static: it needs %s", strings.Join(libs, ", "))
	}
	return nil
}

// writeSums writes SHA256SUMS over the files names in dir, in the format of
// "sha256sum -c", and returns every artifact, SHA256SUMS last.
func writeSums(dir string, names []string) ([]artifact, error) {
	var arts []artifact
	var sums strings.Builder
	for _, n := range names {
		a, err := describe(dir, n)
		if err != nil {
			return nil, err
		}
		arts = append(arts, a)
		fmt.Fprintf(&sums, "%s  %s\n", a.sum, n)
	}
	if err := os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(sums.String()), 0o644); err != nil {
		return nil, err
	}
	a, err := describe(dir, "SHA256SUMS")
	return append(arts, a), err
}

// describe hashes the file name in dir.
func describe(dir, name string) (artifact, error) {
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return artifact{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return artifact{}, err
	}
	return artifact{name: name, size: n, sum: hex.EncodeToString(h.Sum(nil))}, nil
}

// humanBytes formats n as MiB (or KiB, or bytes) with one decimal.
func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
