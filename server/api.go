package server

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
)

const apiDescription = `Factbase is a long-term fact memory for AI assistants and agents. Hand it what a
user says (POST /v1/users/{user}/messages), ask it what it knows
(POST /v1/users/{user}/questions), or read and write facts and ranked lists directly.

Every /v1 request needs an API key: "Authorization: Bearer fb_...". Create one with
"factbase keys create" (an application key, for every user) or
"factbase keys create --user UUID" (a key for one user's data only).

Users are UUIDs. Errors are application/problem+json (RFC 9457) with a detail that
names what was wrong: 400 malformed JSON, 401 a missing or unknown key, 403 a key for
another user, 404 no such data or route, 409 a conflict with stored state, 413 a body
over the limit (1 MiB by default), 422 an invalid value, 503 the store is unavailable.

Every list in a response is bounded by the request: a list operation takes a limit with
a default and a maximum (422 naming the parameter above it) and an offset or a cursor,
and says whether more follow ("more", "total" or "next"); a ranking (search, recall)
returns at most its limit of best hits. Each operation's description states its bounds.
Writes that act on everything an episode, an entity or a user owns (deleting them,
merging, erasing a user) cost in proportion to that.`

// config returns the huma configuration: OpenAPI 3.1 at /openapi.json, problem+json
// errors with field-naming details, and no schema links or hosted docs page.
func (s *Server) config() huma.Config {
	c := huma.DefaultConfig("Factbase", s.opts.Build.Version)
	c.Info.Description = apiDescription
	c.Info.License = &huma.License{Name: "Apache-2.0", Identifier: "Apache-2.0"}
	c.OpenAPIPath = "/openapi"
	c.DocsPath = ""
	c.SchemasPath = ""
	// The default create hook adds "$schema" members and Link headers to responses;
	// Factbase's responses are the engine's types as they are.
	c.CreateHooks = nil
	c.Transformers = []huma.Transformer{transformProblem}
	c.Info.Contact = &huma.Contact{Name: "Factbase", URL: "https://github.com/factbase/factbase"}
	c.Servers = []*huma.Server{{
		URL:         "http://{host}",
		Description: "A factbase serve process: --addr, " + DefaultAddr + " by default.",
		Variables: map[string]*huma.ServerVariable{
			"host": {Default: DefaultAddr, Description: "The host and port the server listens on."},
		},
	}}
	c.Tags = tags
	if s.opts.NoAuth {
		// Nothing needs a key: every operation says so (security: []), and no
		// scheme is offered that no operation uses.
		return c
	}
	c.Security = []map[string][]string{{bearerScheme: {}}}
	c.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		bearerScheme: {
			Type:         "http",
			Scheme:       "bearer",
			BearerFormat: "fb_ followed by 43 base64url characters",
			Description:  "An API key made by \"factbase keys create\".",
		},
	}
	return c
}

// The tags group the operations by the resource they act on, in the document's
// order.
const (
	tagMessages    = "Messages"
	tagMemories    = "Memories"
	tagFacts       = "Facts"
	tagLists       = "Lists"
	tagPeople      = "People"
	tagEpisodes    = "Episodes"
	tagSearch      = "Search"
	tagSheet       = "Fact sheet"
	tagTranscripts = "Transcripts"
	tagJobs        = "Jobs"
	tagUsers       = "Users"
	tagOperations  = "Operations"
)

var tags = []*huma.Tag{
	{Name: tagMessages, Description: "What a user says (say) and asks (ask), read by the rules at once, without a model."},
	{Name: tagMemories, Description: "A message remembered: the rules' facts at once, and the model's extraction as a background job when a model is configured."},
	{Name: tagFacts, Description: "Facts read and written directly: set by the key's cardinality, listed, retracted, erased, and every version of a key."},
	{Name: tagLists, Description: "Ranked lists (favorites.*): append, place at a rank, remove and close the gap."},
	{Name: tagPeople, Description: "The people a user mentions (entities), the changes that wait for the user's confirmation (conflicts), and recall grouped by person."},
	{Name: tagEpisodes, Description: "Narrative records of what happened, with the facts extracted from them."},
	{Name: tagSearch, Description: "Hybrid search over facts and episodes, the hybrid query and the direct look-up."},
	{Name: tagSheet, Description: "The user's most important facts, scored and grouped by category, and the same as a prompt block."},
	{Name: tagTranscripts, Description: "Agent session transcripts (JSONL): ingest, and the facts, objects and sessions found in them."},
	{Name: tagJobs, Description: "Background model jobs: their state, attempts, tokens and cost."},
	{Name: tagUsers, Description: "Whose data a key opens, the erasure of everything a user owns, its export and import, and the audit trail."},
	{Name: tagOperations, Description: "Liveness, readiness, Prometheus metrics and this document; they need no key."},
}

