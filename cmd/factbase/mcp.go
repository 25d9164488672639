package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/factbase/factbase/mcp"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// runMCP implements "factbase mcp": the MCP server over stdio for one user.
func (m *Main) runMCP(ctx context.Context, args []string) error {
	var (
		c        common
		logLevel string
	)
	fs := m.flags("mcp", &c, true)
	fs.StringVar(&logLevel, "log-level", "warn", "log level on stderr: debug, info (adds one line per forget, with its reason), warn or error")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: factbase mcp --user UUID [flags]

Serve the Model Context Protocol over stdio (newline-delimited JSON-RPC on stdin and
stdout) for one user, so that an agent can remember and recall through tools:
remember, ask, search, set_fact, list_facts, fact_history, forget, fact_sheet, and
the fact sheet as a resource (%s) and a prompt (%s).
Logs are JSON lines on stderr. "factbase serve" offers the same over HTTP at %s.

`, mcp.SheetURITemplate, mcp.PromptName, mcp.Path)
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("mcp takes no arguments, got %q", fs.Args())
	}
	user, err := c.userID()
	if err != nil {
		return err
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(logLevel)); err != nil {
		return usagef("--log-level %q is not one of debug, info, warn, error", logLevel)
	}
	log := slog.New(slog.NewJSONHandler(m.Stderr, &slog.HandlerOptions{Level: level}))
	e, closeStore, err := m.openEngine(ctx, &c)
	if err != nil {
		return err
	}
	defer closeStore()
	srv, err := mcp.New(mcp.Options{Engine: e, User: user, Logger: log})
	if err != nil {
		return err
	}
	log.Info("serving MCP over stdio", "user", string(user), "db", c.db)
	return srv.Run(ctx, &mcpsdk.IOTransport{Reader: io.NopCloser(m.Stdin), Writer: nopWriteCloser{m.Stdout}})
}

// nopWriteCloser makes a writer an io.WriteCloser; closing it leaves the stream open.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
