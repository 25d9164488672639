package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/sqlite"
)

const (
	userA = "0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"
	userB = "9a1d3c5e-7f2b-4d6a-8c0e-1f3a5b7c9d2e"
)

// syncBuffer is a bytes.Buffer safe for the server's concurrent log writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testEnv is a server over a fresh SQLite store, with an application key and one
// key for each of two users.
type testEnv struct {
	t      testing.TB
	url    string
	client *http.Client
	store  *sqlite.Store
	srv    *Server
	logs   *syncBuffer
	app    string // application key
	keyA   string // user A's key
	keyB   string // user B's key
	keyAID string
}

func newTestEnv(t testing.TB, configure func(*Options)) *testEnv {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "f.db"), sqlite.Options{})
	if err != nil {
		t.Fatalf("sqlite.Open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	env := &testEnv{t: t, store: st, logs: &syncBuffer{}}
	mk := func(user factbase.UserID) (string, string) {
		secret, k, err := factbase.NewKey(user, "test", time.Now())
		if err != nil {
			t.Fatalf("NewKey: %v", err)
		}
		if err := st.CreateKey(ctx, k); err != nil {
			t.Fatalf("CreateKey: %v", err)
		}
		return secret, k.ID
	}
	env.app, _ = mk("")
	env.keyA, env.keyAID = mk(userA)
	env.keyB, _ = mk(userB)
	m := NewMetrics()
	o := Options{Engine: memory.New(st, memory.Options{Observer: m}), Keys: st, Metrics: m,
		Logger: slog.New(slog.NewJSONHandler(env.logs, nil))}
	if configure != nil {
		configure(&o)
	}
	env.srv = New(o)
	ts := httptest.NewServer(env.srv.Handler())
	t.Cleanup(ts.Close)
	env.url, env.client = ts.URL, ts.Client()
	return env
}

// response is what a request got back.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("response body %q is not JSON: %v", clip(string(r.body), 500), err)
	}
}

// problem decodes a problem+json body, failing the test if the response is not one.
func (r response) problem(t *testing.T) problemBody {
	t.Helper()
	if ct := r.header.Get("Content-Type"); ct != problemType {
		t.Fatalf("Content-Type = %q, want %q (body %q)", ct, problemType, r.body)
	}
	var p problemBody
	r.json(t, &p)
	if p.Status != r.status || p.Title == "" || p.Detail == "" {
		t.Fatalf("problem body %s: want status %d, a title and a detail", r.body, r.status)
	}
	if bytes.Contains(r.body, []byte("goroutine")) || bytes.Contains(r.body, []byte(".go:")) {
		t.Fatalf("problem body %s carries a stack trace", r.body)
	}
	return p
}

type problemBody struct {
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Errors []struct {
		Message  string `json:"message"`
		Location string `json:"location"`
	} `json:"errors"`
}

// do sends a request with an optional key and JSON body.
func (e *testEnv) do(method, path, key, body string, header ...string) response {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.url+path, rd)
	if err != nil {
		e.t.Fatalf("NewRequest: %v", err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := e.client.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatalf("%s %s: reading the body: %v", method, path, err)
	}
	return response{status: res.StatusCode, header: res.Header, body: b}
}

