package mcp_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/llm"
	"github.com/factbase/factbase/mcp"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/jobs"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRememberAsk is the must-show: remember a list, then ask for its
// second member, over each transport.
func TestRememberAsk(t *testing.T) {
	eachTransport(t, func(t *testing.T, f *fixture, cs *mcpsdk.ClientSession) {
		var rem mcp.RememberOutput
		call(t, cs, "remember", map[string]any{"text": "My favorite editors are Helix and Neovim"}, &rem)
		if got, want := rem.Counts.Stored, 2; got != want {
			t.Errorf("remember stored %d facts, want %d (%+v)", got, want, rem)
		}
		if len(rem.Writes) != 2 || rem.Writes[0].Value != "Helix" || rem.Writes[1].Value != "Neovim" {
			t.Errorf("remember writes = %+v, want Helix then Neovim", rem.Writes)
		}
		if rem.Extraction != "rules" || !strings.Contains(rem.Reply, "Helix and Neovim") {
			t.Errorf("remember = %+v, want extraction rules and a reply naming both", rem)
		}
		var ans mcp.AskOutput
		call(t, cs, "ask", map[string]any{"question": "What is my second favorite editor?"}, &ans)
		if len(ans.Items) != 1 || ans.Items[0].Value != "Neovim" || ans.Items[0].Rank != 2 {
			t.Errorf("ask items = %+v, want #2 Neovim", ans.Items)
		}
		if !strings.Contains(ans.Reply, "Neovim") {
			t.Errorf("ask reply = %q, want Neovim", ans.Reply)
		}
		// Saying it again stores nothing and reports the duplicates.
		call(t, cs, "remember", map[string]any{"text": "My favorite editors are Helix and Neovim"}, &rem)
		if rem.Counts.Stored != 0 || len(rem.Duplicates) != 2 || rem.Duplicates[1].Rank != 2 {
			t.Errorf("remembering again = %+v, want no writes and two duplicates", rem)
		}
	})
}

