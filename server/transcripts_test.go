package server

import (
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
)

// uploadTranscript posts body as a transcript named file, as a stream of unknown
// length when chunked is set.
func (e *testEnv) uploadTranscript(user, key, file, body string, chunked bool) response {
	e.t.Helper()
	var rd io.Reader = strings.NewReader(body)
	if chunked {
		rd = io.MultiReader(rd) // hides the length: sent chunked
	}
	req, err := http.NewRequest("POST", e.url+"/v1/users/"+user+"/transcripts?file="+file, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-ndjson")
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{status: res.StatusCode, header: res.Header, body: b}
}

func TestTranscripts(t *testing.T) {
	e := newTestEnv(t, nil)
	body, err := os.ReadFile("../memory/testdata/transcripts/reference.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Lines     int  `json:"lines"`
		Stored    int  `json:"stored"`
		Resumed   bool `json:"resumed"`
		Malformed int  `json:"malformed"`
	}
	r := e.uploadTranscript(userA, e.keyA, "ref.jsonl", string(body), true)
	if r.status != http.StatusOK {
		t.Fatalf("upload = %d %s", r.status, r.body)
	}
	r.json(t, &sum)
	if sum.Lines != 2 || sum.Stored != 8 {
		t.Errorf("first upload = %+v, want 2 lines and 8 facts stored", sum)
	}
	// The same file again, grown by a malformed line: only that line is read.
	r = e.uploadTranscript(userA, e.keyA, "ref.jsonl", string(body)+"{oops\n", false)
	r.json(t, &sum)
	if r.status != http.StatusOK || sum.Lines != 1 || sum.Stored != 0 || !sum.Resumed || sum.Malformed != 1 {
		t.Errorf("second upload = %d %+v, want 1 malformed line read, nothing stored, resumed", r.status, sum)
	}

	var facts struct {
		Facts []struct {
			Subject    string  `json:"subject"`
			Predicate  string  `json:"predicate"`
			Object     string  `json:"object"`
			Confidence float64 `json:"confidence"`
			Source     struct {
				Kind string `json:"kind"`
				ID   string `json:"id"`
			} `json:"source"`
		} `json:"facts"`
	}
	e.ok("GET", "/v1/users/"+userA+"/transcripts/facts?predicate=connects_to_host&min_confidence=0.9", e.keyA, "", &facts)
	if len(facts.Facts) != 1 || facts.Facts[0].Object != "192.168.20.4" || facts.Facts[0].Confidence != 0.9 ||
		facts.Facts[0].Source.ID != "ref.jsonl:2:a1000000-0000-4000-8000-000000000002" {
		t.Errorf("hosts = %+v, want 192.168.20.4 at 0.9 from ref.jsonl line 2", facts.Facts)
	}
	var objs struct {
		Objects []struct {
			Object   string   `json:"object"`
			Facts    int      `json:"facts"`
			Sessions []string `json:"sessions"`
		} `json:"objects"`
	}
	e.ok("GET", "/v1/users/"+userA+"/transcripts/objects?predicate=operation_type", e.keyA, "", &objs)
	if len(objs.Objects) != 1 || objs.Objects[0].Object != "verification" || len(objs.Objects[0].Sessions) != 1 {
		t.Errorf("operation types = %+v, want verification in one session", objs.Objects)
	}
	var sessions struct {
		Sessions []struct {
			ID    string `json:"id"`
			File  string `json:"file"`
			CWD   string `json:"cwd"`
			Users int    `json:"users"`
		} `json:"sessions"`
	}
	e.ok("GET", "/v1/users/"+userA+"/transcripts/sessions", e.keyA, "", &sessions)
	if len(sessions.Sessions) != 1 || sessions.Sessions[0].File != "ref.jsonl" || sessions.Sessions[0].CWD != "/home/anna/homelab" {
		t.Errorf("sessions = %+v, want the one of ref.jsonl in /home/anna/homelab", sessions.Sessions)
	}
	// The upload is documented with its streamed body.
	var doc struct {
		Paths map[string]map[string]struct {
			RequestBody struct {
				Content map[string]any `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
	}
	e.do("GET", "/openapi.json", "", "").json(t, &doc)
	if _, ok := doc.Paths["/v1/users/{user}/transcripts"]["post"].RequestBody.Content["application/x-ndjson"]; !ok {
		t.Errorf("the OpenAPI document does not describe the upload's application/x-ndjson body")
	}
	for _, p := range []string{"facts", "objects", "sessions"} {
		if _, ok := doc.Paths["/v1/users/{user}/transcripts/"+p]["get"]; !ok {
			t.Errorf("the OpenAPI document lacks GET /v1/users/{user}/transcripts/%s", p)
		}
	}
	// User B sees none of it.
	e.ok("GET", "/v1/users/"+userB+"/transcripts/facts", e.keyB, "", &facts)
	if len(facts.Facts) != 0 {
		t.Errorf("user B sees %d of A's transcript facts", len(facts.Facts))
	}
}

func TestTranscriptErrors(t *testing.T) {
	e := newTestEnv(t, func(o *Options) { o.MaxBodyBytes = 100 })
	cases := []struct {
		name   string
		do     func() response
		status int
		detail string
	}{
		{"no file name", func() response { return e.uploadTranscript(userA, e.keyA, "", "{}\n", false) }, 422, "file"},
		{"another user's key", func() response { return e.uploadTranscript(userA, e.keyB, "x.jsonl", "{}\n", false) }, 403, ""},
		{"too large", func() response {
			return e.uploadTranscript(userA, e.keyA, "x.jsonl", strings.Repeat("x", 200), false)
		}, 413, "larger than the limit of 100 bytes"},
		{"too large, chunked", func() response {
			return e.uploadTranscript(userA, e.keyA, "x.jsonl", strings.Repeat("x", 200), true)
		}, 413, "larger than the limit of 100 bytes"},
		{"confidence out of range", func() response {
			return e.do("GET", "/v1/users/"+userA+"/transcripts/facts?min_confidence=2", e.keyA, "")
		}, 422, "min_confidence"},
		{"bad user", func() response { return e.do("GET", "/v1/users/alice/transcripts/facts", e.app, "") }, 422, "not a UUID"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.do()
			if r.status != tc.status {
				t.Fatalf("status %d %s, want %d", r.status, r.body, tc.status)
			}
			p := r.problem(t)
			text := p.Detail
			for _, d := range p.Errors {
				text += " " + d.Location + ": " + d.Message
			}
			if !strings.Contains(text, tc.detail) {
				t.Errorf("problem %q does not mention %q", text, tc.detail)
			}
		})
	}
}
