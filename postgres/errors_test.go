package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/factbase/factbase"
	"github.com/jackc/pgx/v5/pgconn"
)

func TestMapErr(t *testing.T) {
	pg := func(code, constraint string) error {
		return fmt.Errorf("exec: %w", &pgconn.PgError{Code: code, ConstraintName: constraint, Message: "whatever the server said"})
	}
	cases := []struct {
		name string
		err  error
		want string
	}{
		{name: "unique violation", err: pg("23505", "facts_rank_current"), want: factbase.EINVARIANT},
		{name: "check violation", err: pg("23514", ""), want: factbase.EINVARIANT},
		{name: "foreign key violation", err: pg("23503", ""), want: factbase.EINVARIANT},
		{name: "statement timeout", err: pg("57014", ""), want: factbase.ETIMEOUT},
		{name: "lock timeout", err: pg("55P03", ""), want: factbase.ETIMEOUT},
		{name: "serialization failure", err: pg("40001", ""), want: factbase.EUNAVAILABLE},
		{name: "deadlock", err: pg("40P01", ""), want: factbase.EUNAVAILABLE},
		{name: "admin shutdown", err: pg("57P01", ""), want: factbase.EUNAVAILABLE},
		{name: "cannot connect now", err: pg("57P03", ""), want: factbase.EUNAVAILABLE},
		{name: "connection failure", err: pg("08006", ""), want: factbase.EUNAVAILABLE},
		{name: "too many connections", err: pg("53300", ""), want: factbase.EUNAVAILABLE},
		{name: "NUL byte in text", err: pg("22021", ""), want: factbase.EINVALID},
		{name: "syntax error is a bug", err: pg("42601", ""), want: factbase.EINTERNAL},
		{name: "connection refused", err: &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, want: factbase.EUNAVAILABLE},
		{name: "connection reset", err: fmt.Errorf("read: %w", syscall.ECONNRESET), want: factbase.EUNAVAILABLE},
		{name: "unexpected EOF", err: fmt.Errorf("receive message: %w", io.ErrUnexpectedEOF), want: factbase.EUNAVAILABLE},
		{name: "conn closed", err: fmt.Errorf("query: %w", pgconn.ErrConnClosed), want: factbase.EUNAVAILABLE},
		{name: "deadline", err: fmt.Errorf("query: %w", context.DeadlineExceeded), want: factbase.ETIMEOUT},
		{name: "canceled", err: context.Canceled, want: factbase.EUNAVAILABLE},
		{name: "domain error passes through", err: factbase.Errorf(factbase.ENOTFOUND, "no such fact"), want: factbase.ENOTFOUND},
		{name: "anything else", err: errors.New("cannot scan"), want: factbase.EINTERNAL},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := factbase.ErrorCode(mapErr("op", tc.err)); got != tc.want {
				t.Errorf("mapErr(%v) code = %q, want %q", tc.err, got, tc.want)
			}
		})
	}
	if got := mapErr("op", nil); got != nil {
		t.Errorf("mapErr(nil) = %v, want nil", got)
	}
	// The message names the broken invariant, never the server's own words.
	err := mapErr("insert", pg("23505", "facts_rank_current"))
	if got, want := factbase.ErrorMessage(err), "invariant violated: two members of a list at the same rank"; got != want {
		t.Errorf("message = %q, want %q", got, want)
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Errorf("the mapped error lost its cause")
	}
}

func TestRetryable(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{name: "serialization failure", err: &factbase.Error{Code: factbase.EUNAVAILABLE, Err: &pgconn.PgError{Code: "40001"}}, want: true},
		{name: "deadlock", err: &pgconn.PgError{Code: "40P01"}, want: true},
		{name: "unique violation", err: &pgconn.PgError{Code: "23505"}, want: false},
		{name: "statement timeout", err: &pgconn.PgError{Code: "57014"}, want: false},
		{name: "domain error", err: factbase.Errorf(factbase.EINVARIANT, "ranks"), want: false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := retryable(tc.err); got != tc.want {
				t.Errorf("retryable(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}

func TestPrefixEnd(t *testing.T) {
	cases := []struct {
		name, prefix, want string
		ok                 bool
	}{
		{name: "ascii", prefix: "favorites.", want: "favorites/", ok: true},
		{name: "multibyte last rune", prefix: "caf\u00e9", want: "caf\u00ea", ok: true},
		{name: "before the surrogates", prefix: "a\ud7ff", want: "a\ue000", ok: true},
		{name: "max rune dropped", prefix: "a\U0010ffff", want: "b", ok: true},
		{name: "only max runes", prefix: "\U0010ffff", want: "", ok: false},
		{name: "empty", prefix: "", want: "", ok: false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := prefixEnd(tc.prefix)
			if got != tc.want || ok != tc.ok {
				t.Errorf("prefixEnd(%q) = %q, %v; want %q, %v", tc.prefix, got, ok, tc.want, tc.ok)
			}
		})
	}
}
