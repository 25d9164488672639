// Command factbase is a long-term fact memory for AI assistants and agents: one binary
// with an embedded SQLite store. Run "factbase help" for the subcommands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/seal"
	"github.com/factbase/factbase/internal/version"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/postgres"
	"github.com/factbase/factbase/sealed"
	"github.com/factbase/factbase/sqlite"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	m := NewMain()
	code := m.Run(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}

// Main is the program: its streams and environment are fields so that tests run the
// same code the binary runs.
type Main struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads the environment; tests replace it.
	Getenv func(string) string
	// Ready, when set, is called by serve with the address it listens on.
	Ready func(addr string)

	// Build is what "version" prints and serve reports (/healthz, /metrics, OpenAPI,
	// MCP, the web page). Zero: the running binary's (version.Get).
	Build version.Info

	// readOnly is set by Run for a command that only reads: it refuses a SQLite path
	// where no database exists rather than create an empty one.
	readOnly bool
}

// readCommands only read; readSubcommands are the reading subcommands of the others.
var (
	readCommands    = map[string]bool{"audit": true, "ask": true, "recall": true, "search": true, "query": true, "lookup": true, "sheet": true}
	readSubcommands = map[string]bool{"facts get": true, "facts list": true, "facts history": true, "list show": true,
		"entities list": true, "entities get": true, "episodes list": true, "episodes get": true, "conflicts list": true,
		"jobs list": true, "jobs show": true, "jobs usage": true, "keys list": true}
)

// isReadOnly reports whether args name a command that only reads.
func isReadOnly(args []string) bool {
	if readCommands[args[0]] {
		return true
	}
	return len(args) > 1 && readSubcommands[args[0]+" "+args[1]]
}

// NewMain returns a Main wired to the process's streams and environment.
func NewMain() *Main {
	return &Main{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
}

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(m *Main, ctx context.Context, args []string) error
}

func (m *Main) commands() []command {
	return []command{
		{"facts", "set, get, list, history and delete facts", (*Main).runFacts},
		{"list", "show and edit ranked lists (favorites)", (*Main).runList},
		{"say", "remember what a user's message states (rules, no model)", (*Main).runSay},
		{"ask", "answer a question from the user's facts (no model)", (*Main).runAsk},
		{"sheet", "generate and show the fact sheet (--explain, --prompt)", (*Main).runSheet},
		{"ingest", "ingest agent session transcripts (JSONL) into facts", (*Main).runIngest},
		{"serve", "serve the HTTP API (127.0.0.1:7411; OpenAPI at /openapi.json)", (*Main).runServe},
		{"keys", "create, list and revoke API keys for serve", (*Main).runKeys},
		{"users", "erase everything a user owns (facts, history, episodes, indexes, ...)", (*Main).runUsers},
		{"mcp", "serve MCP (Model Context Protocol) over stdio for one user", (*Main).runMCP},
		{"bench", "run the synthetic benchmarks beside a raw-SQLite baseline", (*Main).runBench},
		{"episodes", "add, list, get, delete and backfill episodes (narrative records)", (*Main).runEpisodes},
		{"search", "hybrid search over facts and episodes (full text + vectors)", (*Main).runSearch},
		{"query", "answer a question from facts first, else from episodes", (*Main).runQuery},
		{"lookup", "direct fact look-up by type or key, with tag and date filters", (*Main).runLookup},
		{"reembed", "give facts and episodes vectors of the configured embedder", (*Main).runReembed},
		{"eval", "measure retrieval on LoCoMo conversations (recall@k)", (*Main).runEval},
		{"remember", "store a message's rule facts at once and queue it for the model, if one is configured", (*Main).runRemember},
		{"export", "write everything a user owns as Factbase's export format (JSONL)", (*Main).runExport},
		{"import", "load an export, mem0's memories or a list of messages into a user", (*Main).runImport},
		{"datakey", "make a data key, rotate a database to a new one, show its state", (*Main).runDatakey},
		{"audit", "read the audit trail: erasures, merges, conflict decisions, keys", (*Main).runAudit},
		{"hooks", "give a coding agent (Claude Code) memory: session-start context, transcript ingest", (*Main).runHooks},
		{"jobs", "list, show, retry and work background jobs; token usage", (*Main).runJobs},
		{"migrate", "copy users from a SQLite file into PostgreSQL, verified by counts", (*Main).runMigrate},
		{"entities", "list, show, create, rename, merge, split and delete people", (*Main).runEntities},
		{"conflicts", "list, confirm and reject changes waiting for the user", (*Main).runConflicts},
		{"recall", "recall the facts that bear on a question, grouped by person", (*Main).runRecall},
		{"version", "print the version, commit, build date and Go version", (*Main).runVersion},
	}
}

// errUsage marks an error in the command line; the exit status is 2.
var errUsage = errors.New("usage")

// Run runs the command line args and returns the exit status.
func (m *Main) Run(ctx context.Context, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		m.usage(m.Stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" {
		return m.exit(m.runVersion(ctx, args[1:]))
	}
	m.readOnly = isReadOnly(args)
	ctx = factbase.WithActor(ctx, "cli") // the audit trail's actor (serve and mcp name their keys)
	for _, c := range m.commands() {
		if c.name == args[0] {
			err := c.run(m, ctx, args[1:])
			return m.exit(err)
		}
	}
	fmt.Fprintf(m.Stderr, "factbase: unknown command %q\n\n", args[0])
	m.usage(m.Stderr)
	return 2
}

