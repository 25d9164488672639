package main

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/factbase/factbase/storetest"
)

// addEpisode runs "episodes add" and returns the new episode's id.
func addEpisode(t *testing.T, env map[string]string, args ...string) string {
	t.Helper()
	out, stderr, code := run(t, env, append([]string{"episodes", "add", "--user", testUser}, args...)...)
	if code != 0 {
		t.Fatalf("episodes add %q: exit %d: %s", args, code, stderr)
	}
	m := regexp.MustCompile(`Episode ([0-9a-f-]{36})`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("episodes add printed %q, want the episode id", out)
	}
	return m[1]
}

type searchJSON struct {
	Hits []struct {
		Kind    string         `json:"kind"`
		ID      string         `json:"id"`
		Text    string         `json:"text"`
		Score   float64        `json:"score"`
		Explain map[string]any `json:"explain"`
	} `json:"hits"`
}

func searchCLI(t *testing.T, env map[string]string, args ...string) searchJSON {
	t.Helper()
	var got searchJSON
	mustJSON(t, env, &got, append([]string{"search", "--user", testUser, "--json"}, args...)...)
	return got
}

// TestSearchOfflineDefault is the offline check through the binary: no
// configuration, no network, twenty episodes.
func TestSearchOfflineDefault(t *testing.T) {
	env := testEnv(t)
	episodes := storetest.Episodes()
	for _, c := range episodes {
		addEpisode(t, env, c)
	}
	cases := []struct {
		query string
		want  string
		kind  string
	}{
		{"What does Martin eat?", "Martin is vegetarian", "all"},
		{"Which nuts should they avoid?", "The user is allergic to peanuts", "all"},
		{"What does Martin eat?", "Martin is vegetarian", "episodes"},
		{"Which nuts should they avoid?", "The user is allergic to peanuts", "episodes"},
		{"Is Martin a meat eater?", "Martin is vegetarian", "all"},
		{"Does the user have a food allergy?", "The user is allergic to peanuts", "all"},
	}
	for _, tc := range cases {
		got := searchCLI(t, env, "--kind", tc.kind, "--limit", "3", tc.query)
		var texts []string
		for _, h := range got.Hits {
			texts = append(texts, h.Text)
			if h.Kind != "episode" && h.Kind != "fact" || h.ID == "" || h.Score <= 0 || h.Explain["score"] != h.Score {
				t.Errorf("hit %+v: want a kind, an id, a positive score and its explanation", h)
			}
		}
		if !slices.Contains(texts, tc.want) {
			t.Errorf("search --kind %s %q top 3 = %q, want %q among them", tc.kind, tc.query, texts, tc.want)
		}
	}
}

