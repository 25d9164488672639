package storeerr

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/factbase/factbase"
)

func TestCommon(t *testing.T) {
	domain := factbase.Errorf(factbase.ENOTFOUND, "gone")
	tests := []struct {
		name   string
		err    error
		ok     bool
		code   string
		passes bool // the error comes back as it is
	}{
		{name: "nil", err: nil, ok: true, passes: true},
		{name: "domain error", err: fmt.Errorf("wrapped: %w", domain), ok: true, code: factbase.ENOTFOUND, passes: true},
		{name: "deadline", err: fmt.Errorf("x: %w", context.DeadlineExceeded), ok: true, code: factbase.ETIMEOUT},
		{name: "canceled", err: context.Canceled, ok: true, code: factbase.EUNAVAILABLE},
		{name: "driver error", err: errors.New("disk I/O error"), ok: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Common("read", tc.err)
			if ok != tc.ok || factbase.ErrorCode(got) != tc.code || tc.passes && got != tc.err {
				t.Errorf("Common(%v) = %v (code %q), %v; want code %q, %v", tc.err, got, factbase.ErrorCode(got), ok, tc.code, tc.ok)
			}
			if ok && tc.err != nil && !errors.Is(got, tc.err) {
				t.Errorf("Common(%v) = %v, which does not wrap it", tc.err, got)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	noRows := errors.New("no rows")
	if err := NotFoundIf(fmt.Errorf("scan: %w", noRows), noRows, "entity", "e1"); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("NotFoundIf(no rows) = %v, want ENOTFOUND", err)
	}
	other := errors.New("other")
	if err := NotFoundIf(other, noRows, "entity", "e1"); err != other {
		t.Errorf("NotFoundIf(other) = %v, want it unchanged", err)
	}
	if err := Changed(0, nil, "episode", "e1"); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("Changed(0 rows) = %v, want ENOTFOUND", err)
	}
	if err := Changed(1, nil, "episode", "e1"); err != nil {
		t.Errorf("Changed(1 row) = %v, want nil", err)
	}
	if err := Changed(0, other, "episode", "e1"); err != other {
		t.Errorf("Changed(0 rows, other) = %v, want other unchanged", err)
	}
	if err := Taken(factbase.Errorf(factbase.EINVARIANT, "unique"), "taken"); factbase.ErrorCode(err) != factbase.ECONFLICT {
		t.Errorf("Taken(EINVARIANT) = %v, want ECONFLICT", err)
	}
	if err := Taken(nil, "taken"); err != nil {
		t.Errorf("Taken(nil) = %v", err)
	}
	if err := LeaseLost("j1"); factbase.ErrorCode(err) != factbase.ECONFLICT {
		t.Errorf("LeaseLost() = %v, want ECONFLICT", err)
	}
	dead := func(context.Context, string) (factbase.Job, error) {
		return factbase.Job{State: factbase.JobRunning}, nil
	}
	if err := NotRetried(context.Background(), "j1", dead); factbase.ErrorCode(err) != factbase.ECONFLICT {
		t.Errorf("NotRetried(running job) = %v, want ECONFLICT", err)
	}
	missing := func(context.Context, string) (factbase.Job, error) { return factbase.Job{}, NotFound("job", "j1") }
	if err := NotRetried(context.Background(), "j1", missing); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("NotRetried(no job) = %v, want ENOTFOUND", err)
	}
}

func TestGate(t *testing.T) {
	var g Gate
	user := factbase.UserID("0190d3f2-7a9e-7b1c-8d4e-5f6a7b8c9d0e")
	if g.Closed() || g.Err() != nil || g.Check(user) != nil {
		t.Fatal("a new gate is not open")
	}
	if err := g.Check("alice"); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("Check(alice) = %v, want EINVALID", err)
	}
	if !g.Close() || g.Close() {
		t.Error("Close() did not report open, then closed")
	}
	if !errors.Is(g.Err(), ErrClosed) || !errors.Is(g.Check(user), ErrClosed) || factbase.ErrorCode(ErrClosed) != factbase.EUNAVAILABLE {
		t.Errorf("a closed gate: Err() = %v, Check() = %v; want ErrClosed, EUNAVAILABLE", g.Err(), g.Check(user))
	}
}
