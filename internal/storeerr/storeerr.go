// Package storeerr holds the errors both stores return in the same words, and the
// part of their translation of driver errors that does not depend on the driver.
// Each store translates its driver's own errors (SQLite result codes, SQLSTATEs)
// after Common.
package storeerr

import (
	"context"
	"errors"
	"sync"

	"github.com/factbase/factbase"
)

// Common translates the errors that mean the same in every store: nil and a domain
// error are returned as they are, a passed deadline is ETIMEOUT and a cancellation
// EUNAVAILABLE, their messages naming op. ok is false for any other error, which is
// the driver's to translate.
func Common(op string, err error) (mapped error, ok bool) {
	var fe *factbase.Error
	switch {
	case err == nil:
		return nil, true
	case errors.As(err, &fe):
		return err, true
	case errors.Is(err, context.DeadlineExceeded):
		return &factbase.Error{Code: factbase.ETIMEOUT, Message: "store: " + op + ": deadline exceeded", Err: err}, true
	case errors.Is(err, context.Canceled):
		return &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "store: " + op + ": canceled", Err: err}, true
	}
	return nil, false
}

// ErrClosed is the error of a call on a closed store.
var ErrClosed error = factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")

// Gate lets calls into a store until the store closes. Its zero value is open; it
// is safe for concurrent use.
type Gate struct {
	mu     sync.Mutex
	closed bool
}

// Close closes the gate and reports whether it was open.
func (g *Gate) Close() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	was := !g.closed
	g.closed = true
	return was
}

// Closed reports whether the gate is closed.
func (g *Gate) Closed() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.closed
}

// Err returns ErrClosed once the gate is closed, else nil.
func (g *Gate) Err() error {
	if g.Closed() {
		return ErrClosed
	}
	return nil
}

// Check returns the error of a call for user: EINVALID for a user id that is not
// canonical, ErrClosed once the gate is closed.
func (g *Gate) Check(user factbase.UserID) error {
	if err := user.Validate(); err != nil {
		return err
	}
	return g.Err()
}

// NotFound is the error of a read of a what (fact, entity, ...) id that the user
// does not have.
func NotFound(what, id string) error {
	return factbase.Errorf(factbase.ENOTFOUND, "%s %q not found", what, id)
}

// NotFoundIf returns NotFound(what, id) if err is noRows, the driver's error for a
// read of one row that found none, and err otherwise.
func NotFoundIf(err, noRows error, what, id string) error {
	if errors.Is(err, noRows) {
		return NotFound(what, id)
	}
	return err
}

// Changed returns the error of a write to the what (episode, ...) id that changes
// one row when there is one: err, or NotFound(what, id) if the write changed n ≠ 1
// rows.
func Changed(n int, err error, what, id string) error {
	if err == nil && n != 1 {
		return NotFound(what, id)
	}
	return err
}

// Taken turns the EINVARIANT of an insert whose id is taken into ECONFLICT, saying
// msg; any other error is returned as it is.
func Taken(err error, msg string) error {
	if factbase.ErrorCode(err) == factbase.EINVARIANT {
		return &factbase.Error{Code: factbase.ECONFLICT, Message: msg, Err: err}
	}
	return err
}

// LeaseLost is the error of an operation on job id by a worker whose lease is no
// longer the job's.
func LeaseLost(id string) error {
	return factbase.Errorf(factbase.ECONFLICT, "job %q is no longer held by this worker (its lease expired or it ended)", id)
}

// NotRetried is the error of a retry of job id that found no dead job to queue:
// job's error for a job that does not exist (ENOTFOUND), else ECONFLICT naming the
// job's state.
func NotRetried(ctx context.Context, id string, job func(context.Context, string) (factbase.Job, error)) error {
	j, err := job(ctx, id)
	if err != nil {
		return err
	}
	return factbase.Errorf(factbase.ECONFLICT, "job %q is %s; only a dead job can be retried", id, j.State)
}
