package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

const embedKey = "sk-test-SECRET-0123456789"

// embedRequest is one request the fake embeddings server saw.
type embedRequest struct {
	Method, Path, ContentType, Authorization string
	Model                                    string
	Input                                    []string
	Err                                      string // a body that did not parse
}

// embedServer is an OpenAI-compatible embeddings server for tests. Each request is
// recorded and answered by reply, called with the request's number (from 0).
type embedServer struct {
	*httptest.Server
	recorder[embedRequest]
}

func newEmbedServer(t *testing.T, reply func(w http.ResponseWriter, r *http.Request, n int, req embedRequest)) *embedServer {
	t.Helper()
	f := &embedServer{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := embedRequest{
			Method:        r.Method,
			Path:          r.URL.Path,
			ContentType:   r.Header.Get("Content-Type"),
			Authorization: r.Header.Get("Authorization"),
		}
		var body struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		data, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(data, &body); err != nil {
			req.Err = err.Error()
		}
		req.Model, req.Input = body.Model, body.Input
		reply(w, r, f.add(req), req)
	}))
	t.Cleanup(f.Close)
	return f
}

// embedVector is the fake model: text "t<i>" gets (i+1, 2(i+1), 2(i+1)), of norm
// 3(i+1), and any other text (1, 2, 2).
func embedVector(text string) []float32 {
	var i int
	if _, err := fmt.Sscanf(text, "t%d", &i); err != nil {
		i = 0
	}
	x := float32(i + 1)
	return []float32{x, 2 * x, 2 * x}
}

// answer writes a successful response with the fake model's vectors, in reverse
// order of index to check that the client reorders them.
func embedAnswer(w http.ResponseWriter, req embedRequest) {
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var data []item
	for i := len(req.Input) - 1; i >= 0; i-- {
		data = append(data, item{"embedding", i, embedVector(req.Input[i])})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
}

func embedOK(w http.ResponseWriter, r *http.Request, n int, req embedRequest) { embedAnswer(w, req) }

// newTestEmbedder returns an embedder for f with fast retries.
func newTestEmbedder(t *testing.T, f *embedServer, o EmbedderOptions) *Embedder {
	t.Helper()
	if o.BaseURL == "" {
		o.BaseURL = f.URL
	}
	if o.Model == "" {
		o.Model = "test-model"
	}
	if o.Backoff == 0 {
		o.Backoff = time.Millisecond
	}
	e, err := NewEmbedder(o)
	if err != nil {
		t.Fatalf("NewEmbedder error: %v", err)
	}
	return e
}

func TestEmbedderRequest(t *testing.T) {
	tests := []struct {
		name     string
		base     string // appended to the server's URL
		key      string
		wantAuth string
	}{
		{name: "root", base: "", key: embedKey, wantAuth: "Bearer " + embedKey},
		{name: "root slash", base: "/", key: embedKey, wantAuth: "Bearer " + embedKey},
		{name: "v1", base: "/v1", key: embedKey, wantAuth: "Bearer " + embedKey},
		{name: "v1 slash", base: "/v1/", key: embedKey, wantAuth: "Bearer " + embedKey},
		{name: "no key", base: "/v1", key: "", wantAuth: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newEmbedServer(t, embedOK)
			e := newTestEmbedder(t, f, EmbedderOptions{BaseURL: f.URL + tc.base, Model: "text-embedding-3-small", APIKey: tc.key})
			texts := []string{"t0", "t1", "t2"}
			vecs, err := e.Embed(context.Background(), texts)
			if err != nil {
				t.Fatalf("Embed error: %v", err)
			}
			reqs := f.requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Method != http.MethodPost || r.Path != "/v1/embeddings" {
				t.Errorf("embedRequest %s %s, want POST /v1/embeddings", r.Method, r.Path)
			}
			if r.ContentType != "application/json" {
				t.Errorf("Content-Type %q, want application/json", r.ContentType)
			}
			if r.Authorization != tc.wantAuth {
				t.Errorf("Authorization %q, want %q", r.Authorization, tc.wantAuth)
			}
			if r.Err != "" || r.Model != "text-embedding-3-small" || strings.Join(r.Input, ",") != "t0,t1,t2" {
				t.Errorf("body: model %q, input %q, error %q; want text-embedding-3-small and t0,t1,t2", r.Model, r.Input, r.Err)
			}
			for i, v := range vecs {
				want := []float32{1.0 / 3, 2.0 / 3, 2.0 / 3} // every fake vector, normalised
				for j := range want {
					if math.Abs(float64(v[j]-want[j])) > 1e-6 {
						t.Errorf("vector %d = %v, want %v", i, v, want)
						break
					}
				}
			}
			if got, want := e.Dim(), 3; got != want {
				t.Errorf("Dim() after the first response = %d, want %d", got, want)
			}
			if got, want := e.Model(), "openai:text-embedding-3-small"; got != want {
				t.Errorf("Model() = %q, want %q", got, want)
			}
		})
	}
}

