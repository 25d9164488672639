package main

import (
	"context"
	"fmt"

	"github.com/factbase/factbase/internal/redact"
	"github.com/factbase/factbase/mcp"
	"github.com/factbase/factbase/memory/jobs"
)

// runMCP implements "factbase mcp": the MCP server over stdio for one user.
func (m *Main) runMCP(ctx context.Context, args []string) error {
	var (
		c        common
		logLevel string
	)
	fs := m.flags("mcp", &c, true)
	m.llmFlags(fs, &c)
	fs.StringVar(&logLevel, "log-level", "warn", "log level on stderr: debug, info (adds one line per tool call, with its tool, user, duration and outcome, and one per forget or erase_fact, with its reason), warn or error")
	setUsage(fs, fmt.Sprintf(`Usage: factbase mcp --user UUID [flags]

Serve the Model Context Protocol over stdio (newline-delimited JSON-RPC on stdin and
stdout) for one user, so that an agent can remember and recall through tools:
remember, ask, recall, search, add_episode, set_fact, list_facts, get_fact,
fact_history, forget, erase_fact, fact_sheet, list_people, list_conflicts and
resolve_conflict; the fact sheet is also a resource
(%s) and a prompt (%s). A line that is
not JSON-RPC is answered with a JSON-RPC error (-32700 for one that is not JSON)
and the session goes on; when stdin ends, the requests already read are answered
before the process exits. With a model (--llm-url and --llm-model), remember also
queues each message for it, and this process runs the background workers. Logs are
JSON lines on stderr. "factbase serve" offers the same over HTTP at %s.

`, mcp.SheetURITemplate, mcp.PromptName, mcp.Path))
	if err := parseNone(fs, args, "mcp"); err != nil {
		return err
	}
	user, err := c.userID()
	if err != nil {
		return err
	}
	log, err := m.jsonLogger(logLevel)
	if err != nil {
		return err
	}
	c.log = log
	e, closeStore, err := m.openEngine(ctx, &c)
	if err != nil {
		return err
	}
	defer closeStore()
	var workers *jobs.Workers
	if c.llm.c != nil { // a model is configured: run its background jobs here
		w, stop, err := m.startWorkers(ctx, e, &c, log)
		if err != nil {
			return err
		}
		defer stop()
		workers = w
	}
	srv, err := mcp.New(mcp.Options{Engine: e, User: user, Logger: log, Workers: workers, Version: m.build().Version})
	if err != nil {
		return err
	}
	log.Info("serving MCP over stdio", "user", string(user), "db", redact.URL(c.db))
	// mcp.Stdio answers a line that is not JSON-RPC with an error and goes on, and
	// answers what is in flight when stdin ends before returning.
	return srv.Run(ctx, &mcp.Stdio{In: m.Stdin, Out: m.Stdout})
}
