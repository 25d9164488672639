package sealed_test

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/seal"
	"github.com/factbase/factbase/internal/userdata"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/sealed"
	"github.com/factbase/factbase/storetest"
)

// setting returns the key record of s, "" when it has none.
func setting(t *testing.T, s factbase.Store) string {
	t.Helper()
	v, _, err := s.Setting(context.Background(), seal.SettingName)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestOpenRefuses: a wrong key, no key, and a database holding texts in the clear
// are each a clear error at open, and nothing is written.
func TestOpenRefuses(t *testing.T) {
	ctx := context.Background()
	key := newKey(t)
	dir := t.TempDir()
	inner := openSQLite(t, filepath.Join(dir, "sealed.db"))
	if err := sealed.CheckPlain(ctx, inner); err != nil {
		t.Fatalf("CheckPlain of an empty database: %v", err)
	}
	s := sealWith(t, inner, key)
	if s.KeyID() != key.ID() {
		t.Errorf("KeyID = %s, want %s", s.KeyID(), key.ID())
	}
	u := storetest.NewUser()
	if _, err := memory.New(s, memory.Options{NoSheetRegen: true}).Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet,
		Fact: factbase.Fact{Key: "email", Value: "ana@example.com"}}}); err != nil {
		t.Fatal(err)
	}
	rec := setting(t, inner)

	tests := []struct {
		name string
		open func() error
		want []string // in the message
	}{
		{"wrong key", func() error { _, err := sealed.Open(ctx, inner, newKey(t)); return err },
			[]string{"does not open this database", key.ID()}},
		{"no key", func() error { return sealed.CheckPlain(ctx, inner) },
			[]string{"this database is sealed with data key " + key.ID(), "--data-key-file", "FACTBASE_DATA_KEY_FILE"}},
		{"nil key", func() error { _, err := sealed.Open(ctx, inner, nil); return err }, []string{"no data key"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.open()
			if factbase.ErrorCode(err) != factbase.EINVALID {
				t.Fatalf("error %v, want EINVALID", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(factbase.ErrorMessage(err), w) {
					t.Errorf("message %q does not say %q", factbase.ErrorMessage(err), w)
				}
			}
			if got := setting(t, inner); got != rec {
				t.Errorf("the key record changed: %s, was %s", got, rec)
			}
		})
	}

	t.Run("texts in the clear", func(t *testing.T) {
		plain := openSQLite(t, filepath.Join(dir, "plain.db"))
		if _, err := memory.New(plain, memory.Options{NoSheetRegen: true}).Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet,
			Fact: factbase.Fact{Key: "email", Value: "ana@example.com"}}}); err != nil {
			t.Fatal(err)
		}
		_, err := sealed.Open(ctx, plain, key)
		if factbase.ErrorCode(err) != factbase.EINVALID || !strings.Contains(factbase.ErrorMessage(err), "holds texts in the clear: export its users") {
			t.Fatalf("Open of a plain database with a user: %v", err)
		}
		if got := setting(t, plain); got != "" {
			t.Errorf("a key record was written: %s", got)
		}
		if err := sealed.CheckPlain(ctx, plain); err != nil {
			t.Errorf("CheckPlain of a plain database: %v", err)
		}
	})

	t.Run("reopen with the key", func(t *testing.T) {
		again := sealWith(t, inner, key)
		f, ok, err := again.CurrentFact(ctx, u, factbase.SubjectUser, "email")
		if err != nil || !ok || f.Value != "ana@example.com" {
			t.Fatalf("CurrentFact after reopening = %+v, %v, %v", f, ok, err)
		}
	})
}

// TestOpenRace: stores opened at once on one empty database agree on one key record.
func TestOpenRace(t *testing.T) {
	ctx := context.Background()
	key := newKey(t)
	inner := openSQLite(t, filepath.Join(t.TempDir(), "factbase.db"))
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			_, err := sealed.Open(ctx, inner, key)
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Errorf("Open: %v", err)
		}
	}
	r, err := seal.ParseRecord(setting(t, inner))
	if err != nil || len(r.Keys) != 1 || r.Keys[0] != key.ID() {
		t.Fatalf("record %+v, %v", r, err)
	}
}

// TestTextNotSealed: a text written behind the sealed store's back, in the clear,
// is an error naming the row when read, never given back as it is.
func TestTextNotSealed(t *testing.T) {
	ctx := context.Background()
	s, inner, _ := openSealedSQLite(t, newKey(t))
	u := storetest.NewUser()
	res, err := memory.New(inner, memory.Options{NoSheetRegen: true}).Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet,
		Fact: factbase.Fact{Key: "email", Value: "ana@example.com"}}})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = s.CurrentFact(ctx, u, factbase.SubjectUser, "email")
	if err == nil || !strings.Contains(err.Error(), "fact "+res.Facts[0].ID+" holds a text that is not sealed") {
		t.Fatalf("CurrentFact of a plain row: %v", err)
	}
}

// TestMigrateIntoSealed follows the refusal's advice: a user of a plain database,
// copied into a new sealed one (as export and import do), reads back the same, and
// the sealed database's files hold none of the texts.
func TestMigrateIntoSealed(t *testing.T) {
	ctx := context.Background()
	plain := openSQLite(t, filepath.Join(t.TempDir(), "plain.db"))
	u, m := storetest.NewUser(), newMarker()
	writeEverything(t, plain, u, m)
	src, err := userdata.Read(ctx, plain, u)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := sealWith(t, openSQLite(t, filepath.Join(dir, "sealed.db")), newKey(t))
	if err := userdata.Write(ctx, s, u, src); err != nil {
		t.Fatalf("userdata.Write into the sealed store: %v", err)
	}
	if _, err := userdata.Verify(ctx, s, u, src); err != nil {
		t.Fatal(err)
	}
	got, err := userdata.Read(ctx, s, u)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []*userdata.Data{got, src} { // the store sets these to the write's time
		for i := range d.Sessions {
			d.Sessions[i].UpdatedAt = time.Time{}
		}
		for i := range d.Checkpoints {
			d.Checkpoints[i].UpdatedAt = time.Time{}
		}
	}
	gv, sv := reflect.ValueOf(*got), reflect.ValueOf(*src)
	for i := range gv.NumField() {
		if !reflect.DeepEqual(gv.Field(i).Interface(), sv.Field(i).Interface()) {
			t.Errorf("the sealed copy's %s read back otherwise:\ngot  %+v\nwant %+v", gv.Type().Field(i).Name, gv.Field(i), sv.Field(i))
		}
	}
	s.Close()
	if holding, _ := scanDir(t, dir, m); len(holding) > 0 {
		t.Errorf("the sealed copy's files hold the text: %v", holding)
	}
}
