package llm

import (
	"context"
	"errors"
	"fmt"

	"github.com/factbase/factbase"
)

// Every failed model call is a *factbase.ModelError: its Kind says what failed (for
// metrics and for the decision to retry) and the *factbase.Error it wraps carries the
// code, Kind.Code(), and a message prefixed "llm: ".

// newError makes a *factbase.ModelError of kind k.
func newError(k factbase.ModelErrorKind, cause error, format string, args ...any) *factbase.ModelError {
	return &factbase.ModelError{Kind: k, Err: &factbase.Error{Code: k.Code(), Message: "llm: " + fmt.Sprintf(format, args...), Err: cause}}
}

// ctxError classifies a context error: a deadline is ModelTimeout, a cancellation
// ModelCanceled. Both wrap err, so errors.Is(err, context.Canceled) still holds.
func ctxError(err error) *factbase.ModelError {
	if errors.Is(err, context.DeadlineExceeded) {
		return newError(factbase.ModelTimeout, err, "deadline exceeded")
	}
	return newError(factbase.ModelCanceled, err, "canceled")
}
