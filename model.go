package factbase

import (
	"context"
	"errors"
	"time"
)

// The contracts the engine consumes from models: an Extractor proposes facts, a
// Planner reads questions no rule understood, a Teacher names favorites topics, and an
// Embedder turns texts into vectors. Package llm implements the first three over a chat
// model, and an Embedder over an embeddings endpoint; package embed has the offline
// embedders. A model only proposes: the engine checks every proposal before it
// becomes an op, so nothing here is trusted.

// Extractor proposes the facts, entities and topics of one message. Implementations
// are safe for concurrent use.
type Extractor interface {
	// Extract returns the proposals for req.Message. The Extraction carries the usage
	// and the prompt version even when the call fails. It returns EINVALID for a
	// message it refuses without asking a model (empty, too long), and a *ModelError
	// for a failed model call.
	Extract(ctx context.Context, req ExtractRequest) (Extraction, error)
	// Model names the model, for the job's record.
	Model() string
}

// Limits of what an Extractor reads from an ExtractRequest: it uses the first
// MaxKnownEntities entities and MaxKnownFacts facts, so callers put the most relevant
// first and need not look up more.
const (
	MaxKnownEntities = 30
	MaxKnownFacts    = 50
)

// ExtractRequest is one message to extract from, with what is known about the user.
type ExtractRequest struct {
	Message  string
	Now      time.Time     // today, for temporal words; zero: not used
	Entities []KnownEntity // the first MaxKnownEntities are used
	Facts    []KnownFact   // the first MaxKnownFacts are used
}

// KnownEntity is a person (or pet) already known, given to an Extractor so that its
// proposals can refer to them by id.
type KnownEntity struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Role     string   `json:"role"`
	Relation string   `json:"relation"` // "sister", "dentist"; "" when unknown
	Aliases  []string `json:"aliases"`
}

// KnownFact is a current fact given to an Extractor so that it reuses keys and sees
// changes. About is "user" or a known entity's id.
type KnownFact struct {
	About string `json:"about"`
	Key   string `json:"key"`
	Value string `json:"value"`
}

// ProposedFact is one fact an Extractor proposes. Nothing here is trusted: the engine
// checks every field before a proposal becomes an op.
type ProposedFact struct {
	About            string  `json:"about"` // "user" or an entity's ref
	Key              string  `json:"key"`
	Value            string  `json:"value"`
	Text             string  `json:"text"`
	Type             string  `json:"type"`
	Confidence       float64 `json:"confidence"`
	Durability       string  `json:"durability"`
	Sensitivity      string  `json:"sensitivity"`
	Temporal         string  `json:"temporal"`
	Evidence         string  `json:"evidence"`
	RememberNextWeek bool    `json:"remember_next_week"`
}

// ProposedEntity is a person or pet an Extractor names.
type ProposedEntity struct {
	Ref      string `json:"ref"`
	Name     string `json:"name"`
	Role     string `json:"role"`
	Relation string `json:"relation"` // the relation in the user's words, or ""
	KnownID  string `json:"known_id"` // the known entity it matched, or ""
}

// Extraction is an Extractor's answer for one message.
type Extraction struct {
	Facts    []ProposedFact   `json:"facts"`
	Entities []ProposedEntity `json:"entities"`
	Topics   []string         `json:"topics"`
	Usage    ModelUsage       `json:"-"` // what the call cost
	// Prompt is the version of the prompt used, recorded with the job's result; ""
	// for an extractor without one.
	Prompt string `json:"-"`
	Model  string `json:"-"`
}

// Planner says what a question no rule understood asks for, given the keys the user
// has facts under. Its plan is a proposal: the engine reads only a key the user has, of
// the kind the plan names. Implementations are safe for concurrent use.
type Planner interface {
	// Plan returns the plan for question. It returns EINVALID for an empty question,
	// and a *ModelError for a failed model call or an inconsistent plan.
	Plan(ctx context.Context, question string, keys []string) (Plan, error)
	// Model names the model, for the answer's record.
	Model() string
}

// The kinds of a Plan.
const (
	PlanList = "list" // a whole favorites list
	PlanRank = "rank" // one position of a list
	PlanFact = "fact" // one single-valued fact
	PlanNone = "none" // not a question about the user's facts
)

// Plan is what a Planner says a question asks for: a list or a fact by Key, or the
// Rank-th item of a list (Rank is 0 unless Kind is PlanRank). Key is "" for PlanNone.
type Plan struct {
	Kind string `json:"kind"`
	Key  string `json:"key"`
	Rank int    `json:"rank"`
}

// Teacher names the canonical topic of a favorites phrase that the cheaper steps of
// topic canonicalisation are unsure of (package canon takes its Teach method as its
// teacher hook). Implementations are safe for concurrent use.
type Teacher interface {
	// Teach returns the canonical topic of raw, given the topics already known, and
	// its confidence in [0, 1]. The topic is a proposal: the canonicaliser still
	// normalises and checks it. A failed model call is a *ModelError.
	Teach(ctx context.Context, raw string, known []string) (topic string, confidence float64, err error)
}

