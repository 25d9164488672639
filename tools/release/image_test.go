package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// ociIndex, ociManifest and ociConfig are the parts of the OCI documents the tests
// read, declared here rather than taken from the library that wrote them.
type ociIndex struct {
	MediaType string `json:"mediaType"`
	Manifests []struct {
		MediaType   string            `json:"mediaType"`
		Digest      string            `json:"digest"`
		Size        int64             `json:"size"`
		Annotations map[string]string `json:"annotations"`
		Platform    *struct {
			OS           string `json:"os"`
			Architecture string `json:"architecture"`
		} `json:"platform"`
	} `json:"manifests"`
}

type ociManifest struct {
	MediaType string `json:"mediaType"`
	Config    struct {
		Digest string `json:"digest"`
	} `json:"config"`
	Layers []struct {
		MediaType string `json:"mediaType"`
		Digest    string `json:"digest"`
	} `json:"layers"`
}

type ociConfig struct {
	OS           string `json:"os"`
	Architecture string `json:"architecture"`
	Created      string `json:"created"`
	Config       struct {
		User       string
		Entrypoint []string
		Cmd        []string
		Env        []string
	} `json:"config"`
	RootFS struct {
		DiffIDs []string `json:"diff_ids"`
	} `json:"rootfs"`
}

// imageArchive is an image tarball read into memory, checked on the way: every
// blob's name is the SHA-256 of its contents.
type imageArchive struct {
	files  map[string][]byte
	docker []dockerManifest
	index  ociIndex // index.json
}

func readImageArchive(t *testing.T, path string) *imageArchive {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a := &imageArchive{files: map[string][]byte{}}
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		a.files[h.Name] = b
		if d, ok := strings.CutPrefix(h.Name, "blobs/sha256/"); ok {
			if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != d {
				t.Errorf("blob %s holds contents of digest %x", d, sum)
			}
		}
	}
	if got, want := string(a.files["oci-layout"]), `{"imageLayoutVersion":"1.0.0"}`; got != want {
		t.Errorf("oci-layout = %q, want %q", got, want)
	}
	a.decode(t, "manifest.json", &a.docker)
	a.decode(t, "index.json", &a.index)
	return a
}

// decode reads the JSON file name of the archive into v.
func (a *imageArchive) decode(t *testing.T, name string, v any) {
	t.Helper()
	b, ok := a.files[name]
	if !ok {
		t.Fatalf("the archive has no %s", name)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// blob returns the path in the archive of the blob of digest "sha256:...".
func blob(digest string) string { return "blobs/sha256/" + strings.TrimPrefix(digest, "sha256:") }

// platformManifests follows index.json to the image index and returns each
// platform's ("linux/amd64") manifest.
func (a *imageArchive) platformManifests(t *testing.T) map[string]ociManifest {
	t.Helper()
	if len(a.index.Manifests) != 1 || a.index.Manifests[0].MediaType != "application/vnd.oci.image.index.v1+json" {
		t.Fatalf("index.json = %+v, want one image index", a.index)
	}
	var idx ociIndex
	a.decode(t, blob(a.index.Manifests[0].Digest), &idx)
	out := map[string]ociManifest{}
	for _, d := range idx.Manifests {
		var m ociManifest
		a.decode(t, blob(d.Digest), &m)
		if d.Platform == nil {
			t.Fatalf("manifest %s has no platform", d.Digest)
		}
		out[d.Platform.OS+"/"+d.Platform.Architecture] = m
	}
	return out
}

// layerFiles gunzips and untars the layer at name and returns its regular files and
// the headers of every entry.
func (a *imageArchive) layerFiles(t *testing.T, name string) (map[string][]byte, map[string]*tar.Header, []byte) {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(a.files[name]))
	if err != nil {
		t.Fatalf("layer %s: %v", name, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("layer %s: %v", name, err)
	}
	files, headers := map[string][]byte{}, map[string]*tar.Header{}
	tr := tar.NewReader(bytes.NewReader(raw))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("layer %s: %v", name, err)
		}
		headers[strings.TrimSuffix(h.Name, "/")] = h
		if h.Typeflag == tar.TypeReg {
			if files[h.Name], err = io.ReadAll(tr); err != nil {
				t.Fatal(err)
			}
		}
	}
	return files, headers, raw
}

// TestImageArchive builds the image of two platforms from stand-in binaries: one
// index of both for OCI readers, one manifest.json entry each for "docker load",
// the same bytes every time.
func TestImageArchive(t *testing.T) {
	dir := t.TempDir()
	bins := map[string]string{}
	for _, arch := range []string{"amd64", "arm64"} {
		bins[arch] = filepath.Join(dir, arch)
		if err := os.WriteFile(bins[arch], []byte("binary for "+arch), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	spec := imageSpec{repo: "factbase", version: "v1.2.3", commit: "abc", created: created,
		certs: []byte("-----BEGIN CERTIFICATE-----\n"), binaries: bins}
	p1, p2 := filepath.Join(dir, "1.tar"), filepath.Join(dir, "2.tar")
	for _, p := range []string{p1, p2} {
		if err := writeImageFile(p, spec); err != nil {
			t.Fatal(err)
		}
	}
	b1, _ := os.ReadFile(p1)
	b2, _ := os.ReadFile(p2)
	if !bytes.Equal(b1, b2) {
		t.Error("two builds of the same image differ: the image is not reproducible")
	}

	a := readImageArchive(t, p1)
	if got, want := a.index.Manifests[0].Annotations["io.containerd.image.name"], "docker.io/library/factbase:v1.2.3"; got != want {
		t.Errorf("index.json names the image %q, want %q", got, want)
	}
	ms := a.platformManifests(t)
	if len(ms) != 2 || len(a.docker) != 2 {
		t.Fatalf("platforms %v, manifest.json %+v: want linux/amd64 and linux/arm64 in both", ms, a.docker)
	}
	wantTags := map[string]string{"amd64": "factbase:v1.2.3", "arm64": "factbase:v1.2.3-arm64"}
	for i, arch := range []string{"amd64", "arm64"} {
		m, d := ms["linux/"+arch], a.docker[i]
		var cfg ociConfig
		a.decode(t, d.Config, &cfg)
		if cfg.Architecture != arch || blob(m.Config.Digest) != d.Config || !slices.Equal(d.RepoTags, []string{wantTags[arch]}) {
			t.Errorf("manifest.json entry %d = %+v (config for %s), want %s's config, tagged %s", i, d, cfg.Architecture, arch, wantTags[arch])
		}
		if len(m.Layers) != 1 || len(d.Layers) != 1 || blob(m.Layers[0].Digest) != d.Layers[0] {
			t.Fatalf("linux/%s: OCI layers %+v, docker layers %v: want the same one layer", arch, m.Layers, d.Layers)
		}
		files, _, raw := a.layerFiles(t, d.Layers[0])
		if got, want := string(files["usr/local/bin/factbase"]), "binary for "+arch; got != want {
			t.Errorf("linux/%s: the binary in the layer is %q, want %q", arch, got, want)
		}
		if sum := sha256.Sum256(raw); cfg.RootFS.DiffIDs[0] != "sha256:"+hex.EncodeToString(sum[:]) {
			t.Errorf("linux/%s: diff_id %s is not the uncompressed layer's digest", arch, cfg.RootFS.DiffIDs[0])
		}
		if cfg.Created != "2026-01-02T03:04:05Z" {
			t.Errorf("linux/%s: created %s, want the commit's time", arch, cfg.Created)
		}
	}
}