// TestRememberBackground: with a background model configured, remember runs the
// rules now and queues the message as a job; a failure to queue leaves the rules'
// writes and says why.
func TestRememberBackground(t *testing.T) {
	f := newFixture(t)
	pool := func(model string) *jobs.Workers {
		t.Helper()
		// The model is never called: the job is only queued.
		c, err := llm.New(llm.Options{BaseURL: "http://127.0.0.1:9/v1", Model: model})
		if err != nil {
			t.Fatal(err)
		}
		w, err := jobs.NewWorkers(f.engine.Jobs, jobs.WorkerOptions{Extractor: c, Endpoint: c.Endpoint()})
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	srv, err := mcp.New(mcp.Options{Engine: f.engine, User: alice, Workers: pool("m1")})
	if err != nil {
		t.Fatal(err)
	}
	cs := stdioSession(t, srv)
	var rem mcp.RememberOutput
	call(t, cs, "remember", map[string]any{"text": "My favorite editors are Helix and Neovim"}, &rem)
	if rem.Extraction != "rules+model" || rem.Counts.Stored != 2 || rem.Job == nil || rem.Job.State != "queued" {
		t.Fatalf("remember with a model = %+v, want the rules' writes and a queued job", rem)
	}
	j, err := f.store.Job(context.Background(), rem.Job.ID)
	if err != nil || j.Input != "My favorite editors are Helix and Neovim" || j.User != alice || j.Kind != factbase.JobExtract ||
		j.Model != "m1" || !strings.HasPrefix(j.Endpoint, "http://127.0.0.1:9/v1") {
		t.Errorf("the queued job = %+v, %v; want alice's extraction job for m1 with the message", j, err)
	}

	// A job that cannot be queued (a model name too long to record) leaves the
	// rules' writes and says why.
	srv, err = mcp.New(mcp.Options{Engine: f.engine, User: alice, Workers: pool(strings.Repeat("m", 300))})
	if err != nil {
		t.Fatal(err)
	}
	cs = stdioSession(t, srv)
	call(t, cs, "remember", map[string]any{"text": "My email is a@example.com"}, &rem)
	if rem.Counts.Stored != 1 || rem.Job != nil || !strings.Contains(rem.ModelNote, "model name is at most 200 bytes") {
		t.Errorf("remember with a failing queue = %+v, want the write and a model note", rem)
	}
}

func TestTools(t *testing.T) {
	eachTransport(t, func(t *testing.T, f *fixture, cs *mcpsdk.ClientSession) {
		var rem mcp.RememberOutput
		call(t, cs, "remember", map[string]any{"text": "My favorite editors are Helix and Neovim"}, &rem)

		var w mcp.WriteOutput
		call(t, cs, "set_fact", map[string]any{"key": "contact.email", "value": "a@example.com", "category": "core"}, &w)
		if w.Counts.Stored != 1 || len(w.Facts) != 1 || w.Facts[0].Value != "a@example.com" || !w.Facts[0].Current {
			t.Fatalf("set_fact = %+v, want one current fact stored", w)
		}
		first := w.Facts[0].ID
		call(t, cs, "set_fact", map[string]any{"key": "contact.email", "value": "b@example.com", "category": "core"}, &w)
		if w.Counts.Stored != 1 || w.Counts.Updated != 1 {
			t.Errorf("second set_fact counts = %+v, want stored 1, updated 1", w.Counts)
		}
		call(t, cs, "set_fact", map[string]any{"key": "contact.email", "value": "B@example.com."}, &w)
		if w.Counts.Stored != 0 || len(w.Duplicates) != 1 || !strings.Contains(w.Summary, "already") {
			t.Errorf("set_fact of the same value = %+v, want a duplicate", w)
		}
		call(t, cs, "set_fact", map[string]any{"key": "favorites.text_editor", "value": "Vim", "rank": 1}, &w)
		if len(w.Mutations) == 0 || w.Mutations[0].Action != "INSERT" || w.Mutations[0].To != 1 {
			t.Errorf("set_fact at rank 1 mutations = %+v, want INSERT to #1", w.Mutations)
		}

		var list mcp.ListFactsOutput
		call(t, cs, "list_facts", map[string]any{"key": "favorites.text_editor"}, &list)
		var got []string
		for _, f := range list.Facts {
			got = append(got, f.Value)
		}
		if strings.Join(got, ",") != "Vim,Helix,Neovim" || list.Facts[2].Rank != 3 {
			t.Errorf("list_facts of the list = %v, want Vim,Helix,Neovim in rank order", got)
		}
		call(t, cs, "list_facts", map[string]any{"key_prefix": "contact.", "history": true}, &list)
		if list.Count != 2 {
			t.Errorf("list_facts with history = %d facts, want 2", list.Count)
		}
		call(t, cs, "list_facts", map[string]any{"limit": 2}, &list)
		if list.Count != 2 || !list.More {
			t.Errorf("list_facts limit 2 = count %d more %v, want 2 and more", list.Count, list.More)
		}

		var hist mcp.FactHistoryOutput
		call(t, cs, "fact_history", map[string]any{"key": "contact.email"}, &hist)
		if len(hist.Versions) != 2 || hist.Versions[0].Value != "b@example.com" || !hist.Versions[0].Current ||
			hist.Versions[1].Current || hist.Versions[1].SupersededBy == "" {
			t.Errorf("fact_history = %+v, want b (current) then a (superseded)", hist.Versions)
		}
		call(t, cs, "fact_history", map[string]any{"id": first}, &hist)
		if hist.Key != "contact.email" || len(hist.Versions) != 2 {
			t.Errorf("fact_history by id = %+v, want the two versions of contact.email", hist)
		}

		var found mcp.SearchOutput
		call(t, cs, "search", map[string]any{"query": "Neovim editor", "kinds": []string{"fact"}}, &found)
		if len(found.Hits) == 0 || found.Hits[0].Fact == nil || found.Hits[0].Fact.Value != "Neovim" {
			t.Errorf("search hits = %+v, want Neovim first", found.Hits)
		}
		call(t, cs, "search", map[string]any{"query": "Neovim", "key_prefix": "contact."}, &found)
		if len(found.Hits) != 0 {
			t.Errorf("search filtered to contact.* = %+v, want none", found.Hits)
		}

		var sh mcp.FactSheetOutput
		call(t, cs, "fact_sheet", map[string]any{}, &sh)
		if !strings.Contains(sh.Text, "Neovim") || !strings.Contains(sh.Text, "b@example.com") || sh.Entries == 0 {
			t.Errorf("fact_sheet = %+v, want the favorites and the email", sh)
		}
		call(t, cs, "fact_sheet", map[string]any{"max_chars": 40}, &sh)
		if sh.Dropped == 0 || len([]rune(sh.Text)) > 40 {
			t.Errorf("fact_sheet within 40 characters = %+v, want entries dropped", sh)
		}

		current := hist.Versions[0].ID
		var fg mcp.ForgetOutput
		call(t, cs, "forget", map[string]any{"id": current, "reason": "the user asked"}, &fg)
		if fg.Mode != "retract" || fg.Counts.Retracted != 1 || len(fg.Facts) != 1 || fg.Facts[0].Current {
			t.Errorf("forget = %+v, want one fact retracted", fg)
		}
		call(t, cs, "list_facts", map[string]any{"key": "contact.email"}, &list)
		if list.Count != 0 {
			t.Errorf("after forget, list_facts = %+v, want none current", list.Facts)
		}
		call(t, cs, "fact_history", map[string]any{"key": "contact.email"}, &hist)
		if len(hist.Versions) != 2 {
			t.Errorf("after retract, history has %d versions, want 2 kept", len(hist.Versions))
		}
		call(t, cs, "forget", map[string]any{"key": "contact.email", "mode": "delete", "reason": "it was wrong"}, &fg)
		if fg.Counts.Deleted != 2 || len(fg.Facts) != 0 {
			t.Errorf("forget delete = %+v, want 2 rows erased", fg)
		}
		call(t, cs, "fact_history", map[string]any{"key": "contact.email"}, &hist)
		if len(hist.Versions) != 0 {
			t.Errorf("after delete, history = %+v, want none", hist.Versions)
		}
		call(t, cs, "fact_sheet", map[string]any{}, &sh)
		if strings.Contains(sh.Text, "example.com") {
			t.Errorf("after delete, the fact sheet still shows the email: %q", sh.Text)
		}
	})
}

func TestToolErrors(t *testing.T) {
	eachTransport(t, func(t *testing.T, f *fixture, cs *mcpsdk.ClientSession) {
		other := "API key"
		if strings.HasSuffix(t.Name(), "/stdio") { // the server acts for alice alone
			other = "acts for user " + string(alice) + " only"
		}
		cases := []struct {
			name string
			tool string
			args map[string]any
			want string
		}{
			{"empty text", "remember", map[string]any{"text": "  "}, "text is empty"},
			{"missing text", "remember", map[string]any{}, "text is required"},
			{"unknown argument", "remember", map[string]any{"text": "hi", "txt": "hi"}, `unknown argument "txt"`},
			{"wrong type", "ask", map[string]any{"question": 5}, "question must be a string, not a number"},
			{"empty question", "ask", map[string]any{"question": ""}, "question is empty"},
			{"long question", "ask", map[string]any{"question": strings.Repeat("a", mcp.MaxTextBytes+1)}, "question is 16385 characters; the limit is 16384"},
			{"empty query", "search", map[string]any{"query": " "}, "query is empty"},
			{"bad kind", "search", map[string]any{"query": "x", "kinds": []string{"person"}}, `kinds[0] "person" is not one of fact, episode`},
			{"bad time", "search", map[string]any{"query": "x", "from": "yesterday"}, "not an RFC 3339 time"},
			{"empty value", "set_fact", map[string]any{"key": "k", "value": ""}, "value is empty"},
			{"empty key", "set_fact", map[string]any{"key": "", "value": "v"}, "key is empty"},
			{"bad category", "set_fact", map[string]any{"key": "k", "value": "v", "category": "misc"}, `category "misc" is not one of core, technical, project, transient`},
			{"rank 0", "set_fact", map[string]any{"key": "favorites.movie", "value": "Alien", "rank": 0}, "rank must be at least 1, got 0"},
			{"negative rank", "set_fact", map[string]any{"key": "favorites.movie", "value": "Alien", "rank": -2}, "rank must be at least 1, got -2"},
			{"fractional rank", "set_fact", map[string]any{"key": "favorites.movie", "value": "Alien", "rank": 1.5}, "rank must be a whole number, not a fraction"},
			{"rank on a single key", "set_fact", map[string]any{"key": "k", "value": "v", "rank": 2}, "not a ranked list"},
			{"bad limit", "list_facts", map[string]any{"limit": 5000}, "limit must be at most 1000, got 5000"},
			{"negative offset", "list_facts", map[string]any{"offset": -1}, "offset must be at least 0, got -1"},
			{"history limit", "fact_history", map[string]any{"key": "k", "limit": 1001}, "limit must be at most 1000, got 1001"},
			{"search limit", "search", map[string]any{"query": "x", "limit": 101}, "limit must be at most 100, got 101"},
			{"too many tags", "search", map[string]any{"query": "x", "tags": make([]string, 33)}, "tags has 33 items; the limit is 32"},
			{"arguments not an object", "ask", nil, "question is required"},
			{"bad as_of", "list_facts", map[string]any{"as_of": "now"}, "not an RFC 3339 time"},
			{"history without key", "fact_history", map[string]any{}, "key is empty"},
			{"invalid id", "fact_history", map[string]any{"id": "nope"}, `fact "nope" not found`},
			{"forget invalid id", "forget", map[string]any{"id": "nope", "reason": "test"}, `fact "nope" not found`},
			{"forget without reason", "forget", map[string]any{"id": "x"}, "reason is required"},
			{"forget empty reason", "forget", map[string]any{"id": "x", "reason": " "}, "reason is empty"},
			{"forget bad mode", "forget", map[string]any{"id": "x", "reason": "r", "mode": "shred"}, `mode "shred" is not one of retract, delete`},
			{"forget nothing", "forget", map[string]any{"reason": "r"}, "id is empty"},
			{"forget unknown key", "forget", map[string]any{"key": "nothing.here", "reason": "r"}, "no current facts for nothing.here"},
			{"user not a uuid", "ask", map[string]any{"question": "What is my email?", "user": "alice"}, `user id "alice" is not a UUID`},
			{"another user", "ask", map[string]any{"question": "What is my email?", "user": string(bob)}, other},
			{"negative budget", "fact_sheet", map[string]any{"max_tokens": -1}, "max_tokens must be at least 0, got -1"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				if got := callError(t, cs, tc.tool, tc.args); !strings.Contains(got, tc.want) {
					t.Errorf("%s(%v) error = %q, want it to contain %q", tc.tool, tc.args, got, tc.want)
				}
			})
		}
		// A store that cannot be reached is a tool error naming it, not a crash.
		f.store.Close()
		got := callError(t, cs, "ask", map[string]any{"question": "What is my email?"})
		if !strings.Contains(got, "store unavailable") {
			t.Errorf("with the store closed, ask error = %q, want store unavailable", got)
		}
	})
}

