package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/llm"
	"github.com/factbase/factbase/memory"
)

// newEmbeddingsServer is an OpenAI-compatible /v1/embeddings endpoint that answers
// with the 64-dimension hashing embedder's vectors, checking the request's path,
// method and body.
func newEmbeddingsServer(t *testing.T) *httptest.Server {
	t.Helper()
	hash := embed.NewHash(64)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil ||
			req.Model != "test-embed" || len(req.Input) == 0 {
			http.Error(w, `{"error": {"message": "bad request"}}`, http.StatusBadRequest)
			return
		}
		vecs, err := hash.Embed(r.Context(), req.Input)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var out struct {
			Data []item `json:"data"`
		}
		for i, v := range vecs {
			out.Data = append(out.Data, item{i, v})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// TestSearchEmbedderDown stores episodes through an embeddings endpoint, takes the
// endpoint down, and searches over HTTP: the search answers from full text, with a
// warning in the response and in the log, instead of failing.
func TestSearchEmbedderDown(t *testing.T) {
	ts := newEmbeddingsServer(t)
	emb, err := llm.NewEmbedder(llm.EmbedderOptions{BaseURL: ts.URL, Model: "test-embed", Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, func(o *Options) {
		o.Engine = memory.New(o.Engine.Store(), memory.Options{Embedder: emb, Logger: o.Logger})
	})
	base := "/v1/users/" + userA
	for _, c := range []string{"The user is allergic to peanuts", "Peanuts and crackers are on the snack list", "Martin is vegetarian"} {
		e.ok("POST", base+"/episodes", e.keyA, `{"content": "`+c+`"}`, nil)
	}
	type result struct {
		Hits []struct {
			Text    string `json:"text"`
			Explain struct {
				BM25Rank   int `json:"bm25_rank"`
				VectorRank int `json:"vector_rank"`
			} `json:"explain"`
		} `json:"hits"`
		Model    string   `json:"model"`
		Warnings []string `json:"warnings"`
	}
	var up result
	e.ok("POST", base+"/search", e.keyA, `{"query": "allergic to peanuts"}`, &up)
	if len(up.Warnings) != 0 || up.Model != "openai:test-embed" || len(up.Hits) == 0 || up.Hits[0].Explain.VectorRank == 0 {
		t.Fatalf("search with the endpoint up = %+v; want vectors of openai:test-embed and no warning", up)
	}
	if strings.Contains(e.logs.String(), `"level":"WARN"`) {
		t.Errorf("a warning logged with the endpoint up: %s", e.logs)
	}

	ts.Close()
	r := e.do("POST", base+"/search", e.keyA, `{"query": "allergic to peanuts"}`)
	if r.status != http.StatusOK {
		t.Fatalf("search with the endpoint down = %d %s, want 200", r.status, r.body)
	}
	var down result
	r.json(t, &down)
	if len(down.Hits) == 0 || down.Hits[0].Text != "The user is allergic to peanuts" || down.Hits[0].Explain.VectorRank != 0 || down.Model != "" {
		t.Errorf("search with the endpoint down = %+v; want the allergy first, by full text alone", down)
	}
	if len(down.Warnings) != 1 || !strings.HasPrefix(down.Warnings[0], "the embedder openai:test-embed is unreachable: ") ||
		!strings.HasSuffix(down.Warnings[0], "; results are full-text only") {
		t.Errorf("warnings %q; want one saying the embedder is unreachable", down.Warnings)
	}
	var warned int
	for _, l := range strings.Split(e.logs.String(), "\n") {
		if strings.Contains(l, `"level":"WARN"`) && strings.Contains(l, "unreachable") && strings.Contains(l, userA) {
			warned++
		}
	}
	if warned != 1 {
		t.Errorf("%d warnings logged, want one naming the user and the unreachable embedder; log:\n%s", warned, e.logs)
	}
	// The OpenAPI document describes the field.
	doc := e.do("GET", "/openapi.json", "", "")
	if !strings.Contains(string(doc.body), `"warnings":{"description":"Why the search ranked by full text alone`) {
		t.Errorf("the OpenAPI document does not describe the search's warnings")
	}
}
