package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase/internal/sealdb"
	"github.com/factbase/factbase/internal/storeerr"
)

// The statements of settings. Each SwapSetting is one statement, atomic under
// concurrent ones: of two inserts of the same name one finds the other's row.
const (
	qSetting        = "SELECT value FROM settings WHERE name = $1"
	qSettingAbsent  = "SELECT NOT EXISTS (SELECT 1 FROM settings WHERE name = $1)"
	qSettingCreate  = "INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING"
	qSettingDelete  = "DELETE FROM settings WHERE name = $1 AND value = $2"
	qSettingReplace = "UPDATE settings SET value = $3 WHERE name = $1 AND value = $2"
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
	err := s.pool.QueryRow(ctx, qSetting, name).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, mapErr("setting", err)
	}
	return v, true, nil
}

// SwapSetting sets name to value if its value is old, in one statement: ECONFLICT
// otherwise.
func (s *Store) SwapSetting(ctx context.Context, name, old, value string) error {
	if err := sealdb.CheckSetting(name); err != nil {
		return err
	}
	if s.gate.Closed() {
		return storeerr.ErrClosed
	}
	if old == "" && value == "" {
		// Nothing to write: the setting must simply be absent.
		var absent bool
		if err := s.pool.QueryRow(ctx, qSettingAbsent, name).Scan(&absent); err != nil {
			return mapErr("swap setting", err)
		}
		if !absent {
			return sealdb.SettingConflict(name, old)
		}
		return nil
	}
	q, args := qSettingReplace, []any{name, old, value}
	switch {
	case old == "":
		q, args = qSettingCreate, []any{name, value}
	case value == "":
		q, args = qSettingDelete, []any{name, old}
	}
	tag, err := s.pool.Exec(ctx, q, args...)
	if err != nil {
		return mapErr("swap setting", err)
	}
	if tag.RowsAffected() != 1 {
		return sealdb.SettingConflict(name, old)
	}
	return nil
}
