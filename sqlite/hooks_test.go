package sqlite

import "database/sql"

// WriterOf returns s's write connection pool, for this package's external tests that
// read or corrupt the file behind the store's back. It exists in test builds only.
func WriterOf(s *Store) *sql.DB { return s.writer }
