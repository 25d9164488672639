package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
)

// problemType is the media type of every error response (RFC 9457).
const problemType = "application/problem+json"

// statusOf maps a factbase error code to an HTTP status. It is the one place where
// domain errors become statuses.
func statusOf(code string) int {
	switch code {
	case factbase.EINVALID:
		return http.StatusUnprocessableEntity
	case factbase.ENOTFOUND:
		return http.StatusNotFound
	case factbase.ECONFLICT, factbase.EINVARIANT:
		return http.StatusConflict
	case factbase.EUNAUTHORIZED:
		return http.StatusUnauthorized
	case factbase.EFORBIDDEN:
		return http.StatusForbidden
	case factbase.ETOOLARGE:
		return http.StatusRequestEntityTooLarge
	case factbase.EUNAVAILABLE:
		return http.StatusServiceUnavailable
	case factbase.ETIMEOUT:
		return http.StatusGatewayTimeout
	}
	return http.StatusInternalServerError
}

// fail turns an error from the engine or a store into a problem response. The message
// of a factbase.Error is shown; anything else is logged with the request id and
// shown as "internal error", so internals never reach clients. An error that already
// is a problem response (from a helper that called fail) passes through unchanged.
func fail(ctx context.Context, err error, details ...error) huma.StatusError {
	var se huma.StatusError
	if errors.As(err, &se) {
		return se
	}
	code := factbase.ErrorCode(err)
	status := statusOf(code)
	if ctx.Err() != nil && code == factbase.EINTERNAL {
		// The client went away or the request timed out mid-call.
		status = http.StatusServiceUnavailable
	}
	if status >= 500 {
		logger(ctx).LogAttrs(ctx, levelFor(status), "request failed", errAttr(err))
	}
	msg := factbase.ErrorMessage(err)
	if status == http.StatusServiceUnavailable && code != factbase.EUNAVAILABLE {
		msg = "the request was cancelled or timed out"
	}
	return huma.NewError(status, msg, details...)
}

// transformProblem adjusts huma's own error bodies before they are written: a
// validation failure's detail names each field and what was wrong with it, malformed
// JSON says so, echoed values are clipped, and a 5xx never carries details.
func transformProblem(_ huma.Context, _ string, v any) (any, error) {
	p, ok := v.(*huma.ErrorModel)
	if !ok {
		return v, nil
	}
	if p.Status >= 500 {
		p.Errors = nil
		return p, nil
	}
	for _, d := range p.Errors {
		if d == nil {
			continue
		}
		d.Value = clipValue(d.Value)
	}
	switch {
	case p.Status == http.StatusBadRequest && len(p.Errors) > 0 && p.Errors[0] != nil && p.Errors[0].Location == "body":
		p.Detail = "malformed JSON in the request body: " + p.Errors[0].Message
	case p.Detail == "validation failed" && len(p.Errors) > 0:
		var parts []string
		for _, d := range p.Errors {
			if d == nil {
				continue
			}
			if d.Location != "" {
				parts = append(parts, d.Location+": "+d.Message)
			} else {
				parts = append(parts, d.Message)
			}
		}
		p.Detail = "validation failed: " + strings.Join(parts, "; ")
	}
	return p, nil
}

// clipValue bounds a value a validation error quotes: a string to 200 bytes, any
// other value (an object or array from the body) to 200 bytes of its JSON.
func clipValue(v any) any {
	switch x := v.(type) {
	case nil, bool, float64, int, int64:
		return v
	case string:
		return clip(x, 200)
	}
	b, err := json.Marshal(v)
	if err != nil || len(b) > 200 {
		return clip(string(b), 200)
	}
	return v
}

// writeProblem writes a problem response outside huma's operations (routing, body
// limits, authentication, panics, health).
func writeProblem(w http.ResponseWriter, status int, detail string) {
	w.Header().Set("Content-Type", problemType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(&huma.ErrorModel{Title: http.StatusText(status), Status: status, Detail: detail})
}

// clip shortens s to at most n bytes, on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + fmt.Sprintf("… (%d bytes)", len(s))
}
