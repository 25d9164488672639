package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/factbase/factbase"
	"github.com/jackc/pgx/v5"
)

// The API key statements.
const (
	qKeyInsert = `INSERT INTO api_keys (id, name, user_id, hash, created_at) VALUES ($1, $2, $3, $4, $5)`
	qKeyByHash = `SELECT id, name, user_id, hash, created_at, revoked_at FROM api_keys WHERE hash = $1`
	qKeyList   = `SELECT id, name, user_id, hash, created_at, revoked_at FROM api_keys ORDER BY seq`
	// One statement revokes and returns the key; a key already revoked keeps its time.
	qKeyRevoke = `UPDATE api_keys SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2
		RETURNING id, name, user_id, hash, created_at, revoked_at`
)

// CreateKey stores an API key record; a key with the same id or hash is ECONFLICT.
func (s *Store) CreateKey(ctx context.Context, k factbase.Key) error {
	if k.ID == "" || len(k.Hash) != 64 {
		return factbase.Errorf(factbase.EINVALID, "postgres: a key needs an id and a hex SHA-256 hash")
	}
	if s.isClosed() {
		return factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	_, err := s.pool.Exec(ctx, qKeyInsert, k.ID, k.Name, string(k.User), k.Hash, k.CreatedAt.UnixNano())
	if err != nil {
		err = mapErr("create key", err)
		if factbase.ErrorCode(err) == factbase.EINVARIANT {
			return &factbase.Error{Code: factbase.ECONFLICT, Message: "a key with that id or hash already exists", Err: err}
		}
		return err
	}
	return nil
}

// KeyByHash returns the key whose hash is hash, revoked or not; ENOTFOUND if none.
func (s *Store) KeyByHash(ctx context.Context, hash string) (factbase.Key, error) {
	if s.isClosed() {
		return factbase.Key{}, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	k, err := scanKey(s.pool.QueryRow(ctx, qKeyByHash, hash))
	if errors.Is(err, pgx.ErrNoRows) {
		return k, factbase.Errorf(factbase.ENOTFOUND, "no such key")
	}
	return k, mapErr("key", err)
}

// Keys returns every key, oldest first.
func (s *Store) Keys(ctx context.Context) ([]factbase.Key, error) {
	if s.isClosed() {
		return nil, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	rows, err := s.pool.Query(ctx, qKeyList)
	if err != nil {
		return nil, mapErr("keys", err)
	}
	defer rows.Close()
	out := []factbase.Key{}
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return nil, mapErr("keys", err)
		}
		out = append(out, k)
	}
	return out, mapErr("keys", rows.Err())
}

// RevokeKey marks key id revoked at the given time, unless it already is, and
// returns it; ENOTFOUND if no key has that id.
func (s *Store) RevokeKey(ctx context.Context, id string, at time.Time) (factbase.Key, error) {
	if s.isClosed() {
		return factbase.Key{}, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	k, err := scanKey(s.pool.QueryRow(ctx, qKeyRevoke, at.UnixNano(), id))
	if errors.Is(err, pgx.ErrNoRows) {
		return k, factbase.Errorf(factbase.ENOTFOUND, "key %q not found", id)
	}
	return k, mapErr("revoke key", err)
}

func scanKey(r scanner) (factbase.Key, error) {
	var (
		k         factbase.Key
		user      string
		createdAt int64
		revokedAt *int64
	)
	if err := r.Scan(&k.ID, &k.Name, &user, &k.Hash, &createdAt, &revokedAt); err != nil {
		return k, err
	}
	k.User = factbase.UserID(user)
	k.CreatedAt = time.Unix(0, createdAt).UTC()
	if revokedAt != nil {
		t := time.Unix(0, *revokedAt).UTC()
		k.RevokedAt = &t
	}
	return k, nil
}
