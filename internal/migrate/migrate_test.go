package migrate

import (
	"errors"
	"slices"
	"testing"
	"testing/fstest"
)

type count int

func (c count) Scan(dest ...any) error {
	*dest[0].(*int) = int(c)
	return nil
}

func TestRun(t *testing.T) {
	fsys := fstest.MapFS{
		"migrations/0002_b.sql": {Data: []byte("B")},
		"migrations/0001_a.sql": {Data: []byte("A")},
		"migrations/README.md":  {Data: []byte("not a migration")},
		"other/0000_x.sql":      {Data: []byte("elsewhere")},
	}
	var got []File
	if err := Run(fsys, func(f File) error { got = append(got, f); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []File{{"migrations/0001_a.sql", "A"}, {"migrations/0002_b.sql", "B"}}
	if !slices.Equal(got, want) {
		t.Errorf("Run() applied %v, want %v", got, want)
	}
	boom := errors.New("boom")
	calls := 0
	if err := Run(fsys, func(File) error { calls++; return boom }); !errors.Is(err, boom) || calls != 1 {
		t.Errorf("Run(failing) = %v after %d calls, want boom after 1", err, calls)
	}
	if done, err := Recorded(count(1)); !done || err != nil {
		t.Errorf("Recorded(1) = %v, %v", done, err)
	}
	if done, _ := Recorded(count(0)); done {
		t.Error("Recorded(0) = true")
	}
}
