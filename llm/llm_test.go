package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

// pair is a tiny schema used by the client tests.
var pair = &Schema{Type: "object", Properties: []Property{
	{"name", &Schema{Type: "string", MaxLength: 10}},
	{"n", &Schema{Type: "integer", Minimum: ptr(0), Maximum: ptr(9)}},
	{"tags", &Schema{Type: "array", MaxItems: 2, Items: &Schema{Type: "string", Enum: []string{"a", "b"}}}},
}}

type pairOut struct {
	Name string   `json:"name"`
	N    int      `json:"n"`
	Tags []string `json:"tags"`
}

func newClient(t *testing.T, f *fake, o Options) (*Client, *[]time.Duration) {
	t.Helper()
	o.BaseURL = f.srv.URL
	if o.Model == "" {
		o.Model = "test-model"
	}
	c, err := New(o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	var mu sync.Mutex
	waits := &[]time.Duration{}
	c.tr.sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		*waits = append(*waits, d)
		mu.Unlock()
		return ctx.Err()
	}
	return c, waits
}

func call(c *Client) (pairOut, factbase.ModelUsage, error) {
	var out pairOut
	u, err := c.CallJSON(context.Background(), JSONRequest{Name: "pair", Schema: pair,
		Messages: []Message{{Role: "system", Content: "sys"}, {Role: "user", Content: "hi"}}}, &out)
	return out, u, err
}

func TestCallJSONValid(t *testing.T) {
	f := newFake(t, "sk-secret", content(`{"name":"ann","n":3,"tags":["a","b"]}`))
	c, _ := newClient(t, f, Options{APIKey: "sk-secret", PromptPrice: 1, CompletionPrice: 2})
	out, u, err := call(c)
	if err != nil {
		t.Fatalf("CallJSON: %v", err)
	}
	if out.Name != "ann" || out.N != 3 || strings.Join(out.Tags, ",") != "a,b" {
		t.Errorf("CallJSON decoded %+v, want ann 3 [a b]", out)
	}
	if u.PromptTokens != 10 || u.CompletionTokens != 5 || u.Cost != (10*1+5*2)/1e6 {
		t.Errorf("usage = %+v, want 10 prompt, 5 completion, cost 2e-5", u)
	}
	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Model != "test-model" || r.ResponseFormat.Type != "json_schema" || r.ResponseFormat.JSONSchema.Name != "pair" {
		t.Errorf("request model %q, format %q, want test-model with a json_schema named pair", r.Model, r.ResponseFormat.Type)
	}
	var sch map[string]any
	if err := json.Unmarshal(r.ResponseFormat.JSONSchema.Schema, &sch); err != nil {
		t.Fatal(err)
	}
	if sch["additionalProperties"] != false || len(sch["required"].([]any)) != 3 {
		t.Errorf("schema sent = %s, want closed with 3 required properties", r.ResponseFormat.JSONSchema.Schema)
	}
	s := c.Stats()
	if s.Calls != 1 || s.OK != 1 || s.Requests != 1 || s.Usage.PromptTokens != 10 || s.Usage.CompletionTokens != 5 {
		t.Errorf("stats = %+v, want 1 call, 1 ok, 1 request, 10+5 tokens", s)
	}
}

