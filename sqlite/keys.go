package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/storeerr"
)

// The API key statements, prepared at open (see allStaticQueries).
var (
	qKeyInsert = `INSERT INTO api_keys (id, name, user_id, hash, created_at) VALUES (?, ?, ?, ?, ?)`
	qKeyByHash = `SELECT ` + rowcodec.KeyColumns + ` FROM api_keys WHERE hash = ?`
	qKeyByID   = `SELECT ` + rowcodec.KeyColumns + ` FROM api_keys WHERE id = ?`
	qKeys      = `SELECT ` + rowcodec.KeyColumns + ` FROM api_keys ORDER BY seq`
	qKeyRevoke = `UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`

	keysQueries = []string{qKeyInsert, qKeyByHash, qKeyByID, qKeys, qKeyRevoke}
)

// CreateKey stores an API key record.
func (s *Store) CreateKey(ctx context.Context, k factbase.Key) error {
	if err := k.Validate(); err != nil {
		return err
	}
	st, err := s.static(s.wstmts, qKeyInsert)
	if err != nil {
		return err
	}
	_, err = st.ExecContext(ctx, k.ID, k.Name, string(k.User), k.Hash, k.CreatedAt.UnixNano())
	return storeerr.Taken(s.staticErr("create key", err), "a key with that id or hash already exists")
}

// KeyByHash returns the key whose hash is hash.
func (s *Store) KeyByHash(ctx context.Context, hash string) (factbase.Key, error) {
	st, err := s.static(s.rstmts, qKeyByHash)
	if err != nil {
		return factbase.Key{}, err
	}
	k, err := rowcodec.Key(st.QueryRowContext(ctx, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return k, factbase.Errorf(factbase.ENOTFOUND, "no such key")
	}
	return k, s.staticErr("key", err)
}

// Keys returns every key, oldest first.
func (s *Store) Keys(ctx context.Context) ([]factbase.Key, error) {
	st, err := s.static(s.rstmts, qKeys)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx)
	return staticAll(s, "keys", rows, err, rowcodec.Key)
}

// RevokeKey marks key id revoked at the given time, unless it already is.
func (s *Store) RevokeKey(ctx context.Context, id string, at time.Time) (factbase.Key, error) {
	revoke, err := s.static(s.wstmts, qKeyRevoke)
	if err != nil {
		return factbase.Key{}, err
	}
	byID, err := s.static(s.wstmts, qKeyByID)
	if err != nil {
		return factbase.Key{}, err
	}
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return factbase.Key{}, s.staticErr("revoke key", err)
	}
	defer tx.Rollback()
	if _, err := tx.StmtContext(ctx, revoke).ExecContext(ctx, at.UnixNano(), id); err != nil {
		return factbase.Key{}, s.staticErr("revoke key", err)
	}
	k, err := rowcodec.Key(tx.StmtContext(ctx, byID).QueryRowContext(ctx, id))
	if err != nil {
		return k, s.staticErr("revoke key", storeerr.NotFoundIf(err, sql.ErrNoRows, "key", id))
	}
	if err := tx.Commit(); err != nil {
		return factbase.Key{}, s.staticErr("revoke key", err)
	}
	return k, nil
}
