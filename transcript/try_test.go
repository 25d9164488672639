package transcript

import (
	"fmt"
	"strings"
	"testing"
)

func TestTry(t *testing.T) {
	in := `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","timestamp":"2025-06-02T18:46:59.937Z","cwd":"/home/me/proj","message":{"role":"user","content":"Please fix the nginx config at /etc/nginx/nginx.conf on the unraid box"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":"2025-06-02T18:47:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"sshpass -p 'pwd' ssh root@192.168.20.4 'ls -la'","description":"x"}}]}}
{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"total 0\nError: connection refused by remote host 192.168.20.4"}]}}
{"type":"assistant","uuid":"a2","parentUuid":"u2","sessionId":"s1","message":{"role":"assistant","content":[{"type":"text","text":"I found that the nginx config was missing a semicolon. I fixed it by editing /etc/nginx/nginx.conf and reloading."}]}}
`
	r := NewReader(strings.NewReader(in), "x.jsonl", Options{})
	x := NewExtractor(nil, ExtractorOptions{})
	for {
		m, err := r.Next()
		if err != nil {
			fmt.Println(err)
			break
		}
		for _, f := range x.Extract(m) {
			fmt.Printf("%s(%s, %q) %.1f [%s]\n", f.Predicate, f.Subject, f.Object, f.Confidence, f.Rule)
		}
	}
}
