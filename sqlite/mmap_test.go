package sqlite

import (
	"context"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/storetest"
)

// TestScanViewMmap: a scan's connection maps Options.MmapSize of the file (default
// DefaultMmapSize, none if negative) for its transaction only; other reads and the
// writer map nothing, and the connection is unmapped when the scan ends.
func TestScanViewMmap(t *testing.T) {
	ctx := context.Background()
	u := storetest.NewUser()
	for _, c := range []struct {
		opt  int64
		want int64
	}{{0, DefaultMmapSize}, {1 << 20, 1 << 20}, {-1, 0}} {
		s := OpenTemp(t, Options{MmapSize: c.opt, Readers: 1})
		mapped := func(v func(context.Context, factbase.UserID, func(factbase.ReadTx) error) error) int64 {
			var n int64
			if err := v(ctx, u, func(rt factbase.ReadTx) error {
				return rt.(*tx).queryRow(ctx, "PRAGMA mmap_size").Scan(&n)
			}); err != nil {
				t.Fatal(err)
			}
			return n
		}
		scan := mapped(s.ScanView)
		after := mapped(s.View) // the pool's one connection, the scan's
		var w int64
		if err := s.writer.QueryRowContext(ctx, "PRAGMA mmap_size").Scan(&w); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if scan != c.want || after != 0 || w != 0 {
			t.Errorf("MmapSize %d: a scan maps %d bytes, a read after it %d, the writer %d; want %d, 0 and 0",
				c.opt, scan, after, w, c.want)
		}
	}
}
