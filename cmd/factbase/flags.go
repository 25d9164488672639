package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
)

// common holds the flags every data command takes.
type common struct {
	db   string
	user string
	json bool
	// dataKeyFile is --data-key-file: the data key the store's texts are sealed with
	// (sealed/); "" opens a database that is not sealed.
	dataKeyFile string
	// observer, when set, receives the engine's write-path measurements (serve).
	observer core.Observer
	embedder string // --embedder (embedder.go)
	// backgroundDelay batches answers' references in the background (serve); 0: none.
	backgroundDelay time.Duration
	backgroundError func(error)
	llm             *llmConfig // model flags (model.go); nil: no model
	// log receives the model client's, the embedder's and the engine's warnings
	// (serve, mcp, jobs work); nil: discarded.
	log *slog.Logger
}

func (m *Main) flags(name string, c *common, withUser bool) *flag.FlagSet {
	fs := flag.NewFlagSet("factbase "+name, flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	fs.StringVar(&c.db, "db", m.defaultDB(), "database: a SQLite file path, or a postgres:// URL")
	fs.StringVar(&c.dataKeyFile, "data-key-file", m.Getenv("FACTBASE_DATA_KEY_FILE"),
		"the data key that encrypts stored texts (factbase datakey new makes one; default $FACTBASE_DATA_KEY_FILE)")
	if withUser {
		fs.StringVar(&c.user, "user", m.Getenv("FACTBASE_USER"), "the user's id, a UUID (default $FACTBASE_USER)")
	}
	fs.BoolVar(&c.json, "json", false, "print JSON for programs")
	fs.StringVar(&c.embedder, "embedder", m.Getenv("FACTBASE_EMBEDDER"), "embedder for search: glove (built-in, offline), openai, none (default $FACTBASE_EMBEDDER, else glove)")
	return fs
}

// parse parses flags wherever they stand among the arguments, so that
// `say "My tea is oolong" --json` prints JSON rather than storing "oolong --json";
// fs.Args() is then the other arguments in order. After "--" every argument is one
// of those, flag-like or not. An unknown flag is a usage error that says how to pass
// text starting with "-". A -h prints the flags and returns flag.ErrHelp.
func parse(fs *flag.FlagSet, args []string) error {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			if strings.Contains(err.Error(), "not defined") {
				return usagef("%v (to pass text that starts with \"-\", put -- before it)", err)
			}
			return usagef("%v", err)
		}
		left := fs.Args()
		if len(left) == 0 {
			break
		}
		if used := len(args) - len(left); used > 0 && args[used-1] == "--" {
			rest = append(rest, left...)
			break
		}
		rest, args = append(rest, left[0]), left[1:]
	}
	// Leave the other arguments as fs.Args().
	return fs.Parse(append([]string{"--"}, rest...))
}

// parseText parses flags and returns the arguments joined by spaces: the message or
// question of a command that takes one; none is the usage error need.
func parseText(fs *flag.FlagSet, args []string, need string) (string, error) {
	if err := parse(fs, args); err != nil {
		return "", err
	}
	if fs.NArg() == 0 {
		return "", usagef("%s", need)
	}
	return strings.Join(fs.Args(), " "), nil
}

// parseNone parses the flags of the command name, which takes no arguments.
func parseNone(fs *flag.FlagSet, args []string, name string) error {
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("%s takes no arguments, got %q", name, fs.Args())
	}
	return nil
}

// setUsage makes -h print text and then the flags.
func setUsage(fs *flag.FlagSet, text string) {
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), text)
		fs.PrintDefaults()
	}
}

// familyHelp handles the first argument of a command with subcommands when it asks
// for help or is missing: it prints usage on standard output and reports done; a
// missing subcommand is the usage error need.
func (m *Main) familyHelp(args []string, usage, need string) (done bool, err error) {
	if len(args) > 0 && args[0] != "-h" && args[0] != "--help" && args[0] != "help" {
		return false, nil
	}
	fmt.Fprint(m.Stdout, usage)
	if len(args) == 0 {
		return true, usagef("%s", need)
	}
	return true, nil
}

// subcommand is one subcommand of a family and how many arguments it takes: exactly
// args, or, when args is negative, at least -args.
type subcommand struct {
	name string
	args int
}

// pickSubcommand reads the subcommand of the family name (facts, keys, ...) from
// args. Asked for help, it prints usage and returns ""; a missing or unknown
// subcommand is a usage error naming those of subs. It returns the subcommand and
// how many arguments it takes.
func (m *Main) pickSubcommand(args []string, name, usage string, subs ...subcommand) (string, int, error) {
	names := mapEach(subs, func(s subcommand) string { return s.name })
	need := name + " needs a subcommand: " + names[0]
	if n := len(names); n > 1 {
		need = name + " needs a subcommand: " + strings.Join(names[:n-1], ", ") + " or " + names[n-1]
	}
	if done, err := m.familyHelp(args, usage, need); done {
		return "", 0, err
	}
	for _, s := range subs {
		if s.name == args[0] {
			return s.name, s.args, nil
		}
	}
	return "", 0, usagef("unknown %s subcommand %q (%s)", name, args[0], strings.Join(names, ", "))
}

// userID validates the --user flag.
func (c *common) userID() (factbase.UserID, error) {
	if c.user == "" {
		return "", usagef("--user is required (a UUID; or set FACTBASE_USER)")
	}
	return factbase.ParseUserID(c.user)
}

// optionalUser validates --user when it is set; unset, it is every user ("").
func (c *common) optionalUser() (factbase.UserID, error) {
	if c.user == "" {
		return "", nil
	}
	return factbase.ParseUserID(c.user)
}

// arity reports whether n arguments are what a subcommand wants: exactly want, or,
// when want is negative, at least -want (as subcommand.args).
func arity(want, n int) bool {
	if want < 0 {
		return n >= -want
	}
	return n == want
}

// parseTime reads an RFC 3339 time or a date (YYYY-MM-DD, midnight UTC).
func parseTime(flagName, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	return time.Time{}, factbase.Errorf(factbase.EINVALID, "--%s %q is not a date (2026-01-02) or an RFC 3339 time (2026-01-02T15:04:05Z)", flagName, s)
}

// splitList splits a comma-separated flag value.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// metaFlag collects repeated --meta key=value flags.
type metaFlag map[string]string

func (f metaFlag) String() string { return "" }

func (f metaFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("%q is not key=value", s)
	}
	f[k] = v
	return nil
}

// parseRFC3339 reads the RFC 3339 time s of the flag flagName.
func parseRFC3339(flagName, s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, factbase.Errorf(factbase.EINVALID, "--%s %q is not an RFC 3339 time (e.g. 2026-01-02T15:04:05Z)", flagName, s)
	}
	return t, nil
}

// scopeFlags are the --tags, --since and --until flags of the commands that select
// episodes, or facts by their source episode, by tag and by time.
type scopeFlags struct{ tags, since, until string }

// flags registers the three flags on fs with their help texts.
func (s *scopeFlags) flags(fs *flag.FlagSet, tagsHelp, sinceHelp, untilHelp string) {
	fs.StringVar(&s.tags, "tags", "", tagsHelp)
	fs.StringVar(&s.since, "since", "", sinceHelp)
	fs.StringVar(&s.until, "until", "", untilHelp)
}

// into parses the flags into tags, from and to; a time not given is the zero time.
func (s *scopeFlags) into(tags *[]string, from, to *time.Time) error {
	var err error
	*tags = splitList(s.tags)
	if *from, err = parseTime("since", s.since); err != nil {
		return err
	}
	*to, err = parseTime("until", s.until)
	return err
}
