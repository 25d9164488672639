package sqlite

import (
	"context"

	"github.com/factbase/factbase"
)

// CurrentFact is the point read: the current fact of a single-valued key, read by one
// prepared statement on the reader pool with no explicit transaction (one SELECT reads
// one consistent snapshot), which saves a BEGIN and a ROLLBACK per read. It is a tx
// without a transaction (q nil): its statements run on the pool (see tx.stmt).
func (s *Store) CurrentFact(ctx context.Context, user factbase.UserID, subject, key string) (factbase.Fact, bool, error) {
	if err := s.gate.Check(user); err != nil {
		return factbase.Fact{}, false, err
	}
	t := &tx{cache: s.rstmts, user: user, users: &s.users}
	var err error
	if t.u, err = t.userSeq(ctx, false); err != nil || t.u == 0 {
		return factbase.Fact{}, false, err
	}
	return t.Current(ctx, subject, key)
}
