package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/userdata"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/people"
)

// runExport implements "factbase export".
func (m *Main) runExport(ctx context.Context, args []string) error {
	var (
		c       common
		output  string
		vectors bool
	)
	fs := m.flags("export", &c, true)
	fs.StringVar(&output, "output", "-", "the file to write (- for standard output)")
	fs.BoolVar(&vectors, "vectors", false, "include the embeddings (large; an import into a store with another embedder does not need them)")
	setUsage(fs, `Usage: factbase export [flags]

Writes everything a user owns, as Factbase's export format (JSON lines, documented in
docs/export-format.md): facts with their history and validity, ranked-list events,
references, people and their aliases, conflicts, episodes, transcript state,
preference sessions and saved sheets; with --vectors the embeddings too. The data is
read in one snapshot. "factbase import" loads it into the same or another store.

`)
	if err := parseNone(fs, args, "export"); err != nil {
		return err
	}
	user, err := c.userID()
	if err != nil {
		return err
	}
	m.readOnly = true
	e, closeFn, err := m.openEngine(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	d, err := userdata.Read(ctx, e.Store(), user)
	if err != nil {
		return err
	}
	var w io.Writer = m.Stdout
	if output != "-" {
		f, err := os.Create(output)
		if err != nil {
			return factbase.Errorf(factbase.EINVALID, "cannot write %s: %v", output, err)
		}
		defer f.Close()
		w = f
	}
	counts, err := userdata.Encode(w, user, d, time.Now(), vectors)
	if err != nil {
		return factbase.Errorf(factbase.EUNAVAILABLE, "writing the export: %v", err)
	}
	e.Audit(ctx, factbase.AuditExport, user, "", counts)
	if output != "-" {
		fmt.Fprintf(m.Stderr, "factbase: exported %s to %s\n", countsOf(counts), output)
	}
	return nil
}

// countsOf renders record counts: "12 fact, 3 entity".
func countsOf(c map[string]int) string {
	var parts []string
	for _, k := range []string{"fact", "list_event", "reference", "vector", "entity", "conflict", "episode", "transcript_session",
		"transcript_checkpoint", "transcript_link", "preference_session", "sheet"} {
		if c[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[k], strings.ReplaceAll(k, "_", " ")))
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// runImport implements "factbase import".
func (m *Main) runImport(ctx context.Context, args []string) error {
	var (
		c      common
		format string
	)
	fs := m.flags("import", &c, true)
	fs.StringVar(&format, "format", "auto", "factbase (an export), mem0 (its get_all JSON), messages (a JSON list of {role, content}), or auto")
	setUsage(fs, `Usage: factbase import [flags] FILE|-

Loads a Factbase export into --user (default: the user it was exported from), in one
transaction (its saved sheets after), refusing a user who already has data and a file
of a newer format version; the rows are counted afterwards. Also imports mem0's
exported memories (the JSON of get_all: each memory is said, so the rules store its
facts) and a JSON list of {"role", "content"} messages (user turns state facts;
assistant turns are read as the assistant's).

`)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("import needs one FILE (or - for standard input)")
	}
	var body []byte
	var err error
	if fs.Arg(0) == "-" {
		body, err = io.ReadAll(m.Stdin)
	} else {
		body, err = os.ReadFile(fs.Arg(0))
	}
	if err != nil {
		return factbase.Errorf(factbase.EINVALID, "cannot read %s: %v", fs.Arg(0), err)
	}
	if format == "auto" {
		format = detectImport(body)
	}
	e, closeFn, err := m.openEngine(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	switch format {
	case "factbase":
		return m.importExport(ctx, e, &c, body)
	case "mem0", "messages":
		user, err := c.userID()
		if err != nil {
			return err
		}
		turns, err := importTurns(format, body)
		if err != nil {
			return err
		}
		stored := 0
		for _, t := range turns {
			mctx := people.WithMessage(ctx, people.MessageInfo{Time: t.at, Speaker: t.speaker})
			res, err := e.Chat.Say(mctx, user, t.text)
			if err != nil {
				return fmt.Errorf("message %d: %w", t.n, err)
			}
			stored += res.Result.Stored
		}
		e.Audit(ctx, factbase.AuditImport, user, format, map[string]int{"messages": len(turns), "stored": stored})
		return m.printLine(&c, map[string]int{"messages": len(turns), "stored": stored},
			fmt.Sprintf("Read %d messages; the rules stored %d facts.", len(turns), stored))
	}
	return usagef("--format %q is not factbase, mem0, messages or auto", format)
}

// detectImport tells an export from mem0's JSON and a list of messages.
func detectImport(body []byte) string {
	first, _, _ := bytes.Cut(bytes.TrimSpace(body), []byte("\n"))
	if bytes.Contains(first, []byte(`"format"`)) && bytes.Contains(first, []byte(userdata.Format)) {
		return "factbase"
	}
	if bytes.Contains(body, []byte(`"memory"`)) {
		return "mem0"
	}
	return "messages"
}

func (m *Main) importExport(ctx context.Context, e *memory.Engine, c *common, body []byte) error {
	h, d, err := userdata.Decode(bufio.NewReader(bytes.NewReader(body)))
	if err != nil {
		return err
	}
	user := h.User
	if c.user != "" {
		if user, err = c.userID(); err != nil {
			return err
		}
	}
	if user != h.User {
		d.Retarget(user)
		d.Renew(e.NewID) // beside the original, in the same store or not: ids are unique in a store
	}
	d.Counts = userdata.Expected(d)
	if err := userdata.Refuse(ctx, e.Store(), []factbase.UserID{user}); err != nil {
		return err
	}
	if err := userdata.Write(ctx, e.Store(), user, d); err != nil {
		return err
	}
	counts, err := userdata.Verify(ctx, e.Store(), user, d)
	if err != nil {
		return err
	}
	e.Audit(ctx, factbase.AuditImport, user, "factbase", counts)
	return m.printLine(c, map[string]any{"user": user, "counts": counts}, fmt.Sprintf("Imported into %s: %s.", user, countsLine(counts)))
}

// turn is one message to import.
type turn struct {
	n       int
	text    string
	speaker string
	at      time.Time
}

// importTurns reads mem0's memories or a list of messages.
func importTurns(format string, body []byte) ([]turn, error) {
	var out []turn
	if format == "mem0" {
		var wrapped struct {
			Results []mem0Memory `json:"results"`
		}
		var list []mem0Memory
		if err := json.Unmarshal(body, &wrapped); err != nil || wrapped.Results == nil {
			if err := json.Unmarshal(body, &list); err != nil {
				return nil, factbase.Errorf(factbase.EINVALID, "not mem0's memories (a JSON object with \"results\", or a list): %v", err)
			}
		} else {
			list = wrapped.Results
		}
		for i, mm := range list {
			if strings.TrimSpace(mm.Memory) == "" {
				return nil, factbase.Errorf(factbase.EINVALID, "mem0 memory %d (%s) has no text", i+1, mm.ID)
			}
			out = append(out, turn{n: i + 1, text: mem0Statement(mm.Memory), speaker: "user", at: mm.CreatedAt})
		}
		return out, nil
	}
	var msgs []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	if err := json.Unmarshal(body, &msgs); err != nil {
		return nil, factbase.Errorf(factbase.EINVALID, "not a JSON list of {\"role\", \"content\"} messages: %v", err)
	}
	for i, msg := range msgs {
		switch msg.Role {
		case "user", "assistant":
		case "system", "tool":
			continue
		default:
			return nil, factbase.Errorf(factbase.EINVALID, "message %d has role %q, not user, assistant, system or tool", i+1, msg.Role)
		}
		if strings.TrimSpace(msg.Content) == "" {
			continue
		}
		out = append(out, turn{n: i + 1, text: msg.Content, speaker: msg.Role})
	}
	return out, nil
}

// mem0Verbs are the verbs mem0's memories begin with ("Lives in Lisbon", "Is allergic
// to nuts"), in the first person.
var mem0Verbs = map[string]string{"is": "am", "has": "have", "does": "do", "lives": "live", "works": "work", "likes": "like",
	"loves": "love", "prefers": "prefer", "enjoys": "enjoy", "dislikes": "dislike", "hates": "hate", "plays": "play",
	"speaks": "speak", "drives": "drive", "owns": "own", "studies": "study", "wants": "want", "plans": "plan",
	"was": "was", "moved": "moved", "started": "started", "uses": "use", "eats": "eat", "drinks": "drink", "goes": "go"}

// mem0Statement turns one of mem0's memories, which name no subject ("Name is Alex",
// "Lives in Lisbon", "Is allergic to nuts"), into the user's own statement ("My name
// is Alex", "I live in Lisbon", "I am allergic to nuts") so that the rules read it as
// the user's. A memory that names its subject ("User ...", "The user ...", "I ...",
// "My ...") is kept as it is.
func mem0Statement(s string) string {
	s = strings.TrimSpace(s)
	first, rest, _ := strings.Cut(s, " ")
	lw := strings.ToLower(first)
	switch {
	case lw == "i" || lw == "my" || lw == "user" || lw == "the" || lw == "user's":
		return s
	case mem0Verbs[lw] != "":
		return "I " + mem0Verbs[lw] + " " + rest
	}
	return "My " + strings.ToLower(first[:1]) + first[1:] + " " + rest
}

// mem0Memory is one memory of mem0's get_all.
type mem0Memory struct {
	ID        string    `json:"id"`
	Memory    string    `json:"memory"`
	CreatedAt time.Time `json:"created_at"`
}
