//go:build !unix

package main

import (
	"archive/tar"
	"testing"
)

// runInRootFS needs chroot: elsewhere the binary in the image runs only as a file.
func runInRootFS(t *testing.T, _ map[string][]byte, _ map[string]*tar.Header, _ ociConfig) {
	t.Log("not unix: the binary is not run chrooted in the image's file system")
}
