package main

import (
	"context"
	"fmt"
	"io"

	"github.com/factbase/factbase/internal/redact"
	"github.com/factbase/factbase/mcp"
	"github.com/factbase/factbase/memory/jobs"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// runMCP implements "factbase mcp": the MCP server over stdio for one user.
func (m *Main) runMCP(ctx context.Context, args []string) error {
	var (
		c        common
		logLevel string
	)
	fs := m.flags("mcp", &c, true)
	m.llmFlags(fs, &c)
	fs.StringVar(&logLevel, "log-level", "warn", "log level on stderr: debug, info (adds one line per forget, with its reason), warn or error")
	setUsage(fs, fmt.Sprintf(`Usage: factbase mcp --user UUID [flags]

Serve the Model Context Protocol over stdio (newline-delimited JSON-RPC on stdin and
stdout) for one user, so that an agent can remember and recall through tools:
remember, ask, recall, search, set_fact, list_facts, fact_history, forget,
fact_sheet, list_people, list_conflicts and resolve_conflict; the fact sheet is also
a resource (%s) and a prompt (%s). With a model (--llm-url and
--llm-model), remember also queues each message for it, and this process runs the
background workers. Logs are JSON lines on stderr. "factbase serve" offers the same
over HTTP at %s.

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
	return srv.Run(ctx, &mcpsdk.IOTransport{Reader: io.NopCloser(m.Stdin), Writer: nopWriteCloser{m.Stdout}})
}

// nopWriteCloser makes a writer an io.WriteCloser; closing it leaves the stream open.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