// ok sends a request that must succeed and decodes its body into v (if not nil).
func (e *testEnv) ok(method, path, key, body string, v any) {
	e.t.Helper()
	r := e.do(method, path, key, body)
	if r.status != http.StatusOK {
		e.t.Fatalf("%s %s = %d %s, want 200", method, path, r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		e.t.Fatalf("%s %s: Content-Type %q, want application/json", method, path, ct)
	}
	if v != nil {
		r.json(e.t, v)
	}
}

// listValues returns the list's values as "1:A 2:B".
func (e *testEnv) listValues(user, key string) string {
	e.t.Helper()
	var p memory.ListPage
	e.ok("GET", "/v1/users/"+user+"/lists/"+key, e.app, "", &p)
	var parts []string
	for _, f := range p.Items {
		parts = append(parts, itoa(f.Rank)+":"+f.Value)
	}
	return strings.Join(parts, " ")
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestMessagesAndQuestions(t *testing.T) {
	e := newTestEnv(t, nil)
	var say memory.SayResult
	e.ok("POST", "/v1/users/"+userA+"/messages", e.keyA, `{"text": "My favorite cryptos are BTC, ETH and XMR."}`, &say)
	if say.Route != "write" || say.Result.Stored != 3 || len(say.Result.Mutations) != 3 || say.Reply == "" {
		t.Fatalf("say = %+v, want a write storing 3 values with a reply", say)
	}
	e.ok("POST", "/v1/users/"+userA+"/messages", e.keyA, `{"text": "add btc to my favorite cryptos"}`, &say)
	if len(say.Result.Duplicates) != 1 || say.Result.Duplicates[0].Rank != 1 || say.Result.Stored != 0 {
		t.Fatalf("repeating BTC: result %+v, want one duplicate at rank 1 and nothing stored", say.Result)
	}
	var ask memory.AskResult
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

func TestFacts(t *testing.T) {
	e := newTestEnv(t, nil)
	base := "/v1/users/" + userA
	var res factbase.Result
	e.ok("POST", base+"/facts", e.keyA, `{"key": "contact.email", "value": "a@example.com", "category": "core", "confidence": 0.9}`, &res)
	if res.Stored != 1 || len(res.Facts) != 1 {
		t.Fatalf("set = %+v, want one stored fact", res)
	}
	first := res.Facts[0]
	e.ok("POST", base+"/facts", e.keyA, `{"key": "contact.email", "value": "b@example.com", "category": "core", "confidence": 0.9}`, &res)
	if res.Stored != 1 || res.Updated != 1 {
		t.Fatalf("second set = %+v, want stored 1, updated 1", res)
	}
	second := res.Facts[0]
	e.ok("POST", base+"/facts", e.keyA, `{"key": "work.role", "value": "engineer", "confidence": 0.5}`, nil)

	var f factbase.Fact
	e.ok("GET", base+"/facts/"+first.ID, e.keyA, "", &f)
	if f.Value != "a@example.com" || f.Current || f.SupersededBy != second.ID {
		t.Errorf("GET first fact = %+v, want a@example.com superseded by %s", f, second.ID)
	}

	cases := []struct {
		name  string
		query string
		want  string
	}{
		{name: "all current", query: "", want: "b@example.com engineer"},
		{name: "by key", query: "?key=contact.email", want: "b@example.com"},
		{name: "by prefix", query: "?prefix=work.", want: "engineer"},
		{name: "by category", query: "?category=core", want: "b@example.com"},
		{name: "min confidence", query: "?min_confidence=0.8", want: "b@example.com"},
		{name: "history", query: "?key=contact.email&history=true", want: "a@example.com b@example.com"},
		{name: "newest first", query: "?history=true&newest_first=true&limit=1", want: "engineer"},
		{name: "as of before anything", query: "?as_of=2000-01-01T00:00:00Z", want: ""},
		{name: "subject", query: "?subject=entity:x", want: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var page struct {
				Facts []factbase.Fact `json:"facts"`
			}
			e.ok("GET", base+"/facts"+tc.query, e.keyA, "", &page)
			var vals []string
			for _, f := range page.Facts {
				vals = append(vals, f.Value)
			}
			if got := strings.Join(vals, " "); got != tc.want {
				t.Errorf("GET facts%s = %q, want %q", tc.query, got, tc.want)
			}
		})
	}

	var h struct {
		Key      string          `json:"key"`
		Versions []factbase.Fact `json:"versions"`
	}
	e.ok("GET", base+"/history/contact.email", e.keyA, "", &h)
	if len(h.Versions) != 2 || h.Versions[0].Value != "b@example.com" || h.Versions[1].Value != "a@example.com" {
		t.Errorf("history = %+v, want b then a", h.Versions)
	}

	e.ok("POST", base+"/facts/"+second.ID+"/retract", e.keyA, "", &res)
	if res.Retracted != 1 {
		t.Errorf("retract = %+v, want one retracted", res)
	}
	if r := e.do("POST", base+"/facts/"+second.ID+"/retract", e.keyA, ""); r.status != http.StatusConflict {
		t.Errorf("retracting twice = %d %s, want 409", r.status, r.body)
	} else {
		r.problem(t)
	}
	e.ok("DELETE", base+"/facts/"+first.ID, e.keyA, "", &res)
	if res.Deleted != 1 {
		t.Errorf("delete = %+v, want one deleted", res)
	}
	if r := e.do("GET", base+"/facts/"+first.ID, e.keyA, ""); r.status != http.StatusNotFound {
		t.Errorf("GET a deleted fact = %d, want 404", r.status)
	}
}

func TestLists(t *testing.T) {
	e := newTestEnv(t, nil)
	base := "/v1/users/" + userA + "/lists/favorites.crypto"
	var res factbase.Result
	e.ok("POST", base, e.keyA, `{"values": ["BTC", "ETH", "XMR"]}`, &res)
	if res.Stored != 3 {
		t.Fatalf("add = %+v, want 3 stored", res)
	}
	e.ok("POST", base, e.keyA, `{"value": "btc."}`, &res)
	if len(res.Duplicates) != 1 || res.Duplicates[0].Rank != 1 || res.Stored != 0 {
		t.Errorf("adding btc. = %+v, want a duplicate at #1", res)
	}
	e.ok("POST", base+"/rank", e.keyA, `{"value": "XMR", "rank": 1}`, &res)
	if len(res.Mutations) != 1 || res.Mutations[0].Action != factbase.Move || res.Mutations[0].From != 3 || res.Mutations[0].To != 1 {
		t.Errorf("rank XMR 1 = %+v, want MOVE 3 -> 1", res.Mutations)
	}
	if got, want := e.listValues(userA, "favorites.crypto"), "1:XMR 2:BTC 3:ETH"; got != want {
		t.Errorf("list = %q, want %q", got, want)
	}
	var p memory.ListPage
	e.ok("GET", base+"?offset=1&limit=1", e.keyA, "", &p)
	if p.Total != 3 || len(p.Items) != 1 || p.Items[0].Value != "BTC" || p.Offset != 1 || p.Limit != 1 {
		t.Errorf("page offset 1 limit 1 = %+v, want BTC of 3", p)
	}
	e.ok("DELETE", base+"/items/BTC", e.keyA, "", &res)
	if got, want := e.listValues(userA, "favorites.crypto"), "1:XMR 2:ETH"; got != want {
		t.Errorf("after removing BTC, list = %q, want %q", got, want)
	}
	// A value with a slash, escaped in the path.
	e.ok("POST", base, e.keyA, `{"value": "A/B"}`, nil)
	e.ok("DELETE", base+"/items/A%2FB", e.keyA, "", &res)
	if len(res.Mutations) != 1 || res.Mutations[0].Value != "A/B" {
		t.Errorf("removing A/B = %+v", res.Mutations)
	}
}

// TestErrors sends each error class and checks the status, the problem body, that
// its detail names what was wrong, and that the stored data did not change.
func TestErrors(t *testing.T) {
	e := newTestEnv(t, nil)
	e.ok("POST", "/v1/users/"+userA+"/lists/favorites.crypto", e.keyA, `{"values": ["BTC", "ETH"]}`, nil)
	e.ok("POST", "/v1/users/"+userB+"/lists/favorites.crypto", e.keyB, `{"values": ["DOGE"]}`, nil)
	var revoked string
	{
		secret, k, _ := factbase.NewKey("", "old", time.Now())
		e.store.CreateKey(context.Background(), k)
		e.store.RevokeKey(context.Background(), k.ID, time.Now())
		revoked = secret
	}
	big := `{"text": "` + strings.Repeat("a", 2<<20) + `"}`
	a := "/v1/users/" + userA
	cases := []struct {
		name           string
		method, path   string
		key, body      string
		header         []string
		status         int
		detail, locate string
	}{
		{name: "malformed JSON", method: "POST", path: a + "/messages", key: "app", body: `{"text": `,
			status: 400, detail: "malformed JSON"},
		{name: "JSON of the wrong type", method: "POST", path: a + "/lists/favorites.crypto/rank", key: "app", body: `{"value": "X", "rank": "first"}`,
			status: 422, detail: "body.rank", locate: "body.rank"},
		{name: "2 MiB body", method: "POST", path: a + "/messages", key: "app", body: big,
			status: 413, detail: "larger than the limit of 1048576 bytes"},
		{name: "non-UUID user", method: "POST", path: "/v1/users/alice/messages", key: "app", body: `{"text": "hi"}`,
			status: 422, detail: `user id "alice" is not a UUID`, locate: "path.user"},
		{name: "empty text", method: "POST", path: a + "/messages", key: "app", body: `{"text": ""}`,
			status: 422, detail: "body.text", locate: "body.text"},
		{name: "missing text", method: "POST", path: a + "/messages", key: "app", body: `{}`,
			status: 422, detail: "text", locate: "body"},
		{name: "blank value", method: "POST", path: a + "/facts", key: "app", body: `{"key": "k", "value": "  "}`,
			status: 422, detail: "value is empty"},
		{name: "rank 0", method: "POST", path: a + "/lists/favorites.crypto/rank", key: "app", body: `{"value": "X", "rank": 0}`,
			status: 422, detail: "body.rank: expected number >= 1", locate: "body.rank"},
		{name: "not a ranked list", method: "POST", path: a + "/lists/contact.email", key: "app", body: `{"value": "X"}`,
			status: 422, detail: "not a ranked list"},
		{name: "add nothing", method: "POST", path: a + "/lists/favorites.crypto", key: "app", body: `{}`,
			status: 422, detail: `give "value" or "values"`},
		{name: "bad as_of", method: "GET", path: a + "/facts?as_of=yesterday", key: "app",
			status: 422, detail: "query.as_of", locate: "query.as_of"},
		{name: "limit too high", method: "GET", path: a + "/lists/favorites.crypto?limit=5000", key: "app",
			status: 422, detail: "query.limit", locate: "query.limit"},
		{name: "no key", method: "POST", path: a + "/messages", body: `{"text": "My favorite crypto is SOL."}`,
			status: 401, detail: "missing API key"},
		{name: "wrong key", method: "GET", path: a + "/lists/favorites.crypto", key: "fb_" + strings.Repeat("x", 43),
			status: 401, detail: "invalid API key"},
		{name: "garbage key", method: "GET", path: a + "/lists/favorites.crypto", key: "letmein",
			status: 401, detail: "invalid API key"},
		{name: "not bearer", method: "GET", path: a + "/lists/favorites.crypto", header: []string{"Authorization", "Basic dXNlcjpwdw=="},
			status: 401, detail: "Bearer <key>"},
		{name: "revoked key", method: "GET", path: a + "/lists/favorites.crypto", key: revoked,
			status: 401, detail: "has been revoked"},
		{name: "another user's key", method: "POST", path: a + "/lists/favorites.crypto", key: "B", body: `{"value": "SOL"}`,
			status: 403, detail: "is not for user " + userA},
		{name: "another user's key reading", method: "GET", path: a + "/lists/favorites.crypto", key: "B",
			status: 403, detail: "is not for user " + userA},
		{name: "unknown fact", method: "GET", path: a + "/facts/nope", key: "app",
			status: 404, detail: `fact "nope" not found`},
		{name: "unknown history", method: "GET", path: a + "/history/contact.fax", key: "app",
			status: 404, detail: "no history for contact.fax"},
		{name: "remove absent", method: "DELETE", path: a + "/lists/favorites.crypto/items/SOL", key: "app",
			status: 404, detail: `"SOL" is not in favorites.crypto`},
		{name: "unknown route", method: "GET", path: "/v2/things", key: "app",
			status: 404, detail: "no route GET /v2/things"},
		{name: "wrong method", method: "PUT", path: a + "/messages", key: "app", body: `{"text": "x"}`,
			status: 405, detail: "use POST"},
	}
	keys := map[string]string{"app": e.app, "B": e.keyB}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			key := tc.key
			if k, ok := keys[key]; ok {
				key = k
			}
			r := e.do(tc.method, tc.path, key, tc.body, tc.header...)
			if r.status != tc.status {
				t.Fatalf("%s %s = %d %s, want %d", tc.method, tc.path, r.status, clip(string(r.body), 300), tc.status)
			}
			p := r.problem(t)
			if !strings.Contains(p.Detail, tc.detail) {
				t.Errorf("detail %q does not contain %q", p.Detail, tc.detail)
			}
			if tc.locate != "" {
				found := false
				for _, d := range p.Errors {
					found = found || d.Location == tc.locate
				}
				if !found {
					t.Errorf("errors %+v do not name %s", p.Errors, tc.locate)
				}
			}
			if tc.status == 401 && r.header.Get("WWW-Authenticate") == "" {
				t.Errorf("a 401 without WWW-Authenticate")
			}
			if got, want := e.listValues(userA, "favorites.crypto"), "1:BTC 2:ETH"; got != want {
				t.Errorf("after the refused request user A's list = %q, want %q", got, want)
			}
			if got, want := e.listValues(userB, "favorites.crypto"), "1:DOGE"; got != want {
				t.Errorf("after the refused request user B's list = %q, want %q", got, want)
			}
		})
	}
}

