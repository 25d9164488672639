package server

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/factbase/factbase/memory/chat"
)

func TestMessagesAndQuestions(t *testing.T) {
	e := newTestEnv(t, nil)
	var say chat.SayResult
	e.ok("POST", "/v1/users/"+userA+"/messages", e.keyA, `{"text": "My favorite cryptos are BTC, ETH and XMR."}`, &say)
	if say.Route != "write" || say.Result.Stored != 3 || len(say.Result.Mutations) != 3 || say.Reply == "" {
		t.Fatalf("say = %+v, want a write storing 3 values with a reply", say)
	}
	e.ok("POST", "/v1/users/"+userA+"/messages", e.keyA, `{"text": "add btc to my favorite cryptos"}`, &say)
	if len(say.Result.Duplicates) != 1 || say.Result.Duplicates[0].Rank != 1 || say.Result.Stored != 0 {
		t.Fatalf("repeating BTC: result %+v, want one duplicate at rank 1 and nothing stored", say.Result)
	}
	var ask chat.AskResult
	e.ok("POST", "/v1/users/"+userA+"/questions", e.keyA, `{"text": "What are my favorite cryptos?"}`, &ask)
	var got []string
	for _, it := range ask.Items {
		got = append(got, itoa(it.Rank)+":"+it.Value)
	}
	if ask.Route != "read" || strings.Join(got, " ") != "1:BTC 2:ETH 3:XMR" || !strings.Contains(ask.Reply, "BTC") {
		t.Fatalf("ask = %+v (items %v), want BTC, ETH, XMR", ask, got)
	}
	// The raw body must carry the documented field names.
	r := e.do("POST", "/v1/users/"+userA+"/questions", e.keyA, `{"text": "What are my favorite cryptos?"}`)
	for _, f := range []string{`"route":"read"`, `"key":`, `"items":[`, `"rank":1`, `"value":"BTC"`, `"reply":`} {
		if !bytes.Contains(r.body, []byte(f)) {
			t.Errorf("ask body %s lacks %s", r.body, f)
		}
	}
	r = e.do("POST", "/v1/users/"+userA+"/messages", e.keyA, `{"text": "My favorite color is blue."}`)
	for _, f := range []string{`"route":"write"`, `"ops":[`, `"result":{`, `"stored":1`, `"duplicates":[]`, `"mutations":[`, `"action":`, `"reply":`} {
		if !bytes.Contains(r.body, []byte(f)) {
			t.Errorf("say body %s lacks %s", r.body, f)
		}
	}
}

// TestSayTurns: the messages endpoint takes a conversation's turns as chat APIs write
// them: user turns state the user's facts, assistant turns never do, system turns are
// skipped; text and turns together, or neither, are refused.
func TestSayTurns(t *testing.T) {
	env := newTestEnv(t, nil)
	body := `{"messages":[{"role":"system","content":"You are a helpful assistant."},
{"role":"user","content":"My favorite teas are oolong and chai."},
{"role":"assistant","content":"My favorite tea is green tea, and I live in the cloud."},
{"role":"user","content":"I work at Globex."}]}`
	var res chat.SayResult
	env.ok("POST", "/v1/users/"+userA+"/messages", env.keyA, body, &res)
	if res.Result.Stored != 3 || !strings.Contains(res.Reply, "oolong") {
		t.Fatalf("turns = %+v, want the user's 3 facts", res)
	}
	if got := env.listValues(userA, "favorites.tea"); got != "1:oolong 2:chai" {
		t.Errorf("favorite teas = %q, want the user's only", got)
	}
	for _, bad := range []string{`{"text":"hi","messages":[{"role":"user","content":"hi"}]}`, `{}`,
		`{"messages":[{"role":"system","content":"x"}]}`, `{"messages":[{"role":"robot","content":"x"}]}`} {
		if r := env.do("POST", "/v1/users/"+userA+"/messages", env.keyA, bad); r.status != http.StatusUnprocessableEntity {
			t.Errorf("%s = %d %s, want 422", bad, r.status, r.body)
		}
	}
}