func TestEpisodesCommands(t *testing.T) {
	env := testEnv(t)
	out, stderr, code := run(t, env, "episodes", "add", "--user", testUser, "--tags", "nexus,Deploy", "--importance", "0.8",
		"Session 14 complete: NEXUS v2.3.1 deployed, accuracy 94.2% on 500 questions. Phase 3 IN_PROGRESS.")
	if code != 0 {
		t.Fatalf("episodes add: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"nexus.version", "= 2.3.1", "accuracy", "= 94.2", "count.questions", "phase_3.status", "confidence 0.90"} {
		if !strings.Contains(out, want) {
			t.Errorf("episodes add printed %q, want it to contain %q", out, want)
		}
	}
	id := regexp.MustCompile(`Episode ([0-9a-f-]{36})`).FindStringSubmatch(out)[1]
	later := addEpisode(t, env, "--no-extract", "--at", "2025-01-02", "Retro notes: NEXUS v2.4.0 planned")

	out, _, code = run(t, env, "episodes", "list", "--user", testUser, "--json", "--tags", "deploy")
	var page struct {
		Episodes []struct {
			ID         string   `json:"id"`
			Tags       []string `json:"tags"`
			Importance float64  `json:"importance"`
		} `json:"episodes"`
		Total int `json:"total"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &page) != nil || page.Total != 1 || page.Episodes[0].ID != id ||
		!slices.Equal(page.Episodes[0].Tags, []string{"deploy", "nexus"}) || page.Episodes[0].Importance != 0.8 {
		t.Errorf("episodes list --tags deploy: exit %d, %q", code, out)
	}
	out, _, code = run(t, env, "episodes", "get", "--user", testUser, id)
	if code != 0 || !strings.Contains(out, "Session 14 complete") || !strings.Contains(out, "nexus.version") {
		t.Errorf("episodes get: exit %d, %q", code, out)
	}
	out, stderr, code = run(t, env, "episodes", "backfill", "--user", testUser)
	if code != 0 || !strings.Contains(out, "Extracted 1 episode(s)") || !strings.Contains(stderr, "backfill: 1/1 episodes") {
		t.Errorf("episodes backfill: exit %d, out %q, err %q", code, out, stderr)
	}
	out, _, code = run(t, env, "episodes", "add-fact", "--user", testUser, "--confidence", "0.6", later, "retro.owner", "Dana")
	if code != 0 || !strings.Contains(out, "Set retro.owner = Dana") {
		t.Errorf("episodes add-fact: exit %d, %q", code, out)
	}
	out, _, code = run(t, env, "episodes", "get", "--user", testUser, "--json", later)
	var got struct {
		Facts []struct {
			Key   string `json:"key"`
			Value string `json:"value"`
		} `json:"facts"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || len(got.Facts) != 2 {
		t.Errorf("episodes get --json after backfill and add-fact: exit %d, %q; want 2 facts", code, out)
	}
	out, _, code = run(t, env, "episodes", "delete", "--user", testUser, id)
	if code != 0 || !strings.Contains(out, "Deleted episode "+id) {
		t.Errorf("episodes delete: exit %d, %q", code, out)
	}
	if _, stderr, code = run(t, env, "episodes", "get", "--user", testUser, id); code != 1 || !strings.Contains(stderr, "not found") {
		t.Errorf("get after delete: exit %d, %q", code, stderr)
	}
	if got := searchCLI(t, env, "accuracy questions Session 14"); len(got.Hits) != 0 {
		t.Errorf("search after delete finds %+v; want nothing of the deleted episode", got.Hits)
	}
}

func TestQueryCommand(t *testing.T) {
	env := testEnv(t)
	addEpisode(t, env, "Session 13: NEXUS v2.3.1 released. Test success rate 97%.")
	addEpisode(t, env, "The deployment failed because the database migration locked the users table.")
	cases := []struct {
		name     string
		args     []string
		source   string
		contains string
	}{
		{"fact", []string{"What is the NEXUS version?"}, "fact", `"value": "2.3.1"`},
		{"success rate", []string{"What was the test success rate?"}, "fact", `"value": "97"`},
		{"narrative", []string{"Why did the deployment fail?"}, "narrative", "migration locked"},
		{"prefer narrative", []string{"--prefer", "narrative", "What is the NEXUS version?"}, "narrative", "NEXUS v2.3.1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := run(t, env, append([]string{"query", "--user", testUser, "--json"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var a struct {
				Source string `json:"source"`
			}
			if err := json.Unmarshal([]byte(out), &a); err != nil || a.Source != tc.source || !strings.Contains(out, tc.contains) {
				t.Errorf("query %q: %s; want source %q and %q", tc.args, out, tc.source, tc.contains)
			}
		})
	}
	out, _, code := run(t, env, "query", "--user", testUser, "What is the NEXUS version?")
	if code != 0 || !strings.HasPrefix(out, "2.3.1\n") || !strings.Contains(out, "source: fact nexus.version") {
		t.Errorf("query (text): exit %d, %q", code, out)
	}
}

