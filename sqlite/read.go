package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/factbase/factbase"
)

var _ factbase.PointReader = (*Store)(nil)

// CurrentFact is the point read: the current fact of a single-valued key, read by one
// prepared statement on the reader pool with no explicit transaction (one SELECT reads
// one consistent snapshot), which saves a BEGIN and a ROLLBACK per read.
func (s *Store) CurrentFact(ctx context.Context, user factbase.UserID, subject, key string) (factbase.Fact, bool, error) {
	if !user.Valid() {
		return factbase.Fact{}, false, factbase.Errorf(factbase.EINVALID, "user id %q is not a UUID", string(user))
	}
	if s.isClosed() {
		return factbase.Fact{}, false, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	t := &tx{cache: s.rstmts, user: user, users: &s.users}
	userStmt, currentStmt := s.rstmts.get(qUserSeq), s.rstmts.get(qCurrent)
	if userStmt == nil || currentStmt == nil {
		return factbase.Fact{}, false, factbase.Errorf(factbase.EUNAVAILABLE, "store is closed")
	}
	var seq int64
	if v, ok := s.users.Load(user); ok {
		seq = v.(int64)
	} else {
		err := userStmt.QueryRowContext(ctx, string(user)).Scan(&seq)
		if errors.Is(err, sql.ErrNoRows) {
			return factbase.Fact{}, false, nil
		}
		if err != nil {
			return factbase.Fact{}, false, mapErr("user", err)
		}
		s.users.Store(user, seq)
	}
	f, err := t.scanFact(currentStmt.QueryRowContext(ctx, seq, subject, key))
	if errors.Is(err, sql.ErrNoRows) {
		return factbase.Fact{}, false, nil
	}
	if err != nil {
		return factbase.Fact{}, false, err
	}
	return f, true, nil
}
