package server

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

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
			status: 422, detail: "text", locate: "body"},
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