// public is the security requirement of an operation that needs no key.
var public = []map[string][]string{}

// op fills the fields every /v1 operation shares.
func (s *Server) op(id, method, path, tag, summary, description string, errs ...int) huma.Operation {
	o := huma.Operation{
		OperationID:     id,
		Method:          method,
		Path:            path,
		Tags:            []string{tag},
		Summary:         summary,
		Description:     description,
		MaxBodyBytes:    -1, // enforced for every route by limitBody, before huma reads
		BodyReadTimeout: -1, // bounded by the server's ReadTimeout
		Errors:          append([]int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable}, errs...),
	}
	if method == http.MethodPost {
		o.Errors = append(o.Errors, http.StatusBadRequest, http.StatusRequestEntityTooLarge)
	}
	o.Security = []map[string][]string{{bearerScheme: {}}}
	if s.opts.NoAuth {
		o.Security = public
	}
	return o
}

// register adds every /v1 operation.
func (s *Server) register() {
	s.registerMessages()
	s.registerAudit()
	s.registerExport()
	s.registerFacts()
	s.registerLists()
	s.registerTranscripts() // transcripts.go
	s.registerEpisodes()    // episodes.go
	s.registerMe()          // me.go
	s.registerRemember()    // remember.go
	s.registerSheet()       // sheet.go
	s.registerPeople()      // people.go
	s.registerUsers()       // users.go
}

// parseUser validates the user path parameter: 422 naming path.user if it is not a
// UUID.
func parseUser(ctx context.Context, p string) (factbase.UserID, error) {
	u, err := factbase.ParseUserID(p)
	if err != nil {
		return "", fail(ctx, err, &huma.ErrorDetail{Location: "path.user", Message: factbase.ErrorMessage(err), Value: clip(p, 64)})
	}
	if ri := reqInfoFrom(ctx); ri != nil {
		ri.userID = string(u)
	}
	return u, nil
}

// userInput is the input of an operation that takes nothing but the user.
type userInput struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
}

// output is a response whose body is a T. huma names the body's schema after T, so
// the OpenAPI document does not see this type.
type output[T any] struct {
	Body T
}

// forUser is the shape every per-user operation shares: it parses the user path
// parameter (a 422 naming path.user if it is not a UUID), calls call for that user,
// and returns its value as the response body or its error as a problem response.
func forUser[T any](ctx context.Context, user string, call func(factbase.UserID) (T, error)) (*output[T], error) {
	u, err := parseUser(ctx, user)
	if err != nil {
		return nil, err
	}
	v, err := call(u)
	if err != nil {
		return nil, fail(ctx, err)
	}
	return &output[T]{Body: v}, nil
}

// documentPlainRoutes describes in oapi the routes huma does not serve: /metrics
// (promhttp) and the document itself. Both need no key.
func documentPlainRoutes(oapi *huma.OpenAPI) {
	text := func(description string, schema *huma.Schema, contentType string) map[string]*huma.Response {
		return map[string]*huma.Response{"200": {Description: description,
			Content: map[string]*huma.MediaType{contentType: {Schema: schema}}}}
	}
	oapi.AddOperation(&huma.Operation{OperationID: "get-metrics", Method: http.MethodGet, Path: "/metrics",
		Tags: []string{tagOperations}, Security: public, Summary: "Prometheus metrics",
		Description: "The server's metrics in the Prometheus text exposition format: requests, writes, rank " +
			"mutations, canonicalisations, model jobs and tokens, MCP tool calls, and the Go runtime. Needs no key.",
		Responses: text("The metrics.", &huma.Schema{Type: huma.TypeString}, "text/plain")})
	oapi.AddOperation(&huma.Operation{OperationID: "get-openapi", Method: http.MethodGet, Path: "/openapi.json",
		Tags: []string{tagOperations}, Security: public, Summary: "This OpenAPI document",
		Description: "The OpenAPI 3.1 document of the API, generated from the server's types. Needs no key.",
		Responses:   text("The document.", &huma.Schema{Type: huma.TypeObject}, "application/json")})
}