func TestEmbedderBatching(t *testing.T) {
	// Vectors from embedVector all normalise to the same direction, so this server
	// answers (i, 1) for text "t<i>" instead, to check order across batches.
	f := newEmbedServer(t, func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i := len(req.Input) - 1; i >= 0; i-- {
			var k int
			fmt.Sscanf(req.Input[i], "t%d", &k)
			data = append(data, item{i, []float32{float32(k), 1}})
		}
		json.NewEncoder(w).Encode(map[string]any{"data": data})
	})
	e := newTestEmbedder(t, f, EmbedderOptions{BatchSize: 64})
	var texts []string
	for i := range 150 {
		texts = append(texts, fmt.Sprintf("t%d", i))
	}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatalf("Embed error: %v", err)
	}
	var sizes []int
	for _, r := range f.requests() {
		sizes = append(sizes, len(r.Input))
	}
	if fmt.Sprint(sizes) != "[64 64 22]" {
		t.Errorf("batch sizes %v, want [64 64 22]", sizes)
	}
	if len(vecs) != 150 {
		t.Fatalf("%d vectors, want 150", len(vecs))
	}
	for i, v := range vecs {
		// (i, 1) normalised: its ratio gives i back.
		if got := int(math.Round(float64(v[0] / v[1]))); got != i {
			t.Errorf("vector %d is the vector of text %d", i, got)
		}
	}
}

func TestEmbedderEmptyTexts(t *testing.T) {
	f := newEmbedServer(t, embedOK)
	e := newTestEmbedder(t, f, EmbedderOptions{})
	vecs, err := e.Embed(context.Background(), []string{"", "t1", "  \n", "t3"})
	if err != nil {
		t.Fatalf("Embed error: %v", err)
	}
	if reqs := f.requests(); len(reqs) != 1 || strings.Join(reqs[0].Input, ",") != "t1,t3" {
		t.Errorf("requests %+v, want one with input t1,t3", reqs)
	}
	for i, wantZero := range []bool{true, false, true, false} {
		if len(vecs[i]) != 3 || (vecs[i][0] == 0) != wantZero {
			t.Errorf("vector %d = %v, want length 3 and zero %v", i, vecs[i], wantZero)
		}
	}
	none, err := e.Embed(context.Background(), nil)
	if err != nil || len(none) != 0 || len(f.requests()) != 1 {
		t.Errorf("Embed(nil) = %v, %v after %d requests, want nothing sent", none, err, len(f.requests()))
	}
}