func TestBaseURLForms(t *testing.T) {
	cases := []struct {
		name, base, want string
	}{
		{name: "root", base: "http://h:11434", want: "http://h:11434/v1/chat/completions"},
		{name: "root slash", base: "http://h:11434/", want: "http://h:11434/v1/chat/completions"},
		{name: "v1", base: "https://api.openai.com/v1", want: "https://api.openai.com/v1/chat/completions"},
		{name: "v1 slash", base: "http://vllm:8000/v1/", want: "http://vllm:8000/v1/chat/completions"},
		{name: "query kept", base: "https://h/openai?api-version=2024-02-01", want: "https://h/openai/v1/chat/completions?api-version=2024-02-01"},
		{name: "credentials masked", base: "http://ann:pw@h/v1/?api_key=sk-1&x=2", want: "http://ann:xxxxx@h/v1/chat/completions?api_key=xxxxx&x=2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(Options{BaseURL: tc.base, Model: "m"})
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Endpoint(); got != tc.want {
				t.Errorf("Endpoint() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNewRefuses(t *testing.T) {
	cases := []struct {
		name string
		o    Options
	}{
		{name: "no url", o: Options{Model: "m"}},
		{name: "ftp url", o: Options{BaseURL: "ftp://h", Model: "m"}},
		{name: "no model", o: Options{BaseURL: "http://h"}},
		{name: "bad format", o: Options{BaseURL: "http://h", Model: "m", Format: "xml"}},
		{name: "negative timeout", o: Options{BaseURL: "http://h", Model: "m", Timeout: -1}},
		{name: "negative rate", o: Options{BaseURL: "http://h", Model: "m", Rate: -1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := New(tc.o); factbase.ErrorCode(err) != factbase.EINVALID {
				t.Errorf("New(%+v) error %v, want EINVALID", tc.o, err)
			}
		})
	}
}

// TestInvalidOutput drives every malformed-output class through the client.
func TestInvalidOutput(t *testing.T) {
	type answer struct {
		content *string // nil: JSON null
		finish  string
		refusal string
		raw     string // a whole body instead of a completion
	}
	s := func(v string) *string { return &v }
	cases := []struct {
		name       string
		a          answer
		allowThink bool
		want       factbase.ModelErrorKind // "" means the answer is valid
	}{
		{name: "valid", a: answer{content: s(`{"name":"a","n":1,"tags":[]}`), finish: "stop"}},
		{name: "prose", a: answer{content: s(`Sure! Here is the JSON you asked for.`), finish: "stop"}, want: factbase.ModelNotJSON},
		{name: "code fence", a: answer{content: s("```json\n{\"name\":\"a\",\"n\":1,\"tags\":[]}\n```"), finish: "stop"}, want: factbase.ModelNotJSON},
		{name: "trailing data", a: answer{content: s(`{"name":"a","n":1,"tags":[]} {"name":"b"}`), finish: "stop"}, want: factbase.ModelNotJSON},
		{name: "empty", a: answer{content: s(``), finish: "stop"}, want: factbase.ModelTruncated},
		{name: "duplicate key", a: answer{content: s(`{"name":"a","name":"b","n":1,"tags":[]}`), finish: "stop"}, want: factbase.ModelNotJSON},
		{name: "array at top", a: answer{content: s(`[1,2]`), finish: "stop"}, want: factbase.ModelSchema},
		{name: "missing property", a: answer{content: s(`{"name":"a","n":1}`), finish: "stop"}, want: factbase.ModelSchema},
		{name: "extra property", a: answer{content: s(`{"name":"a","n":1,"tags":[],"admin":true}`), finish: "stop"}, want: factbase.ModelSchema},
		{name: "wrong type", a: answer{content: s(`{"name":"a","n":"1","tags":[]}`), finish: "stop"}, want: factbase.ModelSchema},
		{name: "not an integer", a: answer{content: s(`{"name":"a","n":1.5,"tags":[]}`), finish: "stop"}, want: factbase.ModelSchema},
		{name: "above maximum", a: answer{content: s(`{"name":"a","n":10,"tags":[]}`), finish: "stop"}, want: factbase.ModelSchema},
		{name: "null", a: answer{content: s(`{"name":null,"n":1,"tags":[]}`), finish: "stop"}, want: factbase.ModelSchema},
		{name: "enum", a: answer{content: s(`{"name":"a","n":1,"tags":["c"]}`), finish: "stop"}, want: factbase.ModelSchema},
		{name: "too many items", a: answer{content: s(`{"name":"a","n":1,"tags":["a","b","a"]}`), finish: "stop"}, want: factbase.ModelSchema},
		{name: "too long", a: answer{content: s(`{"name":"abcdefghijk","n":1,"tags":[]}`), finish: "stop"}, want: factbase.ModelSchema},
		{name: "think refused by default", a: answer{content: s("<think>the user wants...</think>{\"name\":\"a\",\"n\":1,\"tags\":[]}"), finish: "stop"}, want: factbase.ModelThink},
		{name: "think stripped when allowed", a: answer{content: s("<think>\nthe user wants...\n</think>\n\n{\"name\":\"a\",\"n\":1,\"tags\":[]}"), finish: "stop"}, allowThink: true},
		{name: "think unclosed", a: answer{content: s("<think>the user wants {\"name\":\"a\",\"n\":1,\"tags\":[]}"), finish: "stop"}, allowThink: true, want: factbase.ModelThink},
		{name: "two thinks", a: answer{content: s("<think>a</think><THINK>b</think>{\"name\":\"a\",\"n\":1,\"tags\":[]}"), finish: "stop"}, allowThink: true, want: factbase.ModelThink},
		{name: "think after json", a: answer{content: s("{\"name\":\"a\",\"n\":1,\"tags\":[]}<think>x</think>"), finish: "stop"}, allowThink: true, want: factbase.ModelNotJSON},
		{name: "think inside a string is data", a: answer{content: s(`{"name":"<think>","n":1,"tags":[]}`), finish: "stop"}},
		{name: "finish length", a: answer{content: s(`{"name":"a","n":1,"tags":[]}`), finish: "length"}, want: factbase.ModelTruncated},
		{name: "cut json", a: answer{content: s(`{"name":"a","n":1,"ta`), finish: "stop"}, want: factbase.ModelTruncated},
		{name: "null content cut", a: answer{finish: "length"}, want: factbase.ModelTruncated},
		{name: "null content", a: answer{finish: "stop"}, want: factbase.ModelBadResponse},
		{name: "refusal", a: answer{content: s(""), finish: "stop", refusal: "I can't help with that"}, want: factbase.ModelRefusal},
		{name: "content filter", a: answer{content: s(`{}`), finish: "content_filter"}, want: factbase.ModelRefusal},
		{name: "no choices", a: answer{raw: `{"id":"x","choices":[]}`}, want: factbase.ModelBadResponse},
		{name: "html body", a: answer{raw: `<html>gateway</html>`}, want: factbase.ModelBadResponse},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, "", func(w http.ResponseWriter, req chatRequest, n int) {
				if tc.a.raw != "" {
					w.Write([]byte(tc.a.raw))
					return
				}
				msg := map[string]any{"role": "assistant", "content": tc.a.content}
				if tc.a.refusal != "" {
					msg["refusal"] = tc.a.refusal
				}
				json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": msg, "finish_reason": tc.a.finish}},
					"usage": map[string]any{"prompt_tokens": 7, "completion_tokens": 3}})
			})
			c, _ := newClient(t, f, Options{AllowThink: tc.allowThink})
			out, u, err := call(c)
			if got := factbase.ModelErrorKindOf(err); got != tc.want {
				t.Fatalf("CallJSON error %v (kind %q), want kind %q", err, got, tc.want)
			}
			if len(f.requests()) != 1 {
				t.Errorf("%d requests, want 1 (invalid output is never retried by the client)", len(f.requests()))
			}
			st := c.Stats()
			if tc.want == "" {
				if out.Name == "" || st.OK != 1 {
					t.Errorf("valid answer decoded to %+v, stats ok %d", out, st.OK)
				}
				if tc.allowThink && st.Think != 1 {
					t.Errorf("stats think = %d, want 1", st.Think)
				}
				return
			}
			if code := factbase.ErrorCode(err); code != factbase.EINVALID || !tc.want.InvalidOutput() {
				t.Errorf("code %q, want %q (an invalid-output kind)", code, factbase.EINVALID)
			}
			if out.Name != "" || out.Tags != nil {
				t.Errorf("an invalid answer reached out: %+v", out)
			}
			if st.Errors[tc.want] != 1 || st.OK != 0 {
				t.Errorf("stats errors[%s] = %d, ok %d; want 1 and 0", tc.want, st.Errors[tc.want], st.OK)
			}
			var le *factbase.ModelError
			if tc.a.raw == "" && errors.As(err, &le) && le.Usage.PromptTokens != 7 {
				t.Errorf("error usage = %+v, want the 7 prompt tokens the refused answer cost", le.Usage)
			}
			if tc.a.raw == "" && u.PromptTokens != 7 {
				t.Errorf("usage = %+v, want 7 prompt tokens counted for a refused answer", u)
			}
		})
	}
}

