package redact

import (
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{name: "plain", in: "http://localhost:11434", want: "http://localhost:11434"},
		{name: "path kept", in: "https://api.openai.com/v1/chat/completions", want: "https://api.openai.com/v1/chat/completions"},
		{name: "user and password", in: "https://ann:hunter2@llm.example.com/v1", want: "https://ann:xxxxx@llm.example.com/v1"},
		{name: "token as user", in: "https://sk-abc123@llm.example.com/v1", want: "https://xxxxx@llm.example.com/v1"},
		{name: "api_key", in: "http://h/v1?api_key=sk-abc123", want: "http://h/v1?api_key=xxxxx"},
		{name: "key", in: "https://h/v1/models?key=AIza123&alt=json", want: "https://h/v1/models?key=xxxxx&alt=json"},
		{name: "token", in: "http://h/?access_token=t0k&x=1&token=t1", want: "http://h/?access_token=xxxxx&x=1&token=xxxxx"},
		{name: "kept parameter", in: "https://h/openai?api-version=2024-02-01", want: "https://h/openai?api-version=2024-02-01"},
		{name: "mixed case", in: "https://h/?X-Amz-Signature=abc&X-Amz-Credential=AKIA&X-Amz-Date=1",
			want: "https://h/?X-Amz-Signature=xxxxx&X-Amz-Credential=xxxxx&X-Amz-Date=1"},
		{name: "escaped name", in: "http://h/?api%5Fkey=sk-1", want: "http://h/?api%5Fkey=xxxxx"},
		{name: "flag without value", in: "http://h/?key&debug", want: "http://h/?key&debug"},
		{name: "fragment dropped", in: "http://h/v1#token=abc", want: "http://h/v1"},
		{name: "postgres", in: "postgres://factbase:s3cret@db:5432/factbase?sslmode=require&password=p2",
			want: "postgres://factbase:xxxxx@db:5432/factbase?sslmode=require&password=xxxxx"},
		{name: "file path", in: "/var/lib/factbase/factbase.db", want: "/var/lib/factbase/factbase.db"},
		{name: "sqlite URL", in: "sqlite:///var/lib/f.db", want: "sqlite:///var/lib/f.db"},
		{name: "unparsable", in: "http://ann:pa ss@h:port/", want: "(unparsable URL)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := URL(tc.in); got != tc.want {
				t.Errorf("URL(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestURLNeverLeaks: whatever else changes, no secret of a URL survives.
func TestURLNeverLeaks(t *testing.T) {
	for _, in := range []string{
		"https://user:SECRET@h/", "https://SECRET@h/", "https://h/?api_key=SECRET", "https://h/?apikey=SECRET",
		"https://h/?Key=SECRET", "https://h/?client_secret=SECRET", "https://h/?sig=SECRET", "https://h/?auth=SECRET",
		"https://h/?a=1&token=SECRET&b=2", "https://h/#SECRET", "postgres://u:SECRET@h/db?sslpassword=SECRET",
	} {
		if got := URL(in); strings.Contains(got, "SECRET") {
			t.Errorf("URL(%q) = %q, which still holds the secret", in, got)
		}
	}
}