func TestEmbedderRetries(t *testing.T) {
	tests := []struct {
		name     string
		reply    func(w http.ResponseWriter, r *http.Request, n int, req embedRequest)
		retries  int
		wantCode string // "" for success
		wantReqs int
		wantMsg  string // a part of the error message
	}{
		{
			name: "500 then 200",
			reply: func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
				if n == 0 {
					http.Error(w, "boom", http.StatusInternalServerError)
					return
				}
				embedAnswer(w, req)
			},
			wantReqs: 2,
		},
		{
			name: "429 with Retry-After then 200",
			reply: func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
				if n == 0 {
					w.Header().Set("Retry-After", "1")
					w.WriteHeader(http.StatusTooManyRequests)
					w.Write([]byte(`{"error":{"message":"Rate limit reached","type":"requests"}}`))
					return
				}
				embedAnswer(w, req)
			},
			wantReqs: 2,
		},
		{
			name: "503 always",
			reply: func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
				w.WriteHeader(http.StatusServiceUnavailable)
				w.Write([]byte(`{"error":"model is loading"}`))
			},
			retries:  2,
			wantCode: factbase.EUNAVAILABLE,
			wantReqs: 3,
			wantMsg:  "503 Service Unavailable: model is loading (after 3 tries)",
		},
		{
			name: "no retries",
			reply: func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
				w.WriteHeader(http.StatusBadGateway)
			},
			retries:  -1,
			wantCode: factbase.EUNAVAILABLE,
			wantReqs: 1,
			wantMsg:  "502 Bad Gateway",
		},
		{
			name: "400 is not retried",
			reply: func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
				w.WriteHeader(http.StatusBadRequest)
				w.Write([]byte(`{"error":{"message":"This model's maximum context length is 8192 tokens","type":"invalid_request_error"}}`))
			},
			wantCode: factbase.EINVALID,
			wantReqs: 1,
			wantMsg:  "400 Bad Request: This model's maximum context length is 8192 tokens",
		},
		{
			name: "401 is not retried and the key is redacted",
			reply: func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
				w.WriteHeader(http.StatusUnauthorized)
				w.Write([]byte(`{"error":{"message":"Incorrect API key provided: ` + embedKey + `"}}`))
			},
			wantCode: factbase.EUNAVAILABLE,
			wantReqs: 1,
			wantMsg:  "Incorrect API key provided: [redacted]",
		},
		{
			name: "404 unknown model, Ollama style",
			reply: func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
				w.WriteHeader(http.StatusNotFound)
				w.Write([]byte(`{"error":"model \"test-model\" not found, try pulling it first"}`))
			},
			wantCode: factbase.EUNAVAILABLE,
			wantReqs: 1,
			wantMsg:  `model "test-model" not found`,
		},
		{
			name: "413",
			reply: func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
				http.Error(w, "payload too large", http.StatusRequestEntityTooLarge)
			},
			wantCode: factbase.ETOOLARGE,
			wantReqs: 1,
			wantMsg:  "413 Request Entity Too Large: payload too large",
		},
		{
			name: "422, TEI style",
			reply: func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
				w.WriteHeader(http.StatusUnprocessableEntity)
				w.Write([]byte(`{"error":"Input validation error: inputs must have less than 512 tokens","error_type":"Validation"}`))
			},
			wantCode: factbase.EINVALID,
			wantReqs: 1,
			wantMsg:  "inputs must have less than 512 tokens",
		},
		{
			name: "html error page is not quoted",
			reply: func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
				w.WriteHeader(http.StatusBadRequest)
				w.Write([]byte(`<html><body>Bad</body></html>`))
			},
			wantCode: factbase.EINVALID,
			wantReqs: 1,
			wantMsg:  "answered 400 Bad Request",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newEmbedServer(t, tc.reply)
			e := newTestEmbedder(t, f, EmbedderOptions{APIKey: embedKey, Retries: tc.retries})
			_, err := e.Embed(context.Background(), []string{"t0"})
			if got := factbase.ErrorCode(err); got != tc.wantCode {
				t.Errorf("Embed error code %q, want %q (err %v)", got, tc.wantCode, err)
			}
			if got := len(f.requests()); got != tc.wantReqs {
				t.Errorf("%d requests, want %d", got, tc.wantReqs)
			}
			if err != nil {
				if !strings.Contains(factbase.ErrorMessage(err), tc.wantMsg) {
					t.Errorf("error message %q, want it to contain %q", factbase.ErrorMessage(err), tc.wantMsg)
				}
				if strings.Contains(err.Error(), embedKey) {
					t.Errorf("error %q contains the API key", err)
				}
			}
		})
	}
}

