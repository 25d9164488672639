package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/factbase/factbase"
)

// OpenAIOptions configures NewOpenAI. Only BaseURL and Model are required.
type OpenAIOptions struct {
	// BaseURL is the server's API root, with or without its "/v1": "https://api.openai.com/v1",
	// "http://localhost:11434" (Ollama), "http://vllm:8000/v1". Requests go to
	// BaseURL + "/embeddings" when BaseURL ends in "/v1", and to BaseURL +
	// "/v1/embeddings" otherwise; a trailing slash is ignored. Required.
	BaseURL string

	// Model is the model name sent with every request, such as "text-embedding-3-small"
	// or "nomic-embed-text". Required.
	Model string

	// APIKey is sent as "Authorization: Bearer <APIKey>" when not empty. It never
	// appears in an error.
	APIKey string

	// Dim is the expected vector length; a response with another is an EINVALID error.
	// 0 (the default) learns it from the first response, after which it is enforced.
	Dim int

	// Timeout bounds each HTTP request, from sending it to reading the whole response.
	// Default 30s. A request that times out is not retried: the error is ETIMEOUT.
	Timeout time.Duration

	// Retries is how many times a request is retried after a 429, a 5xx or a failed
	// connection. Default 3; negative for none.
	Retries int

	// BatchSize is the most texts sent in one request; more are split into several
	// requests, sent one after another. Default 64.
	BatchSize int

	// Backoff is the base delay before a retry: the n-th retry waits a random time
	// between Backoff·2ⁿ⁻¹/2 and Backoff·2ⁿ⁻¹ (at most 30s), or the server's Retry-After
	// when it sends one (capped at MaxRetryAfter). Default 200ms.
	Backoff time.Duration

	// HTTPClient sends the requests. Default: a client of its own with Go's default
	// transport.
	HTTPClient *http.Client
}

// MaxRetryAfter caps how long OpenAI waits when a server's Retry-After asks for longer.
const MaxRetryAfter = 20 * time.Second

// maxBackoff caps the exponential backoff between retries.
const maxBackoff = 30 * time.Second

// maxResponse bounds the size of a response body read: 64 texts of 4096 dimensions
// take about 6 MB of JSON.
const maxResponse = 256 << 20

// OpenAI embeds texts with an OpenAI-compatible /v1/embeddings endpoint: OpenAI,
// Ollama, vLLM, text-embeddings-inference and others. It is safe for concurrent use.
//
// It sends {"model": Model, "input": [texts...]} and reads {"data": [{"index": i,
// "embedding": [...]}, ...]}, putting the vectors in the order of their indexes
// (or of the list, if the server sends no indexes), and L2-normalises them. Empty and
// all-space texts are not sent (servers reject them) and get the zero vector (of length
// 0 if the dimension is not yet known).
//
// Errors carry a factbase code:
//   - ETIMEOUT: a request got no full response within Timeout, or ctx's deadline
//     passed (not retried);
//   - EUNAVAILABLE: the server could not be reached, or answered 5xx or 429 on every
//     try; it answered 401 or 403 (the key is wrong: a configuration problem, not the
//     caller's) or 404 (wrong URL or unknown model); or ctx was canceled;
//   - ETOOLARGE: it answered 413;
//   - EINVALID: it answered another 4xx (such as input too long), with the server's
//     own error message; or its response was not embeddings JSON, or had the wrong
//     number of vectors, bad indexes, or vectors of the wrong or of varying dimension.
type OpenAI struct {
	url     string
	model   string
	key     string
	fixed   bool         // Dim was set in the options
	dim     atomic.Int64 // the dimension, 0 until learned
	timeout time.Duration
	retries int
	batch   int
	backoff time.Duration
	client  *http.Client
}

var _ factbase.Embedder = (*OpenAI)(nil)

