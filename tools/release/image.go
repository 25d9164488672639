package main

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// The image's user: not root, with the uid and gid distroless uses for "nonroot", so
// that Kubernetes' runAsNonRoot can check the numeric USER.
const (
	imageUID  = 65532
	imageUser = "factbase"
	// imageBinary is where the binary is, the image's entrypoint.
	imageBinary = "/usr/local/bin/factbase"
	// imageData is the user's home, the default database's directory and a volume.
	imageData = "/var/lib/factbase"
)

// imageSpec is what the image is built from.
type imageSpec struct {
	repo, version, commit string
	created               time.Time         // every timestamp in the image (the commit's time)
	certs                 []byte            // CA certificates, PEM
	binaries              map[string]string // GOARCH -> path of a static linux binary
}

// tag is the image's name as "docker load" tags it; arch other than amd64 gets a
// suffix ("factbase:v1.2.3-arm64"), because a daemon without the containerd image
// store keeps one platform per tag.
func (s imageSpec) tag(arch string) string {
	if arch == "amd64" {
		return s.repo + ":" + s.version
	}
	return s.repo + ":" + s.version + "-" + arch
}

// buildImage returns the image of one linux binary: a single layer holding the
// binary, the CA certificates, /etc/passwd and /etc/group with the non-root user,
// its home directory and /tmp.
func buildImage(s imageSpec, arch string, binary []byte) (v1.Image, error) {
	layerTar, err := rootFS(s, binary)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerTar)), nil
	}, tarball.WithMediaType(types.OCILayer), tarball.WithCompressedCaching)
	if err != nil {
		return nil, err
	}
	created := v1.Time{Time: s.created}
	img := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	img, err = mutate.Append(img, mutate.Addendum{Layer: layer, MediaType: types.OCILayer,
		History: v1.History{Created: created, CreatedBy: "go run ./tools/release -version " + s.version}})
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture, cf.Created = "linux", arch, created
	labels := map[string]string{
		"org.opencontainers.image.title":    "Factbase",
		"org.opencontainers.image.version":  s.version,
		"org.opencontainers.image.revision": s.commit,
		"org.opencontainers.image.created":  s.created.Format(time.RFC3339),
		"org.opencontainers.image.licenses": "Apache-2.0",
	}
	cf.Config = v1.Config{
		User:       fmt.Sprintf("%d:%d", imageUID, imageUID),
		Entrypoint: []string{imageBinary},
		Cmd:        []string{"serve", "--addr", "0.0.0.0:7411"},
		Env: []string{"PATH=/usr/local/bin", "HOME=" + imageData,
			"FACTBASE_DB=" + imageData + "/factbase.db"},
		WorkingDir:   imageData,
		ExposedPorts: map[string]struct{}{"7411/tcp": {}},
		Volumes:      map[string]struct{}{imageData: {}},
		Labels:       labels,
	}
	return mutate.ConfigFile(img, cf)
}

