package transcript_test

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/factbase/factbase/transcript"
)

func Example() {
	log := `{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"2025-06-02T18:46:00Z","message":{"role":"user","content":"List the files on the server"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":"2025-06-02T18:47:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"sshpass -p 'pwd' ssh root@192.168.20.4 'ls -la'"}}]}}
{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ssh: connect to host 192.168.20.4 port 22: Connection refused"}]}}
{"type":"assistant","uuid":"a2","parentUuid":"u2","sessionId":"s1","message":{"role":"assistant","content":"not JSON`

	r := transcript.NewReader(strings.NewReader(log), "session.jsonl", transcript.Options{})
	x := transcript.NewExtractor(nil, transcript.ExtractorOptions{})
	for {
		m, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var bad *transcript.Malformed
		if errors.As(err, &bad) {
			fmt.Println("skipped:", bad)
			continue
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, f := range x.Extract(m) {
			fmt.Printf("%s(%s, %s) %.1f\n", f.Predicate, f.Subject, f.Object, f.Confidence)
		}
	}
	fmt.Println("consumed", r.Offset(), "bytes of", len(log))
	// Output:
	// task_text(task_u1, List the files on the server) 1.0
	// in_session(task_u1, s1) 1.0
	// part_of_task(action_a1, task_u1) 1.0
	// used_tool(action_a1, Bash) 1.0
	// executed_command(action_a1, sshpass -p 'pwd' ssh root@192.168.20.4 'ls -la') 1.0
	// connects_to_host(action_a1, 192.168.20.4) 0.9
	// operation_type(action_a1, verification) 0.8
	// skipped: session.jsonl:4: incomplete last line: no newline after 116 bytes (invalid JSON at column 117: unterminated string); not consumed
	// consumed 624 bytes of 740
}

func ExampleLoadRules() {
	file := `[
  {"name": "wireguard-up", "predicate": "uses_vpn", "confidence": 0.85,
   "applies_to": "command", "pattern": "\\bwg-quick\\s+up\\s+(\\S+)", "object": "group:1"},
  {"name": "discovery-words", "predicate": "discovery", "disabled": true}
]`
	mine, err := transcript.LoadRules(strings.NewReader(file), "rules.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	rules := transcript.DefaultRules().Merge(mine)
	fmt.Println(rules.Predicates())

	_, err = transcript.LoadRules(strings.NewReader(`[{"name": "x", "predicate": "p", "confidence": 0.5, "patern": "y"}]`), "mine.json")
	fmt.Println(err)
	// Output:
	// [connects_to_host identifies_issue mentions_path operation_type provides_solution targets_system uses_vpn]
	// mine.json:1: rule "x": unknown field "patern"
}
