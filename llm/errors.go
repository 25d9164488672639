package llm

import (
	"context"
	"errors"
	"fmt"

	"github.com/factbase/factbase"
)

// Kind is the fine-grained class of a failed model call, for metrics and for the
// decision to retry. Every Kind maps to one factbase error code (see Kind.Code).
type Kind string

// The kinds of failure. The first group is "unavailable" or "timeout": the model
// could not answer. The second group is "invalid output": the model answered, but
// with something that must not be used.
const (
	KindTimeout     Kind = "timeout"      // no full response within Options.Timeout or ctx's deadline
	KindCanceled    Kind = "canceled"     // ctx was canceled
	KindConnection  Kind = "connection"   // the server could not be reached (after retries)
	KindServer      Kind = "server_error" // 5xx on every try
	KindRateLimited Kind = "rate_limited" // 429 on every try
	KindAuth        Kind = "auth"         // 401, 403 or 404: wrong key, URL or model (configuration)
	KindRejected    Kind = "rejected"     // another 4xx: the server refused the request itself

	KindNotJSON     Kind = "not_json"     // the content is not one JSON document
	KindSchema      Kind = "schema"       // valid JSON that does not match the schema
	KindThink       Kind = "think"        // a <think> block that cannot be stripped safely
	KindTruncated   Kind = "truncated"    // finish_reason "length", or JSON cut short
	KindRefusal     Kind = "refusal"      // the model refused (message.refusal, or finish_reason "content_filter")
	KindBadResponse Kind = "bad_response" // a 2xx body that is not a chat completion
)

// Kinds lists every kind, in a stable order (for metrics).
var Kinds = []Kind{KindTimeout, KindCanceled, KindConnection, KindServer, KindRateLimited, KindAuth,
	KindRejected, KindNotJSON, KindSchema, KindThink, KindTruncated, KindRefusal, KindBadResponse}

// Code returns the factbase error code of k: ETIMEOUT for a timeout, EUNAVAILABLE when
// the model could not be reached or used (connection, 5xx, 429, auth, canceled), and
// EINVALID for a refused request and for every invalid-output kind.
func (k Kind) Code() string {
	switch k {
	case KindTimeout:
		return factbase.ETIMEOUT
	case KindCanceled, KindConnection, KindServer, KindRateLimited, KindAuth:
		return factbase.EUNAVAILABLE
	}
	return factbase.EINVALID
}

// InvalidOutput reports whether k is one of the invalid-output kinds: the model
// answered, and its answer was refused before use.
func (k Kind) InvalidOutput() bool {
	switch k {
	case KindNotJSON, KindSchema, KindThink, KindTruncated, KindRefusal, KindBadResponse:
		return true
	}
	return false
}

// Permanent reports whether a call that failed with k would fail again with the same
// request: the server refused the request itself. Everything else may succeed later
// (a model's output varies between calls; a server comes back).
func (k Kind) Permanent() bool { return k == KindRejected }

// Error is a failed model call. It wraps a *factbase.Error, so factbase.ErrorCode and
// factbase.ErrorMessage work on it; errors.As(err, &*llm.Error) gives the Kind.
type Error struct {
	Kind     Kind
	Attempts int   // HTTP requests made, retries included
	Usage    Usage // tokens the server reported for the calls that answered
	err      *factbase.Error
}

// Error implements error.
func (e *Error) Error() string { return e.err.Error() }

// Unwrap returns the *factbase.Error carrying the code and message.
func (e *Error) Unwrap() error { return e.err }

// newError makes an *Error of kind k.
func newError(k Kind, cause error, format string, args ...any) *Error {
	return &Error{Kind: k, err: &factbase.Error{Code: k.Code(), Message: "llm: " + fmt.Sprintf(format, args...), Err: cause}}
}

// ctxError classifies a context error: a deadline is KindTimeout, a cancellation
// KindCanceled. Both wrap err, so errors.Is(err, context.Canceled) still holds.
func ctxError(err error) *Error {
	if errors.Is(err, context.DeadlineExceeded) {
		return newError(KindTimeout, err, "deadline exceeded")
	}
	return newError(KindCanceled, err, "canceled")
}

// KindOf returns the Kind of err if it is (or wraps) an *Error, and "" otherwise.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}