// rootFS returns the image's one layer, uncompressed: a tar whose entries are in a
// fixed order with fixed times, so the same inputs give the same bytes.
func rootFS(s imageSpec, binary []byte) ([]byte, error) {
	passwd := fmt.Sprintf("root:x:0:0:root:/root:/sbin/nologin\n%s:x:%d:%d:%s:%s:/sbin/nologin\n",
		imageUser, imageUID, imageUID, imageUser, imageData)
	group := fmt.Sprintf("root:x:0:\n%s:x:%d:\n", imageUser, imageUID)
	type entry struct {
		name     string
		mode     int64
		uid      int
		contents []byte // nil: a directory
	}
	entries := []entry{
		{name: "etc/", mode: 0o755},
		{name: "etc/group", mode: 0o644, contents: []byte(group)},
		// Go's resolver reads /etc/hosts before DNS only when nsswitch.conf says so.
		{name: "etc/nsswitch.conf", mode: 0o644, contents: []byte("hosts: files dns\n")},
		{name: "etc/passwd", mode: 0o644, contents: []byte(passwd)},
		{name: "etc/ssl/", mode: 0o755},
		{name: "etc/ssl/certs/", mode: 0o755},
		{name: "etc/ssl/certs/ca-certificates.crt", mode: 0o644, contents: s.certs},
		{name: "tmp/", mode: 0o1777},
		{name: "usr/", mode: 0o755},
		{name: "usr/local/", mode: 0o755},
		{name: "usr/local/bin/", mode: 0o755},
		{name: imageBinary[1:], mode: 0o755, contents: binary},
		{name: "var/", mode: 0o755},
		{name: "var/lib/", mode: 0o755},
		{name: imageData[1:] + "/", mode: 0o700, uid: imageUID},
	}
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: e.mode, Uid: e.uid, Gid: e.uid, ModTime: s.created, Format: tar.FormatPAX}
		if e.contents == nil {
			h.Typeflag = tar.TypeDir
		} else {
			h.Typeflag, h.Size = tar.TypeReg, int64(len(e.contents))
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.contents); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeImageFile builds the image of every binary of s and writes them to path as
// one tarball in the layout "docker save" writes since Docker 25: an OCI image
// layout (oci-layout, index.json naming an image index of every platform, blobs
// under blobs/sha256/) that containerd, Docker's containerd image store, podman and
// skopeo read, and beside it the manifest.json of the older "docker load", one entry
// per platform over the same blobs.
func writeImageFile(path string, s imageSpec) error {
	arches := make([]string, 0, len(s.binaries))
	for a := range s.binaries {
		arches = append(arches, a)
	}
	slices.Sort(arches)
	idx := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	var docker []dockerManifest
	blobs := map[string][]byte{} // hex digest -> contents
	for _, arch := range arches {
		bin, err := os.ReadFile(s.binaries[arch])
		if err != nil {
			return err
		}
		img, err := buildImage(s, arch, bin)
		if err != nil {
			return fmt.Errorf("linux/%s: %w", arch, err)
		}
		m, err := addImageBlobs(blobs, img)
		if err != nil {
			return fmt.Errorf("linux/%s: %w", arch, err)
		}
		m.RepoTags = []string{s.tag(arch)}
		docker = append(docker, m)
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{Add: img,
			Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: arch}}})
	}
	rawIdx, err := idx.RawManifest()
	if err != nil {
		return err
	}
	idxDigest, err := idx.Digest()
	if err != nil {
		return err
	}
	blobs[idxDigest.Hex] = rawIdx
	// index.json names the image index as "docker save" does: the full reference
	// for containerd, the tag alone for the OCI layout.
	top := v1.IndexManifest{SchemaVersion: 2, MediaType: types.OCIImageIndex, Manifests: []v1.Descriptor{{
		MediaType: types.OCIImageIndex, Size: int64(len(rawIdx)), Digest: idxDigest,
		Annotations: map[string]string{
			"io.containerd.image.name":          "docker.io/library/" + s.repo + ":" + s.version,
			"org.opencontainers.image.ref.name": s.version,
		},
	}}}
	return writeArchive(path, blobs, top, docker, s.created)
}

// dockerManifest is one entry of the manifest.json of "docker save".
type dockerManifest struct {
	Config   string
	RepoTags []string
	Layers   []string
}

// addImageBlobs adds img's manifest, config and layers to blobs and returns its
// manifest.json entry.
func addImageBlobs(blobs map[string][]byte, img v1.Image) (dockerManifest, error) {
	var m dockerManifest
	raw, err := img.RawManifest()
	if err != nil {
		return m, err
	}
	d, err := img.Digest()
	if err != nil {
		return m, err
	}
	blobs[d.Hex] = raw
	cfg, err := img.RawConfigFile()
	if err != nil {
		return m, err
	}
	cd, err := img.ConfigName()
	if err != nil {
		return m, err
	}
	blobs[cd.Hex] = cfg
	m.Config = "blobs/sha256/" + cd.Hex
	layers, err := img.Layers()
	if err != nil {
		return m, err
	}
	for _, l := range layers {
		ld, err := l.Digest()
		if err != nil {
			return m, err
		}
		rc, err := l.Compressed()
		if err != nil {
			return m, err
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return m, err
		}
		blobs[ld.Hex] = b
		m.Layers = append(m.Layers, "blobs/sha256/"+ld.Hex)
	}
	return m, nil
}

// writeArchive writes the tarball: the blobs in digest order, then index.json,
// manifest.json and oci-layout, every entry with the time t. It writes to a
// temporary file renamed at the end, so a failed release leaves no partial image.
func writeArchive(path string, blobs map[string][]byte, index v1.IndexManifest, docker []dockerManifest, t time.Time) error {
	indexJSON, err := json.Marshal(index)
	if err != nil {
		return err
	}
	manifestJSON, err := json.Marshal(docker)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".image-*.tar")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	tw := tar.NewWriter(f)
	add := func(name string, mode int64, b []byte) error {
		h := &tar.Header{Name: name, Mode: mode, ModTime: t, Format: tar.FormatPAX}
		if b == nil {
			h.Typeflag = tar.TypeDir
		} else {
			h.Typeflag, h.Size = tar.TypeReg, int64(len(b))
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		_, err := tw.Write(b)
		return err
	}
	if err := add("blobs/", 0o755, nil); err != nil {
		return err
	}
	if err := add("blobs/sha256/", 0o755, nil); err != nil {
		return err
	}
	digests := make([]string, 0, len(blobs))
	for d := range blobs {
		digests = append(digests, d)
	}
	slices.Sort(digests)
	for _, d := range digests {
		if err := add("blobs/sha256/"+d, 0o644, blobs[d]); err != nil {
			return err
		}
	}
	for _, e := range []struct {
		name string
		b    []byte
	}{{"index.json", indexJSON}, {"manifest.json", manifestJSON}, {"oci-layout", []byte(`{"imageLayoutVersion":"1.0.0"}`)}} {
		if err := add(e.name, 0o644, e.b); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
