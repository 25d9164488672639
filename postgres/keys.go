package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/storeerr"
)

// The API key statements.
const (
	qKeyInsert = `INSERT INTO api_keys (id, name, user_id, hash, created_at) VALUES ($1, $2, $3, $4, $5)`
	qKeyByHash = `SELECT ` + rowcodec.KeyColumns + ` FROM api_keys WHERE hash = $1`
	qKeyList   = `SELECT ` + rowcodec.KeyColumns + ` FROM api_keys ORDER BY seq`
	// One statement revokes and returns the key; a key already revoked keeps its time.
	qKeyRevoke = `UPDATE api_keys SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2
		RETURNING ` + rowcodec.KeyColumns
)

// CreateKey stores an API key record; a key with the same id or hash is ECONFLICT.
func (s *Store) CreateKey(ctx context.Context, k factbase.Key) error {
	if err := k.Validate(); err != nil {
		return err
	}
	if s.gate.Closed() {
		return storeerr.ErrClosed
	}
	_, err := s.pool.Exec(ctx, qKeyInsert, k.ID, k.Name, string(k.User), k.Hash, k.CreatedAt.UnixNano())
	return storeerr.Taken(mapErr("create key", err), "a key with that id or hash already exists")
}

// KeyByHash returns the key whose hash is hash, revoked or not; ENOTFOUND if none.
func (s *Store) KeyByHash(ctx context.Context, hash string) (factbase.Key, error) {
	if s.gate.Closed() {
		return factbase.Key{}, storeerr.ErrClosed
	}
	k, err := rowcodec.Key(s.pool.QueryRow(ctx, qKeyByHash, hash))
	if errors.Is(err, pgx.ErrNoRows) {
		return k, factbase.Errorf(factbase.ENOTFOUND, "no such key")
	}
	return k, mapErr("key", err)
}

// Keys returns every key, oldest first.
func (s *Store) Keys(ctx context.Context) ([]factbase.Key, error) {
	keys, err := poolAll(ctx, s, "keys", qKeyList, rowcodec.Key)
	if err != nil {
		return nil, err
	}
	return rowcodec.NonNil(keys), nil
}

// RevokeKey marks key id revoked at the given time, unless it already is, and
// returns it; ENOTFOUND if no key has that id.
func (s *Store) RevokeKey(ctx context.Context, id string, at time.Time) (factbase.Key, error) {
	if s.gate.Closed() {
		return factbase.Key{}, storeerr.ErrClosed
	}
	k, err := rowcodec.Key(s.pool.QueryRow(ctx, qKeyRevoke, at.UnixNano(), id))
	return k, mapErr("revoke key", storeerr.NotFoundIf(err, pgx.ErrNoRows, "key", id))
}
