package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/retrieve"
)

func TestEpisodesSearchQuery(t *testing.T) {
	g, err := embed.NewGloVe()
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, func(o *Options) { o.Engine = memory.New(o.Engine.Store(), memory.Options{Embedder: g}) })
	base := "/v1/users/" + userA
	var added struct {
		Episode struct {
			ID   string   `json:"id"`
			Tags []string `json:"tags"`
		} `json:"episode"`
		Facts []struct {
			Key        string  `json:"key"`
			Value      string  `json:"value"`
			Confidence float64 `json:"confidence"`
			Source     struct {
				Kind, ID string
			} `json:"source"`
		} `json:"facts"`
	}
	e.ok("POST", base+"/episodes", e.keyA, `{"content": "Session 13: NEXUS v2.3.1 released. Test success rate 97%.", "tags": ["NEXUS"], "importance": 0.9}`, &added)
	keys := map[string]string{}
	for _, f := range added.Facts {
		keys[f.Key] = f.Value
		if f.Source.Kind != "episode" || f.Source.ID != added.Episode.ID || f.Confidence <= 0 {
			t.Errorf("fact %s: source %+v confidence %v", f.Key, f.Source, f.Confidence)
		}
	}
	if len(added.Facts) != 3 || keys["nexus.version"] != "2.3.1" || keys["test.success_rate"] != "97" || keys["session"] != "13" ||
		added.Episode.Tags[0] != "nexus" {
		t.Fatalf("POST episodes = %+v; want nexus.version and the success rate, linked to the episode", added)
	}
	e.ok("POST", base+"/episodes", e.keyA, `{"content": "Martin is vegetarian"}`, nil)
	e.ok("POST", base+"/episodes", e.keyA, `{"content": "The deployment failed because the migration locked the users table."}`, nil)

	var page ingest.EpisodePage
	e.ok("GET", base+"/episodes?tags=nexus", e.keyA, "", &page)
	if page.Total != 1 || page.Episodes[0].ID != added.Episode.ID {
		t.Errorf("GET episodes?tags=nexus = %+v", page)
	}
	var got struct {
		Episode struct{ Content string } `json:"episode"`
		Facts   []struct{ Key string }   `json:"facts"`
	}
	e.ok("GET", base+"/episodes/"+added.Episode.ID, e.keyA, "", &got)
	if !strings.HasPrefix(got.Episode.Content, "Session 13") || len(got.Facts) != 3 {
		t.Errorf("GET episode = %+v", got)
	}

	var res struct {
		Hits []struct {
			Kind, ID, Text string
			Score          float64
			Explain        struct {
				BM25Rank   int     `json:"bm25_rank"`
				VectorRank int     `json:"vector_rank"`
				Score      float64 `json:"score"`
			} `json:"explain"`
		} `json:"hits"`
	}
	e.ok("POST", base+"/search", e.keyA, `{"query": "What does Martin eat?", "limit": 3}`, &res)
	if len(res.Hits) == 0 || res.Hits[0].Text != "Martin is vegetarian" || res.Hits[0].Explain.Score != res.Hits[0].Score {
		t.Errorf("search = %+v; want the vegetarian episode first, explained", res.Hits)
	}
	for _, tc := range []struct {
		body, source, contains string
	}{
		{`{"question": "What is the NEXUS version?"}`, "fact", `"value":"2.3.1"`},
		{`{"question": "Why did the deployment fail?"}`, "narrative", "migration locked"},
		{`{"question": "What is the NEXUS version?", "prefer": "narrative"}`, "narrative", "NEXUS v2.3.1"},
	} {
		r := e.do("POST", base+"/query", e.keyA, tc.body)
		if r.status != http.StatusOK || !strings.Contains(string(r.body), `"source":"`+tc.source+`"`) || !strings.Contains(string(r.body), tc.contains) {
			t.Errorf("query %s = %d %s; want source %s with %q", tc.body, r.status, r.body, tc.source, tc.contains)
		}
	}
	var lk struct {
		Facts []retrieve.LookupResult `json:"facts"`
	}
	e.ok("GET", base+"/lookup?type=version&tags=nexus", e.keyA, "", &lk)
	if len(lk.Facts) != 1 || lk.Facts[0].Value != "2.3.1" || lk.Facts[0].Episode != added.Episode.ID {
		t.Errorf("lookup = %+v", lk.Facts)
	}

	// Errors: another user's key, an unknown episode, a bad body.
	if r := e.do("GET", base+"/episodes/"+added.Episode.ID, e.keyB, ""); r.status != http.StatusForbidden {
		t.Errorf("user B reading A's episode: %d, want 403", r.status)
	}
	if r := e.do("GET", base+"/episodes/nope", e.keyA, ""); r.status != http.StatusNotFound {
		t.Errorf("unknown episode: %d, want 404", r.status)
	}
	if r := e.do("POST", base+"/query", e.keyA, `{"question": "x", "prefer": "both"}`); r.status != http.StatusUnprocessableEntity {
		t.Errorf("prefer both: %d, want 422", r.status)
	}
	if r := e.do("GET", base+"/lookup", e.keyA, ""); r.status != http.StatusUnprocessableEntity {
		t.Errorf("lookup without type or key: %d %s, want 422", r.status, r.body)
	}

	var del ingest.DeleteResult
	e.ok("DELETE", base+"/episodes/"+added.Episode.ID, e.keyA, "", &del)
	if del.Episodes != 1 || del.Facts != 3 {
		t.Errorf("DELETE episode = %+v, want 1 episode and 3 facts", del)
	}
	e.ok("POST", base+"/search", e.keyA, `{"query": "NEXUS success rate", "kinds": ["fact", "episode"]}`, &res)
	for _, h := range res.Hits {
		if strings.Contains(h.Text, "NEXUS") || strings.Contains(h.Text, "success") {
			t.Errorf("after delete, search finds %q", h.Text)
		}
	}
}

