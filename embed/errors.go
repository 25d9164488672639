package embed

import (
	"context"
	"errors"

	"github.com/factbase/factbase"
)

// ctxError classifies a context error: a passed deadline is ETIMEOUT; a cancellation is
// EUNAVAILABLE (the result will never come). Both wrap err, so errors.Is(err,
// context.Canceled) and errors.Is(err, context.DeadlineExceeded) still hold.
func ctxError(err error) *factbase.Error {
	if errors.Is(err, context.DeadlineExceeded) {
		return &factbase.Error{Code: factbase.ETIMEOUT, Message: "embed: deadline exceeded", Err: err}
	}
	return &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "embed: canceled", Err: err}
}
