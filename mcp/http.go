package mcp

import (
	"context"
	"log/slog"
	"net/http"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/jobs"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
)

// Path is where the HTTP server mounts the MCP endpoint.
const Path = "/mcp"

// keyInfo is the TokenInfo.Extra entry holding the caller's factbase.Key.
const keyInfo = "factbase_key"

// HandlerOptions configure NewHandler. Engine is required; so is Keys unless NoAuth.
type HandlerOptions struct {
	// Engine serves every call.
	Engine *memory.Engine
	// Keys authenticates requests: each needs "Authorization: Bearer <key>", the same
	// API keys as the HTTP API. A user key acts for its user; an application key acts
	// for the user each call names in its user argument.
	Keys factbase.KeyStore
	// NoAuth serves without keys; every call must then name its user. The caller
	// must allow it only on a loopback address.
	NoAuth bool
	// Logger receives internal errors and the forget audit lines. Default: discard.
	Logger *slog.Logger
	// Version is reported in the MCP handshake. Default "dev".
	Version string
	// Workers is Options.Workers: the pool remember goes through, if any.
	Workers *jobs.Workers
	// Metrics is Options.Metrics: where tool calls are counted and timed, if set.
	Metrics prometheus.Registerer
}

// NewHandler returns the streamable HTTP handler of the MCP endpoint, to be mounted
// at Path. It is stateless (no Mcp-Session-Id: every request is authenticated on
// its own, and any instance behind a load balancer can serve it) and answers with
// JSON rather than event streams. A missing, unknown or revoked key is refused
// with 401 before any MCP processing; a key used for another user's data gets a
// tool error. Every error the endpoint answers itself is a JSON-RPC error object
// (the 401s with code -32001 and a WWW-Authenticate challenge). It returns EINVALID
// if Engine is nil or Keys is nil without NoAuth.
func NewHandler(o HandlerOptions) (http.Handler, error) {
	if o.Keys == nil && !o.NoAuth {
		return nil, factbase.Errorf(factbase.EINVALID, "mcp: a key store is required unless NoAuth is set")
	}
	s, err := New(Options{Engine: o.Engine, Logger: o.Logger, Version: o.Version, Workers: o.Workers, Metrics: o.Metrics,
		requireKey: !o.NoAuth})
	if err != nil {
		return nil, err
	}
	return s.handler(o), nil
}

func (s *Server) handler(o HandlerOptions) http.Handler {
	// The SDK refuses requests that reach a loopback address with another Host, against
	// DNS rebinding. With keys, a rebinding page has no key to send, and a reverse
	// proxy on the same machine (Host: the public name) must get through; without
	// keys the protection stays on.
	h := http.Handler(mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return s.sdk },
		&mcpsdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: s.log,
			DisableLocalhostProtection: !o.NoAuth}))
	if o.NoAuth {
		return rpcErrors(h) // rpcerror.go
	}
	// The SDK's bearer middleware carries the key to the tool handlers (as
	// RequestExtra.TokenInfo); the key was checked by authenticate before it.
	verify := func(ctx context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
		k, ok := r.Context().Value(keyContext{}).(factbase.Key)
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: k.ID, Extra: map[string]any{keyInfo: k}}, nil
	}
	h = auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h)
	return rpcErrors(&authenticator{keys: o.Keys, log: s.log, next: h})
}

type keyContext struct{}

// authenticator checks the API key of every request to the MCP endpoint.
type authenticator struct {
	keys factbase.KeyStore
	log  *slog.Logger
	next http.Handler
}

func (a *authenticator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := r.Header.Get("Authorization")
	if h == "" {
		unauthorized(w, "missing API key: send the header \"Authorization: Bearer <key>\" (create a key with \"factbase keys create\")")
		return
	}
	scheme, secret, _ := strings.Cut(h, " ")
	secret = strings.TrimSpace(secret)
	if !strings.EqualFold(scheme, "Bearer") || secret == "" {
		unauthorized(w, "the Authorization header must be \"Bearer <key>\"")
		return
	}
	if !factbase.LooksLikeKey(secret) {
		unauthorized(w, "invalid API key")
		return
	}
	k, err := a.keys.KeyByHash(r.Context(), factbase.HashKey(secret))
	switch {
	case factbase.ErrorCode(err) == factbase.ENOTFOUND:
		unauthorized(w, "invalid API key")
		return
	case err != nil:
		a.log.ErrorContext(r.Context(), "mcp: key lookup failed", "error", err.Error())
		writeRPCError(w, http.StatusServiceUnavailable, jsonrpc.CodeInternalError, "store unavailable: cannot check the API key")
		return
	case !k.Matches(secret): // a store returning the wrong row must not let it in
		unauthorized(w, "invalid API key")
		return
	case k.Revoked():
		unauthorized(w, "API key "+k.ID+" has been revoked")
		return
	}
	ctx := factbase.WithActor(context.WithValue(r.Context(), keyContext{}, k), "mcp:key:"+k.ID)
	a.next.ServeHTTP(w, r.WithContext(ctx))
}

func unauthorized(w http.ResponseWriter, msg string) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="factbase"`)
	writeRPCError(w, http.StatusUnauthorized, codeUnauthorized, msg)
}
