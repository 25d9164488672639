package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

// testKeys checks a store's API keys (factbase.KeyStore).
func testKeys(t *testing.T, s factbase.Store) {
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	user := NewUser()

	keys, err := s.Keys(ctx)
	if err != nil {
		t.Fatalf("Keys on an empty store: %v", err)
	}
	if len(keys) != 0 {
		t.Fatalf("Keys on an empty store = %d keys, want 0", len(keys))
	}

	appSecret, app, err := factbase.NewKey("", "backend", now)
	if err != nil {
		t.Fatalf("NewKey: %v", err)
	}
	userSecret, uk, err := factbase.NewKey(user, "phone", now.Add(time.Second))
	if err != nil {
		t.Fatalf("NewKey(user): %v", err)
	}
	for _, k := range []factbase.Key{app, uk} {
		if err := s.CreateKey(ctx, k); err != nil {
			t.Fatalf("CreateKey(%s): %v", k.ID, err)
		}
	}

	cases := []struct {
		name   string
		secret string
		want   factbase.Key
	}{
		{name: "application key", secret: appSecret, want: app},
		{name: "user key", secret: userSecret, want: uk},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.KeyByHash(ctx, factbase.HashKey(tc.secret))
			if err != nil {
				t.Fatalf("KeyByHash: %v", err)
			}
			if got.ID != tc.want.ID || got.Name != tc.want.Name || got.User != tc.want.User ||
				got.Hash != tc.want.Hash || !got.CreatedAt.Equal(tc.want.CreatedAt) || got.Revoked() {
				t.Errorf("KeyByHash = %+v, want %+v", got, tc.want)
			}
			if !got.Matches(tc.secret) {
				t.Errorf("the stored key does not match its secret")
			}
		})
	}

	if _, err := s.KeyByHash(ctx, factbase.HashKey(appSecret+"x")); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("KeyByHash(unknown) error = %v, want %s", err, factbase.ENOTFOUND)
	}
	dup := app
	dup.ID = "key_other"
	if err := s.CreateKey(ctx, dup); factbase.ErrorCode(err) != factbase.ECONFLICT {
		t.Errorf("CreateKey with a stored hash: error = %v, want %s", err, factbase.ECONFLICT)
	}

	keys, err = s.Keys(ctx)
	if err != nil {
		t.Fatalf("Keys: %v", err)
	}
	if len(keys) != 2 || keys[0].ID != app.ID || keys[1].ID != uk.ID {
		t.Fatalf("Keys = %+v, want %s then %s", keys, app.ID, uk.ID)
	}

	revokedAt := now.Add(time.Hour)
	got, err := s.RevokeKey(ctx, uk.ID, revokedAt)
	if err != nil {
		t.Fatalf("RevokeKey: %v", err)
	}
	if !got.Revoked() || !got.RevokedAt.Equal(revokedAt) {
		t.Errorf("RevokeKey returned revoked_at %v, want %v", got.RevokedAt, revokedAt)
	}
	got, err = s.RevokeKey(ctx, uk.ID, revokedAt.Add(time.Hour))
	if err != nil {
		t.Fatalf("RevokeKey again: %v", err)
	}
	if !got.RevokedAt.Equal(revokedAt) {
		t.Errorf("a second RevokeKey moved revoked_at to %v, want it kept at %v", got.RevokedAt, revokedAt)
	}
	got, err = s.KeyByHash(ctx, factbase.HashKey(userSecret))
	if err != nil || !got.Revoked() {
		t.Errorf("KeyByHash after revoking = %+v, %v; want the key, revoked", got, err)
	}
	if got, err := s.KeyByHash(ctx, factbase.HashKey(appSecret)); err != nil || got.Revoked() {
		t.Errorf("revoking one key touched another: %+v, %v", got, err)
	}
	if _, err := s.RevokeKey(ctx, "key_nope", now); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("RevokeKey(unknown) error = %v, want %s", err, factbase.ENOTFOUND)
	}

	// Keys are created concurrently by several processes' CLIs and looked up by
	// every request: both must be safe at once.
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, k, err := factbase.NewKey("", "", now.Add(time.Duration(i)*time.Minute))
			if err == nil {
				err = s.CreateKey(ctx, k)
			}
			if err != nil {
				errs <- err
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := s.KeyByHash(ctx, factbase.HashKey(appSecret)); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent key use: %v", err)
	}
	if keys, err := s.Keys(ctx); err != nil || len(keys) != 10 {
		t.Errorf("Keys after 8 concurrent creations = %d keys, %v; want 10", len(keys), err)
	}

	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := s.KeyByHash(ctx, factbase.HashKey(appSecret)); factbase.ErrorCode(err) != factbase.EUNAVAILABLE {
		t.Errorf("KeyByHash on a closed store: error = %v, want %s", err, factbase.EUNAVAILABLE)
	}
	if err := s.CreateKey(ctx, dup); factbase.ErrorCode(err) != factbase.EUNAVAILABLE {
		t.Errorf("CreateKey on a closed store: error = %v, want %s", err, factbase.EUNAVAILABLE)
	}
}
