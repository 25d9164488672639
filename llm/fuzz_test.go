package llm

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

// FuzzDecode feeds arbitrary model output through the <think> policy and the strict
// decoder: it must never panic, and whatever it accepts must satisfy the schema's
// limits once decoded.
func FuzzDecode(f *testing.F) {
	f.Add(validExtraction, false)
	f.Add("<think>x</think>"+validExtraction, true)
	f.Add(`{"facts":[],"entities":[],"topics":[]}`, false)
	f.Add(`{"facts":[],"facts":[],"entities":[],"topics":[]}`, false)
	f.Add(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`, false)
	f.Fuzz(func(t *testing.T, content string, allow bool) {
		c := &Client{o: Options{AllowThink: allow, MaxTokens: 10}}
		var x factbase.Extraction
		err := c.decode(content, "stop", ExtractSchema, &x)
		if err != nil {
			if !err.Kind.InvalidOutput() {
				t.Fatalf("decode error of kind %q, want an invalid-output kind", err.Kind)
			}
			return
		}
		if len(x.Facts) > MaxProposedFacts || len(x.Entities) > MaxProposedEntity || len(x.Topics) > MaxTopics {
			t.Fatalf("accepted %d facts, %d entities, %d topics", len(x.Facts), len(x.Entities), len(x.Topics))
		}
		for _, p := range x.Facts {
			if p.Confidence < 0 || p.Confidence > 1 || utf8.RuneCountInString(p.Text) > 200 || !utf8.ValidString(p.Value) {
				t.Fatalf("accepted fact %+v", p)
			}
		}
		if !allow && strings.HasPrefix(strings.TrimSpace(strings.ToLower(content)), "<think>") {
			t.Fatalf("accepted a <think> block with AllowThink off")
		}
	})
}