// NewOpenAI returns an embedder for the server and model in o, with o's defaults filled
// in. It sends nothing. It returns EINVALID if BaseURL is not an http or https URL, if
// Model is empty, or if Dim, Timeout, BatchSize or Backoff is negative.
func NewOpenAI(o OpenAIOptions) (*OpenAI, error) {
	u, err := url.Parse(o.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, factbase.Errorf(factbase.EINVALID, "embed: openai: base URL must be an http or https URL, got %q", redactURL(o.BaseURL))
	}
	if o.Model == "" {
		return nil, factbase.Errorf(factbase.EINVALID, "embed: openai: no model")
	}
	if o.Dim < 0 || o.Timeout < 0 || o.BatchSize < 0 || o.Backoff < 0 {
		return nil, factbase.Errorf(factbase.EINVALID, "embed: openai: negative option (dim %d, timeout %v, batch size %d, backoff %v)", o.Dim, o.Timeout, o.BatchSize, o.Backoff)
	}
	e := &OpenAI{
		model:   o.Model,
		key:     o.APIKey,
		fixed:   o.Dim > 0,
		timeout: cmp(o.Timeout, 30*time.Second),
		retries: o.Retries,
		batch:   cmp(o.BatchSize, 64),
		backoff: cmp(o.Backoff, 200*time.Millisecond),
		client:  o.HTTPClient,
	}
	switch {
	case o.Retries == 0:
		e.retries = 3
	case o.Retries < 0:
		e.retries = 0
	}
	if e.client == nil {
		e.client = &http.Client{}
	}
	e.dim.Store(int64(o.Dim))
	base := strings.TrimRight(u.String(), "/")
	if strings.HasSuffix(base, "/v1") {
		e.url = base + "/embeddings"
	} else {
		e.url = base + "/v1/embeddings"
	}
	return e, nil
}

// cmp returns v, or def when v is zero.
func cmp[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// Model returns "openai:" followed by the model name: the protocol and the model, as
// the same model name gives the same vectors from any server that serves it.
func (e *OpenAI) Model() string { return "openai:" + e.model }

// Dim returns the vector length: the configured Dim, or the one learned from the
// first response, or 0 before that.
func (e *OpenAI) Dim() int { return int(e.dim.Load()) }

// Embed returns one L2-normalised vector per text, sending the texts in batches of
// BatchSize. Errors are described on OpenAI; on any error no vectors are returned.
func (e *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	// Only non-empty texts are sent; pos maps each sent text back to its place.
	var send []string
	var pos []int
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			continue
		}
		send = append(send, t)
		pos = append(pos, i)
	}
	for start := 0; start < len(send); start += e.batch {
		end := min(start+e.batch, len(send))
		vecs, err := e.embedBatch(ctx, send[start:end])
		if err != nil {
			return nil, err
		}
		for k, v := range vecs {
			out[pos[start+k]] = v
		}
	}
	// Empty texts get zero vectors of the known dimension.
	d := e.Dim()
	for i, v := range out {
		if v == nil {
			out[i] = make([]float32, d)
		}
	}
	return out, nil
}

// attemptError is the result of one failed request: the error to return and whether
// (and after how long, if the server said) to retry.
type attemptError struct {
	err   *factbase.Error
	retry bool
	after time.Duration // the server's Retry-After, 0 if none
}

// embedBatch sends one batch, retrying as configured.
func (e *OpenAI) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}{e.model, texts})
	if err != nil {
		return nil, &factbase.Error{Code: factbase.EINTERNAL, Message: "embed: openai: encode request", Err: err}
	}
	for attempt := 0; ; attempt++ {
		vecs, aerr := e.post(ctx, body, len(texts))
		if aerr == nil {
			return vecs, nil
		}
		if !aerr.retry || attempt >= e.retries {
			if attempt > 0 {
				aerr.err.Message += fmt.Sprintf(" (after %d tries)", attempt+1)
			}
			return nil, aerr.err
		}
		wait := e.backoff << attempt
		if wait <= 0 || wait > maxBackoff {
			wait = maxBackoff
		}
		wait = wait/2 + rand.N(wait/2+1)
		if aerr.after > 0 {
			wait = min(aerr.after, MaxRetryAfter)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctxError(ctx.Err())
		case <-t.C:
		}
	}
}

