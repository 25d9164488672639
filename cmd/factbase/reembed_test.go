package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/factbase/factbase/embed"
)

// openAIEmbeddings is an OpenAI-compatible /v1/embeddings endpoint of model
// "test-embed" that answers with the 64-dimension hashing embedder's vectors.
func openAIEmbeddings(t *testing.T) *httptest.Server {
	t.Helper()
	hash := embed.NewHash(64)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil || req.Model != "test-embed" {
			http.Error(w, `{"error": {"message": "bad request"}}`, http.StatusBadRequest)
			return
		}
		vecs, _ := hash.Embed(r.Context(), req.Input)
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

// TestSearchWarnsUntilReembed writes episodes with the built-in embedder, searches
// with another one (an OpenAI-compatible endpoint): the search warns on standard
// error and in its JSON, and finds the episode by full text; after reembed with the
// new embedder the warning is gone.
func TestSearchWarnsUntilReembed(t *testing.T) {
	env := testEnv(t)
	for _, c := range []string{"The user is allergic to peanuts", "Peanuts and crackers are on the snack list", "Martin is vegetarian"} {
		addEpisode(t, env, c)
	}
	env["FACTBASE_EMBED_URL"], env["FACTBASE_EMBED_MODEL"] = openAIEmbeddings(t).URL, "test-embed"
	search := []string{"search", "--user", testUser, "--embedder", "openai", "--kind", "episodes", "allergic to peanuts"}

	out, stderr, code := run(t, env, search...)
	if code != 0 || !strings.HasPrefix(out, " 1. [episode]") || !strings.Contains(strings.SplitN(out, "\n", 2)[0], "The user is allergic to peanuts") {
		t.Fatalf("search: exit %d, out %q, err %q; want the allergy first", code, out, stderr)
	}
	for _, want := range []string{"warning: ", "glove-6b-100d-sif-v1", "openai:test-embed", "factbase reembed"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("search's standard error %q does not say %q", stderr, want)
		}
	}
	if strings.Contains(out, "warning") {
		t.Errorf("a warning on standard output: %q", out)
	}
	var got struct {
		Hits     []struct{ Text string } `json:"hits"`
		Warnings []string                `json:"warnings"`
	}
	mustJSON(t, env, &got, append(search, "--json")...)
	if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "glove-6b-100d-sif-v1") {
		t.Errorf("search --json warnings %q, want one naming the other embedder", got.Warnings)
	}

	if out := mustRun(t, env, "reembed", "--user", testUser, "--embedder", "openai"); !strings.Contains(out, "Embedded 3 item(s).") {
		t.Errorf("reembed printed %q, want 3 items embedded", out)
	}
	out, stderr, code = run(t, env, search...)
	if code != 0 || stderr != "" || !strings.Contains(strings.SplitN(out, "\n", 2)[0], "The user is allergic to peanuts") {
		t.Errorf("search after reembed: exit %d, out %q, err %q; want the allergy first and no warning", code, out, stderr)
	}
}
