package sqlite_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

// TestCurrentFact: the point read without a transaction returns what the read in a
// transaction returns, nothing for an unknown user or key, and clear errors.
func TestCurrentFact(t *testing.T) {
	ctx := context.Background()
	s := sqlite.OpenTemp(t, sqlite.Options{})
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	u := storetest.NewUser()
	if _, ok, err := s.CurrentFact(ctx, u, factbase.SubjectUser, "contact.email"); ok || err != nil {
		t.Fatalf("unknown user: ok %v, err %v; want nothing", ok, err)
	}
	for _, v := range []string{"a@example.com", "b@example.com"} {
		if _, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "contact.email", Value: v}}}); err != nil {
			t.Fatal(err)
		}
	}
	got, ok, err := s.CurrentFact(ctx, u, factbase.SubjectUser, "contact.email")
	if err != nil || !ok {
		t.Fatalf("CurrentFact: ok %v, err %v", ok, err)
	}
	var want factbase.Fact
	if err := s.View(ctx, u, func(tx factbase.ReadTx) error {
		var err error
		want, _, err = tx.Current(ctx, factbase.SubjectUser, "contact.email")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) || got.Value != "b@example.com" {
		t.Errorf("CurrentFact = %+v\nwant %+v (b@example.com)", got, want)
	}
	if _, ok, err := s.CurrentFact(ctx, u, factbase.SubjectUser, "contact.phone"); ok || err != nil {
		t.Errorf("unknown key: ok %v, err %v; want nothing", ok, err)
	}
	if _, _, err := s.CurrentFact(ctx, "nope", factbase.SubjectUser, "contact.email"); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("bad user: %v, want invalid", err)
	}
	s.Close()
	if _, _, err := s.CurrentFact(ctx, u, factbase.SubjectUser, "contact.email"); factbase.ErrorCode(err) != factbase.EUNAVAILABLE {
		t.Errorf("closed store: %v, want unavailable", err)
	}
}
