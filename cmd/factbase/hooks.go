package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/sheet"
	"github.com/factbase/factbase/transcript"
)

const hooksUsage = `Usage:
  factbase hooks claude-code [flags]            print the hook and MCP entries
  factbase hooks claude-code --install [flags]  merge them into Claude Code's settings
  factbase hooks claude-code run [flags]        handle one hook event (Claude Code runs it)

Gives Claude Code a memory: at session start the user's fact sheet (and what is known
about the project) is added to the session's context; when a session ends, and before
it is compacted, the session's transcript is ingested (incrementally: only what was
appended since the last ingest is read). The MCP entry gives the agent the remember,
ask and recall tools. With --install the hook entries are merged into
.claude/settings.json of --project (default the current directory), or of the
user's ~/.claude with --global, and the MCP server into the project's .mcp.json;
entries already there are kept, and installing twice changes nothing.

"run" reads the hook's JSON payload on stdin (session_id, transcript_path,
hook_event_name, cwd) and acts on SessionStart, SessionEnd, PreCompact and Stop.

Flags:
`

// hookEvents are the events the hook entries handle.
var hookEvents = []string{"SessionStart", "PreCompact", "SessionEnd"}

// hookPayload is what Claude Code sends a command hook on stdin.
type hookPayload struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	HookEventName  string `json:"hook_event_name"`
	Cwd            string `json:"cwd"`
	Source         string `json:"source,omitempty"` // SessionStart: startup, resume, clear, compact
}

// runHooks implements "factbase hooks".
func (m *Main) runHooks(ctx context.Context, args []string) error {
	if done, err := m.familyHelp(args, hooksUsage, "hooks needs an agent: claude-code"); done {
		return err
	}
	if args[0] != "claude-code" {
		return usagef("unknown agent %q (claude-code)", args[0])
	}
	if len(args) > 1 && args[1] == "run" {
		return m.hookRun(ctx, args[2:])
	}
	return m.hookEntries(ctx, args[1:])
}

