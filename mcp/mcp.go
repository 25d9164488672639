// Package mcp serves Factbase over the Model Context Protocol, so that agents can
// remember and recall through tools: over stdio for one user (New with Options.User,
// then Run) and over streamable HTTP for the users an API key allows (NewHandler).
// It is built on the official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// Every tool has typed input and output structs whose JSON Schemas the SDK generates,
// with a description on each field and, on inputs, the bounds, enums and formats
// the HTTP API states (schema.go). Tool handlers call the engine (memory.Engine);
// they never call each other or the command line. Failures come back as tool errors
// (isError) with the domain error's plain message; internal details go to the log,
// never to the client. Every tool call is logged and counted (observe.go); what
// fails outside a tool answers a JSON-RPC error with a valid code (rpcerror.go).
package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"sort"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/jobs"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
)

// Name is the server's name in the MCP handshake.
const Name = "factbase"

// Options configure a Server. Engine is required.
type Options struct {
	// Engine serves every tool, resource and prompt.
	Engine *memory.Engine
	// User, when set, is the one user this server acts for (stdio): a call naming
	// another user is refused. When empty, the user comes from the caller's API key
	// (HTTP, see NewHandler) or, without keys, from each call's user argument.
	User factbase.UserID
	// Logger receives internal errors (whose details are never sent to clients) and
	// one audit line per forget call, with its reason. Default: discard.
	Logger *slog.Logger
	// Version is reported in the MCP handshake. Default "dev".
	Version string
	// Workers, when set, is the pool remember goes through (jobs.Workers.Remember):
	// the rules at once and, when the pool has a model, the model's extraction job.
	// Default nil: the rules only (Say).
	Workers *jobs.Workers
	// Metrics, when set, is where the tool calls are counted and timed:
	// factbase_mcp_tool_calls_total{tool,outcome} and
	// factbase_mcp_tool_call_duration_seconds{tool} (for example the registry of
	// server.Metrics, so that /metrics serves them). Default nil: not measured.
	Metrics prometheus.Registerer

	// requireKey makes every call without an API key fail (set by NewHandler unless
	// its NoAuth is set).
	requireKey bool
}

// Server is Factbase's MCP server: the SDK server with Factbase's tools, resource and
// prompt registered. It is safe for concurrent use.
type Server struct {
	opts    Options
	log     *slog.Logger
	sdk     *mcpsdk.Server
	e       *memory.Engine
	tools   []string
	schemas map[string]*jsonschema.Schema // each tool's input schema, to explain a refusal (observe.go)
	metrics *toolMetrics                  // nil without Options.Metrics
	err     error                         // what registering the tools failed with, if anything
}

var discard = slog.New(slog.NewTextHandler(io.Discard, nil))