// TestToolPages: the list tools page with limit and offset and say when more follow,
// past the first 1000 members of a ranked list too; each states its bounds in its
// input schema.
func TestToolPages(t *testing.T) {
	eachTransport(t, func(t *testing.T, f *fixture, cs *mcpsdk.ClientSession) {
		ctx := context.Background()
		const n = 1005
		ops := make([]factbase.Op, n)
		for i := range ops {
			ops[i] = factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.movie", Value: fmt.Sprintf("Movie %d", i)}}
		}
		if _, err := f.engine.Apply(ctx, alice, ops); err != nil {
			t.Fatal(err)
		}
		var lf mcp.ListFactsOutput
		call(t, cs, "list_facts", map[string]any{"key": "favorites.movie", "limit": 1000}, &lf)
		if lf.Count != 1000 || !lf.More || lf.Facts[999].Rank != 1000 {
			t.Errorf("list_facts, limit 1000: %d facts, more %v; want 1000 and more", lf.Count, lf.More)
		}
		call(t, cs, "list_facts", map[string]any{"key": "favorites.movie", "offset": 1000}, &lf)
		if lf.Count != 5 || lf.More || lf.Facts[0].Rank != 1001 || lf.Facts[0].Value != "Movie 1000" {
			t.Errorf("list_facts, offset 1000: %+v; want ranks 1001..1005 and no more", lf)
		}

		var rem mcp.RememberOutput
		for _, msg := range []string{"My wife Anna lives in Paris", "My son Leo is 8", "My friend Martin lives in Oslo"} {
			call(t, cs, "remember", map[string]any{"text": msg}, &rem)
		}
		var people mcp.ListPeopleOutput
		call(t, cs, "list_people", map[string]any{"limit": 2}, &people)
		if len(people.People) != 2 || !people.More || people.People[0].Name != "Anna" {
			t.Errorf("list_people, limit 2: %+v; want Anna and Leo, more", people)
		}
		call(t, cs, "list_people", map[string]any{"limit": 2, "offset": 2}, &people)
		if len(people.People) != 1 || people.More || people.People[0].Name != "Martin" {
			t.Errorf("list_people, offset 2: %+v; want Martin alone", people)
		}
		for _, msg := range []string{"Anna lives in Berlin", "Martin lives in Rome"} {
			call(t, cs, "remember", map[string]any{"text": msg}, &rem)
		}
		var cl mcp.ListConflictsOutput
		call(t, cs, "list_conflicts", map[string]any{"limit": 1}, &cl)
		if len(cl.Conflicts) != 1 || !cl.More || cl.Conflicts[0].About != "Anna" {
			t.Errorf("list_conflicts, limit 1: %+v; want Anna's, more", cl)
		}
		call(t, cs, "list_conflicts", map[string]any{"limit": 1, "offset": 1}, &cl)
		if len(cl.Conflicts) != 1 || cl.More || cl.Conflicts[0].About != "Martin" {
			t.Errorf("list_conflicts, offset 1: %+v; want Martin's, no more", cl)
		}

		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		bounds := map[string]float64{"list_facts": 1000, "fact_history": 1000, "list_people": 1000, "list_conflicts": 1000,
			"search": 100, "recall": 100}
		for _, tool := range res.Tools {
			want, ok := bounds[tool.Name]
			if !ok {
				continue
			}
			schema, _ := tool.InputSchema.(map[string]any)
			props, _ := schema["properties"].(map[string]any)
			limit, _ := props["limit"].(map[string]any)
			// The default is in the description, not a schema "default": the SDK would
			// write it into null arguments and panic (see bounded).
			desc, _ := limit["description"].(string)
			if got, _ := limit["maximum"].(float64); got != want || limit["default"] != nil || !strings.Contains(desc, "default") {
				t.Errorf("%s: limit schema %v, want maximum %v, a default in the description and none in the schema", tool.Name, limit, want)
			}
		}
	})
}

// TestSearchWarnings: a search over vectors of another embedder says so in the
// tool's output, and still finds the item.
func TestSearchWarnings(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	old := memory.New(f.store, memory.Options{Embedder: embed.NewHash(64)})
	if _, err := old.Ingest.AddEpisode(ctx, alice, ingest.EpisodeInput{Content: "The user is allergic to peanuts"}); err != nil {
		t.Fatal(err)
	}
	srv, err := mcp.New(mcp.Options{Engine: memory.New(f.store, memory.Options{Embedder: embed.NewHash(32)}), User: alice})
	if err != nil {
		t.Fatal(err)
	}
	var found mcp.SearchOutput
	call(t, stdioSession(t, srv), "search", map[string]any{"query": "allergic to peanuts"}, &found)
	if len(found.Hits) == 0 || found.Hits[0].Text != "The user is allergic to peanuts" {
		t.Errorf("search hits = %+v, want the allergy first", found.Hits)
	}
	if len(found.Warnings) != 1 || !strings.Contains(found.Warnings[0], "hash-64-v1") || !strings.Contains(found.Warnings[0], "factbase reembed") {
		t.Errorf("search warnings = %q, want one naming the other embedder and the fix", found.Warnings)
	}
}