// hookCommand returns the command line a hook entry runs: this binary with the user
// and the database.
func (m *Main) hookCommand(c *common, extra ...string) ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, factbase.Errorf(factbase.EINTERNAL, "cannot find this program's path: %v", err)
	}
	db := c.db
	if !strings.Contains(db, "://") {
		if db, err = filepath.Abs(db); err != nil {
			return nil, factbase.Errorf(factbase.EINVALID, "database path %q: %v", c.db, err)
		}
	}
	return append([]string{exe}, append(extra, "--user", c.user, "--db", db)...), nil
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// hookEntries prints, or with --install merges, the settings and MCP entries.
func (m *Main) hookEntries(ctx context.Context, args []string) error {
	var (
		c       common
		install bool
		global  bool
		project string
	)
	fs := m.flags("hooks claude-code", &c, true)
	fs.BoolVar(&install, "install", false, "merge the entries into Claude Code's settings instead of printing them")
	fs.BoolVar(&global, "global", false, "with --install: the user's ~/.claude/settings.json instead of the project's")
	fs.StringVar(&project, "project", ".", "with --install: the project directory")
	setUsage(fs, hooksUsage)
	if err := parseNone(fs, args, "hooks claude-code"); err != nil {
		return err
	}
	if _, err := c.userID(); err != nil {
		return err
	}
	run, err := m.hookCommand(&c, "hooks", "claude-code", "run")
	if err != nil {
		return err
	}
	quoted := make([]string, len(run))
	for i, a := range run {
		quoted[i] = shellQuote(a)
	}
	hooks := map[string]any{}
	for _, ev := range hookEvents {
		hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": strings.Join(quoted, " "), "timeout": 120}}}}
	}
	mcpCmd, err := m.hookCommand(&c, "mcp")
	if err != nil {
		return err
	}
	server := map[string]any{"command": mcpCmd[0], "args": mcpCmd[1:]}
	if !install {
		out := map[string]any{"settings.json": map[string]any{"hooks": hooks}, ".mcp.json": map[string]any{"mcpServers": map[string]any{"factbase": server}}}
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	dir := filepath.Join(project, ".claude")
	if global {
		home, err := os.UserHomeDir()
		if h := m.Getenv("HOME"); h != "" {
			home, err = h, nil
		}
		if err != nil {
			return factbase.Errorf(factbase.EINVALID, "cannot find the home directory: %v", err)
		}
		dir = filepath.Join(home, ".claude")
	}
	settings := filepath.Join(dir, "settings.json")
	added, err := mergeJSONFile(settings, func(doc map[string]any) int { return mergeHooks(doc, hooks) })
	if err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "%s: %d hook entries added (%s)\n", settings, added, strings.Join(hookEvents, ", "))
	if !global {
		mcpFile := filepath.Join(project, ".mcp.json")
		n, err := mergeJSONFile(mcpFile, func(doc map[string]any) int {
			servers, _ := doc["mcpServers"].(map[string]any)
			if servers == nil {
				servers = map[string]any{}
				doc["mcpServers"] = servers
			}
			if _, ok := servers["factbase"]; ok {
				return 0
			}
			servers["factbase"] = server
			return 1
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(m.Stdout, "%s: %d MCP server entries added (factbase)\n", mcpFile, n)
	}
	return nil
}

// mergeJSONFile reads the JSON object in path (none: {}), lets merge change it, and
// writes it back when merge reports changes, keeping everything else. A file that is
// not a JSON object is an error, and is left as it is.
func mergeJSONFile(path string, merge func(doc map[string]any) int) (int, error) {
	doc := map[string]any{}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return 0, factbase.Errorf(factbase.EINVALID, "cannot read %s: %v", path, err)
	default:
		if err := json.Unmarshal(b, &doc); err != nil || doc == nil {
			return 0, factbase.Errorf(factbase.EINVALID, "%s is not a JSON object (%v); fix it or move it away, it was not changed", path, err)
		}
	}
	n := merge(doc)
	if n == 0 {
		return 0, nil
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return 0, factbase.Errorf(factbase.EINTERNAL, "encode %s: %v", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, factbase.Errorf(factbase.EINVALID, "cannot create %s: %v", filepath.Dir(path), err)
	}
	tmp := path + ".factbase-tmp"
	if err := os.WriteFile(tmp, append(out, '\n'), 0o644); err != nil {
		return 0, factbase.Errorf(factbase.EINVALID, "cannot write %s: %v", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return 0, factbase.Errorf(factbase.EINVALID, "cannot replace %s: %v", path, err)
	}
	return n, nil
}

// mergeHooks adds each event's entries to doc["hooks"] unless an entry running
// "hooks claude-code run" is there already; it returns how many it added.
func mergeHooks(doc map[string]any, hooks map[string]any) int {
	all, _ := doc["hooks"].(map[string]any)
	if all == nil {
		all = map[string]any{}
		doc["hooks"] = all
	}
	added := 0
	for _, ev := range hookEvents {
		list, _ := all[ev].([]any)
		if hasFactbaseHook(list) {
			continue
		}
		all[ev] = append(list, hooks[ev].([]any)...)
		added++
	}
	return added
}

func hasFactbaseHook(list []any) bool {
	for _, group := range list {
		g, _ := group.(map[string]any)
		hs, _ := g["hooks"].([]any)
		for _, h := range hs {
			e, _ := h.(map[string]any)
			if cmd, _ := e["command"].(string); strings.Contains(cmd, "hooks claude-code run") {
				return true
			}
		}
	}
	return false
}

// hookRun handles one hook event.
func (m *Main) hookRun(ctx context.Context, args []string) error {
	var c common
	fs := m.flags("hooks claude-code run", &c, true)
	setUsage(fs, hooksUsage)
	if err := parseNone(fs, args, "hooks claude-code run"); err != nil {
		return err
	}
	user, err := c.userID()
	if err != nil {
		return err
	}
	body, err := io.ReadAll(io.LimitReader(m.Stdin, 1<<20))
	if err != nil {
		return factbase.Errorf(factbase.EINVALID, "cannot read the hook payload on stdin: %v", err)
	}
	var p hookPayload
	if err := json.Unmarshal(body, &p); err != nil {
		return factbase.Errorf(factbase.EINVALID, "the hook payload on stdin is not JSON: %v", err)
	}
	switch p.HookEventName {
	case "SessionStart", "SessionEnd", "PreCompact", "Stop":
	case "":
		return factbase.Errorf(factbase.EINVALID, "the hook payload has no hook_event_name")
	default:
		return nil // an event these hooks do not handle: nothing to do
	}
	e, closeFn, err := m.openEngine(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	if p.HookEventName == "SessionStart" {
		block, err := e.SheetPrompt(ctx, user, sheet.RenderOptions{})
		if err != nil {
			return err
		}
		text := block.Text
		if project := filepath.Base(p.Cwd); p.Cwd != "" && project != "." && project != "/" {
			rec, err := e.Chat.Recall(ctx, user, project, chat.RecallOptions{Limit: 10})
			if err != nil {
				return err
			}
			var lines []string
			for _, h := range rec.Hits {
				lines = append(lines, "- "+h.Text)
			}
			if len(lines) > 0 {
				text += "\n# What you remember about " + project + ":\n" + strings.Join(lines, "\n") + "\n"
			}
		}
		out := map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "SessionStart", "additionalContext": text}}
		return json.NewEncoder(m.Stdout).Encode(out)
	}
	// The session's transcript, from where the last ingest stopped.
	if p.TranscriptPath == "" {
		return factbase.Errorf(factbase.EINVALID, "the %s payload has no transcript_path", p.HookEventName)
	}
	path, err := filepath.Abs(p.TranscriptPath)
	if err != nil {
		return factbase.Errorf(factbase.EINVALID, "transcript_path %q: %v", p.TranscriptPath, err)
	}
	// Coding sessions hold secrets in commands: they are masked (ingest --redact).
	s, err := m.ingestOne(ctx, e, user, path, ingest.IngestOptions{Finished: p.HookEventName == "SessionEnd",
		Extractor: transcript.ExtractorOptions{Redact: true}})
	if err != nil {
		return err
	}
	fmt.Fprintf(m.Stderr, "factbase: %s: read %d lines of %s, %d facts (%d new)\n", p.HookEventName, s.Lines, filepath.Base(path), s.Facts, s.Stored)
	return nil
}