// New returns a server over o.Engine with every tool the engine supports registered.
// It returns EINVALID if o.Engine is nil or o.User is not a canonical user id, and
// EINTERNAL if a tool's input schema cannot be made or o.Metrics refuses the tool
// metrics.
func New(o Options) (*Server, error) {
	if o.Engine == nil {
		return nil, factbase.Errorf(factbase.EINVALID, "mcp: an engine is required")
	}
	if o.User != "" {
		u, err := factbase.ParseUserID(string(o.User))
		if err != nil {
			return nil, err
		}
		o.User = u
	}
	if o.Logger == nil {
		o.Logger = discard
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	s := &Server{opts: o, log: o.Logger, e: o.Engine, schemas: map[string]*jsonschema.Schema{}}
	s.sdk = mcpsdk.NewServer(&mcpsdk.Implementation{Name: Name, Title: "Factbase", Version: o.Version},
		&mcpsdk.ServerOptions{
			Instructions: instructions,
			// No logging capability: the server has nothing to log to clients.
			Capabilities: &mcpsdk.ServerCapabilities{},
			SetCacheable: s.cacheable,
		})
	s.registerTools()
	s.registerFacts()    // fact.go
	s.registerEpisodes() // episode.go
	s.registerSheet()
	s.registerPeople()
	sort.Strings(s.tools)
	if s.err != nil {
		return nil, factbase.Errorf(factbase.EINTERNAL, "%v", s.err)
	}
	if o.Metrics != nil {
		m, err := newToolMetrics(o.Metrics, s.tools)
		if err != nil {
			return nil, err
		}
		s.metrics = m
	}
	// observe (observe.go) sees each call as the client will: after wireErrors
	// (rpcerror.go) has given every error a JSON-RPC code.
	s.sdk.AddReceivingMiddleware(s.observe, wireErrors)
	return s, nil
}

// cacheable marks what belongs to one user as private, so that no shared cache
// keeps it: a resource's contents (the fact sheet), and on a server for one user
// the list of resources, which names that user. Tools, prompts and templates are
// the same for every user: public, the protocol's default.
func (s *Server) cacheable(_ context.Context, req mcpsdk.Request, c *mcpsdk.Cacheable) {
	switch req.(type) {
	case *mcpsdk.ReadResourceRequest:
		c.CacheScope = "private"
	case *mcpsdk.ListResourcesRequest:
		if s.opts.User != "" {
			c.CacheScope = "private"
		}
	}
}

// instructions tell a connected client what the server is for.
const instructions = `Factbase is the user's long-term memory. Call "remember" with what the user says ` +
	`about themself (favorites, email, name, city, work, birthday) and "ask" for questions about it; ` +
	`"recall" gathers what bears on a question, grouped by person; "search" finds facts and episodes; ` +
	`"add_episode" stores what happened as a narrative record; "list_facts", "get_fact", ` +
	`"fact_history" and "set_fact" read and write facts directly; "forget" retracts or deletes with ` +
	`a reason, and "erase_fact" erases one fact once confirmed; "list_people", "list_conflicts" and ` +
	`"resolve_conflict" handle the people the user mentions and the changes that wait for their ` +
	`confirmation. Leave the "user" argument out unless you were told to name a user.`

// SDK returns the underlying SDK server, e.g. to connect it over another transport.
func (s *Server) SDK() *mcpsdk.Server { return s.sdk }

// Tools returns the names of the registered tools, sorted.
func (s *Server) Tools() []string { return append([]string(nil), s.tools...) }

// Run serves one session over t (for example &Stdio{In: os.Stdin, Out: os.Stdout},
// which survives a line that is not JSON-RPC and answers what is in flight before
// it ends) until the client disconnects or ctx is cancelled.
func (s *Server) Run(ctx context.Context, t mcpsdk.Transport) error {
	err := s.sdk.Run(ctx, t)
	if ctx.Err() != nil || errors.Is(err, mcpsdk.ErrConnectionClosed) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// Caller is embedded in every tool's input: the optional user argument.
type Caller struct {
	User string `json:"user,omitempty" format:"uuid" maxLength:"64" jsonschema:"The id (a UUID) of the user whose memory to use. Leave it out: the server or your API key already names the user. Only an application key or a server without keys needs it."`
}

// userArg returns the user argument; tool inputs get it by embedding Caller.
func (c Caller) userArg() string { return c.User }

// callerInput is satisfied by every tool input (they embed Caller).
type callerInput interface{ userArg() string }

// user resolves whom a call acts for: the key's user, the server's user, or the user
// argument, refusing a user the key or server does not serve.
func (s *Server) user(extra *mcpsdk.RequestExtra, arg string) (factbase.UserID, error) {
	var named factbase.UserID
	if arg != "" {
		u, err := factbase.ParseUserID(arg)
		if err != nil {
			return "", err
		}
		named = u
	}
	if extra != nil && extra.TokenInfo != nil {
		k, ok := extra.TokenInfo.Extra[keyInfo].(factbase.Key)
		if !ok {
			return "", factbase.Errorf(factbase.EUNAUTHORIZED, "the request's credentials are not a Factbase API key")
		}
		switch {
		case k.User == "" && named == "":
			return "", factbase.Errorf(factbase.EINVALID, "unknown user: API key %s is an application key, so the user argument (a UUID) is required", k.ID)
		case k.User == "":
			return named, nil
		case named != "" && named != k.User:
			return "", factbase.Errorf(factbase.EFORBIDDEN, "API key %s belongs to another user; it cannot act for user %s", k.ID, named)
		}
		return k.User, nil
	}
	if s.opts.requireKey {
		return "", factbase.Errorf(factbase.EUNAUTHORIZED, "missing API key")
	}
	if s.opts.User != "" {
		if named != "" && named != s.opts.User {
			return "", factbase.Errorf(factbase.EFORBIDDEN, "this server acts for user %s only, not for user %s", s.opts.User, named)
		}
		return s.opts.User, nil
	}
	if named == "" {
		return "", factbase.Errorf(factbase.EINVALID, "unknown user: the user argument (a UUID) is required on this server")
	}
	return named, nil
}

// clientMessage is what the client is told of an engine error: the domain error's
// message ("internal error" for an internal one, whose details only the log gets).
func clientMessage(err error) string {
	msg := factbase.ErrorMessage(err)
	if factbase.ErrorCode(err) == factbase.EUNAVAILABLE {
		msg = "store unavailable: " + msg
	}
	return msg
}

// addTool registers a typed tool whose handler receives the resolved user. Its
// input schema is In's with the constraints of its struct tags (inputSchema). A
// panic in a handler becomes an internal tool error, never a crash or a stack trace
// sent to the client. What the call did (its user, its error) is noted for the
// call's log line and metrics (observe.go).
func addTool[In callerInput, Out any](s *Server, t *mcpsdk.Tool, h func(ctx context.Context, user factbase.UserID, in In) (Out, error)) {
	s.tools = append(s.tools, t.Name)
	is, err := inputSchema[In]()
	if err != nil {
		s.err = errors.Join(s.err, err) // New fails: a tool must not lose its bounds unseen
		return
	}
	t.InputSchema, s.schemas[t.Name] = is, is
	mcpsdk.AddTool(s.sdk, t, func(ctx context.Context, req *mcpsdk.CallToolRequest, in In) (_ *mcpsdk.CallToolResult, out Out, err error) {
		call := callOf(ctx)
		call.ran = true
		defer func() {
			if v := recover(); v != nil {
				s.log.ErrorContext(ctx, "mcp tool panicked", "tool", t.Name, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				var zero Out
				call.err = factbase.Errorf(factbase.EINTERNAL, "panic: %v", v)
				out, err = zero, errors.New("internal error")
			}
		}()
		var extra *mcpsdk.RequestExtra
		if req != nil {
			extra = req.Extra
		}
		user, err := s.user(extra, in.userArg())
		if err != nil {
			call.err = err
			return nil, out, errors.New(clientMessage(err))
		}
		call.user = user
		out, err = h(ctx, user, in)
		if err != nil {
			var zero Out
			call.err = err
			return nil, zero, errors.New(clientMessage(err))
		}
		return nil, out, nil
	})
}

// effect is what a tool does to the user's memory, for its annotations.
type effect int

const (
	reads  effect = iota // reads only
	writes               // adds or changes, never erases
	erases               // may erase
)

// tool describes a tool over the user's memory (a closed world, never the open web):
// title is its title and short the annotations' title.
func tool(name, title, short string, e effect, description string) *mcpsdk.Tool {
	a := &mcpsdk.ToolAnnotations{Title: short, OpenWorldHint: ptr(false)}
	switch e {
	case reads:
		a.ReadOnlyHint = true
	case writes:
		a.DestructiveHint = ptr(false)
	case erases:
		a.DestructiveHint = ptr(true)
	}
	return &mcpsdk.Tool{Name: name, Title: title, Description: description, Annotations: a}
}

// ptr returns a pointer to v (for the SDK's optional annotation fields).
func ptr[T any](v T) *T { return &v }
