// Package llm is Factbase's client for models behind an OpenAI-compatible API:
// OpenAI, Ollama, vLLM, llama.cpp's server, text-embeddings-inference and others.
// Client calls a chat model at /v1/chat/completions; Embedder calls an embedding
// model at /v1/embeddings. Both share one transport (transport.go): the bearer key,
// per-request timeouts, retries of 429s, 5xx answers and failed connections with
// backoff and Retry-After, the mapping of every failure to a *factbase.ModelError,
// and the log lines of retries and failed calls. Each also answers Probe, a cheap
// check that its server answers at all, for a readiness check (probe.go).
//
// Client asks for JSON through response_format (a JSON schema where the server
// supports it, JSON mode otherwise), validates every answer strictly against the
// schema before anything uses it, and classifies every failure (timeout, unavailable,
// invalid output) with a factbase.ModelErrorKind that is counted in its Stats.
//
// On top of the client sit the model's jobs in Factbase, each with a versioned prompt
// embedded from prompts/: Extract (facts, entities and topics from one message),
// Teach (the canonical topic of a phrase, for canon's teacher hook) and Plan (what a
// question no rule understood asks, for the query planner's fallback). They make a
// Client the engine's factbase.Extractor, factbase.Teacher and factbase.Planner, and
// an Embedder is a factbase.Embedder.
//
// The model proposes; it never writes. Callers (package memory) turn proposals into
// ops that pass the same validation as every other write.
package llm

import (
	"context"
	"encoding/json"
	"log/slog"
	"math"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/redact"
)

// Response formats (Options.Format).
const (
	// FormatAuto asks for a JSON schema and falls back to JSON mode, for the rest of
	// the client's life, the first time the server refuses response_format
	// "json_schema" (a 400 naming it).
	FormatAuto = "auto"
	// FormatSchema always sends response_format {"type": "json_schema", ...} with a
	// strict schema.
	FormatSchema = "json_schema"
	// FormatJSON always sends response_format {"type": "json_object"} and puts the
	// schema in the system message instead.
	FormatJSON = "json_object"
)

// Options configure New. Only BaseURL and Model are required.
type Options struct {
	// BaseURL is the server's API root, with or without "/v1":
	// "https://api.openai.com/v1", "http://localhost:11434" (Ollama),
	// "http://vllm:8000/v1". Requests go to .../v1/chat/completions. Required.
	BaseURL string
	// Model is the model name, such as "gpt-4o-mini" or "qwen2.5:7b". Required.
	Model string
	// APIKey is sent as "Authorization: Bearer <APIKey>" when not empty. It never
	// appears in an error.
	APIKey string

	// Timeout bounds each HTTP request, from sending it to reading the whole
	// response. Default 60s. A request that times out is not retried (ETIMEOUT).
	Timeout time.Duration
	// Retries is how many times a request is retried after a 429, a 5xx or a failed
	// connection. Default 3; negative for none.
	Retries int
	// Backoff is the base delay before a retry: the n-th retry waits a random time
	// between Backoff·2ⁿ⁻¹/2 and Backoff·2ⁿ⁻¹ (at most 30s), or the server's
	// Retry-After (at most MaxRetryAfter) when it sends one. Default 500ms.
	Backoff time.Duration
	// MaxConcurrent is the most requests in flight at once, across every caller of
	// the client. Default 4.
	MaxConcurrent int
	// Rate is the most requests started per second (a token bucket holding Burst
	// tokens). 0 (the default): no limit.
	Rate float64
	// Burst is the token bucket's size. Default: Rate rounded up, at least 1.
	Burst int

	// Format chooses how JSON output is requested: FormatAuto (the default),
	// FormatSchema or FormatJSON.
	Format string
	// MaxTokens caps the completion's length (max_tokens). Default 1024.
	MaxTokens int
	// Temperature is sent with every request. Default 0 (the most repeatable output).
	Temperature float64
	// AllowThink strips one leading, closed <think>...</think> block (as reasoning
	// models such as qwen3 and deepseek-r1 write) before the JSON is validated. Off by
	// default: a <think> block is then invalid output (factbase.ModelThink). An unclosed block,
	// or a second one, is invalid output either way.
	AllowThink bool

	// PromptPrice and CompletionPrice are the prices of a million prompt and
	// completion tokens, in US dollars, used for Usage.Cost. Default 0 (a local
	// model).
	PromptPrice, CompletionPrice float64

	// HTTPClient sends the requests. Default: a client of its own with Go's default
	// transport.
	HTTPClient *http.Client

	// Logger receives a WARN line for each retry and for each call that fails (ERROR
	// when it needs a person: a wrong key, URL or model), and the probe's changes of
	// state (see Probe). Durations in them are strings ("2.7s"). Default: discard.
	Logger *slog.Logger
}

