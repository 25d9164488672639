//go:build unix

package main

import (
	"archive/tar"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// runInRootFS unpacks the image's layer and, as root can, runs the binary in it as a
// container would: chrooted, as the image's user, with its environment. It creates
// an API key, which creates the default database in the data directory: the image
// needs nothing else (no libc, no shell) and its user can write where it must.
func runInRootFS(t *testing.T, files map[string][]byte, headers map[string]*tar.Header, cfg ociConfig) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Log("not root: the binary is not run chrooted in the image's file system")
		return
	}
	root := t.TempDir()
	names := slices.Sorted(maps.Keys(headers)) // parents before children
	for _, n := range names {
		h, p := headers[n], filepath.Join(root, n)
		var err error
		if h.Typeflag == tar.TypeDir {
			err = os.Mkdir(p, 0o700)
		} else {
			err = os.WriteFile(p, files[h.Name], 0o600)
		}
		if err == nil {
			err = os.Chown(p, h.Uid, h.Gid)
		}
		if err == nil {
			err = os.Chmod(p, fileMode(h.Mode))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	uid, _ := strconv.Atoi(strings.Split(cfg.Config.User, ":")[0])
	gid, _ := strconv.Atoi(strings.Split(cfg.Config.User, ":")[1])
	cmd := exec.Command(cfg.Config.Entrypoint[0], "keys", "create", "--name", "probe")
	cmd.Env = cfg.Config.Env
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: root, Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "fb_") {
		t.Fatalf("factbase keys create in the image, as %s: %v\n%s", cfg.Config.User, err, out)
	}
	if fi, err := os.Stat(filepath.Join(root, "var/lib/factbase/factbase.db")); err != nil || fi.Sys().(*syscall.Stat_t).Uid != uint32(uid) {
		t.Errorf("the database in the image's data directory: %v", err)
	}
}

// fileMode returns the permissions and the sticky bit of a tar mode (the image
// has no setuid or setgid file).
func fileMode(mode int64) os.FileMode {
	m := os.FileMode(mode).Perm()
	if mode&0o1000 != 0 {
		m |= os.ModeSticky
	}
	return m
}
