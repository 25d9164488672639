package sealed

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/seal"
)

// sealedText finds the sealed texts in a column, also inside JSON.
var sealedText = regexp.MustCompile(`fb1\.[0-9a-f]{8}\.[A-Za-z0-9+/]+`)

// settle is how long after a rotation starts a pass must begin for a clean pass to
// end it: by then every server has read the new key record (refreshEvery) and the
// write transactions that began before, with the old key, have ended. A write
// transaction that runs longer may leave a text sealed with the old key, which the
// servers that knew the old key still read.
const settle = 2 * refreshEvery

// Rotate re-seals every text of inner, sealed with oldKey, with newKey, while the
// database serves. It stores the start of the rotation in the key record, so that
// every server holding the old key starts sealing with the new one within
// refreshEvery and reads texts of both; then it reads every sealed table of every
// user (factbase.SealedTables) in batches of batch rows, re-sealing what the old key
// sealed, and repeats until a pass (begun settle after the start) finds nothing to
// re-seal; last it stores the record that names the new key alone, after which the
// database opens with the new key only (a server that ran with the old key through
// the rotation keeps the new key it learnt). progress, when not nil, is called after
// each batch with the table and the rows of it read so far in this pass.
//
// A rotation that stopped (a crash, a cancelled context) is resumed by calling
// Rotate again with the same keys; a database already sealed with newKey alone is
// left as it is. Safe to run while servers write; two rotations at once are not.
func Rotate(ctx context.Context, inner factbase.Store, oldKey, newKey *seal.Key, batch int, progress func(table string, done int)) error {
	if oldKey == nil || newKey == nil {
		return factbase.Errorf(factbase.EINVALID, "sealed: a rotation needs the old and the new data key")
	}
	if batch <= 0 {
		return factbase.Errorf(factbase.EINVALID, "sealed: a rotation's batch must be positive, got %d", batch)
	}
	v, ok, err := inner.Setting(ctx, seal.SettingName)
	if err != nil {
		return err
	}
	if !ok {
		return factbase.Errorf(factbase.EINVALID, "this database is not sealed: there is no data key to rotate")
	}
	rec, err := seal.ParseRecord(v)
	if err != nil {
		return factbase.Errorf(factbase.EINVALID, "sealed: %v", err)
	}
	if len(rec.Keys) == 1 && rec.Keys[0] == newKey.ID() {
		return nil // done already
	}
	kr, err := seal.OpenKeyring(rec, oldKey)
	if err != nil {
		return factbase.Errorf(factbase.EINVALID, "%v", err)
	}
	kr, started, err := kr.Rotate(rec, newKey)
	if err != nil {
		return factbase.Errorf(factbase.EINVALID, "%v", err)
	}
	if started.String() != v {
		if err := inner.SwapSetting(ctx, seal.SettingName, v, started.String()); err != nil {
			return fmt.Errorf("sealed: start the rotation: %w", err)
		}
	}
	start := time.Now()

	tables := slices.Sorted(maps.Keys(factbase.SealedTables))
	for {
		began := time.Now()
		changed := 0
		for _, table := range tables {
			n, err := reseal(ctx, inner, kr, table, batch, progress)
			if err != nil {
				return err
			}
			changed += n
		}
		if changed == 0 && began.Sub(start) >= settle {
			break
		}
		if changed == 0 {
			select { // a clean pass too soon: wait for the servers to settle
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(settle - began.Sub(start)):
			}
		}
	}
	if err := inner.SwapSetting(ctx, seal.SettingName, started.String(), kr.Finish().String()); err != nil {
		return fmt.Errorf("sealed: finish the rotation: %w", err)
	}
	return nil
}

// reseal makes one pass over table, re-sealing with kr's key every text a stale
// key sealed, and returns how many rows it wrote back.
func reseal(ctx context.Context, inner factbase.Store, kr *seal.Keyring, table string, batch int, progress func(string, int)) (int, error) {
	after, read, changed := "", 0, 0
	for {
		var got int
		next, n, err := inner.ResealRows(ctx, table, after, batch, func(rows []factbase.SealedRow) error {
			got = len(rows)
			for i := range rows {
				if err := resealRow(kr, table, &rows[i]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return 0, err
		}
		read, changed = read+got, changed+n
		if progress != nil {
			progress(table, read)
		}
		if next == "" {
			return changed, nil
		}
		after = next
	}
}

// resealRow re-seals with kr's key, in place, the texts of row a stale key sealed.
func resealRow(kr *seal.Keyring, table string, row *factbase.SealedRow) error {
	var err error
	for j, text := range row.Texts {
		row.Texts[j] = sealedText.ReplaceAllStringFunc(text, func(s string) string {
			if err != nil || !kr.Stale(s) {
				return s
			}
			plain, oerr := kr.Open(string(row.User), row.Row, s)
			if oerr != nil {
				err = fmt.Errorf("sealed: rotate: %s row %s of user %s: %w", table, row.Row, row.User, oerr)
				return s
			}
			return kr.Seal(string(row.User), row.Row, plain)
		})
	}
	return err
}
