package llm

import (
	"cmp"
	"context"
	"encoding/json"
	"log/slog"
	"math"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/internal/redact"
)

// EmbedderOptions configures NewEmbedder. Only BaseURL and Model are required.
type EmbedderOptions struct {
	// BaseURL is the server's API root, with or without its "/v1":
	// "https://api.openai.com/v1", "http://localhost:11434" (Ollama),
	// "http://vllm:8000/v1". Requests go to .../v1/embeddings; a trailing slash is
	// ignored. Required.
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
	// when it sends one (at most MaxEmbedRetryAfter). Default 200ms.
	Backoff time.Duration

	// HTTPClient sends the requests. Default: a client of its own with Go's default
	// transport.
	HTTPClient *http.Client

	// Logger receives a WARN line for each retry and for each request that fails (ERROR
	// when it needs a person: a wrong key, URL or model), and the probe's changes of
	// state (see Probe). Default: discard.
	Logger *slog.Logger
}

// MaxEmbedRetryAfter caps how long an Embedder waits when a server's Retry-After asks
// for longer. It is shorter than a chat call's MaxRetryAfter because a search waits
// for its query's vector.
const MaxEmbedRetryAfter = 20 * time.Second

// maxEmbedResponse bounds the size of an embeddings response read: 64 texts of 4096
// dimensions take about 6 MB of JSON.
const maxEmbedResponse = 256 << 20

// Embedder embeds texts with an OpenAI-compatible /v1/embeddings endpoint: OpenAI,
// Ollama, vLLM, text-embeddings-inference and others. It shares the chat client's
// transport: the same timeout, retry, Retry-After and error mapping. It is safe for
// concurrent use.
//
// It sends {"model": Model, "input": [texts...]} and reads {"data": [{"index": i,
// "embedding": [...]}, ...]}, putting the vectors in the order of their indexes
// (or of the list, if the server sends no indexes), and L2-normalises them. Empty and
// all-space texts are not sent (servers reject them) and get the zero vector (of length
// 0 if the dimension is not yet known).
//
// Errors are *factbase.Error values with a code, as factbase.Embedder promises (not
// *factbase.ModelError: a vector has no invalid-output kinds to count):
//   - ETIMEOUT: a request got no full response within Timeout, or ctx's deadline
//     passed (not retried);
//   - EUNAVAILABLE: the server could not be reached, or answered 5xx or 429 on every
//     try; it answered 401 or 403 (the key is wrong: a configuration problem, not the
//     caller's) or 404 (wrong URL or unknown model); or ctx was canceled;
//   - ETOOLARGE: it answered 413;
//   - EINVALID: it answered another 4xx (such as input too long), with the server's
//     own error message; or its response was not embeddings JSON, or had the wrong
//     number of vectors, bad indexes, or vectors of the wrong or of varying dimension.
type Embedder struct {
	tr    *transport
	probe *probe
	model string
	fixed bool         // Dim was set in the options
	dim   atomic.Int64 // the dimension, 0 until learned
	batch int
}

var _ factbase.Embedder = (*Embedder)(nil)

// NewEmbedder returns an embedder for the server and model in o, with o's defaults
// filled in. It sends nothing. It returns EINVALID if BaseURL is not an http or https
// URL, if Model is empty, or if Dim, Timeout, BatchSize or Backoff is negative.
func NewEmbedder(o EmbedderOptions) (*Embedder, error) {
	url, err := endpoint(o.BaseURL, "/embeddings")
	if err != nil {
		return nil, err
	}
	if o.Model == "" {
		return nil, factbase.Errorf(factbase.EINVALID, "llm: no embedding model")
	}
	if o.Dim < 0 || o.Timeout < 0 || o.BatchSize < 0 || o.Backoff < 0 {
		return nil, factbase.Errorf(factbase.EINVALID, "llm: negative embedder option (dim %d, timeout %v, batch size %d, backoff %v)",
			o.Dim, o.Timeout, o.BatchSize, o.Backoff)
	}
	models, err := endpoint(o.BaseURL, "/models")
	if err != nil {
		return nil, err
	}
	e := &Embedder{
		tr: newTransport(transportOptions{url: url, what: "embeddings", model: o.Model, log: o.Logger, key: o.APIKey,
			timeout: cmp.Or(o.Timeout, 30*time.Second), retries: o.Retries, backoff: cmp.Or(o.Backoff, 200*time.Millisecond),
			maxRetryAfter: MaxEmbedRetryAfter, maxResponse: maxEmbedResponse, client: o.HTTPClient}),
		model: o.Model,
		fixed: o.Dim > 0,
		batch: cmp.Or(o.BatchSize, 64),
	}
	e.dim.Store(int64(o.Dim))
	e.probe = newProbe(models, "embedding server", e.tr)
	return e, nil
}

// Endpoint returns the URL requests are sent to, its credentials masked
// (redact.URL): fit for a log line.
func (e *Embedder) Endpoint() string { return redact.URL(e.tr.url) }

// Probe reports whether the embedding server answers, for a readiness check: GET
// {base}/v1/models with the key, where any answer but a 5xx counts, at most once per
// ProbeInterval (callers meanwhile get the kept answer) and for at most ProbeTimeout.
// It returns nil, or EUNAVAILABLE or ETIMEOUT with a message saying why not that
// names no address or credential. Nothing is sent until it is called. Safe for
// concurrent use.
func (e *Embedder) Probe(ctx context.Context) error { return e.probe.check(ctx) }

// Model returns "openai:" followed by the model name: the protocol and the model, as
// the same model name gives the same vectors from any server that serves it.
func (e *Embedder) Model() string { return "openai:" + e.model }

// Dim returns the vector length: the configured Dim, or the one learned from the
// first response, or 0 before that.
func (e *Embedder) Dim() int { return int(e.dim.Load()) }

// Embed returns one L2-normalised vector per text, sending the texts in batches of
// BatchSize. Errors are described on Embedder; on any error no vectors are returned.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
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

// embedBatch sends one batch, retrying as configured.
func (e *Embedder) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}{e.model, texts})
	if err != nil {
		return nil, &factbase.Error{Code: factbase.EINTERNAL, Message: "llm: encode embeddings request", Err: err}
	}
	var vecs [][]float32
	ae := e.tr.do(ctx, func() *attemptError {
		data, ae := e.tr.post(ctx, body)
		if ae != nil {
			return ae
		}
		v, perr := e.parse(data, len(texts))
		if perr != nil {
			return &attemptError{err: perr}
		}
		vecs = v
		return nil
	}, nil)
	if ae != nil {
		fe := ae.err.Err
		if ae.status == http.StatusRequestEntityTooLarge {
			fe.Code = factbase.ETOOLARGE
		}
		return nil, fe
	}
	return vecs, nil
}

// parse reads an embeddings response for n texts.
func (e *Embedder) parse(data []byte, n int) ([][]float32, *factbase.ModelError) {
	invalid := func(format string, args ...any) *factbase.ModelError {
		return newError(factbase.ModelBadResponse, nil, "bad response from the embedding server: "+format, args...)
	}
	var resp struct {
		Data []struct {
			Index     *int      `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &resp); err != nil {
		return nil, newError(factbase.ModelBadResponse, err, "bad response from the embedding server: not embeddings JSON")
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
		embed.Normalize(v)
	}
	return out, nil
}