// TestChunkedBodyLimit sends a body of unknown length over the limit.
func TestChunkedBodyLimit(t *testing.T) {
	e := newTestEnv(t, func(o *Options) { o.MaxBodyBytes = 1000 })
	for _, tc := range []struct {
		name   string
		size   int
		status int
	}{
		{name: "under", size: 900, status: http.StatusOK},
		{name: "exactly", size: 1000, status: http.StatusOK},
		{name: "over", size: 1001, status: http.StatusRequestEntityTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := `{"text": "` + strings.Repeat("a", tc.size-len(`{"text": ""}`)) + `"}`
			// io.MultiReader hides the length, so the client sends the body chunked.
			req, _ := http.NewRequest("POST", e.url+"/v1/users/"+userA+"/messages", io.MultiReader(strings.NewReader(body)))
			req.Header.Set("Authorization", "Bearer "+e.app)
			res, err := e.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tc.status {
				t.Fatalf("a chunked body of %d bytes: %d %s, want %d", tc.size, res.StatusCode, b, tc.status)
			}
			if tc.status != http.StatusOK {
				response{status: res.StatusCode, header: res.Header, body: b}.problem(t)
			}
		})
	}
}

func TestIsolation(t *testing.T) {
	e := newTestEnv(t, nil)
	e.ok("POST", "/v1/users/"+userA+"/facts", e.keyA, `{"key": "contact.email", "value": "a@example.com"}`, nil)
	var res factbase.Result
	e.ok("POST", "/v1/users/"+userB+"/facts", e.keyB, `{"key": "contact.email", "value": "b@example.com"}`, &res)
	bFact := res.Facts[0].ID

	// A's key on B's paths: every route refuses, reads and writes alike.
	for _, tc := range []struct{ method, path, body string }{
		{"GET", "/facts", ""},
		{"GET", "/facts/" + bFact, ""},
		{"GET", "/history/contact.email", ""},
		{"POST", "/facts", `{"key": "contact.email", "value": "evil@example.com"}`},
		{"DELETE", "/facts/" + bFact, ""},
		{"POST", "/facts/" + bFact + "/retract", ""},
		{"POST", "/messages", `{"text": "My email is evil@example.com"}`},
		{"POST", "/questions", `{"text": "What is my email?"}`},
		{"GET", "/lists/favorites.crypto", ""},
	} {
		r := e.do(tc.method, "/v1/users/"+userB+tc.path, e.keyA, tc.body)
		if r.status != http.StatusForbidden {
			t.Errorf("A's key: %s B%s = %d %s, want 403", tc.method, tc.path, r.status, r.body)
		}
	}
	// A user's fact id is unknown under another user, even with an application key.
	if r := e.do("GET", "/v1/users/"+userA+"/facts/"+bFact, e.app, ""); r.status != http.StatusNotFound {
		t.Errorf("B's fact under A = %d %s, want 404", r.status, r.body)
	}
	if r := e.do("DELETE", "/v1/users/"+userA+"/facts/"+bFact, e.keyA, ""); r.status != http.StatusNotFound {
		t.Errorf("deleting B's fact under A = %d %s, want 404", r.status, r.body)
	}
	var f factbase.Fact
	e.ok("GET", "/v1/users/"+userB+"/facts/"+bFact, e.keyB, "", &f)
	if f.Value != "b@example.com" || !f.Current {
		t.Errorf("B's fact after A's attempts = %+v, want b@example.com, current", f)
	}
	var ask memory.AskResult
	e.ok("POST", "/v1/users/"+userA+"/questions", e.keyA, `{"text": "What is my email?"}`, &ask)
	if len(ask.Items) != 1 || ask.Items[0].Value != "a@example.com" {
		t.Errorf("A's email = %+v, want a@example.com", ask.Items)
	}
}