// MaxRetryAfter caps how long the client waits when a server's Retry-After asks for
// longer.
const MaxRetryAfter = 30 * time.Second

// maxResponse bounds the size of a chat completion read.
const maxResponse = 4 << 20

// Client calls one model on one OpenAI-compatible server. It is safe for concurrent
// use; MaxConcurrent and Rate apply across all callers. It is the engine's
// Extractor, Planner and Teacher.
type Client struct {
	tr       *transport
	probe    *probe
	o        Options
	sem      semaphore
	bucket   *bucket
	noSchema atomic.Bool // the server refused json_schema: use JSON mode
	stats    counters
}

var (
	_ factbase.Extractor = (*Client)(nil)
	_ factbase.Planner   = (*Client)(nil)
	_ factbase.Teacher   = (*Client)(nil)
)

// New returns a client for the server and model in o, with o's defaults filled in. It
// sends nothing. It returns EINVALID if BaseURL is not an http or https URL, if Model
// is empty, if Format is unknown, or if a duration, count or price is negative.
func New(o Options) (*Client, error) {
	url, err := endpoint(o.BaseURL, "/chat/completions")
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(o.Model) == "" {
		return nil, factbase.Errorf(factbase.EINVALID, "llm: no model")
	}
	if o.Timeout < 0 || o.Backoff < 0 || o.MaxConcurrent < 0 || o.Rate < 0 || o.Burst < 0 || o.MaxTokens < 0 ||
		o.PromptPrice < 0 || o.CompletionPrice < 0 || o.Temperature < 0 || math.IsNaN(o.Rate) || math.IsNaN(o.Temperature) {
		return nil, factbase.Errorf(factbase.EINVALID, "llm: negative option")
	}
	switch o.Format {
	case "":
		o.Format = FormatAuto
	case FormatAuto, FormatSchema, FormatJSON:
	default:
		return nil, factbase.Errorf(factbase.EINVALID, "llm: format %q is not one of auto, json_schema, json_object", o.Format)
	}
	if o.Timeout == 0 {
		o.Timeout = 60 * time.Second
	}
	if o.Backoff == 0 {
		o.Backoff = 500 * time.Millisecond
	}
	if o.MaxConcurrent == 0 {
		o.MaxConcurrent = 4
	}
	if o.MaxTokens == 0 {
		o.MaxTokens = 1024
	}
	models, err := endpoint(o.BaseURL, "/models")
	if err != nil {
		return nil, err
	}
	tr := newTransport(transportOptions{url: url, what: "model", model: o.Model, log: o.Logger, key: o.APIKey,
		timeout: o.Timeout, retries: o.Retries, backoff: o.Backoff, maxRetryAfter: MaxRetryAfter, maxResponse: maxResponse,
		client: o.HTTPClient})
	c := &Client{tr: tr, o: o, sem: make(semaphore, o.MaxConcurrent), probe: newProbe(models, "model server", tr)}
	if o.Rate > 0 {
		c.bucket = newBucket(o.Rate, o.Burst)
	}
	return c, nil
}

// Model returns the model name.
func (c *Client) Model() string { return c.o.Model }