func TestRetries(t *testing.T) {
	status := func(codes ...int) func(w http.ResponseWriter, req chatRequest, n int) {
		return func(w http.ResponseWriter, req chatRequest, n int) {
			if n <= len(codes) && codes[n-1] != 200 {
				if codes[n-1] == 429 {
					w.Header().Set("Retry-After", "2")
				}
				w.WriteHeader(codes[n-1])
				w.Write([]byte(`{"error":{"message":"busy"}}`))
				return
			}
			completion(w, `{"name":"a","n":1,"tags":[]}`, "stop", 1, 1)
		}
	}
	cases := []struct {
		name     string
		codes    []int
		retries  int
		want     factbase.ModelErrorKind
		requests int
		waits    []time.Duration // exact waits, when a Retry-After decides them
	}{
		{name: "429 then ok", codes: []int{429, 429}, retries: 3, requests: 3, waits: []time.Duration{2 * time.Second, 2 * time.Second}},
		{name: "503 then ok", codes: []int{503}, retries: 3, requests: 2},
		{name: "429 every time", codes: []int{429, 429, 429, 429}, retries: 3, want: factbase.ModelRateLimited, requests: 4,
			waits: []time.Duration{2 * time.Second, 2 * time.Second, 2 * time.Second}},
		{name: "500 every time", codes: []int{500, 502, 503}, retries: 2, want: factbase.ModelServerError, requests: 3},
		{name: "no retries", codes: []int{500}, retries: -1, want: factbase.ModelServerError, requests: 1},
		{name: "401 not retried", codes: []int{401}, retries: 3, want: factbase.ModelAuth, requests: 1},
		{name: "400 not retried", codes: []int{400}, retries: 3, want: factbase.ModelRejected, requests: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, "", status(tc.codes...))
			c, waits := newClient(t, f, Options{Retries: tc.retries, Backoff: 100 * time.Millisecond})
			_, _, err := call(c)
			if got := factbase.ModelErrorKindOf(err); got != tc.want {
				t.Fatalf("error %v (kind %q), want kind %q", err, got, tc.want)
			}
			if got := len(f.requests()); got != tc.requests {
				t.Errorf("%d requests, want %d", got, tc.requests)
			}
			if tc.want != "" {
				var le *factbase.ModelError
				if !errors.As(err, &le) || le.Attempts != tc.requests {
					t.Errorf("error attempts = %v, want %d", le, tc.requests)
				}
				if want := tc.want.Code(); factbase.ErrorCode(err) != want {
					t.Errorf("code %q, want %q", factbase.ErrorCode(err), want)
				}
			}
			if got := len(*waits); got != tc.requests-1 && tc.want == "" || tc.want != "" && got != tc.requests-1 {
				t.Errorf("%d waits, want %d", got, tc.requests-1)
			}
			for i, w := range *waits {
				if tc.waits != nil {
					if w != tc.waits[i] {
						t.Errorf("wait %d = %v, want the server's Retry-After %v", i, w, tc.waits[i])
					}
					continue
				}
				base := 100 * time.Millisecond << i
				if w < base/2 || w > base {
					t.Errorf("wait %d = %v, want within [%v, %v] (exponential backoff with jitter)", i, w, base/2, base)
				}
			}
			if st := c.Stats(); st.Retries != int64(len(*waits)) {
				t.Errorf("stats retries = %d, want %d", st.Retries, len(*waits))
			}
		})
	}
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	f := newFake(t, "", func(w http.ResponseWriter, req chatRequest, n int) { <-release })
	defer close(release)
	c, _ := newClient(t, f, Options{Timeout: 20 * time.Millisecond})
	_, _, err := call(c)
	if factbase.ModelErrorKindOf(err) != factbase.ModelTimeout || factbase.ErrorCode(err) != factbase.ETIMEOUT {
		t.Fatalf("error %v, want a timeout (ETIMEOUT)", err)
	}
	if n := len(f.requests()); n != 1 {
		t.Errorf("%d requests, want 1: a timeout is not retried", n)
	}
	if st := c.Stats(); st.Errors[factbase.ModelTimeout] != 1 {
		t.Errorf("stats errors[timeout] = %d, want 1", st.Errors[factbase.ModelTimeout])
	}
}