func TestNoAuth(t *testing.T) {
	e := newTestEnv(t, func(o *Options) { o.NoAuth = true; o.Keys = nil })
	e.ok("POST", "/v1/users/"+userA+"/lists/favorites.crypto", "", `{"value": "BTC"}`, nil)
	if got := e.listValues(userA, "favorites.crypto"); got != "1:BTC" {
		t.Errorf("list = %q, want 1:BTC", got)
	}
}

func TestRevokedKeyWithoutCache(t *testing.T) {
	e := newTestEnv(t, func(o *Options) { o.KeyCacheTTL = -1 })
	path := "/v1/users/" + userA + "/lists/favorites.crypto"
	e.ok("GET", path, e.keyA, "", nil)
	if _, err := e.store.RevokeKey(context.Background(), e.keyAID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if r := e.do("GET", path, e.keyA, ""); r.status != http.StatusUnauthorized {
		t.Errorf("a revoked key = %d, want 401", r.status)
	}
}

func TestStoreUnavailable(t *testing.T) {
	e := newTestEnv(t, func(o *Options) { o.KeyCacheTTL = -1 })
	e.ok("GET", "/readyz", "", "", nil)
	e.store.Close()
	for _, tc := range []struct {
		name, method, path, key, body string
	}{
		{"readyz", "GET", "/readyz", "", ""},
		{"read", "GET", "/v1/users/" + userA + "/lists/favorites.crypto", e.app, ""},
		{"write", "POST", "/v1/users/" + userA + "/facts", e.app, `{"key": "k", "value": "v"}`},
		{"say", "POST", "/v1/users/" + userA + "/messages", e.app, `{"text": "My favorite crypto is BTC."}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(tc.method, tc.path, tc.key, tc.body)
			if r.status != http.StatusServiceUnavailable {
				t.Fatalf("%s %s with the store closed = %d %s, want 503", tc.method, tc.path, r.status, r.body)
			}
			if p := r.problem(t); !strings.Contains(p.Detail, "store") {
				t.Errorf("detail %q does not name the store", p.Detail)
			}
		})
	}
	e.ok("GET", "/healthz", "", "", nil)
}

func TestPanicIsA500WithoutTrace(t *testing.T) {
	e := newTestEnv(t, func(o *Options) { o.Engine = nil; o.NoAuth = true })
	r := e.do("POST", "/v1/users/"+userA+"/messages", "", `{"text": "My favorite crypto is BTC."}`)
	if r.status != http.StatusInternalServerError {
		t.Fatalf("a panicking handler = %d %s, want 500", r.status, r.body)
	}
	if p := r.problem(t); p.Detail != "internal error" {
		t.Errorf("detail = %q, want %q", p.Detail, "internal error")
	}
	if !strings.Contains(e.logs.String(), `"msg":"panic serving request"`) {
		t.Errorf("the panic was not logged: %s", e.logs.String())
	}
}

func TestRequestIDsAndLogs(t *testing.T) {
	e := newTestEnv(t, nil)
	r := e.do("GET", "/v1/users/"+userA+"/lists/favorites.crypto", e.keyA, "", "X-Request-Id", "trace-42")
	if got := r.header.Get("X-Request-Id"); got != "trace-42" {
		t.Errorf("X-Request-Id = %q, want the client's trace-42", got)
	}
	r = e.do("GET", "/v1/users/"+userA+"/lists/favorites.crypto", e.keyA, "", "X-Request-Id", "bad id with spaces")
	generated := r.header.Get("X-Request-Id")
	if generated == "" || strings.Contains(generated, " ") {
		t.Errorf("X-Request-Id = %q, want a generated id instead of the malformed one", generated)
	}
	r = e.do("GET", "/nope", "", "")
	if r.header.Get("X-Request-Id") == "" {
		t.Errorf("a 404 carries no X-Request-Id")
	}
	// Every line logged while serving a request names it; the access line has the
	// route, status and key.
	var sawTrace bool
	for _, line := range strings.Split(strings.TrimSpace(e.logs.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q is not JSON: %v", line, err)
		}
		if rec["msg"] != "request" {
			continue
		}
		if rec["request_id"] == nil || rec["request_id"] == "" {
			t.Errorf("log line without request_id: %s", line)
		}
		if rec["request_id"] == "trace-42" {
			sawTrace = true
			if rec["route"] != "/v1/users/{user}/lists/{key}" || rec["status"] != float64(200) || rec["key"] != e.keyAID || rec["user"] != userA {
				t.Errorf("access line %s lacks route, status, key or user", line)
			}
		}
	}
	if !sawTrace {
		t.Errorf("no access line for request trace-42 in %s", e.logs.String())
	}
}

func TestMetrics(t *testing.T) {
	e := newTestEnv(t, nil)
	base := "/v1/users/" + userA + "/lists/favorites.crypto"
	e.ok("POST", base, e.keyA, `{"values": ["BTC", "ETH", "XMR"]}`, nil)
	e.ok("POST", base, e.keyA, `{"value": "btc"}`, nil)
	e.ok("POST", base+"/rank", e.keyA, `{"value": "XMR", "rank": 1}`, nil)
	e.ok("DELETE", base+"/items/ETH", e.keyA, "", nil)
	e.ok("POST", "/v1/users/"+userA+"/messages", e.keyA, `{"text": "My favorite cryptos are SOL."}`, nil)
	e.do("POST", "/v1/users/alice/messages", e.keyA, `{"text": "x"}`)
	e.srv.metrics.InvariantViolation()

	r := e.do("GET", "/metrics", "", "")
	if r.status != http.StatusOK {
		t.Fatalf("GET /metrics = %d", r.status)
	}
	text := string(r.body)
	for _, want := range []string{
		`factbase_rank_mutations_total{action="APPEND"} 4`,
		`factbase_rank_mutations_total{action="MOVE"} 1`,
		`factbase_rank_mutations_total{action="REMOVE"} 1`,
		`factbase_duplicates_blocked_total 1`,
		`factbase_invariant_violations_total 1`,
		`factbase_write_duration_seconds_count{outcome="ok"} 5`,
		`factbase_facts_written_total{kind="stored"} 4`,
		`factbase_http_request_duration_seconds_count{method="POST",route="/v1/users/{user}/lists/{key}",status="200"} 2`,
		`factbase_http_request_duration_seconds_count{method="POST",route="/v1/users/{user}/messages",status="422"} 1`,
		`factbase_canonicalizations_total{method="alias"} 1`,
		`factbase_canonicalization_confidence_count{method="alias"} 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

func TestOpenAPI(t *testing.T) {
	e := newTestEnv(t, nil)
	var doc struct {
		OpenAPI string `json:"openapi"`
		Paths   map[string]map[string]struct {
			Summary     string                    `json:"summary"`
			Description string                    `json:"description"`
			Security    []map[string][]string     `json:"security"`
			Responses   map[string]map[string]any `json:"responses"`
		} `json:"paths"`
		Components struct {
			SecuritySchemes map[string]struct {
				Type   string `json:"type"`
				Scheme string `json:"scheme"`
			} `json:"securitySchemes"`
		} `json:"components"`
	}
	r := e.do("GET", "/openapi.json", "", "")
	r.json(t, &doc)
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	if s := doc.Components.SecuritySchemes[bearerScheme]; s.Type != "http" || s.Scheme != "bearer" {
		t.Errorf("security scheme = %+v, want http bearer", s)
	}
	want := map[string][]string{
		"/v1/users/{user}/messages":                  {"post"},
		"/v1/users/{user}/questions":                 {"post"},
		"/v1/users/{user}/facts":                     {"get", "post"},
		"/v1/users/{user}/facts/{id}":                {"get", "delete"},
		"/v1/users/{user}/facts/{id}/retract":        {"post"},
		"/v1/users/{user}/history/{key}":             {"get"},
		"/v1/users/{user}/lists/{key}":               {"get", "post"},
		"/v1/users/{user}/lists/{key}/rank":          {"post"},
		"/v1/users/{user}/lists/{key}/items/{value}": {"delete"},
		"/healthz": {"get"},
		"/readyz":  {"get"},
	}
	for path, methods := range want {
		for _, m := range methods {
			op, ok := doc.Paths[path][m]
			if !ok {
				t.Errorf("the document lacks %s %s", m, path)
				continue
			}
			if op.Summary == "" || op.Description == "" {
				t.Errorf("%s %s has no summary or description", m, path)
			}
			if !strings.HasPrefix(path, "/v1/") {
				continue
			}
			if len(op.Security) == 0 {
				t.Errorf("%s %s does not require the bearer key", m, path)
			}
			for _, status := range []string{"401", "403", "422"} {
				if _, ok := op.Responses[status]["content"].(map[string]any)[problemType]; !ok {
					t.Errorf("%s %s does not document %s as %s", m, path, status, problemType)
				}
			}
			if m == "post" && op.Responses["413"] == nil {
				t.Errorf("%s %s does not document 413", m, path)
			}
		}
	}
}

// TestGracefulShutdown cancels Serve while a request is in flight: the request
// finishes, Serve returns, and the listener is closed.
func TestGracefulShutdown(t *testing.T) {
	e := newTestEnv(t, nil)
	l, err := netListen()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- e.srv.Serve(ctx, l) }()

	body := `{"values": ["BTC", "ETH"]}`
	pr, pw := io.Pipe()
	req, _ := http.NewRequest("POST", "http://"+l.Addr().String()+"/v1/users/"+userA+"/lists/favorites.crypto", pr)
	req.ContentLength = int64(len(body))
	req.Header.Set("Authorization", "Bearer "+e.keyA)
	req.Header.Set("Content-Type", "application/json")
	type result struct {
		status int
		err    error
	}
	done := make(chan result, 1)
	go func() {
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- result{err: err}
			return
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		done <- result{status: res.StatusCode}
	}()
	// Half the body: once the server has read the request's headers (its connection
	// is active, not waiting in the accept queue), the request is in flight.
	if _, err := pw.Write([]byte(body[:10])); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return e.srv.active.Load() > 0 })
	cancel()
	waitFor(t, func() bool { return strings.Contains(e.logs.String(), "shutting down") })
	if _, err := pw.Write([]byte(body[10:])); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	res := <-done
	if res.err != nil || res.status != http.StatusOK {
		t.Fatalf("the in-flight request: status %d, error %v; want 200", res.status, res.err)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve returned %v, want nil", err)
	}
	if _, err := http.Get("http://" + l.Addr().String() + "/healthz"); err == nil {
		t.Errorf("the server still accepts connections after shutdown")
	}
	if got := e.listValues(userA, "favorites.crypto"); got != "1:BTC 2:ETH" {
		t.Errorf("the in-flight write stored %q, want 1:BTC 2:ETH", got)
	}
}

// waitFor polls cond until it holds; the test's own deadline bounds it.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for !cond() {
		time.Sleep(5 * time.Millisecond)
	}
}

func netListen() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }
