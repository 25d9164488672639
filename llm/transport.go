package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/redact"
)

// maxBackoff caps the exponential backoff between retries.
const maxBackoff = 30 * time.Second

// transport is the HTTP layer the chat client and the embedder share: one endpoint
// of an OpenAI-compatible server, the bearer key, the per-request timeout, the retry
// policy (429, 5xx and failed connections; Retry-After honoured up to a cap) and the
// mapping of every failure to a *factbase.ModelError, and the log lines of retries
// and failed calls. It is safe for concurrent use.
type transport struct {
	url           string
	what          string // what the log lines call a request: "model" or "embeddings"
	model         string
	log           *slog.Logger
	key           string
	timeout       time.Duration
	retries       int
	backoff       time.Duration
	maxRetryAfter time.Duration
	maxResponse   int64 // bytes of a response body read
	client        *http.Client
	sleep         func(ctx context.Context, d time.Duration) error // tests replace it
}

// transportOptions are the settings of a transport, with defaults already filled in
// except for retries, where 0 means the default of 3 and a negative value none.
type transportOptions struct {
	url           string // the endpoint, from endpoint
	what, model   string
	log           *slog.Logger // nil: discard
	key           string
	timeout       time.Duration
	retries       int
	backoff       time.Duration
	maxRetryAfter time.Duration
	maxResponse   int64
	client        *http.Client // nil: a client of its own
}

// newTransport returns a transport for o, with retries resolved and its own HTTP
// client if o has none.
func newTransport(o transportOptions) *transport {
	t := &transport{url: o.url, what: o.what, model: o.model, log: o.log, key: o.key, timeout: o.timeout,
		retries: o.retries, backoff: o.backoff, maxRetryAfter: o.maxRetryAfter, maxResponse: o.maxResponse,
		client: o.client, sleep: sleepCtx}
	switch {
	case t.retries == 0:
		t.retries = 3
	case t.retries < 0:
		t.retries = 0
	}
	if t.client == nil {
		t.client = &http.Client{}
	}
	if t.log == nil {
		t.log = slog.New(slog.DiscardHandler)
	}
	return t
}

// endpoint returns the URL of path (such as "/chat/completions") under the API root
// baseURL, given with or without its "/v1" and a trailing slash; a query (Azure's
// api-version) is kept. It returns EINVALID if baseURL is not an http or https URL.
func endpoint(baseURL, path string) (string, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", factbase.Errorf(factbase.EINVALID, "llm: base URL must be an http or https URL, got %q", redact.URL(baseURL))
	}
	u.Path, u.RawPath, u.Fragment, u.RawFragment = strings.TrimRight(u.Path, "/"), "", "", ""
	if !strings.HasSuffix(u.Path, "/v1") {
		u.Path += "/v1"
	}
	u.Path += path
	return u.String(), nil
}

// attemptError is the result of one failed request: the error to return, whether to
// retry (after how long, if the server said), whether to try again at once without
// counting a retry (the request itself changed), the HTTP status if the server
// answered, and whether it refused the json_schema response format.
type attemptError struct {
	err           *factbase.ModelError
	retry         bool
	after         time.Duration
	again         bool
	status        int
	schemaRefused bool
}

// do calls try until it succeeds, fails for good or has spent the retries. A retry
// waits a random time between backoff·2ⁿ⁻¹/2 and backoff·2ⁿ⁻¹ (at most maxBackoff),
// or the server's Retry-After (at most maxRetryAfter); retried, if not nil, is called
// before each. The error returned records the tries made, and says so in its message
// when there were several. Each retry is logged at WARN, and a call that fails for
// good at WARN, or at ERROR when it needs a person (see failLevel).
func (t *transport) do(ctx context.Context, try func() *attemptError, retried func()) *attemptError {
	start := time.Now()
	attempts := 0
	fail := func(ae *attemptError) *attemptError {
		ae.err.Attempts = attempts
		if attempts > 1 {
			ae.err.Err.Message += fmt.Sprintf(" (after %d tries)", attempts)
		}
		t.log.LogAttrs(ctx, failLevel(ae.err.Kind), "llm: "+t.what+" call failed",
			slog.String("model", t.model), slog.String("kind", string(ae.err.Kind)), slog.String("code", ae.err.Err.Code),
			slog.Int("attempts", attempts), slog.String("took", humanDuration(time.Since(start))),
			slog.String("error", ae.err.Error()))
		return ae
	}
	for retry := 0; ; {
		attempts++
		ae := try()
		if ae == nil {
			return nil
		}
		if ae.again {
			continue
		}
		if !ae.retry || retry >= t.retries {
			return fail(ae)
		}
		retry++
		if retried != nil {
			retried()
		}
		wait := t.backoff << (retry - 1)
		if wait <= 0 || wait > maxBackoff {
			wait = maxBackoff
		}
		wait = wait/2 + rand.N(wait/2+1)
		if ae.after > 0 {
			wait = min(ae.after, t.maxRetryAfter)
		}
		t.log.LogAttrs(ctx, slog.LevelWarn, "llm: "+t.what+" request failed, retrying",
			slog.String("model", t.model), slog.String("kind", string(ae.err.Kind)),
			slog.Int("attempt", attempts), slog.Int("retries_left", t.retries-retry),
			slog.String("retry_in", humanDuration(wait)), slog.String("error", ae.err.Error()))
		if err := t.sleep(ctx, wait); err != nil {
			return fail(&attemptError{err: ctxError(err)})
		}
	}
}

