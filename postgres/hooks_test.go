package postgres

import "github.com/jackc/pgx/v5/pgxpool"

// PoolOf returns s's connection pool, for this package's external tests that read or
// change the database behind the store's back. It exists in test builds only.
func PoolOf(s *Store) *pgxpool.Pool { return s.pool }
