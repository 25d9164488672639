package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
)

// testAudit checks a store's audit trail: append, read newest first by user and
// action, paging, refusals, and that a user's erasure keeps the user's entries.
func testAudit(t *testing.T, s factbase.Store) {
	ctx := context.Background()
	u1, u2 := NewUser(), NewUser()
	for i, e := range []factbase.AuditEntry{
		{Action: factbase.AuditKeyCreate, Actor: "cli", Target: "key-1"},
		{Action: factbase.AuditEntityMerge, Actor: "key:k1", User: u1, Target: "a <- b", Counts: map[string]int{"moved": 3}},
		{Action: factbase.AuditFactsDelete, Actor: "key:k1", User: u1, Counts: map[string]int{"facts": 2}},
		{Action: factbase.AuditFactsDelete, Actor: "cli", User: u2, Counts: map[string]int{"facts": 1}},
	} {
		e.ID = fmt.Sprintf("audit-%s-%d", u1[:8], i)
		if err := s.AppendAudit(ctx, e); err != nil {
			t.Fatalf("AppendAudit %d: %v", i, err)
		}
	}
	if err := s.AppendAudit(ctx, factbase.AuditEntry{ID: fmt.Sprintf("audit-%s-0", u1[:8]), Action: "x"}); factbase.ErrorCode(err) != factbase.ECONFLICT {
		t.Errorf("a taken id: %v, want ECONFLICT", err)
	}
	if err := s.AppendAudit(ctx, factbase.AuditEntry{ID: "audit-no-action"}); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("no action: %v, want EINVALID", err)
	}
	got, err := s.Audit(ctx, factbase.AuditFilter{User: u1})
	if err != nil || len(got) != 2 || got[0].Action != factbase.AuditFactsDelete || got[1].Counts["moved"] != 3 ||
		got[1].Target != "a <- b" || got[1].Actor != "key:k1" || got[0].At.IsZero() {
		t.Fatalf("Audit(u1) = %+v, %v; want its two entries newest first", got, err)
	}
	page, err := s.Audit(ctx, factbase.AuditFilter{User: u1, Limit: 1, Before: got[0].ID})
	if err != nil || len(page) != 1 || page[0].ID != got[1].ID {
		t.Errorf("the next page = %+v, %v; want the older entry", page, err)
	}
	if del, err := s.Audit(ctx, factbase.AuditFilter{Action: factbase.AuditFactsDelete, Limit: 1000}); err != nil || len(del) < 2 {
		t.Errorf("Audit(facts.delete) = %d entries, %v; want both users'", len(del), err)
	}
	if _, err := s.Audit(ctx, factbase.AuditFilter{Limit: 5000}); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("a limit of 5000: %v, want EINVALID", err)
	}
	// A user's erasure keeps the trail: a tombstone without content.
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	if _, err := e.Chat.Say(ctx, u1, "My email is auditmarker@example.com."); err != nil {
		t.Fatal(err)
	}
	if _, err := e.EraseUser(factbase.WithActor(ctx, "cli"), u1); err != nil {
		t.Fatal(err)
	}
	after, err := s.Audit(ctx, factbase.AuditFilter{User: u1})
	if err != nil || len(after) != 3 || after[0].Action != factbase.AuditUserErase || after[0].Actor != "cli" || after[0].Counts["facts"] == 0 {
		t.Fatalf("after erasure Audit(u1) = %+v, %v; want the two entries and the erasure's tombstone with counts", after, err)
	}
	for _, a := range after {
		if strings.Contains(fmt.Sprintf("%+v", a), "auditmarker") {
			t.Errorf("an audit entry holds erased text: %+v", a)
		}
	}
}