func TestConnectionRefused(t *testing.T) {
	f := newFake(t, "", content(`{}`))
	c, waits := newClient(t, f, Options{Retries: 2})
	f.srv.Close()
	_, _, err := call(c)
	if factbase.ModelErrorKindOf(err) != factbase.ModelConnection || factbase.ErrorCode(err) != factbase.EUNAVAILABLE {
		t.Fatalf("error %v, want a connection error (EUNAVAILABLE)", err)
	}
	if len(*waits) != 2 {
		t.Errorf("%d retries, want 2", len(*waits))
	}
}

func TestCanceled(t *testing.T) {
	f := newFake(t, "", content(`{}`))
	c, _ := newClient(t, f, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.CallJSON(ctx, JSONRequest{Schema: pair, Messages: []Message{{Role: "user", Content: "x"}}}, nil)
	if factbase.ModelErrorKindOf(err) != factbase.ModelCanceled || !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want canceled", err)
	}
}

func TestKeyRedacted(t *testing.T) {
	f := newFake(t, "sk-abc123", func(w http.ResponseWriter, req chatRequest, n int) {
		w.WriteHeader(401)
		w.Write([]byte(`{"error":{"message":"Incorrect API key provided: sk-abc123"}}`))
	})
	c, _ := newClient(t, f, Options{APIKey: "sk-abc123"})
	_, _, err := call(c)
	if err == nil || strings.Contains(err.Error(), "sk-abc123") || !strings.Contains(err.Error(), "[redacted]") {
		t.Errorf("error %q, want the key redacted", err)
	}
}