func TestEmbedderBadResponses(t *testing.T) {
	tests := []struct {
		name    string
		dim     int
		body    string
		wantMsg string
	}{
		{name: "not JSON", body: `Internal things happened`, wantMsg: "not embeddings JSON"},
		{name: "truncated JSON", body: `{"data":[{"index":0,"embedding":[1,2`, wantMsg: "not embeddings JSON"},
		{name: "NaN", body: `{"data":[{"index":0,"embedding":[NaN,1]},{"index":1,"embedding":[1,1]}]}`, wantMsg: "not embeddings JSON"},
		{name: "overflows float32", body: `{"data":[{"index":0,"embedding":[1e39,1]},{"index":1,"embedding":[1,1]}]}`, wantMsg: "not embeddings JSON"},
		{name: "base64 vector", body: `{"data":[{"index":0,"embedding":"AAAA"},{"index":1,"embedding":"AAAA"}]}`, wantMsg: "not embeddings JSON"},
		{name: "no data", body: `{"object":"list"}`, wantMsg: "0 vectors for 2 texts"},
		{name: "too few vectors", body: `{"data":[{"index":0,"embedding":[1,1]}]}`, wantMsg: "1 vectors for 2 texts"},
		{name: "too many vectors", body: `{"data":[{"index":0,"embedding":[1]},{"index":1,"embedding":[1]},{"index":2,"embedding":[1]}]}`, wantMsg: "3 vectors for 2 texts"},
		{name: "index twice", body: `{"data":[{"index":1,"embedding":[1,1]},{"index":1,"embedding":[1,1]}]}`, wantMsg: "index 1 given twice"},
		{name: "index out of range", body: `{"data":[{"index":0,"embedding":[1,1]},{"index":2,"embedding":[1,1]}]}`, wantMsg: "index 2 out of range"},
		{name: "index missing on one", body: `{"data":[{"index":0,"embedding":[1,1]},{"embedding":[1,1]}]}`, wantMsg: "vector 1 has no index"},
		{name: "empty vector", body: `{"data":[{"index":0,"embedding":[]},{"index":1,"embedding":[]}]}`, wantMsg: "empty vector"},
		{name: "varying dimension", body: `{"data":[{"index":0,"embedding":[1,1]},{"index":1,"embedding":[1,1,1]}]}`, wantMsg: "vectors of dimension 2 and 3"},
		{name: "wrong dimension", dim: 3, body: `{"data":[{"index":0,"embedding":[1,1]},{"index":1,"embedding":[1,1]}]}`, wantMsg: "vectors of dimension 2, want 3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newEmbedServer(t, func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
				w.Write([]byte(tc.body))
			})
			e := newTestEmbedder(t, f, EmbedderOptions{APIKey: embedKey, Dim: tc.dim})
			vecs, err := e.Embed(context.Background(), []string{"a", "b"})
			if got, want := factbase.ErrorCode(err), factbase.EINVALID; got != want {
				t.Fatalf("Embed = %v, %v: code %q, want %q", vecs, err, got, want)
			}
			if !strings.Contains(factbase.ErrorMessage(err), tc.wantMsg) {
				t.Errorf("error message %q, want it to contain %q", factbase.ErrorMessage(err), tc.wantMsg)
			}
			if got := len(f.requests()); got != 1 {
				t.Errorf("%d requests, want 1: a bad response is not retried", got)
			}
		})
	}
}

func TestEmbedderNoIndexes(t *testing.T) {
	f := newEmbedServer(t, func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
		w.Write([]byte(`{"data":[{"embedding":[3,4]},{"embedding":[0,2]}]}`))
	})
	e := newTestEmbedder(t, f, EmbedderOptions{})
	vecs, err := e.Embed(context.Background(), []string{"a", "b"})
	if err != nil {
		t.Fatalf("Embed error: %v", err)
	}
	if fmt.Sprint(vecs) != "[[0.6 0.8] [0 1]]" {
		t.Errorf("Embed = %v, want [[0.6 0.8] [0 1]] in list order", vecs)
	}
}

