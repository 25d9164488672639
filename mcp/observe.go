package mcp

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"time"

	"github.com/factbase/factbase"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
)

// The outcomes of a tool call other than a domain error code.
const (
	outcomeOK      = "ok"      // the tool answered
	outcomeRefused = "refused" // the SDK refused the arguments (the schema) before the tool ran
	outcomeError   = "error"   // a protocol error: an unknown tool, malformed params
)

// unknownTool is the tool label of a call naming no registered tool, so that a
// client cannot make up label values.
const unknownTool = "unknown"

// toolCall is what the handler of one tool call noted, for its log line and its
// metrics: whether it ran, for whom, and how it failed.
type toolCall struct {
	ran  bool
	user factbase.UserID
	err  error
}

type toolCallKey struct{}

// callOf returns the toolCall observe put in ctx, or a throw-away one (a handler
// called without observe, as in a test of the SDK alone).
func callOf(ctx context.Context) *toolCall {
	if c, ok := ctx.Value(toolCallKey{}).(*toolCall); ok {
		return c
	}
	return &toolCall{}
}

// observe logs and measures every tool call: one line with the tool, the user,
// the duration and the outcome (ok, refused, error, or the domain error code of a
// tool error), and the metrics of Options.Metrics. Other methods pass through.
func (s *Server) observe(next mcpsdk.MethodHandler) mcpsdk.MethodHandler {
	return func(ctx context.Context, method string, req mcpsdk.Request) (mcpsdk.Result, error) {
		creq, ok := req.(*mcpsdk.CallToolRequest)
		if !ok {
			return next(ctx, method, req)
		}
		name := unknownTool
		if creq.Params != nil && slices.Contains(s.tools, creq.Params.Name) {
			name = creq.Params.Name
		}
		call := &toolCall{}
		start := time.Now()
		res, err := next(context.WithValue(ctx, toolCallKey{}, call), method, req)
		d := time.Since(start)

		outcome, level := outcomeOK, slog.LevelInfo
		attrs := []slog.Attr{slog.String("tool", name)}
		if call.user != "" {
			attrs = append(attrs, slog.String("user", string(call.user)))
		}
		switch r, _ := res.(*mcpsdk.CallToolResult); {
		case err != nil:
			outcome = outcomeError
			attrs = append(attrs, slog.String("error", err.Error()))
		case call.err != nil:
			outcome = factbase.ErrorCode(call.err)
			attrs = append(attrs, slog.String("error", call.err.Error())) // the details, for the log only
			switch outcome {
			case factbase.EINTERNAL:
				level = slog.LevelError
			case factbase.EUNAVAILABLE, factbase.ETIMEOUT:
				level = slog.LevelWarn
			}
		case r != nil && r.IsError && !call.ran:
			// The SDK refused the arguments: say why as the engine would.
			outcome = outcomeRefused
			if schema := s.schemas[name]; schema != nil {
				if msg := explainRefusal(schema, creq.Params.Arguments); msg != "" {
					r.Content = nil
					r.SetError(errors.New(msg))
				}
			}
			if e := r.GetError(); e != nil {
				attrs = append(attrs, slog.String("error", e.Error()))
			}
		}
		attrs = append(attrs, slog.Float64("duration_ms", float64(d.Microseconds())/1000), slog.String("outcome", outcome))
		s.log.LogAttrs(ctx, level, "mcp tool call", attrs...)
		if s.metrics != nil {
			s.metrics.calls.WithLabelValues(name, outcome).Inc()
			s.metrics.duration.WithLabelValues(name).Observe(d.Seconds())
		}
		return res, err
	}
}

// toolMetrics count and time tool calls.
type toolMetrics struct {
	calls    *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// newToolMetrics registers the tool metrics with reg, or takes the ones already
// there (two servers on one registry, as a test may make, share them), with a
// zero count of each tool's successes so that a rate is defined from the start.
func newToolMetrics(reg prometheus.Registerer, tools []string) (*toolMetrics, error) {
	m := &toolMetrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "factbase_mcp_tool_calls_total",
			Help: "MCP tool calls, by tool and outcome: ok, refused (the arguments broke the input schema), " +
				"error (a protocol error), or the error code of a tool error (invalid, not_found, unavailable, internal, ...)."},
			[]string{"tool", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "factbase_mcp_tool_call_duration_seconds",
			Help:    "Time to answer an MCP tool call, by tool.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}},
			[]string{"tool"}),
	}
	var err error
	if m.calls, err = register(reg, m.calls); err != nil {
		return nil, err
	}
	if m.duration, err = register(reg, m.duration); err != nil {
		return nil, err
	}
	for _, t := range tools {
		m.calls.WithLabelValues(t, outcomeOK)
	}
	return m, nil
}

// register registers c with reg and returns it, or the collector of the same
// description reg already holds.
func register[C prometheus.Collector](reg prometheus.Registerer, c C) (C, error) {
	err := reg.Register(c)
	var are prometheus.AlreadyRegisteredError
	switch {
	case err == nil:
		return c, nil
	case errors.As(err, &are):
		if existing, ok := are.ExistingCollector.(C); ok {
			return existing, nil
		}
	}
	var zero C
	return zero, factbase.Errorf(factbase.EINTERNAL, "mcp: register metrics: %v", err)
}