// Embedder turns texts into vectors for semantic search. Implementations are safe for
// concurrent use.
type Embedder interface {
	// Model returns the model id recorded with every vector this embedder makes, such
	// as "glove-6b-100d-sif-v1", "hash-256-v1" or "openai:text-embedding-3-small".
	// Vectors with different ids are not comparable.
	Model() string

	// Dim returns the length of every vector this embedder makes. An embedder that
	// learns its dimension from its model returns 0 until it has.
	Dim() int

	// Embed returns one L2-normalised vector per text, in the order of texts, or an
	// error classified by an error code (ETIMEOUT, EUNAVAILABLE, EINVALID,
	// ETOOLARGE). A text with nothing to embed gives the zero vector. When ctx is done
	// the error wraps ctx.Err(): ETIMEOUT for a passed deadline, EUNAVAILABLE for a
	// cancellation.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// ModelUsage is what model calls cost, as the model server reports it.
type ModelUsage struct {
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	Cost             float64 `json:"cost_usd"` // by the configured prices; 0 for a local model
}

// Add folds u2 into u.
func (u *ModelUsage) Add(u2 ModelUsage) {
	u.PromptTokens += u2.PromptTokens
	u.CompletionTokens += u2.CompletionTokens
	u.Cost += u2.Cost
}

// ModelErrorKind is the fine-grained class of a failed model call, for metrics and for
// the decision to retry. Every kind maps to one error code (see Code).
type ModelErrorKind string

// The kinds of ModelError. The first group is "unavailable" or "timeout": the model
// could not answer. The second group is "invalid output": the model answered, but
// with something that must not be used.
const (
	ModelTimeout     ModelErrorKind = "timeout"      // no full response within the client's timeout or ctx's deadline
	ModelCanceled    ModelErrorKind = "canceled"     // ctx was canceled
	ModelConnection  ModelErrorKind = "connection"   // the server could not be reached (after retries)
	ModelServerError ModelErrorKind = "server_error" // 5xx on every try
	ModelRateLimited ModelErrorKind = "rate_limited" // 429 on every try
	ModelAuth        ModelErrorKind = "auth"         // 401, 403 or 404: wrong key, URL or model (configuration)
	ModelRejected    ModelErrorKind = "rejected"     // another 4xx: the server refused the request itself

	ModelNotJSON     ModelErrorKind = "not_json"     // the content is not one JSON document
	ModelSchema      ModelErrorKind = "schema"       // valid JSON that does not match the schema
	ModelThink       ModelErrorKind = "think"        // a <think> block that cannot be stripped safely
	ModelTruncated   ModelErrorKind = "truncated"    // cut at the token limit, or JSON cut short
	ModelRefusal     ModelErrorKind = "refusal"      // the model refused to answer
	ModelBadResponse ModelErrorKind = "bad_response" // a 2xx body that is not what the protocol promises
)

// ModelErrorKinds lists every kind, in a stable order (for metrics).
var ModelErrorKinds = []ModelErrorKind{ModelTimeout, ModelCanceled, ModelConnection, ModelServerError, ModelRateLimited,
	ModelAuth, ModelRejected, ModelNotJSON, ModelSchema, ModelThink, ModelTruncated, ModelRefusal, ModelBadResponse}

// Code returns the error code of k: ETIMEOUT for a timeout, EUNAVAILABLE when the
// model could not be reached or used (connection, 5xx, 429, auth, canceled), and
// EINVALID for a refused request and for every invalid-output kind.
func (k ModelErrorKind) Code() string {
	switch k {
	case ModelTimeout:
		return ETIMEOUT
	case ModelCanceled, ModelConnection, ModelServerError, ModelRateLimited, ModelAuth:
		return EUNAVAILABLE
	}
	return EINVALID
}

// InvalidOutput reports whether k is one of the invalid-output kinds: the model
// answered, and its answer was refused before use.
func (k ModelErrorKind) InvalidOutput() bool {
	switch k {
	case ModelNotJSON, ModelSchema, ModelThink, ModelTruncated, ModelRefusal, ModelBadResponse:
		return true
	}
	return false
}

// Permanent reports whether a call that failed with k would fail again with the same
// request: the server refused the request itself. Everything else may succeed later
// (a model's output varies between calls; a server comes back).
func (k ModelErrorKind) Permanent() bool { return k == ModelRejected }

// ModelError is a failed model call. It wraps an *Error carrying the code and the
// message, so ErrorCode and ErrorMessage work on it; errors.As gives the Kind, the
// requests made and what the answered ones cost.
type ModelError struct {
	Kind     ModelErrorKind
	Attempts int        // HTTP requests made, retries included
	Usage    ModelUsage // tokens the server reported for the requests it answered
	Err      *Error     // the code (usually Kind.Code()) and the message
}

// Error implements error.
func (e *ModelError) Error() string {
	if e.Err == nil {
		return "model error: " + string(e.Kind)
	}
	return e.Err.Error()
}

// Unwrap returns the *Error carrying the code and message.
func (e *ModelError) Unwrap() error {
	if e.Err == nil {
		return nil
	}
	return e.Err
}

// ModelErrorKindOf returns the kind of err if it is (or wraps) a *ModelError, and ""
// otherwise.
func ModelErrorKindOf(err error) ModelErrorKind {
	var e *ModelError
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}