func TestEmbedderLearnedDimension(t *testing.T) {
	dims := []int{3, 4}
	f := newEmbedServer(t, func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
		v := make([]float32, dims[min(n, 1)])
		v[0] = 1
		json.NewEncoder(w).Encode(map[string]any{"data": []map[string]any{{"index": 0, "embedding": v}}})
	})
	e := newTestEmbedder(t, f, EmbedderOptions{})
	if got := e.Dim(); got != 0 {
		t.Errorf("Dim() before any response = %d, want 0", got)
	}
	if _, err := e.Embed(context.Background(), []string{"a"}); err != nil {
		t.Fatalf("first Embed error: %v", err)
	}
	if got := e.Dim(); got != 3 {
		t.Errorf("Dim() after the first response = %d, want 3", got)
	}
	_, err := e.Embed(context.Background(), []string{"a"})
	if factbase.ErrorCode(err) != factbase.EINVALID || !strings.Contains(err.Error(), "dimension 4, want 3") {
		t.Errorf("Embed with a changed dimension = %v, want EINVALID naming 4 and 3", err)
	}
}

func TestEmbedderTimeouts(t *testing.T) {
	// hang answers nothing until the client gives up (or the test ends).
	hang := func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}
	t.Run("per-embedRequest timeout", func(t *testing.T) {
		f := newEmbedServer(t, hang)
		e := newTestEmbedder(t, f, EmbedderOptions{Timeout: 50 * time.Millisecond, APIKey: embedKey})
		_, err := e.Embed(context.Background(), []string{"a"})
		if got, want := factbase.ErrorCode(err), factbase.ETIMEOUT; got != want {
			t.Errorf("Embed against a slow server: code %q, want %q (err %v)", got, want, err)
		}
		if got := len(f.requests()); got != 1 {
			t.Errorf("%d requests, want 1: a timeout is not retried", got)
		}
		if err != nil && strings.Contains(err.Error(), embedKey) {
			t.Errorf("error %q contains the API key", err)
		}
	})
	t.Run("slow body", func(t *testing.T) {
		f := newEmbedServer(t, func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
			w.Write([]byte(`{"data":[`))
			w.(http.Flusher).Flush()
			hang(w, r, n, req)
		})
		e := newTestEmbedder(t, f, EmbedderOptions{Timeout: 50 * time.Millisecond})
		_, err := e.Embed(context.Background(), []string{"a"})
		if got, want := factbase.ErrorCode(err), factbase.ETIMEOUT; got != want {
			t.Errorf("Embed against a server that stalls mid-body: code %q, want %q (err %v)", got, want, err)
		}
	})
	t.Run("caller deadline", func(t *testing.T) {
		f := newEmbedServer(t, hang)
		e := newTestEmbedder(t, f, EmbedderOptions{})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := e.Embed(ctx, []string{"a"})
		if got, want := factbase.ErrorCode(err), factbase.ETIMEOUT; got != want || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Embed past the caller's deadline = %v: code %q, want %q wrapping context.DeadlineExceeded", err, got, want)
		}
	})
	t.Run("caller cancels", func(t *testing.T) {
		arrived := make(chan struct{})
		f := newEmbedServer(t, func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
			close(arrived)
			hang(w, r, n, req)
		})
		e := newTestEmbedder(t, f, EmbedderOptions{})
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			<-arrived
			cancel()
		}()
		_, err := e.Embed(ctx, []string{"a"})
		if got, want := factbase.ErrorCode(err), factbase.EUNAVAILABLE; got != want || !errors.Is(err, context.Canceled) {
			t.Errorf("Embed canceled = %v: code %q, want %q wrapping context.Canceled", err, got, want)
		}
	})
	t.Run("canceled while waiting to retry", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		f := newEmbedServer(t, func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
			cancel()
			w.Header().Set("Retry-After", "10")
			w.WriteHeader(http.StatusTooManyRequests)
		})
		e := newTestEmbedder(t, f, EmbedderOptions{})
		_, err := e.Embed(ctx, []string{"a"})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Embed canceled during backoff = %v, want it to wrap context.Canceled", err)
		}
		if got := len(f.requests()); got != 1 {
			t.Errorf("%d requests, want 1", got)
		}
	})
}