func TestLookupCommand(t *testing.T) {
	env := testEnv(t)
	id := addEpisode(t, env, "--tags", "nexus", "--at", "2025-03-01", "NEXUS v2.3.1 deployed, p95 latency 120 ms")
	addEpisode(t, env, "--tags", "orbit", "--at", "2025-03-02", "ORBIT v1.0.0 deployed")
	var got struct {
		Facts []struct {
			Key, Value, Episode string
			Confidence          float64
			Timestamp           string
		} `json:"facts"`
	}
	mustJSON(t, env, &got, "lookup", "--user", testUser, "--type", "version", "--tags", "nexus", "--json")
	if len(got.Facts) != 1 || got.Facts[0].Key != "nexus.version" || got.Facts[0].Value != "2.3.1" ||
		got.Facts[0].Episode != id || got.Facts[0].Confidence != 0.9 || !strings.HasPrefix(got.Facts[0].Timestamp, "2025-03-01") {
		t.Errorf("lookup --type version --tags nexus = %+v", got.Facts)
	}
	out, _, code := run(t, env, "lookup", "--user", testUser, "--type", "version", "--since", "2025-03-02")
	if code != 0 || !strings.Contains(out, "orbit.version") || strings.Contains(out, "nexus.version") {
		t.Errorf("lookup --since: exit %d, %q", code, out)
	}
}

func TestReembedCommand(t *testing.T) {
	env := testEnv(t)
	for _, v := range []string{"a@example.com", "b@example.com"} {
		mustRun(t, env, "facts", "set", "--embedder", "none", "--user", testUser, "contact.email", v)
	}
	addEpisode(t, env, "--embedder", "none", "Martin is vegetarian")
	// Before: no vectors, so the paraphrase finds nothing by meaning.
	out, stderr, code := run(t, env, "reembed", "--user", testUser)
	if code != 0 || !strings.Contains(out, "Embedded 3 item(s)") || !strings.Contains(stderr, "reembed: 3/3") {
		t.Errorf("reembed: exit %d, out %q, err %q; want 3 items (two fact versions and an episode)", code, out, stderr)
	}
	if out, _, _ = run(t, env, "reembed", "--all"); !strings.Contains(out, "Embedded 0 item(s)") {
		t.Errorf("second reembed --all: %q, want nothing left", out)
	}
	got := searchCLI(t, env, "--kind", "episodes", "What food does he eat?")
	if len(got.Hits) == 0 || got.Hits[0].Text != "Martin is vegetarian" || got.Hits[0].Explain["vector_rank"] != 1.0 {
		t.Errorf("search after reembed: %+v; want the episode found by vector", got.Hits)
	}
}

func TestSearchErrors(t *testing.T) {
	env := testEnvDB(t)
	runCases(t, env, []cliCase{
		{"no query", []string{"search", "--user", testUser}, 2, "needs a query"},
		{"bad kind", []string{"search", "--user", testUser, "--kind", "people", "x"}, 2, "--kind"},
		{"bad limit", []string{"search", "--user", testUser, "--limit", "1000", "x"}, 1, "limit 1000"},
		{"bad prefer", []string{"query", "--user", testUser, "--prefer", "both", "x"}, 2, "--prefer"},
		{"bad embedder", []string{"search", "--user", testUser, "--embedder", "bert", "x"}, 2, "--embedder"},
		{"openai unconfigured", []string{"search", "--user", testUser, "--embedder", "openai", "x"}, 1, "FACTBASE_EMBED_URL"},
		{"reembed needs one", []string{"reembed"}, 2, "exactly one of --user and --all"},
		{"lookup needs a selector", []string{"lookup", "--user", testUser}, 2, "--type, --key or --prefix"},
		{"empty episode", []string{"episodes", "add", "--user", testUser, " "}, 1, "content is empty"},
		{"bad importance", []string{"episodes", "add", "--user", testUser, "--importance", "2", "x"}, 1, "importance 2"},
		{"bad date", []string{"episodes", "add", "--user", testUser, "--at", "yesterday", "x"}, 1, "--at"},
		{"unknown episode", []string{"episodes", "delete", "--user", testUser, "nope"}, 1, "not found"},
	})
}