// Endpoint returns the URL requests are sent to, its credentials masked
// (redact.URL): fit for a log line.
func (c *Client) Endpoint() string { return redact.URL(c.tr.url) }

// Probe reports whether the model server answers, for a readiness check: GET
// {base}/v1/models with the key, where any answer but a 5xx counts, at most once per
// ProbeInterval (callers meanwhile get the kept answer) and for at most ProbeTimeout.
// It returns nil, or EUNAVAILABLE or ETIMEOUT with a message saying why not that
// names no address or credential. Nothing is sent until it is called. Safe for
// concurrent use.
func (c *Client) Probe(ctx context.Context) error { return c.probe.check(ctx) }

// Message is one chat message.
type Message struct {
	Role    string `json:"role"` // "system", "user" or "assistant"
	Content string `json:"content"`
}

// JSONRequest is one call that must answer with a JSON document matching Schema.
type JSONRequest struct {
	Name     string    // the schema's name, sent with json_schema: [a-zA-Z0-9_-]{1,64}
	Schema   *Schema   // the answer's schema; its top level must be an object
	Messages []Message // the conversation; the first is usually the system prompt
}

// CallJSON sends req, validates the answer strictly against req.Schema and decodes it
// into out (a pointer to a struct whose fields match the schema). It retries 429s,
// 5xx answers and failed connections as configured, never an invalid answer. The
// returned Usage counts every answered request, including one whose output was
// refused (its cost was incurred); on error it is also in the *factbase.ModelError.
func (c *Client) CallJSON(ctx context.Context, req JSONRequest, out any) (factbase.ModelUsage, error) {
	if req.Schema == nil || req.Schema.Type != "object" || len(req.Messages) == 0 {
		return factbase.ModelUsage{}, factbase.Errorf(factbase.EINTERNAL, "llm: a JSON request needs an object schema and messages")
	}
	c.stats.calls.Add(1)
	start := time.Now()
	usage, err := c.callJSON(ctx, req, out)
	c.stats.observe(usage, err, time.Since(start))
	return usage, err
}

func (c *Client) callJSON(ctx context.Context, req JSONRequest, out any) (factbase.ModelUsage, error) {
	var usage factbase.ModelUsage
	fellBack := false
	try := func() *attemptError {
		schemaMode := c.o.Format == FormatSchema || c.o.Format == FormatAuto && !c.noSchema.Load()
		body, err := c.body(req, schemaMode)
		if err != nil {
			return &attemptError{err: &factbase.ModelError{Kind: factbase.ModelRejected,
				Err: &factbase.Error{Code: factbase.EINTERNAL, Message: "llm: encode request", Err: err}}}
		}
		content, u, finish, ae := c.post(ctx, body)
		usage.Add(u)
		if ae == nil {
			if e := c.decode(content, finish, req.Schema, out); e != nil {
				return &attemptError{err: e}
			}
			return nil
		}
		// A server that does not know json_schema: JSON mode from now on. This is not
		// a retry: the request itself changes.
		if ae.schemaRefused && schemaMode && c.o.Format == FormatAuto && !fellBack {
			c.noSchema.Store(true)
			c.stats.fallbacks.Add(1)
			fellBack = true
			ae.again = true
		}
		return ae
	}
	if ae := c.tr.do(ctx, try, func() { c.stats.retries.Add(1) }); ae != nil {
		ae.err.Usage = usage
		return usage, ae.err
	}
	return usage, nil
}