func TestSchemaFallback(t *testing.T) {
	f := newFake(t, "", func(w http.ResponseWriter, req chatRequest, n int) {
		if req.ResponseFormat.Type == "json_schema" {
			w.WriteHeader(400)
			w.Write([]byte(`{"error":{"message":"response_format type json_schema is not supported"}}`))
			return
		}
		completion(w, `{"name":"a","n":1,"tags":[]}`, "stop", 1, 1)
	})
	c, _ := newClient(t, f, Options{})
	for i := 0; i < 2; i++ {
		if _, _, err := call(c); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	var formats []string
	for _, r := range f.requests() {
		formats = append(formats, r.ResponseFormat.Type)
	}
	if got, want := strings.Join(formats, " "), "json_schema json_object json_object"; got != want {
		t.Errorf("formats sent = %s, want %s", got, want)
	}
	if st := c.Stats(); st.Fallbacks != 1 {
		t.Errorf("stats fallbacks = %d, want 1", st.Fallbacks)
	}

	// A client pinned to json_schema does not fall back.
	f2 := newFake(t, "", f.reply)
	c2, _ := newClient(t, f2, Options{Format: FormatSchema})
	if _, _, err := call(c2); factbase.ModelErrorKindOf(err) != factbase.ModelRejected {
		t.Errorf("pinned json_schema: error %v, want rejected", err)
	}
	f3 := newFake(t, "", f.reply)
	c3, _ := newClient(t, f3, Options{Format: FormatJSON})
	if _, _, err := call(c3); err != nil || f3.requests()[0].ResponseFormat.Type != "json_object" {
		t.Errorf("pinned JSON mode: error %v", err)
	}
}

func TestConcurrencyLimit(t *testing.T) {
	var cur, peak atomic.Int64
	f := newFake(t, "", func(w http.ResponseWriter, req chatRequest, n int) {
		v := cur.Add(1)
		for {
			p := peak.Load()
			if v <= p || peak.CompareAndSwap(p, v) {
				break
			}
		}
		time.Sleep(2 * time.Millisecond)
		cur.Add(-1)
		completion(w, `{"name":"a","n":1,"tags":[]}`, "stop", 1, 1)
	})
	c, _ := newClient(t, f, Options{MaxConcurrent: 3})
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := call(c); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > 3 || p < 1 {
		t.Errorf("server saw %d requests at once, want 1..3", p)
	}
	if st := c.Stats(); st.MaxInFlight > 3 || st.OK != 40 || st.InFlight != 0 {
		t.Errorf("stats max in flight %d, ok %d, in flight %d; want <= 3, 40, 0", st.MaxInFlight, st.OK, st.InFlight)
	}
}

func TestBucket(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := newBucket(2, 1) // 2 per second, burst 1
	steps := []struct {
		at   time.Duration
		want time.Duration
	}{
		{0, 0},
		{0, 500 * time.Millisecond},
		{0, time.Second},
		{2 * time.Second, 0}, // refilled to the burst of 1, taken
		{2 * time.Second, 500 * time.Millisecond},         // empty again
		{2250 * time.Millisecond, 750 * time.Millisecond}, // half a token back, behind the waiter of the step before
	}
	for i, s := range steps {
		if got := b.reserve(t0.Add(s.at)); got != s.want {
			t.Errorf("step %d: reserve at +%v = %v, want %v", i, s.at, got, s.want)
		}
	}
	b2 := newBucket(10, 0)
	if b2.burst != 10 {
		t.Errorf("default burst of rate 10 = %v, want 10", b2.burst)
	}
	for i := 0; i < 10; i++ {
		if d := b2.reserve(t0); d != 0 {
			t.Fatalf("reserve %d within the burst waited %v", i, d)
		}
	}
	if d := b2.reserve(t0); d != 100*time.Millisecond {
		t.Errorf("reserve past the burst = %v, want 100ms", d)
	}
	b2.cancel()
	if d := b2.reserve(t0); d != 100*time.Millisecond {
		t.Errorf("reserve after a cancel = %v, want 100ms again", d)
	}
}

func TestRateLimitedClient(t *testing.T) {
	f := newFake(t, "", content(`{"name":"a","n":1,"tags":[]}`))
	c, _ := newClient(t, f, Options{Rate: 1000, Burst: 2})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// With the bucket holding tokens, calls pass; a canceled context waiting for a
	// token fails as canceled without a request.
	for i := 0; i < 2; i++ {
		if _, _, err := call(c); err != nil {
			t.Fatal(err)
		}
	}
	c.bucket.reserve(time.Now()) // empty it
	c.bucket.reserve(time.Now())
	if _, err := c.CallJSON(ctx, JSONRequest{Schema: pair, Messages: []Message{{Role: "user", Content: "x"}}}, nil); factbase.ModelErrorKindOf(err) != factbase.ModelCanceled {
		t.Errorf("waiting for a token with a canceled context: %v", err)
	}
	if n := len(f.requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}
