package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"

	"github.com/factbase/factbase"
)

// reqInfo is what the middleware knows about one request; later layers fill in the
// key that authenticated it. It travels in the request's context.
type reqInfo struct {
	id      string
	log     *slog.Logger
	keyID   string
	keyUser factbase.UserID // the key's one user; "" for an application key
	userID  string
}

type reqInfoKey struct{}

func withReqInfo(ctx context.Context, ri *reqInfo) context.Context {
	return context.WithValue(ctx, reqInfoKey{}, ri)
}

func reqInfoFrom(ctx context.Context) *reqInfo {
	ri, _ := ctx.Value(reqInfoKey{}).(*reqInfo)
	return ri
}

// discard is the logger of a context that has none.
var discard = slog.New(slog.DiscardHandler)

// logger returns the request's logger, which adds the request id to every line.
func logger(ctx context.Context) *slog.Logger {
	if ri := reqInfoFrom(ctx); ri != nil {
		return ri.log
	}
	return discard
}

// RequestID returns the id of the request ctx belongs to, "" outside a request.
func RequestID(ctx context.Context) string {
	if ri := reqInfoFrom(ctx); ri != nil {
		return ri.id
	}
	return ""
}

func levelFor(status int) slog.Level {
	switch {
	case status >= 500:
		return slog.LevelError
	case status >= 400:
		return slog.LevelWarn
	}
	return slog.LevelInfo
}

func errAttr(err error) slog.Attr { return slog.String("error", err.Error()) }

// requestID returns the client's X-Request-Id if it is a sane token (1 to 128
// printable ASCII characters without spaces or quotes), else a new random id.
func requestID(r *http.Request) string {
	if id := r.Header.Get("X-Request-Id"); id != "" && len(id) <= 128 {
		ok := true
		for i := 0; i < len(id) && ok; i++ {
			c := id[i]
			ok = c > ' ' && c < 0x7f && c != '"' && c != '\\'
		}
		if ok {
			return id
		}
	}
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand panics only if the OS source is broken)
	return hex.EncodeToString(b[:])
}

// recorder remembers the status and size of a response. It unwraps to the original
// writer so that http.ResponseController (deadlines, flushing) reaches it.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

// Flush implements http.Flusher.
func (r *recorder) Flush() {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	http.NewResponseController(r.ResponseWriter).Flush()
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
