package mcp

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
)

// rpcErrors makes the SDK's transport errors (a wrong method or content type, a body
// that is not JSON-RPC, a foreign Host) answer as JSON-RPC error objects, as every
// other MCP answer is, instead of text/plain: a client parses one format. The
// status code is kept.
func rpcErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := &rpcErrorWriter{ResponseWriter: w}
		next.ServeHTTP(rw, r)
		if rw.status != 0 { // a text error without a final newline
			rw.flushError()
		}
	})
}

type rpcErrorWriter struct {
	http.ResponseWriter
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
	code := -32600 // invalid request
	msg := strings.TrimSpace(w.text.String())
	if strings.Contains(strings.ToLower(msg), "parse") || strings.Contains(strings.ToLower(msg), "json") {
		code = -32700 // parse error
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Del("Content-Length")
	h.Set("X-Content-Type-Options", "nosniff")
	w.ResponseWriter.WriteHeader(w.status)
	json.NewEncoder(w.ResponseWriter).Encode(map[string]any{"jsonrpc": "2.0", "id": nil,
		"error": map[string]any{"code": code, "message": msg}})
	w.status = 0
	w.text.Reset()
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *rpcErrorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
