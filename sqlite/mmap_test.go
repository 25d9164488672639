package sqlite

import (
	"context"
	"path/filepath"
	"testing"
)

// TestReaderMmapSize: read connections map DefaultMmapSize of the file unless told
// otherwise, and the writer maps nothing.
func TestReaderMmapSize(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		opt  int64
		want int64
	}{{0, DefaultMmapSize}, {1 << 20, 1 << 20}, {-1, 0}} {
		s, err := Open(ctx, filepath.Join(t.TempDir(), "f.db"), Options{MmapSize: c.opt})
		if err != nil {
			t.Fatal(err)
		}
		var got, w int64
		if err := s.reader.QueryRowContext(ctx, "PRAGMA mmap_size").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if err := s.writer.QueryRowContext(ctx, "PRAGMA mmap_size").Scan(&w); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if got != c.want || w != 0 {
			t.Errorf("MmapSize %d: readers map %d bytes, the writer %d; want %d and 0", c.opt, got, w, c.want)
		}
	}
}
