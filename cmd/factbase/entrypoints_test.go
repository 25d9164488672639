package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/sqlite"
)

// entryCorpus is the messages TestSameFactsEveryEntryPoint sends through every
// entry point: favorites and their edits, contact and identity facts, people and
// their facts, corrections, a question, small talk and a negation.
var entryCorpus = []string{
	"My email is ann@example.com and my phone is +1 555 0100.",
	"My favorite editors are Helix, Neovim and Zed.",
	"Move Zed to the top of my favorite editors.",
	"Remove Neovim from my favorite editors.",
	"My #2 favorite movie is Alien.",
	"I live in Lisbon and I work at Globex as a data engineer.",
	"My wife Anna is allergic to peanuts.",
	"My brother Tom lives in Porto.",
	"My daughter Mia's birthday is March 3.",
	"I'm allergic to penicillin.",
	"I'm vegetarian.",
	"I play chess on Sundays.",
	"Actually my email is ann.lee@example.com.",
	"My cousin Ana lives in Quito and her husband is a chef.",
	"What is my favorite editor?",
	"What a lovely day.",
	"I don't like olives.",
	"My dog Rex is a beagle.",
	"I'm learning Korean.",
	"My favorite teas are oolong > sencha > chai.",
}

// TestSameFactsEveryEntryPoint sends one corpus through each entry point that takes
// a message, for a user of its own each: CLI say and remember, HTTP messages and
// memories, MCP remember over stdio and over HTTP, with a model configured (it
// proposes nothing, so that what is compared is the rules'). Every entry point must
// store the same facts.
func TestSameFactsEveryEntryPoint(t *testing.T) {
	env, _ := modelEnv(t, http.StatusOK, `{"facts":[],"entities":[],"topics":[]}`)
	users := map[string]factbase.UserID{}
	for i, name := range []string{"cli say", "cli remember", "http messages", "http memories", "mcp stdio", "mcp http"} {
		users[name] = factbase.UserID(fmt.Sprintf("0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c%02d", i))
	}
	for _, m := range entryCorpus {
		mustRun(t, env, "say", "--user", string(users["cli say"]), m)
		mustRun(t, env, "remember", "--user", string(users["cli remember"]), "--wait", m)
	}

	stdioEnv := map[string]string{}
	for k, v := range env {
		stdioEnv[k] = v
	}
	stdioEnv["FACTBASE_USER"] = string(users["mcp stdio"])
	cs, stderr, end := mcpStdio(t, stdioEnv)
	for _, m := range entryCorpus {
		if res := mcpCall(t, cs, "remember", map[string]any{"text": m}); res.IsError {
			t.Fatalf("mcp stdio remember %q: %s", m, mcpText(res))
		}
	}
	if code := end(); code != 0 {
		t.Fatalf("factbase mcp exited %d: %s", code, stderr.String())
	}

	s := serve(t, env, "--no-auth")
	for _, m := range entryCorpus {
		body, _ := json.Marshal(map[string]string{"text": m})
		for name, path := range map[string]string{"http messages": "messages", "http memories": "memories"} {
			if status, _, b := call(t, "POST", s.base+"/v1/users/"+string(users[name])+"/"+path, "", string(body)); status != http.StatusOK {
				t.Fatalf("POST %s %q = %d %s", path, m, status, b)
			}
		}
	}
	hc, err := mcpHTTP(t, s.base, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range entryCorpus {
		if res := mcpCall(t, hc, "remember", map[string]any{"text": m, "user": string(users["mcp http"])}); res.IsError {
			t.Fatalf("mcp http remember %q: %s", m, mcpText(res))
		}
	}
	hc.Close()
	if code := s.stop(); code != 0 {
		t.Fatalf("serve exited %d: %s", code, s.stderr.String())
	}

	st, err := sqlite.Open(context.Background(), env["FACTBASE_DB"], sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e := memory.New(st, memory.Options{})
	want := storedFacts(t, e, users["cli say"])
	if len(want) < 15 {
		t.Fatalf("say stored only %d facts of the corpus: %v", len(want), want)
	}
	t.Logf("%d facts through every entry point:\n  %s", len(want), strings.Join(want, "\n  "))
	for name, u := range users {
		if got := storedFacts(t, e, u); !slices.Equal(got, want) {
			t.Errorf("%s stored\n  %s\nsay stored\n  %s", name, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
	}
}

// storedFacts returns the current facts of user as sorted "about|key|value|rank"
// lines, people named by their name and relation (ids differ between users).
func storedFacts(t *testing.T, e *memory.Engine, user factbase.UserID) []string {
	t.Helper()
	ctx := context.Background()
	names := map[string]string{}
	var facts []factbase.Fact
	err := e.Store().View(ctx, user, func(tx factbase.ReadTx) error {
		ens, err := tx.Entities(ctx, factbase.EntityFilter{})
		if err != nil {
			return err
		}
		for _, en := range ens {
			names[en.Subject()] = en.Name + "/" + en.Relation
		}
		facts, err = tx.Facts(ctx, factbase.FactFilter{Limit: 1000})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range facts {
		about := f.Subject
		if n, ok := names[f.Subject]; ok {
			about = n
		}
		out = append(out, fmt.Sprintf("%s|%s|%s|%d", about, f.Key, f.Value, f.Rank))
	}
	slices.Sort(out)
	return out
}
