package main

import (
	"strings"
	"testing"
)

func TestEntitiesCommands(t *testing.T) {
	env := testEnv(t)
	env["FACTBASE_EMBEDDER"] = "none"
	out := mustRun(t, env, "entities", "create", "--user", testUser, "--role", "friend", "--relation", "friend", "--aliases", "Annie", "Anna")
	if !strings.Contains(out, "Created Anna (friend)") {
		t.Errorf("create printed %q", out)
	}
	mustRun(t, env, "say", "--user", testUser, "Annie loves tennis.")
	mustRun(t, env, "say", "--user", testUser, "Ann Smith is vegetarian.")
	mustRun(t, env, "entities", "merge", "--user", testUser, "Anna", "Ann Smith")
	var got struct {
		ID      string   `json:"id"`
		Aliases []string `json:"aliases"`
		Facts   []struct {
			ID    string `json:"id"`
			Key   string `json:"key"`
			Value string `json:"value"`
		} `json:"facts"`
	}
	mustJSON(t, env, &got, "entities", "get", "--user", testUser, "--json", "Anna")
	keys := map[string]string{}
	for _, f := range got.Facts {
		keys[f.Key] = f.ID
	}
	if keys["likes"] == "" || keys["diet"] == "" || strings.Join(got.Aliases, ",") != "Annie,Ann Smith" {
		t.Fatalf("after merge: %+v", got)
	}
	out = mustRun(t, env, "entities", "split", "--user", testUser, "--name", "Ann", "--role", "colleague", got.ID, keys["diet"])
	if !strings.Contains(out, "Split 1 facts from Anna (friend) to Ann") {
		t.Errorf("split printed %q", out)
	}
	mustRun(t, env, "entities", "rename", "--user", testUser, "Anna", "Anna Lee")
	mustRun(t, env, "entities", "alias", "--user", testUser, "Anna Lee", "AL")
	out = mustRun(t, env, "entities", "list", "--user", testUser)
	if !strings.Contains(out, "Anna Lee") || !strings.Contains(out, "AL") || !strings.Contains(out, "Ann ") {
		t.Errorf("list printed %q", out)
	}
	out = mustRun(t, env, "entities", "list", "--user", testUser, "--limit", "1")
	if !strings.Contains(out, "Anna Lee") || strings.Contains(out, "colleague") || !strings.Contains(out, "more follow (use --offset 1)") {
		t.Errorf("list --limit 1 printed %q", out)
	}
	out = mustRun(t, env, "entities", "list", "--user", testUser, "--limit", "1", "--offset", "1")
	if strings.Contains(out, "Anna Lee") || !strings.Contains(out, "colleague") || strings.Contains(out, "more follow") {
		t.Errorf("list --offset 1 printed %q", out)
	}
	out = mustRun(t, env, "entities", "delete", "--user", testUser, "AL")
	if !strings.Contains(out, "Deleted") {
		t.Errorf("delete printed %q", out)
	}
	out = mustRun(t, env, "entities", "list", "--user", testUser, "--json", "--all")
	if strings.Contains(out, "Anna") || !strings.Contains(out, `"name": "Ann"`) {
		t.Errorf("after delete: %s", out)
	}

	runCases(t, env, []cliCase{
		{"no sub", []string{"entities"}, 2, "entities needs a subcommand"},
		{"unknown sub", []string{"entities", "frob"}, 2, "unknown entities subcommand"},
		{"unknown entity", []string{"entities", "get", "--user", testUser, "Zed"}, 1, `entity "Zed" not found`},
		{"bad role", []string{"entities", "create", "--user", testUser, "--role", "boss", "X"}, 1, "is not one of partner"},
		{"args", []string{"entities", "rename", "--user", testUser, "X"}, 2, "wrong number of arguments"},
		{"limit over the maximum", []string{"entities", "list", "--user", testUser, "--limit", "1001"}, 1, "limit 1001 is outside 1..1000"},
		{"split needs facts", []string{"entities", "split", "--user", testUser, "Ann"}, 2, "wrong number of arguments"},
	})
}
