package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxLineBytes is the longest line Stdio reads: a longer one is answered
// with an invalid request error and skipped.
const DefaultMaxLineBytes = 16 << 20

// DefaultDrainTimeout is how long Stdio waits, once its input has ended, for the
// answers of the requests still in flight.
const DefaultDrainTimeout = time.Minute

// Stdio is the stdio transport of "factbase mcp": newline-delimited JSON-RPC on In
// and Out, as the SDK's StdioTransport, with two differences a client relies on.
// A line that is not JSON is answered with a parse error (-32700), and one that is
// JSON but not a JSON-RPC message with an invalid request error (-32600); either
// way the session goes on (the SDK's transport ends it). And when In ends (the
// client closed its end), the requests already read are answered before the
// session ends (the SDK's transport cancels them and drops their answers).
type Stdio struct {
	// In is read line by line; it is not closed.
	In io.Reader
	// Out receives one JSON-RPC message a line; it is not closed.
	Out io.Writer
	// MaxLineBytes bounds a line. Default DefaultMaxLineBytes.
	MaxLineBytes int
	// DrainTimeout bounds the wait for answers in flight after In ends. Default
	// DefaultDrainTimeout.
	DrainTimeout time.Duration
}

var _ mcpsdk.Transport = (*Stdio)(nil)

// Connect implements mcpsdk.Transport. The lines that are JSON-RPC go on, through
// a pipe, to the SDK's own transport over In and Out, which keeps its handling of
// batches; Stdio answers the others itself.
func (t *Stdio) Connect(ctx context.Context) (mcpsdk.Connection, error) {
	maxLine := t.MaxLineBytes
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	drain := t.DrainTimeout
	if drain <= 0 {
		drain = DefaultDrainTimeout
	}
	out := &lineWriter{w: t.Out}
	pr, pw := io.Pipe()
	inner, err := (&mcpsdk.IOTransport{Reader: pr, Writer: out, MaxLineLength: -1}).Connect(ctx)
	if err != nil {
		return nil, err
	}
	c := &stdioConn{Connection: inner, pending: map[jsonrpc.ID]int{}, wake: make(chan struct{}, 1),
		closed: make(chan struct{}), drain: drain}
	go filterLines(t.In, pw, out, maxLine)
	return c, nil
}

// lineWriter writes whole lines to w, one writer at a time: the SDK's answers and
// Stdio's error answers share Out.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *lineWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(b)
}

// Close implements io.Closer; Out stays open (it is the process's).
func (w *lineWriter) Close() error { return nil }

// filterLines copies the JSON-RPC lines of in to pw and answers the others on out,
// until in ends (then pw is closed: the SDK's transport reads EOF) or pw is closed
// (the session ended).
func filterLines(in io.Reader, pw *io.PipeWriter, out *lineWriter, maxLine int) {
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(br, maxLine)
		if tooLong {
			writeLineError(out, nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: the line is longer than %d bytes", maxLine))
		} else if line = bytes.TrimSpace(line); len(line) > 0 {
			if code, id, msg := checkMessage(line); code != 0 {
				writeLineError(out, id, code, msg)
			} else if _, werr := pw.Write(append(line, '\n')); werr != nil {
				return // the session ended
			}
		}
		if err != nil { // io.EOF, or in failed: the session ends as at EOF
			pw.Close()
			return
		}
	}
}

// readLine reads one line from br (without its newline). A line longer than maxLine
// is skipped to its end and reported as tooLong.
func readLine(br *bufio.Reader, maxLine int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxLine+1 { // +1: the newline
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), tooLong, err
	}
}

// checkMessage returns 0 if line is a JSON-RPC message or a batch of them, else the
// error to answer it with: its code, the request's id when one can be read, and the
// message.
func checkMessage(line []byte) (code int, id any, msg string) {
	if !json.Valid(line) {
		return jsonrpc.CodeParseError, nil, "parse error: the line is not JSON"
	}
	invalid := func(err error) (int, any, string) {
		return jsonrpc.CodeInvalidRequest, nil, "invalid request: " + err.Error()
	}
	switch line[0] {
	case '[':
		var batch []json.RawMessage
		if err := json.Unmarshal(line, &batch); err != nil || len(batch) == 0 {
			return invalid(errors.New("an empty batch"))
		}
		ids := map[jsonrpc.ID]bool{}
		for _, raw := range batch {
			m, err := jsonrpc.DecodeMessage(raw)
			if err != nil {
				return invalid(err)
			}
			if r, ok := m.(*jsonrpc.Request); ok && r.IsCall() {
				if ids[r.ID] {
					return invalid(fmt.Errorf("the batch repeats the id %v", r.ID.Raw()))
				}
				ids[r.ID] = true
			}
		}
		return 0, nil, ""
	case '{':
		if _, err := jsonrpc.DecodeMessage(line); err != nil {
			var head struct {
				ID any `json:"id"`
			}
			json.Unmarshal(line, &head)
			code, _, msg := invalid(err)
			switch head.ID.(type) {
			case string, float64:
				return code, head.ID, msg
			}
			return code, nil, msg
		}
		return 0, nil, ""
	}
	return invalid(errors.New("a JSON-RPC message is an object"))
}

// writeLineError answers on out with a JSON-RPC error object.
func writeLineError(out *lineWriter, id any, code int, msg string) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	out.Write(append(b, '\n'))
}

// stdioConn is the SDK's connection over the filtered input, counting the requests
// read and not yet answered so that the end of the input can wait for them.
type stdioConn struct {
	mcpsdk.Connection
	mu        sync.Mutex
	pending   map[jsonrpc.ID]int
	wake      chan struct{} // a request was answered
	closed    chan struct{}
	closeOnce sync.Once
	drain     time.Duration
}

// Read implements mcpsdk.Connection. At the end of the input it first waits, up
// to the drain timeout, until every request read has been answered: the SDK ends
// the session, cancelling what is in flight, as soon as Read fails.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		if errors.Is(err, io.EOF) {
			c.waitAnswered(ctx)
		}
		return nil, err
	}
	if r, ok := msg.(*jsonrpc.Request); ok && r.IsCall() {
		c.mu.Lock()
		c.pending[r.ID]++
		c.mu.Unlock()
	}
	return msg, nil
}

// Write implements mcpsdk.Connection.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if r, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		if c.pending[r.ID]--; c.pending[r.ID] <= 0 {
			delete(c.pending, r.ID)
		}
		c.mu.Unlock()
		select {
		case c.wake <- struct{}{}:
		default:
		}
	}
	return err
}

// Close implements mcpsdk.Connection.
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.Connection.Close()
}

func (c *stdioConn) waitAnswered(ctx context.Context) {
	timeout := time.NewTimer(c.drain)
	defer timeout.Stop()
	for {
		c.mu.Lock()
		n := len(c.pending)
		c.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.wake:
		case <-ctx.Done():
			return
		case <-c.closed:
			return
		case <-timeout.C:
			return
		}
	}
}
