package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/factbase/factbase/internal/sealdb"
	"github.com/factbase/factbase/internal/storeerr"
)

// Setting returns the value of setting name; ok is false when it has none.
func (s *Store) Setting(ctx context.Context, name string) (string, bool, error) {
	if err := sealdb.CheckSetting(name); err != nil {
		return "", false, err
	}
	if s.gate.Closed() {
		return "", false, storeerr.ErrClosed
	}
	var v string
	err := s.reader.QueryRowContext(ctx, "SELECT value FROM settings WHERE name = ?", name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, s.staticErr("setting", err)
	}
	return v, true, nil
}

// SwapSetting sets name to value if its value is old, in one statement on the one
// writer connection: ECONFLICT otherwise.
func (s *Store) SwapSetting(ctx context.Context, name, old, value string) error {
	if err := sealdb.CheckSetting(name); err != nil {
		return err
	}
	if s.gate.Closed() {
		return storeerr.ErrClosed
	}
	var (
		q    string
		args []any
	)
	switch {
	case old == "" && value == "":
		// Nothing to write: the setting must simply be absent.
		var n int
		if err := s.writer.QueryRowContext(ctx, "SELECT count(*) FROM settings WHERE name = ?", name).Scan(&n); err != nil {
			return s.staticErr("swap setting", err)
		}
		if n != 0 {
			return sealdb.SettingConflict(name, old)
		}
		return nil
	case old == "":
		q, args = "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", []any{name, value}
	case value == "":
		q, args = "DELETE FROM settings WHERE name = ? AND value = ?", []any{name, old}
	default:
		q, args = "UPDATE settings SET value = ? WHERE name = ? AND value = ?", []any{value, name, old}
	}
	res, err := s.writer.ExecContext(ctx, q, args...)
	if err != nil {
		return s.staticErr("swap setting", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return sealdb.SettingConflict(name, old)
	}
	return nil
}