// TestLongQueries: a query of a few hundred distinct words, well under the length
// limit, is an ordinary search, query and recall (the subjects it may name were
// looked up in one compound statement, past SQLite's 500 terms).
func TestLongQueries(t *testing.T) {
	e := newTestEnv(t, nil)
	base := "/v1/users/" + userA
	e.ok("POST", base+"/facts", e.keyA, `{"key": "name", "value": "Martin", "subject": "entity:m1", "text": "Martin is a friend"}`, nil)
	var words []string
	for i := 0; len(strings.Join(words, " ")) < 3000; i++ {
		words = append(words, fmt.Sprintf("w%dx", i))
	}
	q := "martin " + strings.Join(words, " ")
	if len(words) < 300 {
		t.Fatalf("only %d words", len(words))
	}
	for _, tc := range []struct{ path, body string }{
		{"/search", `{"query": "` + q + `"}`},
		{"/query", `{"question": "` + q + `"}`},
		{"/recall", `{"query": "` + q + `"}`},
	} {
		r := e.do("POST", base+tc.path, e.keyA, tc.body)
		if r.status != http.StatusOK {
			t.Errorf("POST %s with %d words = %d %s, want 200", tc.path, len(words)+1, r.status, clip(string(r.body), 300))
		}
		if strings.Contains(string(r.body), "degraded") && strings.Contains(string(r.body), "SQL") {
			t.Errorf("POST %s: %s", tc.path, clip(string(r.body), 300))
		}
	}
	var res struct {
		Subjects []string `json:"subjects"`
	}
	e.ok("POST", base+"/search", e.keyA, `{"query": "`+q+`"}`, &res)
	if len(res.Subjects) != 1 || res.Subjects[0] != "entity:m1" {
		t.Errorf("subjects named = %v, want [entity:m1]", res.Subjects)
	}
}
