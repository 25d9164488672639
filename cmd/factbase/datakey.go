package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/seal"
	"github.com/factbase/factbase/sealed"
)

const datakeyUsage = `Usage: factbase datakey <new|status|rotate> [flags]

A data key (32 random bytes in a file) encrypts every text a person wrote before
the store keeps it: fact values and texts, names and aliases, episodes, transcript
sessions, conflicts, saved sheets, queued messages (docs/security.md). Give it to
every command with --data-key-file FILE or $FACTBASE_DATA_KEY_FILE. A database is
sealed when it is created with a key; without its key it refuses to open, and with
another key too. Keep the key apart from the database and its backups: without it
the texts are lost.

  datakey new --out FILE          make a new data key (the file must not exist)
  datakey status                  say whether --db is sealed, with which key, and
                                  whether --data-key-file opens it
  datakey rotate --new-key-file F re-encrypt --db's texts under a new key, in
                                  batches, while servers keep serving; resumable
                                  (run it again after an interruption); servers
                                  started with the old key keep working until
                                  restarted, and must then be given the new key
`

func (m *Main) runDatakey(ctx context.Context, args []string) error {
	sub, _, err := m.pickSubcommand(args, "datakey", datakeyUsage, subcommand{"new", 0}, subcommand{"status", 0}, subcommand{"rotate", 0})
	if sub == "" {
		return err
	}
	var (
		c           common
		out, newKey string
		batch       int
	)
	fs := m.flags("datakey "+sub, &c, false)
	switch sub {
	case "new":
		fs.StringVar(&out, "out", "", "the file to write the new key to (required; created readable by you only)")
	case "rotate":
		fs.StringVar(&newKey, "new-key-file", "", "the new data key (required; factbase datakey new makes one)")
		fs.IntVar(&batch, "batch", 1000, "rows re-encrypted per transaction")
	}
	setUsage(fs, datakeyUsage+"\n")
	if err := parseNone(fs, args[1:], "datakey "+sub); err != nil {
		return err
	}
	switch sub {
	case "new":
		return m.datakeyNew(&c, out)
	case "status":
		return m.datakeyStatus(ctx, &c)
	}
	return m.datakeyRotate(ctx, &c, newKey, batch)
}

func (m *Main) datakeyNew(c *common, out string) error {
	if out == "" {
		return usagef("datakey new needs --out FILE")
	}
	k, err := seal.WriteKeyFile(out)
	if err != nil {
		return factbase.Errorf(factbase.EINVALID, "%v", err)
	}
	return m.print(c, map[string]any{"id": k.ID(), "file": out}, func() error {
		fmt.Fprintf(m.Stdout, "Wrote data key %s to %s.\n", k.ID(), out)
		fmt.Fprintln(m.Stderr, "factbase: keep a copy of it apart from the database and its backups: without it the stored texts cannot be read.")
		return nil
	})
}

// datakeyStatus reports whether --db is sealed, by which keys, and whether
// --data-key-file opens it.
func (m *Main) datakeyStatus(ctx context.Context, c *common) error {
	if err := mustExist(c.db); err != nil {
		return err
	}
	inner, err := openRawStore(ctx, c.db)
	if err != nil {
		return err
	}
	defer inner.Close()
	st, err := keyStatus(ctx, inner)
	if err != nil {
		return err
	}
	res := map[string]any{"sealed": st.Sealed, "keys": st.Keys, "rotating": st.Rotating}
	var opens error
	if c.dataKeyFile != "" {
		_, opens = sealStore(ctx, inner, c.dataKeyFile)
		res["key_opens"] = opens == nil
		if opens != nil {
			res["key_error"] = factbase.ErrorMessage(opens)
		}
	}
	return m.print(c, res, func() error {
		switch {
		case !st.Sealed:
			fmt.Fprintln(m.Stdout, "Not sealed: texts are stored in the clear.")
		case st.Rotating:
			fmt.Fprintf(m.Stdout, "Sealed; a rotation from key %s to key %s is running (run datakey rotate again to finish it).\n", st.Keys[0], st.Keys[len(st.Keys)-1])
		default:
			fmt.Fprintf(m.Stdout, "Sealed with data key %s.\n", strings.Join(st.Keys, ", "))
		}
		if c.dataKeyFile != "" {
			if opens != nil {
				fmt.Fprintf(m.Stdout, "The key in %s does not open it: %s\n", c.dataKeyFile, factbase.ErrorMessage(opens))
			} else {
				fmt.Fprintf(m.Stdout, "The key in %s opens it.\n", c.dataKeyFile)
			}
		}
		return nil
	})
}

