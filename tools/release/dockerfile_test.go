package main

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// dockerfile is the repository's Dockerfile, read as far as these tests need: the
// instructions of its final stage (continuation lines joined) and the heredoc
// bodies of every COPY <<EOF, by destination.
type dockerfile struct {
	final   []string
	all     string // every instruction, one a line
	heredoc map[string]string
}

func readDockerfile(t *testing.T) dockerfile {
	t.Helper()
	b, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	d := dockerfile{heredoc: map[string]string{}}
	var all []string
	var cur strings.Builder
	lines := strings.Split(string(b), "\n")
	heredocStart := regexp.MustCompile(`^COPY <<(\w+) (\S+)$`)
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if cur.Len() == 0 && (strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#")) {
			continue
		}
		if m := heredocStart.FindStringSubmatch(line); m != nil {
			var body strings.Builder
			for i++; i < len(lines) && lines[i] != m[1]; i++ {
				body.WriteString(lines[i] + "\n")
			}
			d.heredoc[m[2]] = body.String()
			continue
		}
		if s, ok := strings.CutSuffix(line, `\`); ok {
			cur.WriteString(s + " ")
			continue
		}
		cur.WriteString(line)
		in := strings.Join(strings.Fields(cur.String()), " ")
		cur.Reset()
		all = append(all, in)
		if strings.HasPrefix(in, "FROM ") {
			d.final = nil
			continue
		}
		d.final = append(d.final, in)
	}
	d.all = strings.Join(all, "\n")
	return d
}

// TestDockerfileMatchesImage: the Dockerfile builds the image the release program
// writes: the same configuration, the same /etc files, the same owner of the data
// directory, and a binary built the same way.
func TestDockerfileMatchesImage(t *testing.T) {
	d := readDockerfile(t)
	spec := imageSpec{repo: "factbase", version: "v1.2.3", commit: "abc", created: time.Unix(0, 0).UTC(), certs: []byte("certs")}
	img, err := buildImage(spec, "amd64", []byte("binary"))
	if err != nil {
		t.Fatal(err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	want := cf.Config

	var got struct {
		user, workdir, volume, expose string
		env, entrypoint, cmd          []string
	}
	for _, in := range d.final {
		op, arg, _ := strings.Cut(in, " ")
		switch op {
		case "USER":
			got.user = arg
		case "WORKDIR":
			got.workdir = arg
		case "VOLUME":
			got.volume = arg
		case "EXPOSE":
			got.expose = arg
		case "ENV":
			got.env = append(got.env, strings.Fields(arg)...)
		case "ENTRYPOINT", "CMD":
			var v []string
			if err := json.Unmarshal([]byte(arg), &v); err != nil {
				t.Fatalf("%s is not in exec form: %s", op, arg)
			}
			if op == "CMD" {
				got.cmd = v
			} else {
				got.entrypoint = v
			}
		case "COPY":
		default:
			t.Errorf("the final stage has %s, which the release image has no counterpart of", op)
		}
	}
	if got.user != want.User || got.workdir != want.WorkingDir {
		t.Errorf("Dockerfile USER %q WORKDIR %q, image %q %q", got.user, got.workdir, want.User, want.WorkingDir)
	}
	if _, ok := want.Volumes[got.volume]; !ok || len(want.Volumes) != 1 {
		t.Errorf("Dockerfile VOLUME %q, image %v", got.volume, want.Volumes)
	}
	if _, ok := want.ExposedPorts[got.expose]; !ok || len(want.ExposedPorts) != 1 {
		t.Errorf("Dockerfile EXPOSE %q, image %v", got.expose, want.ExposedPorts)
	}
	if !slices.Equal(slices.Sorted(slices.Values(got.env)), slices.Sorted(slices.Values(want.Env))) {
		t.Errorf("Dockerfile ENV %q, image %q", got.env, want.Env)
	}
	if !slices.Equal(got.entrypoint, want.Entrypoint) || !slices.Equal(got.cmd, want.Cmd) {
		t.Errorf("Dockerfile ENTRYPOINT %q CMD %q, image %q %q", got.entrypoint, got.cmd, want.Entrypoint, want.Cmd)
	}
	var from string
	for _, in := range strings.Split(d.all, "\n") {
		if strings.HasPrefix(in, "FROM ") {
			from = in
		}
	}
	if from != "FROM scratch" {
		t.Errorf("the final stage is %q, want FROM scratch: nothing but what the release image holds", from)
	}

	// /etc: the heredocs are the release image's files.
	layer, err := rootFS(spec, []byte("binary"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	tr := tar.NewReader(bytes.NewReader(layer))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		files["/"+h.Name] = string(b)
	}
	for _, f := range []string{"/etc/passwd", "/etc/group", "/etc/nsswitch.conf"} {
		if got, ok := d.heredoc["/rootfs"+f]; !ok || got != files[f] {
			t.Errorf("the Dockerfile's %s = %q, the image's %q", f, got, files[f])
		}
	}

	// The build and the rest of the file system, instruction by instruction.
	for _, s := range []string{
		"CGO_ENABLED=0", "-trimpath", "-o /rootfs" + imageBinary + " ./cmd/factbase",
		"-X " + versionPkg + ".version=${VERSION}", "-X " + versionPkg + ".commit=${COMMIT}", "-X " + versionPkg + ".date=${DATE}",
		"cp /etc/ssl/certs/ca-certificates.crt /rootfs/etc/ssl/certs/",
		"chmod 1777 /rootfs/tmp",
		fmt.Sprintf("chown %d:%d /rootfs%s && chmod 700 /rootfs%[3]s", imageUID, imageUID, imageData),
		"COPY --from=build /rootfs/ /",
	} {
		if !strings.Contains(d.all, s) {
			t.Errorf("the Dockerfile lacks %q", s)
		}
	}
}
