package main

import (
	"context"
	"fmt"
	"time"

	"github.com/factbase/factbase"
)

const keysUsage = `Usage:
  factbase keys create [--user UUID] [--name NAME] [--json]
  factbase keys list   [--json]
  factbase keys revoke [--json] KEY_ID

API keys for "factbase serve". create prints the key once, on stdout (only its
SHA-256 hash is stored); a key made with --user may touch that user's data only,
one made without is an application key for every user. Send it as
"Authorization: Bearer <key>". revoke stops a key from working (a running server
notices within its --key-cache time, 2s by default).
`

// keyJSON is a key in JSON output: its id, the secret (set only when the key is
// created), then the key's own fields. ID repeats the key's so that the secret
// follows it; encoding/json prefers the outer field.
type keyJSON struct {
	ID     string `json:"id"`
	Secret string `json:"key,omitempty"`
	factbase.Key
}

func keyToJSON(k factbase.Key, secret string) keyJSON {
	return keyJSON{ID: k.ID, Secret: secret, Key: k}
}

func (m *Main) runKeys(ctx context.Context, args []string) error {
	sub, nargs, err := m.pickSubcommand(args, "keys", keysUsage, subcommand{"create", 0}, subcommand{"list", 0}, subcommand{"revoke", 1})
	if sub == "" {
		return err
	}
	var (
		c    common
		name string
	)
	fs := m.flags("keys "+sub, &c, false)
	if sub == "create" {
		fs.StringVar(&c.user, "user", "", "the one user (a UUID) the key may act for; default: every user")
		fs.StringVar(&name, "name", "", "a label for the key")
	}
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	if fs.NArg() != nargs {
		return usagef("wrong number of arguments for keys %s\n%s", sub, keysUsage)
	}
	user, err := c.optionalUser()
	if err != nil {
		return err
	}
	e, closeFn, err := m.openEngine(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	ks := e.Store()
	switch sub {
	case "create":
		secret, k, err := factbase.NewKey(user, name, time.Now())
		if err != nil {
			return err
		}
		if err := ks.CreateKey(ctx, k); err != nil {
			return err
		}
		e.Audit(ctx, factbase.AuditKeyCreate, k.User, k.ID, nil)
		if c.json {
			return m.printJSON(keyToJSON(k, secret))
		}
		// The key alone on stdout, so that KEY=$(factbase keys create) works.
		fmt.Fprintln(m.Stdout, secret)
		scope := "an application key, for every user"
		if k.User != "" {
			scope = "for user " + string(k.User) + " only"
		}
		fmt.Fprintf(m.Stderr, "factbase: created %s (%s). It is shown only now; store it safely.\n", k.ID, scope)
		return nil
	case "list":
		keys, err := ks.Keys(ctx)
		if err != nil {
			return err
		}
		out := mapEach(keys, func(k factbase.Key) keyJSON { return keyToJSON(k, "") })
		return m.print(&c, map[string]any{"keys": out}, func() error {
			return printTable(m, "No keys. Create one with: factbase keys create", "ID\tNAME\tUSER\tCREATED\tSTATE", keys, func(k factbase.Key) string {
				u, state := string(k.User), "active"
				if u == "" {
					u = "(all users)"
				}
				if k.Revoked() {
					state = "revoked " + localTime(*k.RevokedAt)
				}
				return fmt.Sprintf("%s\t%s\t%s\t%s\t%s", k.ID, k.Name, u, localTime(k.CreatedAt), state)
			})
		})
	default: // revoke
		k, err := ks.RevokeKey(ctx, fs.Arg(0), time.Now())
		if err != nil {
			return err
		}
		e.Audit(ctx, factbase.AuditKeyRevoke, k.User, k.ID, nil)
		return m.printLine(&c, keyToJSON(k, ""), fmt.Sprintf("Revoked %s at %s.", k.ID, localTime(*k.RevokedAt)))
	}
}
