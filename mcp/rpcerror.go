package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/factbase/factbase"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// rpcError is the JSON-RPC error a request that failed outside a tool (reading the
// fact sheet resource, getting the prompt) answers: the client's mistakes are
// invalid params (-32602), data the store does not have resource not found (the
// SDK's code for it: -32602 too, as the specification now says), the rest
// internal errors (-32603). The message is what a tool error would say
// (clientMessage).
func rpcError(err error) error {
	code := int64(jsonrpc.CodeInternalError)
	switch factbase.ErrorCode(err) {
	case factbase.ENOTFOUND:
		code = mcpsdk.CodeResourceNotFound
	case factbase.EINVALID, factbase.EUNAUTHORIZED, factbase.EFORBIDDEN, factbase.ECONFLICT, factbase.ETOOLARGE:
		code = jsonrpc.CodeInvalidParams
	}
	return &jsonrpc.Error{Code: code, Message: clientMessage(err)}
}

// wireErrors gives every error a request answers a JSON-RPC code. The SDK sends an
// error that carries none with code 0, which no client can read as an error class
// (JSON-RPC reserves codes, and 0 is not one): such an error becomes an internal
// error (-32603) with the same message.
func wireErrors(next mcpsdk.MethodHandler) mcpsdk.MethodHandler {
	return func(ctx context.Context, method string, req mcpsdk.Request) (mcpsdk.Result, error) {
		res, err := next(ctx, method, req)
		var wire *jsonrpc.Error
		if err != nil && !errors.As(err, &wire) {
			err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		return res, err
	}
}

// rpcErrors makes the SDK's transport errors (a wrong method or content type, a body
// that is not JSON: -32700, not JSON-RPC: -32600, a foreign Host) answer as
// JSON-RPC error objects, as every other MCP answer is, instead of text/plain: a
// client parses one format. The status code is kept. Whether a refused body was
// JSON at all is read off the body the SDK read (bodyTap), not off its message.
func rpcErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := &rpcErrorWriter{ResponseWriter: w}
		if r.Body != nil && r.Body != http.NoBody {
			rw.body = &bodyTap{ReadCloser: r.Body}
			r.Body = rw.body
		}
		next.ServeHTTP(rw, r)
		if rw.status != 0 { // a text error without a final newline
			rw.flushError()
		}
	})
}

// tapLimit bounds what bodyTap keeps: a larger body is not judged (a parse error
// is then reported as an invalid request).
const tapLimit = 1 << 20

// bodyTap keeps a copy of the request body as the SDK reads it.
type bodyTap struct {
	io.ReadCloser
	buf  bytes.Buffer
	over bool // more than tapLimit was read
	eof  bool // the body was read to its end
}

func (b *bodyTap) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if !b.over {
		if b.buf.Len()+n > tapLimit {
			b.over = true
			b.buf.Reset()
		} else {
			b.buf.Write(p[:n])
		}
	}
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

// notJSON reports whether the whole body was read and is not JSON.
func (b *bodyTap) notJSON() bool {
	return b != nil && b.eof && !b.over && len(bytes.TrimSpace(b.buf.Bytes())) > 0 && !json.Valid(b.buf.Bytes())
}

type rpcErrorWriter struct {
	http.ResponseWriter
	body   *bodyTap     // the request body, when it has one
	status int          // a text error's status, held until its text is written
	text   bytes.Buffer // the text error's message
}

func (w *rpcErrorWriter) WriteHeader(status int) {
	if status >= 400 && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.status = status
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *rpcErrorWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		return w.ResponseWriter.Write(b)
	}
	if w.text.Len() < 1024 {
		w.text.Write(b)
	}
	if bytes.HasSuffix(b, []byte("\n")) { // http.Error ends its message with one
		w.flushError()
	}
	return len(b), nil
}

// flushError writes the held text error as a JSON-RPC error object.
func (w *rpcErrorWriter) flushError() {
	code := jsonrpc.CodeInvalidRequest
	msg := strings.TrimSpace(w.text.String())
	if w.body.notJSON() {
		code = jsonrpc.CodeParseError
	}
	writeRPCError(w.ResponseWriter, w.status, code, msg)
	w.status = 0
	w.text.Reset()
}

// codeUnauthorized is the JSON-RPC code of a request refused for its key (an
// implementation-defined server error, in -32000..-32099).
const codeUnauthorized = -32001

// writeRPCError answers an HTTP request with status and a JSON-RPC error object of
// no id (the request was not read).
func writeRPCError(w http.ResponseWriter, status, code int, msg string) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Del("Content-Length")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *rpcErrorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