// datakeyRotate re-seals --db's texts under the key in newFile.
func (m *Main) datakeyRotate(ctx context.Context, c *common, newFile string, batch int) error {
	switch {
	case newFile == "":
		return usagef("datakey rotate needs --new-key-file FILE (factbase datakey new --out FILE makes one)")
	case c.dataKeyFile == "":
		return usagef("datakey rotate needs the current key: --data-key-file FILE (or $FACTBASE_DATA_KEY_FILE)")
	case batch < 1 || batch > 100000:
		return usagef("--batch %d is outside 1..100000", batch)
	}
	oldKey, err := seal.LoadKeyFile(c.dataKeyFile)
	if err != nil {
		return factbase.Errorf(factbase.EINVALID, "%v", err)
	}
	newKey, err := seal.LoadKeyFile(newFile)
	if err != nil {
		return factbase.Errorf(factbase.EINVALID, "%v", err)
	}
	if err := mustExist(c.db); err != nil { // a rotation of a database that is not there is a mistake
		return err
	}
	inner, err := openRawStore(ctx, c.db)
	if err != nil {
		return err
	}
	defer inner.Close()
	counts := map[string]int{}
	start := time.Now()
	last := time.Time{}
	err = sealed.Rotate(ctx, inner, oldKey, newKey, batch, func(table string, n int) {
		counts[table] = n
		if time.Since(last) >= time.Second || c.json {
			last = time.Now()
			if !c.json {
				fmt.Fprintf(m.Stderr, "factbase: re-encrypting %s: %d rows\n", table, n)
			}
		}
	})
	if err != nil {
		return factbase.Errorf(factbase.ErrorCode(err), "rotation from key %s to key %s stopped (run it again to resume): %v", oldKey.ID(), newKey.ID(), err)
	}
	id, _ := uuid.NewV7()
	entry := factbase.AuditEntry{ID: id.String(), At: time.Now().UTC(), Actor: factbase.ActorOf(ctx), Action: factbase.AuditDataKeyRotate,
		Target: oldKey.ID() + " -> " + newKey.ID(), Counts: counts}
	if err := inner.AppendAudit(ctx, entry); err != nil {
		fmt.Fprintf(m.Stderr, "factbase: warning: the rotation is done but its audit entry was not written: %v\n", err)
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	return m.print(c, map[string]any{"from": oldKey.ID(), "to": newKey.ID(), "rows": counts, "seconds": time.Since(start).Seconds()}, func() error {
		fmt.Fprintf(m.Stdout, "Rotated to data key %s: %d rows re-encrypted in %.1f s. Restart servers with --data-key-file %s.\n",
			newKey.ID(), total, time.Since(start).Seconds(), newFile)
		return nil
	})
}

// dataKeyStatus is what a database's key record says.
type dataKeyStatus struct {
	Sealed   bool
	Keys     []string // data key ids, the sealing one last
	Rotating bool
}

// keyStatus reads the key record of s, a store opened as it is (openRawStore).
func keyStatus(ctx context.Context, s factbase.Store) (dataKeyStatus, error) {
	v, ok, err := s.Setting(ctx, seal.SettingName)
	if err != nil || !ok {
		return dataKeyStatus{}, err
	}
	r, err := seal.ParseRecord(v)
	if err != nil {
		return dataKeyStatus{}, factbase.Errorf(factbase.EINVALID, "%v", err)
	}
	return dataKeyStatus{Sealed: true, Keys: r.Keys, Rotating: r.NewKey != ""}, nil
}