// body encodes the request body.
func (c *Client) body(req JSONRequest, schemaMode bool) ([]byte, error) {
	type jsonSchema struct {
		Name   string  `json:"name"`
		Strict bool    `json:"strict"`
		Schema *Schema `json:"schema"`
	}
	type format struct {
		Type       string      `json:"type"`
		JSONSchema *jsonSchema `json:"json_schema,omitempty"`
	}
	msgs := req.Messages
	f := format{Type: "json_object"}
	if schemaMode {
		name := req.Name
		if name == "" {
			name = "answer"
		}
		f = format{Type: "json_schema", JSONSchema: &jsonSchema{Name: name, Strict: true, Schema: req.Schema}}
	} else {
		// JSON mode carries no schema: the model reads it from the system message
		// (OpenAI also demands that the word JSON appear in the messages).
		sch, err := req.Schema.MarshalJSON()
		if err != nil {
			return nil, err
		}
		msgs = append([]Message(nil), msgs...)
		note := "\n\nAnswer with one JSON object, and nothing else, that matches this JSON Schema:\n" + string(sch)
		if msgs[0].Role == "system" {
			msgs[0].Content += note
		} else {
			msgs = append([]Message{{Role: "system", Content: strings.TrimSpace(note)}}, msgs...)
		}
	}
	return json.Marshal(struct {
		Model          string    `json:"model"`
		Messages       []Message `json:"messages"`
		Temperature    float64   `json:"temperature"`
		MaxTokens      int       `json:"max_tokens"`
		Stream         bool      `json:"stream"`
		ResponseFormat format    `json:"response_format"`
	}{c.o.Model, msgs, c.o.Temperature, c.o.MaxTokens, false, f})
}

// post makes one request and returns the first choice's content, the usage and the
// finish reason.
func (c *Client) post(ctx context.Context, body []byte) (string, factbase.ModelUsage, string, *attemptError) {
	if err := ctx.Err(); err != nil {
		return "", factbase.ModelUsage{}, "", &attemptError{err: ctxError(err)}
	}
	if err := c.sem.acquire(ctx); err != nil {
		return "", factbase.ModelUsage{}, "", &attemptError{err: ctxError(err)}
	}
	defer c.sem.release()
	if err := c.bucket.wait(ctx); err != nil {
		return "", factbase.ModelUsage{}, "", &attemptError{err: ctxError(err)}
	}
	defer c.stats.inFlight.Start()()
	c.stats.requests.Add(1)

	data, ae := c.tr.post(ctx, body)
	if ae != nil {
		return "", factbase.ModelUsage{}, "", ae
	}
	var cr struct {
		Choices []struct {
			Message *struct {
				Content *string `json:"content"`
				Refusal *string `json:"refusal"`
			} `json:"message"`
			FinishReason *string `json:"finish_reason"`
		} `json:"choices"`
		Usage *struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(data, &cr); err != nil {
		return "", factbase.ModelUsage{}, "", &attemptError{err: newError(factbase.ModelBadResponse, err, "the server's answer is not a chat completion")}
	}
	var u factbase.ModelUsage
	if cr.Usage != nil && cr.Usage.PromptTokens >= 0 && cr.Usage.CompletionTokens >= 0 {
		u = factbase.ModelUsage{PromptTokens: cr.Usage.PromptTokens, CompletionTokens: cr.Usage.CompletionTokens}
		u.Cost = (float64(u.PromptTokens)*c.o.PromptPrice + float64(u.CompletionTokens)*c.o.CompletionPrice) / 1e6
	}
	if len(cr.Choices) == 0 || cr.Choices[0].Message == nil {
		return "", u, "", &attemptError{err: newError(factbase.ModelBadResponse, nil, "the server's answer has no message")}
	}
	ch := cr.Choices[0]
	finish := ""
	if ch.FinishReason != nil {
		finish = *ch.FinishReason
	}
	if ch.Message.Refusal != nil && *ch.Message.Refusal != "" || finish == "content_filter" {
		return "", u, finish, &attemptError{err: newError(factbase.ModelRefusal, nil, "the model refused to answer")}
	}
	if ch.Message.Content == nil {
		if finish == "length" {
			return "", u, finish, &attemptError{err: newError(factbase.ModelTruncated, nil, "the model's answer was cut at the token limit")}
		}
		return "", u, finish, &attemptError{err: newError(factbase.ModelBadResponse, nil, "the server's answer has no content")}
	}
	return *ch.Message.Content, u, finish, nil
}