func TestEmbedderConnectionRefused(t *testing.T) {
	f := newEmbedServer(t, embedOK)
	url := f.URL
	f.Close() // nothing listens there now
	e, err := NewEmbedder(EmbedderOptions{BaseURL: url, Model: "m", APIKey: embedKey, Retries: 2, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Embed(context.Background(), []string{"a"})
	if got, want := factbase.ErrorCode(err), factbase.EUNAVAILABLE; got != want {
		t.Errorf("Embed with no server: code %q, want %q (err %v)", got, want, err)
	}
	if err != nil && (!strings.Contains(err.Error(), "after 3 tries") || strings.Contains(err.Error(), embedKey)) {
		t.Errorf("error %q, want it to say it tried 3 times and not to contain the key", err)
	}
}

func TestNewEmbedderOptions(t *testing.T) {
	tests := []struct {
		name     string
		o        EmbedderOptions
		wantCode string
	}{
		{name: "valid", o: EmbedderOptions{BaseURL: "http://localhost:11434", Model: "nomic-embed-text"}},
		{name: "https", o: EmbedderOptions{BaseURL: "https://api.openai.com/v1", Model: "text-embedding-3-small", APIKey: "k"}},
		{name: "no base URL", o: EmbedderOptions{Model: "m"}, wantCode: factbase.EINVALID},
		{name: "no scheme", o: EmbedderOptions{BaseURL: "localhost:11434", Model: "m"}, wantCode: factbase.EINVALID},
		{name: "ftp", o: EmbedderOptions{BaseURL: "ftp://host", Model: "m"}, wantCode: factbase.EINVALID},
		{name: "no model", o: EmbedderOptions{BaseURL: "http://h"}, wantCode: factbase.EINVALID},
		{name: "negative dim", o: EmbedderOptions{BaseURL: "http://h", Model: "m", Dim: -1}, wantCode: factbase.EINVALID},
		{name: "negative timeout", o: EmbedderOptions{BaseURL: "http://h", Model: "m", Timeout: -time.Second}, wantCode: factbase.EINVALID},
		{name: "negative batch", o: EmbedderOptions{BaseURL: "http://h", Model: "m", BatchSize: -1}, wantCode: factbase.EINVALID},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewEmbedder(tc.o)
			if got := factbase.ErrorCode(err); got != tc.wantCode {
				t.Errorf("NewEmbedder(%+v): code %q, want %q (err %v)", tc.o, got, tc.wantCode, err)
			}
		})
	}
	e, err := NewEmbedder(EmbedderOptions{BaseURL: "http://h/api/v1/", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if e.tr.url != "http://h/api/v1/embeddings" || e.tr.timeout != 30*time.Second || e.tr.retries != 3 || e.batch != 64 || e.tr.backoff != 200*time.Millisecond {
		t.Errorf("defaults: url %q, timeout %v, retries %d, batch %d, backoff %v; want http://h/api/v1/embeddings, 30s, 3, 64, 200ms",
			e.tr.url, e.tr.timeout, e.tr.retries, e.batch, e.tr.backoff)
	}
	_, err = NewEmbedder(EmbedderOptions{BaseURL: "ftp://user:hunter2@h", Model: "m"})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("NewEmbedder with a password in a bad URL = %v, want an error without the password", err)
	}
}

func TestEmbedderConcurrent(t *testing.T) {
	f := newEmbedServer(t, embedOK)
	e := newTestEmbedder(t, f, EmbedderOptions{BatchSize: 2})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			vecs, err := e.Embed(context.Background(), []string{"t0", "t1", "t2"})
			if err != nil || len(vecs) != 3 {
				t.Errorf("concurrent Embed = %d vectors, %v", len(vecs), err)
			}
		})
	}
	wg.Wait()
	if got := len(f.requests()); got != 16 {
		t.Errorf("%d requests, want 16", got)
	}
}
