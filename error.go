package factbase

import (
	"errors"
	"fmt"
)

// Error codes. Every boundary translates them: to HTTP statuses in server, to tool
// errors in mcp, to exit statuses in cmd/factbase.
const (
	EINVALID      = "invalid"      // the caller sent something wrong
	ENOTFOUND     = "not_found"    // the thing asked for does not exist
	ECONFLICT     = "conflict"     // the request conflicts with stored state
	EINVARIANT    = "invariant"    // a store invariant would be violated; nothing was written
	EUNAUTHORIZED = "unauthorized" // no or wrong credentials
	EFORBIDDEN    = "forbidden"    // credentials valid but not for this data
	ETOOLARGE     = "too_large"    // a payload over its limit
	EUNAVAILABLE  = "unavailable"  // a dependency (store, model) cannot be reached
	ETIMEOUT      = "timeout"      // a dependency did not answer in time
	EINTERNAL     = "internal"     // a bug or an unexpected failure
)

// Error is the domain error: a code callers can switch on and a message fit for users.
// Internal details belong in a wrapped Err, which is never shown to users.
type Error struct {
	Code    string
	Message string
	Err     error // optional cause, for logs and errors.Is
}

// Error implements error.
func (e *Error) Error() string {
	if e.Err != nil && e.Message == "" {
		return e.Code + ": " + e.Err.Error()
	}
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL for any other
// non-nil error, and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the user-facing message of err: the message of the first
// *Error in its chain, or "internal error" so that internals never leak.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) && e.Message != "" {
		return e.Message
	}
	return "internal error"
}