func (m *Main) exit(err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(m.Stderr, "factbase: %v\n", err)
		return 2
	}
	msg := factbase.ErrorMessage(err)
	if factbase.ErrorCode(err) == factbase.EINTERNAL {
		msg = err.Error()
	}
	fmt.Fprintf(m.Stderr, "factbase: %s\n", msg)
	return 1
}

func (m *Main) usage(w io.Writer) {
	fmt.Fprintf(w, `factbase — a long-term fact memory for AI assistants and agents.

Usage: factbase <command> [flags] [arguments]

Commands:
`)
	cmds := m.commands()
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].name < cmds[j].name })
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, `
Every command takes --db PATH (default: $FACTBASE_DB, else
$XDG_DATA_HOME/factbase/factbase.db, else ~/.local/share/factbase/factbase.db).
Run "factbase <command> -h" for a command's flags.
`)
}

// usagef returns a command-line error.
func usagef(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errUsage}, args...)...)
}

// defaultDB returns the default database path.
func (m *Main) defaultDB() string {
	if p := m.Getenv("FACTBASE_DB"); p != "" {
		return p
	}
	if d := m.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "factbase", "factbase.db")
	}
	home := m.Getenv("HOME")
	if home == "" {
		if h, err := os.UserHomeDir(); err == nil {
			home = h
		}
	}
	return filepath.Join(home, ".local", "share", "factbase", "factbase.db")
}

// openUser validates --user and opens the engine, as every command acting for one
// user does before its work; the function returned closes the engine.
func (m *Main) openUser(ctx context.Context, c *common) (factbase.UserID, *memory.Engine, func(), error) {
	user, err := c.userID()
	if err != nil {
		return "", nil, nil, err
	}
	e, closeFn, err := m.openEngine(ctx, c)
	if err != nil {
		return "", nil, nil, err
	}
	return user, e, closeFn, nil
}

// openText parses the flags of a command whose arguments are the user's words (none
// is the usage error need), then validates --user and opens the engine.
func (m *Main) openText(ctx context.Context, fs *flag.FlagSet, c *common, args []string, need string) (
	text string, user factbase.UserID, e *memory.Engine, closeFn func(), err error) {
	if text, err = parseText(fs, args, need); err != nil {
		return "", "", nil, nil, err
	}
	if user, e, closeFn, err = m.openUser(ctx, c); err != nil {
		return "", "", nil, nil, err
	}
	return text, user, e, closeFn, nil
}

// openEngine opens the store named by --db and returns an engine over it.
func (m *Main) openEngine(ctx context.Context, c *common) (*memory.Engine, func(), error) {
	emb, err := m.embedder(c)
	if err != nil {
		return nil, nil, err
	}
	o := memory.Options{Observer: c.observer, Embedder: emb, BackgroundDelay: c.backgroundDelay, BackgroundError: c.backgroundError,
		Logger: c.log}
	if err := m.modelEngineOptions(c, &o); err != nil { // model.go
		return nil, nil, err
	}
	s, err := m.openStore(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	e := memory.New(s, o)
	return e, func() { e.Close(); s.Close() }, nil // Close writes queued background work first
}

// isPostgres reports whether db names a PostgreSQL database rather than a SQLite file.
func isPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// openStore is openStore that, for a command that only reads, refuses a SQLite path
// where there is no database: reading an empty one would only say "No facts".
func (m *Main) openStore(ctx context.Context, c *common) (factbase.Store, error) {
	if m.readOnly {
		if err := mustExist(c.db); err != nil {
			return nil, err
		}
	}
	return openStore(ctx, c.db, c.dataKeyFile)
}

// mustExist returns ENOTFOUND when db is a SQLite path where there is no file.
func mustExist(db string) error {
	if path := strings.TrimPrefix(db, "sqlite://"); !isPostgres(db) {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return factbase.Errorf(factbase.ENOTFOUND, "no database at %s: nothing is stored there yet (check --db or $FACTBASE_DB; writing commands such as say create it)", path)
		}
	}
	return nil
}

// openStore opens db: a postgres:// URL opens the PostgreSQL store, anything else
// (a path, or sqlite://PATH) the SQLite file. With a data key file the store seals
// every text it keeps (sealed.Open); without one, a sealed database refuses to open.
func openStore(ctx context.Context, db, keyFile string) (factbase.Store, error) {
	inner, err := openRawStore(ctx, db)
	if err != nil {
		return nil, err
	}
	s, err := sealStore(ctx, inner, keyFile)
	if err != nil {
		inner.Close()
		return nil, err
	}
	return s, nil
}

// sealStore returns inner sealed with the key in keyFile, or inner itself, checked
// not to be sealed, when keyFile is "".
func sealStore(ctx context.Context, inner factbase.Store, keyFile string) (factbase.Store, error) {
	if keyFile == "" {
		if err := sealed.CheckPlain(ctx, inner); err != nil {
			return nil, factbase.Errorf(factbase.EINVALID, "%v", err)
		}
		return inner, nil
	}
	key, err := seal.LoadKeyFile(keyFile)
	if err != nil {
		return nil, factbase.Errorf(factbase.EINVALID, "%v", err)
	}
	s, err := sealed.Open(ctx, inner, key)
	if err != nil {
		return nil, factbase.Errorf(factbase.EINVALID, "%v", err)
	}
	return s, nil
}

// openRawStore opens db's store as it is, sealed texts and all.
func openRawStore(ctx context.Context, db string) (factbase.Store, error) {
	if isPostgres(db) {
		s, err := postgres.Open(ctx, db, postgres.Options{})
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	s, err := sqlite.Open(ctx, strings.TrimPrefix(db, "sqlite://"), sqlite.Options{})
	if err != nil {
		return nil, err
	}
	return s, nil
}
