package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/factbase/factbase"
)

// The API key statements, prepared at open (see allStaticQueries).
var (
	qKeyInsert = `INSERT INTO api_keys (id, name, user_id, hash, created_at) VALUES (?, ?, ?, ?, ?)`
	qKeyByHash = `SELECT id, name, user_id, hash, created_at, revoked_at FROM api_keys WHERE hash = ?`
	qKeyByID   = `SELECT id, name, user_id, hash, created_at, revoked_at FROM api_keys WHERE id = ?`
	qKeys      = `SELECT id, name, user_id, hash, created_at, revoked_at FROM api_keys ORDER BY seq`
	qKeyRevoke = `UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`

	keysQueries = []string{qKeyInsert, qKeyByHash, qKeyByID, qKeys, qKeyRevoke}
)

// CreateKey stores an API key record.
func (s *Store) CreateKey(ctx context.Context, k factbase.Key) error {
	if k.ID == "" || len(k.Hash) != 64 {
		return factbase.Errorf(factbase.EINVALID, "sqlite: a key needs an id and a hex SHA-256 hash")
	}
	if s.isClosed() {
		return factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	st, err := s.keyStmt(s.wstmts, qKeyInsert)
	if err != nil {
		return err
	}
	if _, err := st.ExecContext(ctx, k.ID, k.Name, string(k.User), k.Hash, k.CreatedAt.UnixNano()); err != nil {
		err = s.keyErr("create key", err)
		if factbase.ErrorCode(err) == factbase.EINVARIANT {
			return &factbase.Error{Code: factbase.ECONFLICT, Message: "a key with that id or hash already exists", Err: err}
		}
		return err
	}
	return nil
}

// KeyByHash returns the key whose hash is hash.
func (s *Store) KeyByHash(ctx context.Context, hash string) (factbase.Key, error) {
	if s.isClosed() {
		return factbase.Key{}, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	st, err := s.keyStmt(s.rstmts, qKeyByHash)
	if err != nil {
		return factbase.Key{}, err
	}
	k, err := scanKey(st.QueryRowContext(ctx, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return k, factbase.Errorf(factbase.ENOTFOUND, "no such key")
	}
	if err != nil {
		return k, s.keyErr("key", err)
	}
	return k, nil
}

// Keys returns every key, oldest first.
func (s *Store) Keys(ctx context.Context) ([]factbase.Key, error) {
	if s.isClosed() {
		return nil, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	st, err := s.keyStmt(s.rstmts, qKeys)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx)
	if err != nil {
		return nil, s.keyErr("keys", err)
	}
	defer rows.Close()
	out := []factbase.Key{}
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return nil, s.keyErr("keys", err)
		}
		out = append(out, k)
	}
	if err := rows.Err(); err != nil {
		return nil, s.keyErr("keys", err)
	}
	return out, nil
}

// RevokeKey marks key id revoked at the given time, unless it already is.
func (s *Store) RevokeKey(ctx context.Context, id string, at time.Time) (factbase.Key, error) {
	if s.isClosed() {
		return factbase.Key{}, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	revoke, err := s.keyStmt(s.wstmts, qKeyRevoke)
	if err != nil {
		return factbase.Key{}, err
	}
	byID, err := s.keyStmt(s.wstmts, qKeyByID)
	if err != nil {
		return factbase.Key{}, err
	}
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return factbase.Key{}, s.keyErr("revoke key", err)
	}
	defer tx.Rollback()
	if _, err := tx.StmtContext(ctx, revoke).ExecContext(ctx, at.UnixNano(), id); err != nil {
		return factbase.Key{}, s.keyErr("revoke key", err)
	}
	k, err := scanKey(tx.StmtContext(ctx, byID).QueryRowContext(ctx, id))
	if errors.Is(err, sql.ErrNoRows) {
		return k, factbase.Errorf(factbase.ENOTFOUND, "key %q not found", id)
	}
	if err != nil {
		return k, s.keyErr("revoke key", err)
	}
	if err := tx.Commit(); err != nil {
		return factbase.Key{}, s.keyErr("revoke key", err)
	}
	return k, nil
}

// keyStmt returns a statement prepared at open (keysQueries are registered in
// allStaticQueries); the cache is empty only once the store is closed.
func (s *Store) keyStmt(c *stmtCache, q string) (*sql.Stmt, error) {
	if st := c.get(q); st != nil {
		return st, nil
	}
	return nil, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
}

// keyErr maps a driver error; a statement that failed because the store was closed
// meanwhile is EUNAVAILABLE.
func (s *Store) keyErr(op string, err error) error {
	if s.isClosed() && factbase.ErrorCode(err) == factbase.EINTERNAL {
		return &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "store is closed", Err: err}
	}
	return mapErr(op, err)
}

func scanKey(r scanner) (factbase.Key, error) {
	var (
		k         factbase.Key
		user      string
		createdAt int64
		revokedAt sql.NullInt64
	)
	if err := r.Scan(&k.ID, &k.Name, &user, &k.Hash, &createdAt, &revokedAt); err != nil {
		return k, err
	}
	k.User = factbase.UserID(user)
	k.CreatedAt = time.Unix(0, createdAt).UTC()
	if revokedAt.Valid {
		t := time.Unix(0, revokedAt.Int64).UTC()
		k.RevokedAt = &t
	}
	return k, nil
}