// failLevel is the level of the log line of a call that failed with k: ERROR when
// the failure needs a person and every later call will fail alike (a wrong key, URL
// or model; a request the server refuses), DEBUG when the caller gave up (nothing
// failed), WARN for the rest (the server is down or slow, the model answered badly).
func failLevel(k factbase.ModelErrorKind) slog.Level {
	switch {
	case k == factbase.ModelAuth || k.Permanent():
		return slog.LevelError
	case k == factbase.ModelCanceled:
		return slog.LevelDebug
	}
	return slog.LevelWarn
}

// humanDuration renders d for a log line as Go writes durations, to the millisecond
// ("2.703s", "850ms"), or to the microsecond below one ("420µs"): never a raw count of
// nanoseconds.
func humanDuration(d time.Duration) string {
	if d < time.Millisecond && d > -time.Millisecond {
		return d.Round(time.Microsecond).String()
	}
	return d.Round(time.Millisecond).String()
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// post sends one JSON request with body and returns the body of its 2xx response.
func (t *transport) post(ctx context.Context, body []byte) ([]byte, *attemptError) {
	if err := ctx.Err(); err != nil {
		return nil, &attemptError{err: ctxError(err)}
	}
	actx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, t.url, bytes.NewReader(body))
	if err != nil {
		return nil, &attemptError{err: newError(factbase.ModelRejected, err, "bad request URL")}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if t.key != "" {
		req.Header.Set("Authorization", "Bearer "+t.key)
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return nil, t.transportError(ctx, actx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, t.maxResponse+1))
	if err != nil {
		return nil, t.transportError(ctx, actx, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, t.statusError(resp, data)
	}
	if int64(len(data)) > t.maxResponse {
		return nil, &attemptError{err: newError(factbase.ModelBadResponse, nil, "response larger than %d bytes", t.maxResponse)}
	}
	return data, nil
}

// transportError classifies a failure to send a request or read its response. The
// *url.Error net/http wraps a failure in is dropped: its URL may carry a key.
func (t *transport) transportError(ctx, actx context.Context, err error) *attemptError {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if ctx.Err() != nil {
		return &attemptError{err: ctxError(ctx.Err())}
	}
	var ne net.Error
	if errors.Is(actx.Err(), context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return &attemptError{err: newError(factbase.ModelTimeout, err, "no response from the model within %v", t.timeout)}
	}
	return &attemptError{retry: true, err: newError(factbase.ModelConnection, err, "cannot reach the model server")}
}

// statusError classifies a non-2xx response.
func (t *transport) statusError(resp *http.Response, data []byte) *attemptError {
	code := resp.StatusCode
	msg := t.serverMessage(data)
	text := fmt.Sprintf("the model server answered %d %s", code, http.StatusText(code))
	if msg != "" {
		text += ": " + msg
	}
	ae := &attemptError{status: code}
	switch {
	case code == http.StatusTooManyRequests:
		ae.err, ae.retry = newError(factbase.ModelRateLimited, nil, "%s", text), true
		ae.after = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now(), t.maxRetryAfter)
	case code >= 500:
		ae.err, ae.retry = newError(factbase.ModelServerError, nil, "%s", text), true
		ae.after = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now(), t.maxRetryAfter)
	case code == http.StatusUnauthorized || code == http.StatusForbidden || code == http.StatusNotFound:
		ae.err = newError(factbase.ModelAuth, nil, "%s", text)
	default:
		ae.err = newError(factbase.ModelRejected, nil, "%s", text)
		low := strings.ToLower(msg)
		ae.schemaRefused = code == http.StatusBadRequest &&
			(strings.Contains(low, "json_schema") || strings.Contains(low, "response_format"))
	}
	return ae
}

// serverMessage extracts the message of an error response: OpenAI's
// {"error": {"message": ...}}, Ollama's and text-embeddings-inference's
// {"error": "..."}, or a short plain text body. It is shortened to 300 bytes and never
// contains the API key.
func (t *transport) serverMessage(data []byte) string {
	var m string
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(data, &v) == nil {
		var s string
		var obj struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(v.Error, &s) == nil:
			m = s
		case json.Unmarshal(v.Error, &obj) == nil && obj.Message != "":
			m = obj.Message
		default:
			m = v.Message
		}
	} else if !bytes.ContainsAny(data, "<{") { // not HTML, not JSON: plain text
		m = string(data)
	}
	m = strings.Join(strings.Fields(m), " ")
	if t.key != "" {
		m = strings.ReplaceAll(m, t.key, "[redacted]")
	}
	return clip(strings.ToValidUTF8(m, ""), 300)
}

// parseRetryAfter returns the wait a Retry-After header asks for, in seconds or as an
// HTTP date, at most limit, or 0 if there is none or it cannot be parsed.
func parseRetryAfter(h string, now time.Time, limit time.Duration) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(h, 64); err == nil {
		if s <= 0 || math.IsNaN(s) {
			return 0
		}
		if s > limit.Seconds() {
			return limit
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(h); err == nil && t.After(now) {
		return min(t.Sub(now), limit)
	}
	return 0
}
