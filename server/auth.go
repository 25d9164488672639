package server

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
)

// bearerScheme names the security scheme in the OpenAPI document.
const bearerScheme = "bearer"

// authenticate is the huma middleware that guards /v1: a missing, unknown or revoked
// key is 401; a user key used on another user's path is 403.
func (s *Server) authenticate(ctx huma.Context, next func(huma.Context)) {
	if s.opts.NoAuth || !strings.HasPrefix(ctx.Operation().Path, "/v1/") {
		next(huma.WithContext(ctx, factbase.WithActor(ctx.Context(), "http:no-auth")))
		return
	}
	unauthorized := func(msg string) {
		ctx.SetHeader("WWW-Authenticate", `Bearer realm="factbase"`)
		huma.WriteErr(s.api, ctx, http.StatusUnauthorized, msg)
	}
	h := ctx.Header("Authorization")
	if h == "" {
		unauthorized("missing API key: send the header \"Authorization: Bearer <key>\" (create a key with \"factbase keys create\")")
		return
	}
	scheme, secret, _ := strings.Cut(h, " ")
	secret = strings.TrimSpace(secret)
	if !strings.EqualFold(scheme, "Bearer") || secret == "" {
		unauthorized("the Authorization header must be \"Bearer <key>\"")
		return
	}
	if !factbase.LooksLikeKey(secret) {
		unauthorized("invalid API key")
		return
	}
	key, err := s.keys.lookup(ctx.Context(), secret)
	switch {
	case factbase.ErrorCode(err) == factbase.ENOTFOUND:
		unauthorized("invalid API key")
		return
	case err != nil:
		se := fail(ctx.Context(), err)
		huma.WriteErr(s.api, ctx, se.GetStatus(), se.Error())
		return
	case key.Revoked():
		unauthorized("API key " + key.ID + " has been revoked")
		return
	}
	ri := reqInfoFrom(ctx.Context())
	if ri != nil {
		ri.keyID, ri.keyUser = key.ID, key.User
	}
	if p := ctx.Param("user"); p != "" {
		// A malformed user id is left to the handler, which answers 422.
		if u, err := factbase.ParseUserID(p); err == nil && !key.Allows(u) {
			huma.WriteErr(s.api, ctx, http.StatusForbidden, "API key "+key.ID+" is not for user "+string(u))
			return
		}
	}
	next(huma.WithContext(ctx, factbase.WithActor(ctx.Context(), "key:"+key.ID)))
}

// keyCache looks keys up by hash and remembers found keys for a short time, so that
// a busy client does not cost a store read per request. Unknown keys are not cached.
type keyCache struct {
	store factbase.KeyStore
	ttl   time.Duration

	mu sync.Mutex
	m  map[string]cachedKey
}

type cachedKey struct {
	key     factbase.Key
	expires time.Time
}

// maxCachedKeys bounds the cache; it is emptied when full.
const maxCachedKeys = 4096

func newKeyCache(store factbase.KeyStore, ttl time.Duration) *keyCache {
	return &keyCache{store: store, ttl: ttl, m: map[string]cachedKey{}}
}

// lookup returns the key whose secret is secret. ENOTFOUND if there is none.
func (c *keyCache) lookup(ctx context.Context, secret string) (factbase.Key, error) {
	if c.store == nil {
		return factbase.Key{}, factbase.Errorf(factbase.EUNAVAILABLE, "no key store is configured")
	}
	hash := factbase.HashKey(secret)
	now := time.Now()
	if c.ttl > 0 {
		c.mu.Lock()
		ck, ok := c.m[hash]
		c.mu.Unlock()
		if ok && now.Before(ck.expires) {
			return ck.key, nil
		}
	}
	k, err := c.store.KeyByHash(ctx, hash)
	if err != nil {
		return factbase.Key{}, err
	}
	if !k.Matches(secret) { // a store returning the wrong row must not let it in
		return factbase.Key{}, factbase.Errorf(factbase.ENOTFOUND, "no such key")
	}
	if c.ttl > 0 {
		c.mu.Lock()
		if len(c.m) >= maxCachedKeys {
			clear(c.m)
		}
		c.m[hash] = cachedKey{key: k, expires: now.Add(c.ttl)}
		c.mu.Unlock()
	}
	return k, nil
}
