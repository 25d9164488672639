package main

import (
	"strings"
	"testing"
)

// TestRecallMustShow is the scenario through the binary: say, recall --json,
// then the son's friend who must not attach to the colleague.
func TestRecallMustShow(t *testing.T) {
	env := testEnv(t)
	env["FACTBASE_EMBEDDER"] = "none"
	mustRun(t, env, "say", "--user", testUser, "My son Leo is 8 and loves dinosaurs. My colleague Martin is vegetarian.")
	var got struct {
		Hits []struct {
			About string  `json:"about"`
			Role  string  `json:"role"`
			Key   string  `json:"key"`
			Value string  `json:"value"`
			Text  string  `json:"text"`
			Score float64 `json:"score"`
		} `json:"hits"`
		Prompt string `json:"prompt"`
	}
	mustJSON(t, env, &got, "recall", "--user", testUser, "--json", "What does Martin eat?")
	if len(got.Hits) == 0 || got.Hits[0].About != "Martin" || got.Hits[0].Role != "colleague" || got.Hits[0].Key != "diet" ||
		got.Hits[0].Value != "vegetarian" || got.Hits[0].Score <= 0 || got.Hits[0].Text == "" {
		t.Fatalf("recall hits = %+v", got.Hits)
	}
	for _, h := range got.Hits {
		if h.About == "Leo" {
			t.Errorf("recall returned a fact about Leo: %+v", h)
		}
	}
	if !strings.Contains(got.Prompt, "vegetarian") {
		t.Errorf("prompt = %q", got.Prompt)
	}
	mustRun(t, env, "say", "--user", testUser, "Martin, my son's friend, is allergic to nuts")
	var list struct {
		Entities []struct {
			ID      string   `json:"id"`
			Name    string   `json:"name"`
			Role    string   `json:"role"`
			Aliases []string `json:"aliases"`
		} `json:"entities"`
	}
	mustJSON(t, env, &list, "entities", "list", "--user", testUser, "--json")
	roles := map[string]int{}
	for _, en := range list.Entities {
		if en.Aliases == nil || en.ID == "" {
			t.Errorf("entity %+v lacks an id or aliases array", en)
		}
		roles[en.Name+" "+en.Role]++
	}
	if roles["Martin colleague"] != 1 || roles["Martin other"] != 1 || roles["Leo child"] != 1 || len(list.Entities) != 3 {
		t.Fatalf("entities = %+v", list.Entities)
	}
	mustJSON(t, env, &got, "recall", "--user", testUser, "--json", "What is my colleague Martin allergic to?")
	for _, h := range got.Hits {
		if h.Key == "allergy" && h.Role == "colleague" {
			t.Errorf("the nut allergy attached to the colleague: %+v", h)
		}
	}
	// plain output is the prompt block
	out := mustRun(t, env, "recall", "--user", testUser, "What does Martin eat?")
	if !strings.Contains(out, "About Martin (colleague):") {
		t.Errorf("recall printed %q", out)
	}
	out = mustRun(t, env, "recall", "--user", testUser, "anything about quantum physics?")
	if strings.TrimSpace(out) != "Nothing recalled." {
		t.Errorf("unrelated recall printed %q", out)
	}
}

func TestRecallErrors(t *testing.T) {
	env := testEnvDB(t)
	runCases(t, env, []cliCase{
		{"no query", []string{"recall", "--user", testUser}, 2, "recall needs the query"},
		{"bad now", []string{"recall", "--user", testUser, "--now", "soon", "x"}, 1, "is not a date"},
		{"bad limit", []string{"recall", "--user", testUser, "--limit", "5000", "x"}, 1, "limit 5000 is outside"},
		{"no user", []string{"recall", "x"}, 2, "--user is required"},
	})
}