// post makes one request and parses its response.
func (e *OpenAI) post(ctx context.Context, body []byte, n int) ([][]float32, *attemptError) {
	if err := ctx.Err(); err != nil {
		return nil, &attemptError{err: ctxError(err)}
	}
	actx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, e.url, bytes.NewReader(body))
	if err != nil {
		return nil, &attemptError{err: &factbase.Error{Code: factbase.EINVALID, Message: "embed: openai: bad request URL", Err: err}}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if e.key != "" {
		req.Header.Set("Authorization", "Bearer "+e.key)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return nil, e.transportError(ctx, actx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return nil, e.transportError(ctx, actx, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, e.statusError(resp, data)
	}
	if len(data) > maxResponse {
		return nil, &attemptError{err: factbase.Errorf(factbase.EINVALID, "embed: openai: response larger than %d bytes", maxResponse)}
	}
	vecs, ferr := e.parse(data, n)
	if ferr != nil {
		return nil, &attemptError{err: ferr}
	}
	return vecs, nil
}

// transportError classifies a failure to send a request or read its response.
func (e *OpenAI) transportError(ctx, actx context.Context, err error) *attemptError {
	if ctx.Err() != nil {
		return &attemptError{err: ctxError(ctx.Err())}
	}
	var ne net.Error
	if errors.Is(actx.Err(), context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return &attemptError{err: &factbase.Error{
			Code:    factbase.ETIMEOUT,
			Message: fmt.Sprintf("embed: openai: no response from the embedding server within %v", e.timeout),
			Err:     err,
		}}
	}
	return &attemptError{retry: true, err: &factbase.Error{
		Code:    factbase.EUNAVAILABLE,
		Message: "embed: openai: cannot reach the embedding server",
		Err:     err,
	}}
}

// statusError classifies a non-2xx response.
func (e *OpenAI) statusError(resp *http.Response, data []byte) *attemptError {
	code := resp.StatusCode
	msg := fmt.Sprintf("embed: openai: embedding server answered %d %s", code, http.StatusText(code))
	if m := e.serverMessage(data); m != "" {
		msg += ": " + m
	}
	ae := &attemptError{err: &factbase.Error{Message: msg}}
	switch {
	case code == http.StatusTooManyRequests || code >= 500:
		ae.err.Code = factbase.EUNAVAILABLE
		ae.retry = true
		ae.after = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	case code == http.StatusUnauthorized || code == http.StatusForbidden || code == http.StatusNotFound:
		ae.err.Code = factbase.EUNAVAILABLE
	case code == http.StatusRequestEntityTooLarge:
		ae.err.Code = factbase.ETOOLARGE
	default:
		ae.err.Code = factbase.EINVALID
	}
	return ae
}

// serverMessage extracts the message of an error response: OpenAI's
// {"error": {"message": ...}}, Ollama's and TEI's {"error": "..."}, or a short plain
// text body. It is shortened to 300 bytes and never contains the API key.
func (e *OpenAI) serverMessage(data []byte) string {
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
	if e.key != "" {
		m = strings.ReplaceAll(m, e.key, "[redacted]")
	}
	if len(m) > 300 {
		m = strings.ToValidUTF8(m[:300], "") + "…"
	}
	return m
}

// parseRetryAfter returns the wait a Retry-After header asks for, in seconds or as an
// HTTP date, or 0 if there is none or it cannot be parsed.
func parseRetryAfter(h string, now time.Time) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(h, 64); err == nil {
		if s <= 0 || math.IsNaN(s) {
			return 0
		}
		if s > MaxRetryAfter.Seconds() {
			return MaxRetryAfter
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(h); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// parse reads an embeddings response for n texts.
func (e *OpenAI) parse(data []byte, n int) ([][]float32, *factbase.Error) {
	invalid := func(format string, args ...any) *factbase.Error {
		return factbase.Errorf(factbase.EINVALID, "embed: openai: bad response from the embedding server: "+format, args...)
	}
	var resp struct {
		Data []struct {
			Index     *int      `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &resp); err != nil {
		return nil, &factbase.Error{Code: factbase.EINVALID, Message: "embed: openai: bad response from the embedding server: not embeddings JSON", Err: err}
	}
	if len(resp.Data) != n {
		return nil, invalid("%d vectors for %d texts", len(resp.Data), n)
	}
	out := make([][]float32, n)
	for k, d := range resp.Data {
		i := k
		if d.Index != nil {
			i = *d.Index
		} else if k > 0 && resp.Data[0].Index != nil {
			return nil, invalid("vector %d has no index", k)
		}
		if i < 0 || i >= n {
			return nil, invalid("index %d out of range for %d texts", i, n)
		}
		if out[i] != nil {
			return nil, invalid("index %d given twice", i)
		}
		if len(d.Embedding) == 0 {
			return nil, invalid("empty vector at index %d", i)
		}
		for _, x := range d.Embedding {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, invalid("non-finite value in vector at index %d", i)
			}
		}
		out[i] = d.Embedding
	}
	got := len(out[0])
	for i, v := range out {
		if len(v) != got {
			return nil, invalid("vectors of dimension %d and %d (index %d)", got, len(v), i)
		}
	}
	if want := e.dim.Load(); want != 0 && int64(got) != want {
		return nil, invalid("vectors of dimension %d, want %d", got, want)
	}
	if !e.fixed && !e.dim.CompareAndSwap(0, int64(got)) && e.dim.Load() != int64(got) {
		// Another request learned a different dimension first.
		return nil, invalid("vectors of dimension %d, want %d", got, e.dim.Load())
	}
	for _, v := range out {
		normalize(v)
	}
	return out, nil
}

// redactURL returns raw with any password in it replaced, for error messages.
func redactURL(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Redacted()
	}
	return "(unparseable)"
}
